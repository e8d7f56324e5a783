"""The repetition rules: the two-squares rule (ISF 10) and the more-squares rule (ISF 11).

Our precise reading, with worked examples, is docs/rules/repetition.md. In short:

Two-squares rule (variant parameter `two_squares_limit`, None switches it off): a piece may not
move between the same two squares more than `limit` times in a row. Attacks count like any move;
the opponent's moves do not break a run, a move of another own piece does. For a Scout every move
inside the squares covered by the run's first move belongs to the same run.

More-squares rule (variant switch `more_squares_rule`): a *chase* is a stretch of play in which one
player (the chaser) threatens with every move - the moved piece ends next to an enemy piece - and
the other answers every threat by moving a threatened piece away. A *chasing move* is a threat,
inside a chase, against a piece that has already run away during this chase. A chasing move may not
recreate a position of the whole board that already occurred after one of the chaser's moves in
this chase - unless the piece goes back to the square it came from on its owner's directly
preceding move (the two-squares rule still applies to that). Anything else by either side ends
the chase. The rule applies to games of one move per turn; in a game of several moves per turn
(Espionage) "the directly following move" has no meaning and the rule is not applied.

What the rules read: the variant's switches, the board's geometry, the game's board (the live
list of squares, read and never written) and the position's Zobrist hash, which the game passes
with each call. They never see the `Game` itself.

Costs: the game calls `refusal` before a move (for every candidate in `legal_moves` too),
`record` after it and `undo` on a takeback. `refusal` looks at the two runs, the chaser's state
and at most four neighbouring squares, and predicts the hash of the position a plain move would
give with two Zobrist keys: it costs the same at move 20 and at move 5000. `record` and `undo` are
O(1) as well (a chase keeps its positions in one dictionary that `undo` takes the entry out of).

For the players' warnings (the app shows them before a rule bites; `Game` passes them on):
- `moves_left_in_run(color)`: how many more moves the current back-and-forth of `color` may have.
- `chase_warning(color, position, candidates)`: None, or a `ChaseWarning` while `color` is
  chasing: which enemy pieces it has chased, how many positions the chase has seen, and which of
  its candidate moves the more-squares rule refuses right now (so the tablet can say "your next
  chasing move may be refused").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.refusals import Refusal
from engine.stratego.geometry import Geometry
from engine.stratego.pieces import Color, Piece
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant

_NOTHING: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class ShuffleRun:
    """A player's current back-and-forth: which piece, the squares its first move covered, how often."""

    piece_id: int
    squares: frozenset[int]
    count: int


@dataclass(frozen=True, slots=True, eq=False)
class Chase:
    """One player's continuous chase, as it stands after the latest move of either side.

    A new object replaces the old one after every move (so `undo` just puts the old one back);
    only `positions` is shared along one chase, because copying it would make recording cost
    grow with the chase.
    """

    positions: dict[int, int]  # position hash after each of the chaser's moves -> how often
    evaders: frozenset[int]  # ids of the enemy pieces that ran away during this chase
    threatened: frozenset[int]  # ids of the enemy pieces the chaser's last move threatened
    threat_square: int  # where the piece of the chaser's last move stands
    last_move: tuple[int, int, int]  # (piece id, origin, target) of the chaser's last move
    awaiting_answer: bool  # True: the chased player must now evade; False: the chaser moves next


@dataclass(frozen=True)
class ChaseWarning:
    """What a chasing player should be told before choosing the next move."""

    chased: tuple[Square, ...]  # where the enemy pieces stand that ran away during this chase
    positions: int  # distinct positions this chase has produced after the chaser's moves
    refused: tuple[Move, ...] = field(default=())  # chasing moves the more-squares rule forbids now

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (only public facts: squares and the player's own moves)."""
        return {
            "chased": [square.name for square in self.chased],
            "positions": self.positions,
            "refused": [move.name for move in self.refused],
        }


@dataclass(frozen=True, slots=True)
class _Token:
    """What `undo` needs to put the rules back as they were before one move."""

    color: Color
    run: ShuffleRun | None
    chases: tuple[Chase | None, Chase | None]  # red's and blue's chase before the move
    added: tuple[dict[int, int], int] | None  # (positions, hash) the move added to a chase


class RepetitionRules:
    """The repetition rules of one game, with their state.

    `board` is the game's own list of squares (index -> piece or None): the rules read it as the
    game changes it, so they never need the game.
    """

    def __init__(self, variant: Variant, geometry: Geometry, board: Sequence[Piece | None]) -> None:
        self.geometry = geometry
        self.board = board
        # 0 means "off" as in game records; a limit of zero moves would forbid every second move.
        self.limit = variant.two_squares_limit or None
        self._limit_or_never = self.limit if self.limit is not None else float("inf")
        self.more_squares = variant.more_squares_rule and variant.moves_per_turn == 1
        self.runs: dict[Color, ShuffleRun | None] = {Color.RED: None, Color.BLUE: None}
        self.chases: dict[Color, Chase | None] = {Color.RED: None, Color.BLUE: None}

    # -- the two-squares rule ------------------------------------------------------------------

    def _segment(self, origin: int, target: int) -> frozenset[int]:
        width = self.geometry.width
        low, high = min(origin, target), max(origin, target)
        step = 1 if origin // width == target // width else width
        return frozenset(range(low, high + 1, step))

    def _continues(self, run: ShuffleRun | None, piece: Piece, origin: int, target: int) -> bool:
        return run is not None and run.piece_id == piece.id and origin in run.squares and target in run.squares

    def moves_left_in_run(self, color: Color) -> int | None:
        """How many more moves the current back-and-forth of `color` may have (for warnings)."""
        run = self.runs[color]
        if self.limit is None or run is None:
            return None
        return self.limit - run.count

    # -- the more-squares rule -----------------------------------------------------------------

    def _is_chasing_move(self, chase: Chase, piece: Piece, target: int) -> bool:
        """True when a piece arriving on `target` stands next to a piece that ran away in the chase."""
        board = self.board
        evaders = chase.evaders
        for neighbour in self.geometry.neighbours[target]:
            other = board[neighbour]
            if other is not None and other.id in evaders and other.color is not piece.color:
                return True
        return False

    def _threatened_by(self, piece: Piece, target: int) -> frozenset[int]:
        """Ids of the enemy pieces next to `piece`, which has just moved to `target`."""
        board = self.board
        if board[target] is not piece:
            return frozenset()  # it lost its attack: a piece no longer on the board threatens nothing
        color = piece.color
        ids = [other.id for neighbour in self.geometry.neighbours[target]
               if (other := board[neighbour]) is not None and other.color is not color]
        return frozenset(ids) if ids else _NOTHING

    def _more_squares_refusal(self, piece: Piece, origin: int, target: int, attack: bool,
                              position: int) -> Refusal | None:
        chase = self.chases[piece.color]
        if chase is None or chase.awaiting_answer or attack:
            # Every attack takes at least one piece off the board, so it can never recreate a
            # position of the chase, which all had more pieces.
            return None
        piece_id, came_from, went_to = chase.last_move
        if piece_id == piece.id and came_from == target and went_to == origin:
            return None  # the exception: straight back to where it came from (two-squares permitting)
        if not self._is_chasing_move(chase, piece, target):
            return None
        keys = self.geometry.keys[(piece.color, piece.kind)]
        after = position ^ keys[origin] ^ keys[target]
        if after in chase.positions:
            return Refusal(
                "more-squares",
                "this chasing move would repeat a position of the current chase "
                "(more-squares rule): stop chasing or threaten differently",
                "more-squares", {"square": self.geometry.squares[origin].name},
            )
        return None

    def _record_chases(self, piece: Piece, origin: int, target: int, attack: bool,
                       position: int) -> tuple[dict[int, int], int] | None:
        color, opponent = piece.color, piece.color.other
        # The opponent's chase goes on only if this move ran away from its last threat.
        theirs = self.chases[opponent]
        if theirs is not None:
            evaded = (
                theirs.awaiting_answer
                and piece.id in theirs.threatened
                and not (attack and target == theirs.threat_square)
            )
            self.chases[opponent] = Chase(
                theirs.positions, theirs.evaders | {piece.id}, frozenset(), theirs.threat_square,
                theirs.last_move, awaiting_answer=False,
            ) if evaded else None
        # This player's own chase goes on (or begins) only if this move threatens.
        threatened = self._threatened_by(piece, target)
        if not threatened:
            self.chases[color] = None
            return None
        mine = self.chases[color]
        if mine is not None and not mine.awaiting_answer:
            positions, evaders = mine.positions, mine.evaders
        else:
            positions, evaders = {}, frozenset()
        positions[position] = positions.get(position, 0) + 1
        self.chases[color] = Chase(positions, evaders, threatened, target, (piece.id, origin, target),
                                   awaiting_answer=True)
        return positions, position

    def chase_warning(self, color: Color, position: int,
                      candidates: Iterable[tuple[Piece, int, int]]) -> ChaseWarning | None:
        """None, or what `color` should know while chasing: the chased pieces and refused moves.

        `position` is the current hash; `candidates` are the (piece, origin, target) moves to
        test, empty unless `color` is to move in a game still going on.
        """
        chase = self.chases[color]
        if chase is None or chase.awaiting_answer:
            return None
        board, squares, evaders = self.board, self.geometry.squares, chase.evaders
        chased = tuple(sorted(
            squares[index] for index, piece in enumerate(board) if piece is not None and piece.id in evaders
        ))
        refused = [
            Move(squares[origin], squares[target])
            for piece, origin, target in candidates
            if self._more_squares_refusal(piece, origin, target, board[target] is not None, position)
            is not None
        ]
        return ChaseWarning(chased, len(chase.positions), tuple(sorted(refused, key=str)))

    # -- what the game calls -------------------------------------------------------------------

    def refusal(self, piece: Piece, origin: int, target: int, attack: bool,
                position: int) -> Refusal | None:
        """Why the rules of repetition forbid this move (`position`: the hash before it), or None."""
        run = self.runs[piece.color]
        # The count first: it is cheap and almost always below the limit.
        if run is not None and run.count >= self._limit_or_never and self._continues(run, piece, origin, target):
            return Refusal(
                "two-squares",
                f"this piece may not move between the same squares more than {self.limit} times in a row",
                "two-squares", {"limit": self.limit, "square": self.geometry.squares[origin].name},
            )
        if self.more_squares:
            chase = self.chases[piece.color]
            if chase is not None and not chase.awaiting_answer:  # only a live chase can refuse
                return self._more_squares_refusal(piece, origin, target, attack, position)
        return None

    def record(self, piece: Piece, origin: int, target: int, attack: bool, position: int) -> object:
        """Update the rules' state after a move; returns what `undo` needs.

        `position` is the hash just reached, before the turn passes (the mover's side bit).
        """
        color = piece.color
        run = self.runs[color]
        chases = (self.chases[Color.RED], self.chases[Color.BLUE])
        if self._continues(run, piece, origin, target):
            assert run is not None
            self.runs[color] = ShuffleRun(run.piece_id, run.squares, run.count + 1)
        else:
            self.runs[color] = ShuffleRun(piece.id, self._segment(origin, target), 1)
        added = self._record_chases(piece, origin, target, attack, position) if self.more_squares else None
        return _Token(color, run, chases, added)

    def undo(self, token: object) -> None:
        """Restore the state from before the move that returned `token`."""
        assert isinstance(token, _Token)
        self.runs[token.color] = token.run
        self.chases[Color.RED], self.chases[Color.BLUE] = token.chases
        if token.added is not None:
            positions, position = token.added
            if positions[position] == 1:
                del positions[position]
            else:
                positions[position] -= 1
