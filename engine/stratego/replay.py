"""Replaying a recorded game on the real board, ply by ply: what to move, what to put back.

A `Replay` walks a `GameRecord` forwards and backwards. It knows every rank (it is for the referee
who sets the board up and moves the pieces), so nothing here goes to a player unredacted.
`play_on()` hands over a `Game` at the current ply with the history of the plies before, so the
repetition rules bite exactly as if the game had been played to there.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.refusals import IllegalMove, Refusal
from engine.stratego.events import BattleEvent, CaptureEvent, Event, MoveEvent
from engine.stratego.game import Game
from engine.stratego.pieces import Color
from engine.stratego.records import GameRecord
from engine.stratego.squares import Move, Square


@dataclass(frozen=True)
class Placement:
    """One piece on one square: what to put (or find) there."""

    square: Square
    color: Color
    kind: str


@dataclass(frozen=True)
class NextMove:
    """The move after the current ply: whose piece goes from where to where."""

    ply: int  # the move's number, 1 for the first move of the game
    move: Move
    color: Color
    kind: str
    attacks: Placement | None  # the enemy piece on the target square, when the move is an attack


@dataclass(frozen=True)
class StepBack:
    """What to do on the board to take one move back."""

    move: Move
    lift: Square | None  # take the moved piece off this square (None: it died in its attack)
    moved: Placement  # and put it back here, on the square it came from
    captured: tuple[Placement, ...]  # the pieces the move took off, back on their squares


class Replay:
    """A recorded game replayed ply by ply (ply 0: the start, before any move)."""

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self._game = record.new_game()
        self.refused: Refusal | None = None  # why the move after the last playable ply is refused
        self.moves: list[Move] = []
        for text in record.moves:
            move = Move.parse(text)
            try:
                self._game.push(move)
            except IllegalMove as refusal:
                self.refused = refusal.refusal
                break
            self.moves.append(move)
        self._events: list[list[Event]] = []
        self._game = record.new_game()  # back to the start; stepping forward replays the moves

    @property
    def length(self) -> int:
        """How many plies can be replayed (all the moves, or those before the first refused one)."""
        return len(self.moves)

    @property
    def ply(self) -> int:
        """The current ply: how many moves are on the board now."""
        return self._game.ply

    @property
    def game(self) -> Game:
        """The game at the current ply: the one position of the replay (read it, never push to it:
        `forward`, `back` and `jump` move it)."""
        return self._game

    def position(self, ply: int | None = None) -> dict[Square, tuple[Color, str]]:
        """Every piece by square at a ply (default: the current one); the current ply is kept."""
        if ply is None or ply == self.ply:
            return {square: (piece.color, piece.kind) for square, piece in self._game.pieces()}
        current = self.ply
        self.jump(ply)
        try:
            return self.position()
        finally:
            self.jump(current)

    def to_move(self) -> Color:
        """Whose turn it is at the current ply."""
        return self._game.to_move

    def next_move(self) -> NextMove | None:
        """The move after the current ply, or None at the end of what can be replayed."""
        if self.ply >= self.length:
            return None
        move = self.moves[self.ply]
        piece = self._game.piece_at(move.origin)
        assert piece is not None  # the move was applied once: its piece stands there
        defender = self._game.piece_at(move.target)
        attacks = None if defender is None else Placement(move.target, defender.color, defender.kind)
        return NextMove(self.ply + 1, move, piece.color, piece.kind, attacks)

    def forward(self) -> list[Event]:
        """Play the next move; returns what happened (moves, battles, captures, the end)."""
        if self.ply >= self.length:
            raise IndexError("the replay is at its end")
        events = self._game.push(self.moves[self.ply])
        self._events.append(events)
        return events

    def back(self) -> StepBack:
        """Take the last move back; says what to lift and what to put back on the board."""
        if self.ply == 0:
            raise IndexError("the replay is at the start")
        events = self._events.pop()
        move = self._game.pop()
        mover = next(e for e in events if isinstance(e, MoveEvent))
        died = {e.piece_id for e in events if isinstance(e, CaptureEvent)}
        battle = next((e for e in events if isinstance(e, BattleEvent)), None)
        captured: tuple[Placement, ...] = ()
        if battle is not None and battle.defender_id in died:
            captured = (Placement(move.target, Color(battle.defender_color), battle.defender),)
        return StepBack(
            move=move,
            lift=None if mover.piece_id in died else move.target,
            moved=Placement(move.origin, Color(mover.color), mover.kind),
            captured=captured,
        )

    def jump(self, ply: int) -> None:
        """Go to a ply (0 .. length) by stepping forward or back."""
        if not 0 <= ply <= self.length:
            raise IndexError(f"ply {ply} is not between 0 and {self.length}")
        while self.ply < ply:
            self.forward()
        while self.ply > ply:
            self._events.pop()
            self._game.pop()

    def setup_guidance(self) -> list[Placement]:
        """The start, square by square: Red's pieces then Blue's, each from its owner's back row."""
        pieces = self.record.pieces
        height = self._game.variant.height

        def from_owner(square: Square) -> tuple[int, int, int]:
            color = pieces[square][0]
            if color is Color.RED:
                return (0, square.rank, square.file)
            return (1, height - 1 - square.rank, -square.file)  # Blue's left is the high files

        return [Placement(square, *pieces[square]) for square in sorted(pieces, key=from_owner)]

    def play_on(self) -> Game:
        """A new Game at the current ply, the moves before it played, so every rule is in force."""
        game = self.record.new_game()
        for move in self.moves[:self.ply]:
            game.push(move)
        return game
