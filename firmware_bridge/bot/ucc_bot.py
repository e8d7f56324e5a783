"""`arbiter bot --ucc`: our computer player speaking the UCC 2012 protocol on stdin/stdout.

The protocol gives a program only the board with enemy pieces as `#` and the result lines, so
`UccSeat` rebuilds from them what the seat's tablet would get: the view dict and the redacted
events of each move (piece ids follow the setup squares as the rules engine numbers them).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant, get_variant
from firmware_bridge.bot.ucc import DIRECTIONS, check_variant, move_answer, setup_lines, tokens


class UccSeat:
    """One seat's view and events, rebuilt from the protocol's board and result lines."""

    def __init__(self, variant: Variant, color: Color, setup: dict[str, str]) -> None:
        self.variant = variant
        self.color = color
        self.setup = {Square.parse(name): kind for name, kind in setup.items()}
        self.by_token = {token: name for name, token in tokens(variant).items()}
        self.pieces: dict[int, dict[str, Any]] = {}  # id -> square, color, kind, moved, known
        self.captured: dict[str, list[str | None]] = {"red": [], "blue": []}
        self.ply = 0
        self.to_move = variant.first.value
        self.result: dict[str, Any] | None = None
        self.last_move: str | None = None
        self.started = False
        self.pending: list[str] = []  # result lines read before the first board

    def start(self, board: list[str]) -> list[dict[str, Any]]:
        """Number the pieces from the first board (undoing the result lines seen before it)."""
        enemy = {Square(x, y) for y, row in enumerate(board) for x, token in enumerate(row) if token == "#"}
        for line in self.pending:  # only Blue sees one: Red's first move
            origin, target, outcome = self._parse(line)[:3]
            if outcome in ("OK", "KILLS"):
                enemy.discard(target)
            enemy.add(origin)
        occupied = sorted(set(self.setup) | enemy, key=lambda s: (s.rank, s.file))
        for piece_id, square in enumerate(occupied):
            mine = square in self.setup
            self.pieces[piece_id] = {
                "square": square, "color": self.color.value if mine else self.color.other.value,
                "kind": self.setup[square] if mine else None, "moved": False, "known": False,
            }
        self.started = True
        events: list[dict[str, Any]] = []
        for line in self.pending:
            events = self.apply(line)
        self.pending = []
        return events

    def _parse(self, line: str) -> tuple[Square, Square, str, str | None, str | None]:
        parts = line.split()
        x, y, direction = int(parts[0]), int(parts[1]), parts[2]
        rest = parts[3:]
        steps = 1
        if rest and rest[0].isdigit():
            steps = int(rest[0])
            rest = rest[1:]
        dx, dy = DIRECTIONS[direction]
        outcome = rest[0] if rest else "OK"
        attacker = self.by_token.get(rest[1]) if len(rest) > 1 else None
        defender = self.by_token.get(rest[2]) if len(rest) > 2 else None
        return Square(x, y), Square(x + dx * steps, y + dy * steps), outcome, attacker, defender

    def _at(self, square: Square) -> int | None:
        return next((i for i, p in self.pieces.items() if p["square"] == square), None)

    def apply(self, line: str) -> list[dict[str, Any]]:
        """Apply one result line; returns the events as the seat's tablet would get them."""
        if not self.started:
            self.pending.append(line)
            return []
        origin, target, outcome, attacker_kind, defender_kind = self._parse(line)
        mover_id, defender_id = self._at(origin), self._at(target)
        if mover_id is None:
            raise ValueError(f"no piece on {origin} for {line!r}")
        mover = self.pieces[mover_id]
        self.ply += 1
        name = f"{origin.name}-{target.name}"
        self.last_move = name
        mover["moved"] = True
        events: list[dict[str, Any]] = [{"type": "move", "color": mover["color"],
                                         "piece_id": mover_id, "kind": mover["kind"],
                                         "move": name, "ply": self.ply}]
        if defender_id is None:
            mover["square"] = target
        else:
            defender = self.pieces[defender_id]
            if outcome == "VICTORY_FLAG":
                defender_kind = next(k for k in self.variant.combat.objectives)
                attacker_kind = attacker_kind or mover["kind"]
            self._show(mover, attacker_kind)
            self._show(defender, defender_kind)
            events[0]["kind"] = mover["kind"]
            result = {"KILLS": "attacker", "VICTORY_FLAG": "attacker", "DIES": "defender",
                      "BOTHDIE": "both"}.get(outcome, "attacker")
            events.append({"type": "battle", "attacker_id": mover_id, "attacker_color": mover["color"],
                           "attacker": mover["kind"], "defender_id": defender_id,
                           "defender_color": defender["color"], "defender": defender["kind"],
                           "square": target.name, "outcome": result, "ply": self.ply})
            removed = []
            if result in ("attacker", "both"):
                removed.append((defender_id, target))
            if result in ("defender", "both"):
                removed.append((mover_id, origin))
            for piece_id, square in removed:
                piece = self.pieces.pop(piece_id)
                self.captured[piece["color"]].append(piece["kind"])
                events.append({"type": "capture", "piece_id": piece_id, "color": piece["color"],
                               "kind": piece["kind"], "square": square.name, "ply": self.ply})
            if result == "attacker":
                mover["square"] = target
            if outcome == "VICTORY_FLAG":
                self.result = {"winner": mover["color"], "reason": "flag-captured"}
        self.to_move = "blue" if self.to_move == "red" else "red"
        if self.result is None:
            events.append({"type": "turn", "to_move": self.to_move, "turn": self.ply + 1,
                           "ply": self.ply})
        else:
            events.append({"type": "game_end", "winner": self.result["winner"],
                           "reason": self.result["reason"], "ply": self.ply})
        return events

    def _show(self, piece: dict[str, Any], kind: str | None) -> None:
        if piece["color"] == self.color.value:
            piece["known"] = True
        elif kind is not None:
            piece["kind"] = kind

    def view(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The seat's view as `PlayerView.to_dict()` has it (repetition warnings unknown: None)."""
        variant = self.variant
        ordered = sorted(self.pieces.items(), key=lambda item: (item[1]["square"].rank,
                                                                 item[1]["square"].file))
        return {
            "viewer": self.color.value, "variant": variant.name, "width": variant.width,
            "height": variant.height, "blocked": sorted(s.name for s in variant.lakes),
            "volcanoes": [], "to_move": self.to_move, "turn": self.ply + 1, "ply": self.ply,
            "moves_left_in_turn": 1, "moves_per_turn": 1,
            "pieces": [{"square": p["square"].name, "color": p["color"], "id": i, "kind": p["kind"],
                        "moved": p["moved"], "known": p["known"]} for i, p in ordered],
            "captured": {c: list(k) for c, k in self.captured.items()},
            "last_move": self.last_move, "last_events": events, "result": self.result,
            "two_squares_left": None, "chase_warning": None,
        }


def serve(player: Any, variant: Variant, read: TextIO, write: TextIO) -> int:
    """Play one game over the protocol: `player(colour, opponent name)` makes the seat
    (on_update/choose_setup, and `close` when it has one, called however the game ends)."""
    header = read.readline().split()
    if len(header) < 4 or header[0] not in ("RED", "BLUE"):
        print(f"arbiter bot: expected 'COLOUR OPPONENT WIDTH HEIGHT', got {header!r}", file=sys.stderr)
        return 2
    color = Color(header[0].lower())
    seat = player(color, header[1])
    try:
        return _play(seat, color, variant, read, write)
    finally:
        close = getattr(seat, "close", None)
        if close is not None:
            close()  # a game cut short (QUIT, end of input) still keeps what was seen


def _play(player: Any, color: Color, variant: Variant, read: TextIO, write: TextIO) -> int:
    """The game after the header: our setup, then the manager's boards and moves."""
    setup = player.choose_setup()
    for line in setup_lines(variant, color, setup):
        write.write(line + "\n")
    write.flush()
    seat = UccSeat(variant, color, setup)
    events: list[dict[str, Any]] = []
    while True:
        line = read.readline()
        if not line:
            return 0
        line = line.strip()
        if not line or line == "START":
            continue
        if line.startswith("QUIT"):
            return 0
        if " " in line:
            moved = seat.apply(line)
            if not seat.started:
                continue  # Blue: Red's first move comes before the first board
            if seat.result is not None or seat.to_move != color.value:
                player.on_update(seat.view(moved), moved)  # our own move, or the end
            else:
                events += moved  # the opponent's move: the board and our turn follow
            if seat.result is not None:
                return 0
            continue
        board = [line] + [read.readline().strip() for _ in range(variant.height - 1)]
        if not seat.started:
            events = seat.start(board)
        seat.to_move = color.value  # the manager only asks the player to move
        answer = player.on_update(seat.view(events), events)
        events = []
        write.write((move_answer(answer) if answer else "NO_MOVE") + "\n")
        write.flush()


def main(argv: list[str]) -> int:
    """`arbiter bot --ucc [--level L] [--seed S] [--recall DIR]`: play one UCC game on
    stdin/stdout."""
    parser = argparse.ArgumentParser(prog="arbiter bot", description=__doc__)
    parser.add_argument("--ucc", action="store_true", required=True,
                        help="speak the UCC 2012 protocol on stdin/stdout (the only mode)")
    parser.add_argument("--level", default="normal", help="easy, normal or strong")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--recall", default=None, metavar="DIR",
                        help="remember each opponent (by the name the manager gives) in this "
                             "folder from one game to the next")
    args = parser.parse_args(argv)
    from firmware_bridge.bot.levels import LEVELS
    from firmware_bridge.bot.player import ComputerPlayer

    if args.level not in LEVELS:
        print(f"arbiter bot: unknown level {args.level!r}", file=sys.stderr)
        return 2
    try:
        variant = get_variant(args.variant)
        check_variant(variant)
    except ValueError as error:
        print(f"arbiter bot: {error}", file=sys.stderr)
        return 2

    from firmware_bridge.bot.recall_shelf import RecallShelf

    shelf = RecallShelf(args.recall) if args.recall else None

    def make(color: Color, opponent: str) -> ComputerPlayer:
        # One game a process: without a folder there is nothing to remember it in.
        return ComputerPlayer(variant.name, color, args.level, args.seed,
                              opponent=f"ucc:{opponent}" if shelf is not None else None,
                              shelf=shelf)

    return serve(make, variant, sys.stdin, sys.stdout)
