"""The UCC 2012 programming competition's Stratego protocol, both ways.

Source: the manual page of the competition's manager program (`stratego`, UCC Programming
Competition 2012, git.ucc.asn.au progcomp2012, "manager_manual.txt") and its sample Python agent
("basic_python.py") and game logs. In short:

- setup: the manager sends `COLOUR OPPONENT WIDTH HEIGHT` (COLOUR is RED or BLUE); the bot answers
  4 lines of WIDTH characters. Red sits at the top: its lines are board rows y = 0..3 (its back row
  first); Blue's are rows y = HEIGHT-4 .. HEIGHT-1 (its back row last).
- a turn: the mover gets `START` (Red's first turn) or the result line of the opponent's move,
  then HEIGHT board lines: its own pieces by token, `#` an enemy piece, `+` water, `.` empty; it
  answers `X Y DIRECTION [MULTIPLIER]`, DIRECTION one of UP (y - 1), DOWN (y + 1), LEFT (x - 1),
  RIGHT (x + 1). Both programs get every result line: `X Y DIRECTION [MULTIPLIER] OUTCOME`, OUTCOME
  `OK`, `KILLS A D`, `DIES A D`, `BOTHDIE A D` (the attacker's and defender's tokens) or
  `VICTORY_FLAG`; `QUIT [RESULT]` ends the game.
- tokens: `1` Marshal ... `9` Scout (the old numbering), `s` Spy, `B` Bomb, `F` Flag.

Coordinates: x is our file, y our rank counted from Red's back row at 0 (so Square(x, y)).

`UccPlayer` runs an external program as a player in `arbiter match`; `main` (`arbiter bot --ucc`)
makes our computer player speak the protocol on stdin/stdout, rebuilding its seat's view and
redacted events from the lines it reads (`UccSeat`).
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from typing import Any

from engine.stratego.pieces import Color
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant, get_variant

DIRECTIONS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}
SETUP_ROWS = 4
ANSWER_TIMEOUT = 60.0  # seconds an external program may think before it forfeits (a safety net)


def tokens(variant: Variant) -> dict[str, str]:
    """Kind name -> UCC token (old rank numbers, s, B, F)."""
    result = {}
    for name, kind in variant.kinds.items():
        if name in variant.combat.objectives:
            result[name] = "F"
        elif name in variant.combat.traps:
            result[name] = "B"
        elif kind.old_rank is not None and kind.old_rank <= 9:
            result[name] = str(kind.old_rank)
        else:
            result[name] = "s"
    return result


def check_variant(variant: Variant) -> None:
    """The protocol knows 4 setup rows and one token per kind: refuse other variants clearly."""
    names = tokens(variant)
    if variant.setup_rows != SETUP_ROWS or len(set(names.values())) != len(names):
        raise ValueError(f"the UCC protocol cannot carry {variant.name} (4 setup rows, classic tokens)")


def setup_lines(variant: Variant, color: Color, setup: dict[str, str]) -> list[str]:
    """A setup (square name -> kind) as the protocol's 4 lines."""
    names = tokens(variant)
    first = 0 if color is Color.RED else variant.height - SETUP_ROWS
    rows = [["."] * variant.width for _ in range(SETUP_ROWS)]
    for square_name, kind in setup.items():
        square = Square.parse(square_name)
        rows[square.rank - first][square.file] = names[kind]
    return ["".join(row) for row in rows]


def read_setup(variant: Variant, color: Color, lines: list[str]) -> dict[str, str]:
    """The protocol's 4 setup lines as square name -> kind; ValueError for a bad line."""
    by_token = {token: name for name, token in tokens(variant).items()}
    first = 0 if color is Color.RED else variant.height - SETUP_ROWS
    setup = {}
    for row, line in enumerate(lines):
        if len(line) != variant.width:
            raise ValueError(f"setup line {row + 1} is not {variant.width} characters: {line!r}")
        for file, token in enumerate(line):
            if token == ".":
                continue
            if token not in by_token:
                raise ValueError(f"unknown token {token!r} in setup line {row + 1}")
            setup[Square(file, first + row).name] = by_token[token]
    return setup


def board_lines(view: dict[str, Any], variant: Variant) -> list[str]:
    """The seat's view as the protocol's board lines (row y = 0 first)."""
    names = tokens(variant)
    rows = [["."] * variant.width for _ in range(variant.height)]
    for name in view.get("blocked", []):
        square = Square.parse(name)
        rows[square.rank][square.file] = "+"
    for piece in view["pieces"]:
        square = Square.parse(piece["square"])
        mine = piece["color"] == view["viewer"]
        rows[square.rank][square.file] = names[piece["kind"]] if mine else "#"
    return ["".join(row) for row in rows]


def move_answer(move_text: str) -> str:
    """Our move ("a4-a5") as the protocol's answer ("0 3 DOWN", "0 3 DOWN 3" for a long move)."""
    move = Move.parse(move_text)
    df, dr = move.target.file - move.origin.file, move.target.rank - move.origin.rank
    steps = abs(df) + abs(dr)
    direction = next(name for name, (x, y) in DIRECTIONS.items()
                     if (x, y) == ((df > 0) - (df < 0), (dr > 0) - (dr < 0)))
    answer = f"{move.origin.file} {move.origin.rank} {direction}"
    return answer if steps == 1 else f"{answer} {steps}"


def parse_answer(line: str) -> str:
    """The protocol's `X Y DIRECTION [N]` as our move text; ValueError when it is not one."""
    parts = line.split()
    if len(parts) not in (3, 4) or parts[2] not in DIRECTIONS:
        raise ValueError(f"not a UCC move: {line!r}")
    x, y = int(parts[0]), int(parts[1])
    steps = int(parts[3]) if len(parts) == 4 else 1
    if steps < 1:
        raise ValueError(f"not a UCC move: {line!r}")
    dx, dy = DIRECTIONS[parts[2]]
    if min(x, y, x + dx * steps, y + dy * steps) < 0 or max(x, x + dx * steps) > 25:
        raise ValueError(f"not a UCC move: {line!r}")
    return f"{Square(x, y).name}-{Square(x + dx * steps, y + dy * steps).name}"


def result_line(variant: Variant, events: list[dict[str, Any]]) -> str | None:
    """The protocol's result line for the move in these (redacted) events, or None."""
    names = tokens(variant)
    move = next((e for e in events if e.get("type") == "move"), None)
    if move is None:
        return None
    line = move_answer(move["move"])
    battle = next((e for e in events if e.get("type") == "battle"), None)
    if battle is None:
        return f"{line} OK"
    if battle["defender"] in variant.combat.objectives and battle["outcome"] == "attacker":
        return f"{line} VICTORY_FLAG"
    a = names.get(battle["attacker"] or "", "?")
    d = names.get(battle["defender"] or "", "?")
    word = {"attacker": "KILLS", "defender": "DIES", "both": "BOTHDIE"}[battle["outcome"]]
    return f"{line} {word} {a} {d}"


class UccPlayer:
    """An external program speaking the UCC protocol, as a seat in `arbiter match`."""

    def __init__(self, command: str, variant_name: str, color: Color | str,
                 timeout: float = ANSWER_TIMEOUT) -> None:
        self.variant = get_variant(variant_name)
        check_variant(self.variant)
        self.color = Color(color)
        self.timeout = timeout
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self._started = False

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _send(self, line: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the program is gone: its next answer is missing, which forfeits

    def _receive(self) -> str | None:
        try:
            return self._lines.get(timeout=self.timeout)
        except queue.Empty:
            return None

    def choose_setup(self) -> dict[str, str]:
        """Ask the program for its 4 setup lines."""
        variant = self.variant
        self._send(f"{self.color.value.upper()} arbiter {variant.width} {variant.height}")
        lines = []
        for _ in range(SETUP_ROWS):
            line = self._receive()
            if line is None:
                raise ValueError("the program gave no setup")
            lines.append(line)
        return read_setup(variant, self.color, lines)

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        """Pass on the result line; on our turn send the board and read the answer."""
        line = result_line(self.variant, events)
        if line is not None:
            self._send(line)
        if view.get("result") is not None:
            winner = view["result"].get("winner")
            outcome = "DRAW" if winner is None else (
                "VICTORY" if winner == self.color.value else "DEFEAT")
            self._send(f"QUIT {outcome}")
            return None
        if view.get("to_move") != self.color.value:
            return None
        if not self._started and self.color is Color.RED and view.get("ply") == 0:
            self._send("START")
        self._started = True
        for row in board_lines(view, self.variant):
            self._send(row)
        answer = self._receive()
        if answer is None:
            return None
        try:
            return parse_answer(answer)
        except ValueError:
            return answer  # the referee refuses it: a forfeit

    def close(self) -> None:
        """Stop the program."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
