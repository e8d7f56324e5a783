"""A recorded game replayed on the real board: guide both setups, then each move of the game.

The controller owns an `engine.stratego.replay.Replay` and a `MoveRecognizer` that reads the board
against the replay's position. Phases:

  placing    both setups are guided onto the board square by square (the board check compares
             what the sensors read with the replay's position); a jump guides the board the same
             way to the position at the new ply.
  replaying  the next move of the game is shown; the same move made on the board steps forward,
             any other move is guided back. `back` says what to lift and what to put back.
  end        the last move that replays was made (the game may go on with `play_on`).

Steps are data, `{"action": ..., "square": ..., ...}`: "place" (a piece of this colour and
kind on a square), "remove", "replace" (the piece on a square is the wrong one), "move" (the
game's next move), "put_back" (take a piece from `square` back to `to`). A replay is a known
game, so every step may name colours and ranks: nothing here is hidden information.

No I/O here: the caller journals the new ply after each step (the replay desk compares `ply`
before and after) and publishes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import BattleEvent, Color, Game, Move, Square
from engine.core.errors import ArbiterError
from engine.stratego.formats import LoadedGame, load
from engine.stratego.records import GameRecord
from engine.stratego.replay import NextMove, Placement, Replay, StepBack
from firmware_bridge.board.guidance import led_colours, plan_steps
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.recognition import (
    BoardMatches,
    BoardMismatch,
    IllegalAttempt,
    MoveMade,
    MoveRecognizer,
)
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.protocol.contract import MAX_REPLAY_TEXT as MAX_RECORD_CHARS


class ReplayError(ArbiterError):
    """A replay command that cannot be carried out (a bad file, a ply out of range, ...)."""

    code = "invalid-replay"


def read_game(text: str) -> LoadedGame:
    """A game file's text (our JSON record, Gravon XML or GSN) read for a replay, or ReplayError."""
    if len(text) > MAX_RECORD_CHARS:
        raise ReplayError(f"the file has {len(text)} characters; at most {MAX_RECORD_CHARS} are read")
    try:
        return load(text)
    except ArbiterError as error:
        raise ReplayError(f"not a game this referee can replay: {error.message}") from None
    except (ValueError, KeyError, TypeError, RecursionError) as error:  # a reader's own slip
        raise ReplayError(f"not a game this referee can replay: {error}") from None


def placement_step(action: str, square: Square, piece: tuple[Color, str] | None) -> dict[str, Any]:
    """A step that names the piece belonging on ``square`` (its colour and kind) when known."""
    step: dict[str, Any] = {"action": action, "square": square.name}
    if piece is not None:
        step["color"], step["kind"] = piece[0].value, piece[1]
    return step


def next_move_step(next_move: NextMove) -> dict[str, Any]:
    """The game's next move as a step: whose piece goes from where to where, what it attacks."""
    move = next_move.move
    step: dict[str, Any] = {"action": "move", "square": move.origin.name, "to": move.target.name,
                            "color": next_move.color.value, "kind": next_move.kind,
                            "ply": next_move.ply}
    if next_move.attacks is not None:
        step["attacks"] = {"color": next_move.attacks.color.value, "kind": next_move.attacks.kind}
    return step


@dataclass
class Source:
    """Where the replayed game came from: what the file said besides the moves."""

    name: str  # the file name as given (may be empty)
    format: str  # "json", "xml" or "gsn"
    players: tuple[str, str]  # Red's and Blue's names (Gravon files), else empty

    def to_dict(self) -> dict[str, Any]:
        """The source as data for the public state."""
        return {"name": self.name, "format": self.format, "players": list(self.players)}


class ReplayMode:
    """One recorded game on the board: placing, then replaying move by move."""

    def __init__(self, text: str, name: str = "", ply: int = 0,
                 volcano_markers_sensed: bool | None = None) -> None:
        loaded = read_game(text)
        self.text = text
        self.source = Source(name[:120], loaded.format, loaded.players)
        self.replay = Replay(loaded.record)
        if not 0 <= ply <= self.replay.length:
            raise ReplayError(f"ply {ply} is not between 0 and {self.replay.length}")
        self.replay.jump(ply)
        self.recognizer = MoveRecognizer(ExpectedPosition.of(self.game),
                                         volcano_markers_sensed=volcano_markers_sensed)
        self.placed = False  # the board has matched the position since the load or the last jump
        self.wrong_move: Move | None = None  # a move made on the board that is not the game's
        self.undo: StepBack | None = None  # what the last `back` asked to put back
        self.last_battles: list[dict[str, str]] = []  # the battles of the last move stepped forward
        self.last_events: list = []  # the engine's events of that move (who to take off the board)
        self.ahead: list[dict[str, Any]] = []  # moves stepped to, not yet made on the board

    # -- the game -------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The replayed game at the current ply: the board's expected position."""
        return self.replay.game

    @property
    def record(self) -> GameRecord:
        """The replayed record."""
        return self.replay.record

    @property
    def ply(self) -> int:
        """How many moves of the game are on the board."""
        return self.replay.ply

    @property
    def phase(self) -> str:
        """placing, replaying or end."""
        if not self.placed:
            return "placing"
        return "end" if self.replay.next_move() is None else "replaying"

    def forward(self, on_board: bool = False) -> list:
        """Step to the next move of the game; on_board: it was just made on the board (else the
        players are asked to make it)."""
        next_move = self.replay.next_move()
        if next_move is None:
            raise ReplayError(f"the replay is at its end (ply {self.ply})")
        if not on_board and self.has_board:
            self.ahead.append(next_move_step(next_move))
        if not self.has_board:
            self.placed = True  # without sensors, stepping on says the pieces are set up
        events = self.replay.forward()
        self.last_events = events
        self.last_battles = [{"attacker": e.attacker, "defender": e.defender, "outcome": e.outcome}
                             for e in events if isinstance(e, BattleEvent)]
        self.wrong_move, self.undo = None, None
        self._sync()
        return events

    def back(self) -> StepBack:
        """Take the last move back; the board is guided to put the pieces back."""
        if self.ply == 0:
            raise ReplayError("the replay is at its start")
        undo = self.replay.back()
        if self.ahead:  # a move stepped to but never made on the board: nothing to put back
            self.ahead.pop()
            self.wrong_move, self.last_battles = None, []
        else:
            self.wrong_move, self.undo, self.last_battles = None, undo, []
        self._sync()
        return undo

    def jump(self, ply: int) -> None:
        """Go to a ply; the board is guided to that position as a board check."""
        if not 0 <= ply <= self.replay.length:
            raise ReplayError(f"ply {ply} is not between 0 and {self.replay.length}")
        self.replay.jump(ply)
        # Without sensors nobody can check the board: the family sets the position by hand.
        self.placed = not self.has_board
        self.wrong_move, self.undo, self.last_battles, self.ahead = None, None, [], []
        self._sync()

    def play_on(self) -> Game:
        """A normal game from the current ply, the moves before it played (repetition in force)."""
        return self.replay.play_on()

    # -- the board ------------------------------------------------------------------------------
    def feed(self, board: StableBoard) -> bool:
        """A new stable board; True when the replay moved on or its guidance changed."""
        return self._handle(self.recognizer.feed(board))

    def poll(self, now: float) -> bool:
        """Rulings that wait on time (a scout's hold, patience); True when anything happened."""
        return self._handle(self.recognizer.poll(now))

    def _sync(self) -> None:
        self._handle(self.recognizer.expect(ExpectedPosition.of(self.game)))

    def _handle(self, observations: list) -> bool:
        for observation in observations:
            if isinstance(observation, MoveMade):
                expected = self.replay.next_move()
                if self.placed and expected is not None and observation.move == expected.move:
                    self.forward(on_board=True)
                else:
                    # Legal or not, it is not the game's move: guided back until the board matches.
                    self.recognizer.refused(observation.move)
                    self.wrong_move = observation.move
            elif isinstance(observation, IllegalAttempt):
                self.wrong_move = observation.move
            elif isinstance(observation, BoardMatches):
                self.placed, self.wrong_move, self.undo, self.ahead = True, None, None, []
        return bool(observations)

    def mismatch(self) -> BoardMismatch | None:
        """What differs between the board and the replay's position (None: it matches or no board)."""
        return self.recognizer.guidance()

    @property
    def has_board(self) -> bool:
        """Whether a board has been read at all."""
        return self.recognizer.board is not None

    # -- guidance -------------------------------------------------------------------------------
    def steps(self) -> list[dict[str, Any]]:
        """What to do on the board now, in order."""
        position = self.replay.position()
        if not self.has_board:
            # No sensors: the whole setup first, then the moves as the family steps through them.
            if not self.placed and self.ply == 0:
                return [placement_step("place", p.square, (p.color, p.kind))
                        for p in self.replay.setup_guidance()]
            return self._undo_steps(position) if self.undo else self._next_steps()
        mismatch = self.mismatch()
        if mismatch is None:
            return self._next_steps()
        if self.placed and self.wrong_move is None and self.undo is None \
                and mismatch.reason == "unexpected":
            return self._next_steps()  # a hand is making a move: keep showing the game's move
        if not self.placed:
            return self._placing_steps(mismatch, position)
        return self._fix_steps(mismatch, position)

    def _next_steps(self) -> list[dict[str, Any]]:
        next_move = self.replay.next_move()
        return [] if next_move is None else [next_move_step(next_move)]

    def _placing_steps(self, mismatch: BoardMismatch,
                       position: dict[Square, tuple[Color, str]]) -> list[dict[str, Any]]:
        order = {p.square: i for i, p in enumerate(self.replay.setup_guidance())}
        fill = sorted(mismatch.fill, key=lambda s: (order.get(s, len(order)), s.rank, s.file))
        return ([placement_step("remove", s, None) for s in mismatch.clear]
                + [placement_step("place", s, position.get(s)) for s in fill]
                + [placement_step("replace", s, position.get(s)) for s in mismatch.wrong])

    def _fix_steps(self, mismatch: BoardMismatch,
                   position: dict[Square, tuple[Color, str]]) -> list[dict[str, Any]]:
        steps: list[dict[str, Any]] = []
        if self.ahead:  # `forward` ran ahead of the board: make those moves
            steps = list(self.ahead)
        elif self.undo is not None:
            steps = self._undo_steps(position)
        elif self.wrong_move is not None:
            # Occupancy sensors cannot tell an attack's two pieces apart: say which goes where.
            origin, target = self.wrong_move.origin, self.wrong_move.target
            steps = [{**placement_step("put_back", target, position.get(origin)), "to": origin.name}]
            if target in position:
                steps.append(placement_step("place", target, position[target]))
        covered = {Square.parse(step[key]) for step in steps for key in ("square", "to") if key in step}
        clear = [s for s in mismatch.clear if s not in covered]
        fill = [s for s in mismatch.fill if s not in covered]
        wrong = [s for s in mismatch.wrong if s not in covered]
        for step in plan_steps(clear, fill, wrong, focus=mismatch.fill[0] if mismatch.fill else None):
            if step.action == "move" and step.to is not None:
                steps.append({**placement_step("put_back", step.square, position.get(step.to)),
                              "to": step.to.name})
            elif step.action in ("place", "replace"):
                steps.append(placement_step(step.action, step.square, position.get(step.square)))
            else:
                steps.append(placement_step(step.action, step.square, None))
        return steps

    def _undo_steps(self, position: dict[Square, tuple[Color, str]]) -> list[dict[str, Any]]:
        undo = self.undo
        assert undo is not None
        moved = (undo.moved.color, undo.moved.kind)
        steps = ([{**placement_step("put_back", undo.lift, moved), "to": undo.moved.square.name}]
                 if undo.lift is not None else [placement_step("place", undo.moved.square, moved)])
        return steps + [placement_step("place", p.square, (p.color, p.kind)) for p in undo.captured]

    def leds(self, width: int, height: int) -> list[int]:
        """LED colours: what to fix (green fill, red clear, blue wrong), else the next move."""
        mismatch = self.mismatch()
        steps = self.steps()
        if mismatch is None or (steps and steps[0]["action"] == "move"):
            next_move = self.replay.next_move()
            return led_colours(width, height, last_move=next_move.move if next_move else None)
        return led_colours(width, height, plan_steps(mismatch.clear, mismatch.fill, mismatch.wrong),
                           illegal=self.wrong_move)

    # -- the public state -----------------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        """The `replay` part of the public state (everything in it is public: a known game)."""
        next_move = self.replay.next_move()
        refused = self.replay.refused
        return {
            "phase": self.phase, "ply": self.ply, "length": self.replay.length,
            "moves": len(self.record.moves), "variant": self.record.variant,
            "volcanoes": [square.name for square in self.game.volcanoes],
            "to_move": self.replay.to_move().value,
            "next": next_move_step(next_move) if next_move else None,
            "steps": self.steps(),
            "wrong_move": str(self.wrong_move) if self.wrong_move else None,
            "last_battles": self.last_battles,
            "position": {square.name: [color.value, kind]
                         for square, (color, kind) in self.replay.position().items()},
            "refused": refused.message if refused is not None else None,
            "source": self.source.to_dict(),
        }


def game_from_play_on(payload: dict[str, Any]) -> Game:
    """The game of a journalled `play_on` ruling: the record's game at its ply."""
    replay = Replay(GameRecord.from_dict(payload["record"]))
    replay.jump(payload["ply"])
    return replay.play_on()


def placements(steps: list[dict[str, Any]]) -> list[Placement]:
    """The "place" steps as placements (for a helper at the board or a test)."""
    return [Placement(Square.parse(s["square"]), Color(s["color"]), s["kind"])
            for s in steps if s["action"] == "place" and "kind" in s]
