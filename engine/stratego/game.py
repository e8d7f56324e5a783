"""The game: board state, legal moves, `push`/`pop`, combat and the end of the game."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from engine.core.refusals import IllegalMove, Refusal
from engine.stratego import results
from engine.stratego.combat import Outcome, resolve_battle
from engine.stratego.events import (
    BattleEvent,
    CaptureEvent,
    Event,
    GameEndEvent,
    MoveEvent,
    RevealEvent,
    TurnEvent,
)
from engine.stratego.geometry import Geometry, geometry_for
from engine.stratego.pieces import Color, Piece
from engine.stratego.repetition import ChaseWarning, RepetitionRules
from engine.stratego.results import Result
from engine.stratego.setups import Setup, validate_setup
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant
from engine.stratego.views import PlayerView, player_view


@dataclass
class _Undo:
    """What `pop` needs to put the game back exactly as it was before one move."""

    move: Move
    piece: Piece
    origin: int
    target: int
    removed: list[tuple[Piece, int | None]]  # (piece, its square; None: the lifted attacker)
    first_move: bool
    revealed: list[tuple[Color | None, int]]
    result_before: Result | None
    to_move_before: Color
    turn_before: int
    turn_pieces_before: tuple[int, ...]
    left_before: tuple[int, int] | None
    hash_before: int
    repetition_token: object
    events: list[Event] = field(default_factory=list)


class Game:
    """A game in progress. The engine knows every rank; views decide who may see what."""

    def __init__(
        self,
        variant: Variant,
        pieces: Mapping[Square, tuple[Color, str]],
        to_move: Color | None = None,
        volcanoes: tuple[Square, ...] | frozenset[Square] = (),
    ) -> None:
        self.variant = variant
        self.initial_pieces: dict[Square, tuple[Color, str]] = {
            square: (Color(color), kind) for square, (color, kind) in pieces.items()
        }
        self.volcanoes: tuple[Square, ...] = tuple(sorted(volcanoes))
        self.geometry: Geometry = geometry_for(variant, frozenset(self.volcanoes))
        self.blocked: frozenset[Square] = variant.lakes | frozenset(self.volcanoes)
        geometry = self.geometry
        self._board: list[Piece | None] = [None] * geometry.size
        self._where: dict[int, int] = {}
        self._pieces: dict[int, Piece] = {}
        self._kinds = variant.kinds
        self._mobile_count = {Color.RED: 0, Color.BLUE: 0}
        # Ids follow the squares in board order, so an id never hints at a rank.
        for piece_id, square in enumerate(sorted(pieces, key=lambda s: (s.rank, s.file))):
            color, kind = pieces[square]
            color = Color(color)
            if kind not in variant.kinds:
                raise ValueError(f"{variant.name} has no piece called {kind!r}")
            if not variant.on_board(square) or square in self.blocked:
                raise ValueError(f"a piece cannot stand on {square}")
            index = geometry.index(square)
            piece = Piece(piece_id, color, kind)
            self._board[index] = piece
            self._where[piece_id] = index
            self._pieces[piece_id] = piece
            if variant.kinds[kind].mobile:
                self._mobile_count[color] += 1
        self.to_move: Color = to_move or variant.first
        self.initial_to_move = self.to_move
        self.turn = 1
        self.ply = 0
        self.result: Result | None = None
        self.moved: set[int] = set()
        self.captured: list[Piece] = []
        # Pieces of the other side whose kind each player knows (revealed in battle or by a spy);
        # under None, the pieces the public knows (shown in a battle).
        self._known: dict[Color | None, set[int]] = {Color.RED: set(), Color.BLUE: set(), None: set()}
        self._turn_pieces: tuple[int, ...] = ()
        self._left: dict[int, tuple[int, int]] = {}  # piece id -> (square it left, turn)
        self._history: list[_Undo] = []
        # A declared end (resignation, agreed draw, time) stands on top of the undo stack: nothing
        # is pushed after it, and `pop_end` takes it back as `pop` takes back a move.
        self._declared: Result | None = None
        self.hash = geometry.side_key if self.to_move is Color.BLUE else 0
        for index, placed in enumerate(self._board):
            if placed is not None:
                self.hash ^= geometry.piece_key(placed.color, placed.kind, index)
        self.repetition = RepetitionRules(variant, geometry, self._board)
        self._move_cache: dict[int, Move] = {}

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def from_setup(
        cls,
        variant: Variant,
        red: Setup,
        blue: Setup,
        volcanoes: tuple[Square, ...] | None = None,
        rng: random.Random | None = None,
    ) -> Game:
        """A new game from both players' setups, validated; volcanoes placed if the variant has them."""
        errors = validate_setup(variant, Color.RED, red) + validate_setup(variant, Color.BLUE, blue)
        if errors:
            raise ValueError("; ".join(errors))
        if volcanoes is None:
            volcanoes = place_volcanoes(variant, rng or random.Random())
        pieces = {square: (Color.RED, kind) for square, kind in red.items()}
        pieces.update({square: (Color.BLUE, kind) for square, kind in blue.items()})
        return cls(variant, pieces, volcanoes=volcanoes)

    @classmethod
    def from_position(
        cls,
        variant: Variant,
        pieces: Mapping[Square, tuple[Color, str]],
        to_move: Color = Color.RED,
        volcanoes: tuple[Square, ...] = (),
    ) -> Game:
        """Any arrangement of pieces, for studies and tests: no setup validation."""
        return cls(variant, pieces, to_move=to_move, volcanoes=volcanoes)

    # -- reading the position ------------------------------------------------------------

    def piece_at(self, square: Square) -> Piece | None:
        """The piece on a square, or None."""
        if not self.variant.on_board(square):
            return None
        return self._board[self.geometry.index(square)]

    def square_of(self, piece_id: int) -> Square | None:
        """Where a piece stands, or None once it is captured."""
        index = self._where.get(piece_id)
        return None if index is None else self.geometry.squares[index]

    def piece(self, piece_id: int) -> Piece:
        """A piece by id (captured ones included)."""
        return self._pieces[piece_id]

    def pieces(self) -> Iterator[tuple[Square, Piece]]:
        """Every piece on the board with its square, in board order."""
        squares = self.geometry.squares
        for index, piece in enumerate(self._board):
            if piece is not None:
                yield squares[index], piece

    def occupied(self) -> frozenset[Square]:
        """The squares an occupancy sensor should read as occupied."""
        squares = self.geometry.squares
        return frozenset(squares[i] for i, piece in enumerate(self._board) if piece is not None)

    def knows(self, viewer: Color | None, piece: Piece) -> bool:
        """True when `viewer` (None: the public) may know the piece's kind."""
        if self.result is not None:
            return True  # at the end the whole board is revealed
        return piece.color is viewer or piece.id in self._known[viewer]

    @property
    def moves_left_in_turn(self) -> int:
        """Moves the player to move may still make this turn (Espionage has two)."""
        return self.variant.moves_per_turn - len(self._turn_pieces)

    @property
    def turn_pieces(self) -> tuple[int, ...]:
        """Ids of the pieces already moved in the current turn."""
        return self._turn_pieces

    @property
    def move_stack(self) -> list[Move]:
        """Every move applied, in order."""
        return [undo.move for undo in self._history]

    @property
    def last_move(self) -> Move | None:
        """The move applied last, or None."""
        return self._history[-1].move if self._history else None

    def last_events(self) -> list[Event]:
        """The events of the move applied last."""
        return list(self._history[-1].events) if self._history else []

    def mobile_count(self, color: Color) -> int:
        """How many pieces of that colour can ever move."""
        return self._mobile_count[color]

    # -- legality --------------------------------------------------------------------------

    def _move(self, origin: int, target: int) -> Move:
        key = origin * self.geometry.size + target
        move = self._move_cache.get(key)
        if move is None:
            squares = self.geometry.squares
            move = self._move_cache[key] = Move(squares[origin], squares[target])
        return move

    def _targets(self, origin: int, piece: Piece) -> Iterator[int]:
        """Squares a piece could move to by its powers alone (repetition rules not applied)."""
        board = self._board
        kind = self._kinds[piece.kind]
        if not kind.mobile:
            return
        color = piece.color
        if kind.scout:
            strike = self.variant.scout_strike
            for ray in self.geometry.rays[origin]:
                for distance, target in enumerate(ray):
                    occupant = board[target]
                    if occupant is None:
                        yield target
                        continue
                    if occupant.color is not color and (distance == 0 or strike):
                        yield target
                    break
        else:
            for target in self.geometry.neighbours[origin]:
                occupant = board[target]
                if occupant is None or occupant.color is not color:
                    yield target

    def _turn_allows(self, piece: Piece, target: int) -> bool:
        if piece.id in self._turn_pieces:
            return False
        if self.variant.no_immediate_return:
            left = self._left.get(piece.id)
            if left is not None and left[0] == target and left[1] == self.turn - 2:
                return False
        return True

    def _candidate_moves(self, color: Color) -> Iterator[tuple[Piece, int, int]]:
        pieces = self._pieces
        for piece_id, index in self._where.items():
            piece = pieces[piece_id]
            if piece.color is not color or piece_id in self._turn_pieces:
                continue
            for target in self._targets(index, piece):
                if self._turn_allows(piece, target):
                    yield piece, index, target

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make now, repetition rules included."""
        if self.result is not None:
            return []
        board, position = self._board, self.hash
        refusal = self.repetition.refusal
        return [
            self._move(origin, target)
            for piece, origin, target in self._candidate_moves(self.to_move)
            if refusal(piece, origin, target, board[target] is not None, position) is None
        ]

    def has_legal_move(self) -> bool:
        """True when the player to move has at least one legal move (cheaper than listing them)."""
        board, position = self._board, self.hash
        refusal = self.repetition.refusal
        return any(
            refusal(piece, origin, target, board[target] is not None, position) is None
            for piece, origin, target in self._candidate_moves(self.to_move)
        )

    def check(self, move: Move) -> Refusal | None:
        """Why `move` is illegal now, or None when it is legal."""
        if self.result is not None:
            return Refusal("game-over", f"the game is over ({self.result.reason})", "game-over",
                           {"why": self.result.reason})
        variant = self.variant
        origin, target = move.origin, move.target
        for square in (origin, target):
            if not variant.on_board(square):
                return Refusal("movement", f"{square} is not on the board", "off-board",
                               {"square": str(square)})
        geometry = self.geometry
        origin_index, target_index = geometry.index(origin), geometry.index(target)
        piece = self._board[origin_index]
        if piece is None:
            return Refusal("movement", f"there is no piece on {origin}", "no-piece",
                           {"square": origin.name})
        if piece.color is not self.to_move:
            return Refusal("turn", f"it is {self.to_move.value.capitalize()}'s turn", "not-your-turn",
                           {"to_move": self.to_move.value})
        kind = self._kinds[piece.kind]
        if not kind.mobile:
            return Refusal("movement", f"the {piece.kind} on {origin} cannot move", "immobile",
                           {"square": origin.name, "kind": piece.kind})
        if target in self.blocked:
            what = "volcano" if target in self.volcanoes else "lake"
            return Refusal("movement", f"{target} is a {what}", what, {"square": target.name})
        occupant = self._board[target_index]
        if occupant is not None and occupant.color is piece.color:
            return Refusal("movement", f"{target} holds one of your own pieces", "own-piece",
                           {"square": target.name})
        if target_index not in self._targets(origin_index, piece):
            return self._why_unreachable(piece, move)
        if piece.id in self._turn_pieces:
            return Refusal("turn", "this turn's next move must be made by a different piece",
                           "same-piece", {"square": origin.name})
        if not self._turn_allows(piece, target_index):
            return Refusal(
                "movement", f"this piece may not go straight back to {target}, which it just left",
                "straight-back", {"square": target.name}
            )
        return self.repetition.refusal(piece, origin_index, target_index, occupant is not None,
                                       self.hash)

    def _why_unreachable(self, piece: Piece, move: Move) -> Refusal:
        kind = self._kinds[piece.kind]
        distance = move.origin.distance(move.target)
        straight = move.origin.file == move.target.file or move.origin.rank == move.target.rank
        squares = {"origin": move.origin.name, "target": move.target.name}
        if not straight:
            return Refusal("movement", "pieces move orthogonally, never diagonally", "diagonal", squares)
        if not kind.scout:
            return Refusal("movement", f"a {piece.kind} moves one square at a time", "one-square",
                           {**squares, "kind": piece.kind})
        if distance > 1 and self._board[self.geometry.index(move.target)] is not None:
            return Refusal("movement", "in this variant a scout may not attack at the end of a long move",
                           "scout-long-attack", squares)
        return Refusal("movement", f"the way from {move.origin} to {move.target} is not free",
                       "path-blocked", squares)

    # -- applying and undoing moves ---------------------------------------------------------

    def push(self, move: Move) -> list[Event]:
        """Apply a legal move and return what happened; raises IllegalMove and changes nothing."""
        refusal = self.check(move)
        if refusal is not None:
            raise IllegalMove(refusal)
        geometry = self.geometry
        board = self._board
        origin, target = geometry.index(move.origin), geometry.index(move.target)
        piece = board[origin]
        assert piece is not None
        defender = board[target]
        self.ply += 1
        undo = _Undo(
            move=move,
            piece=piece,
            origin=origin,
            target=target,
            removed=[],
            first_move=piece.id not in self.moved,
            revealed=[],
            result_before=self.result,
            to_move_before=self.to_move,
            turn_before=self.turn,
            turn_pieces_before=self._turn_pieces,
            left_before=self._left.get(piece.id),
            hash_before=self.hash,
            repetition_token=None,
        )
        events = undo.events
        ply = self.ply
        events.append(MoveEvent(piece.color.value, piece.id, piece.kind, move.name, ply))
        board[origin] = None
        self.hash ^= geometry.piece_key(piece.color, piece.kind, origin)
        self.moved.add(piece.id)
        self._left[piece.id] = (origin, self.turn)
        survivor_on_target: Piece | None = piece
        objective_taken = False
        if defender is None:
            self._place(piece, target)
        else:
            outcome = resolve_battle(self.variant, piece.kind, defender.kind)
            events.append(BattleEvent(
                piece.id, piece.color.value, piece.kind, defender.id, defender.color.value,
                defender.kind, move.target.name, outcome.value, ply,
            ))
            if self.variant.battle_reveals:
                for color in (Color.RED, Color.BLUE, None):
                    self._reveal(color, piece, undo)
                    self._reveal(color, defender, undo)
            if outcome is Outcome.ATTACKER:
                self._remove(defender, target, undo)
                self._place(piece, target)
                objective_taken = defender.kind in self.variant.combat.objectives
            elif outcome is Outcome.DEFENDER:
                self._remove(piece, None, undo)
                survivor_on_target = None
            else:
                self._remove(defender, target, undo)
                self._remove(piece, None, undo)
                survivor_on_target = None
            for removed, index in undo.removed:
                square = geometry.squares[index if index is not None else origin]
                events.append(CaptureEvent(removed.id, removed.color.value, removed.kind,
                                           square.name, ply))
        if survivor_on_target is not None and self.variant.recognizers:
            self._recognise_around(piece, target, undo)
        self._turn_pieces = self._turn_pieces + (piece.id,)
        undo.repetition_token = self.repetition.record(piece, origin, target, defender is not None,
                                                       self.hash)
        self._history.append(undo)
        self._finish_move(piece.color, objective_taken, defender, undo)
        return list(events)

    def _place(self, piece: Piece, index: int) -> None:
        self._board[index] = piece
        self._where[piece.id] = index
        self.hash ^= self.geometry.piece_key(piece.color, piece.kind, index)

    def _remove(self, piece: Piece, index: int | None, undo: _Undo) -> None:
        """Take a piece off the board (index None: the attacker, already lifted)."""
        if index is not None:
            self._board[index] = None
            self.hash ^= self.geometry.piece_key(piece.color, piece.kind, index)
        del self._where[piece.id]
        self.captured.append(piece)
        if self._kinds[piece.kind].mobile:
            self._mobile_count[piece.color] -= 1
        undo.removed.append((piece, index))

    def _reveal(self, color: Color | None, piece: Piece, undo: _Undo) -> bool:
        if piece.color is color or piece.id in self._known[color]:
            return False
        self._known[color].add(piece.id)
        undo.revealed.append((color, piece.id))
        return True

    def _recognise_around(self, piece: Piece, index: int, undo: _Undo) -> None:
        """Espionage: a spy knows every enemy piece touching it, and is known by nothing."""
        recognizers = self.variant.recognizers
        squares = self.geometry.squares
        for other_index in self.geometry.touching[index]:
            other = self._board[other_index]
            if other is None or other.color is piece.color:
                continue
            pairs = []
            if piece.kind in recognizers:
                pairs.append((piece.color, other, other_index))
            if other.kind in recognizers:
                pairs.append((other.color, piece, index))
            for viewer, seen, seen_index in pairs:
                if self._reveal(viewer, seen, undo):
                    undo.events.append(RevealEvent(
                        viewer.value, seen.id, seen.color.value, seen.kind,
                        squares[seen_index].name, self.ply,
                    ))

    def _finish_move(self, mover: Color, objective_taken: bool, defender: Piece | None,
                     undo: _Undo) -> None:
        opponent = mover.other
        ended: Result | None = None
        if objective_taken:
            assert defender is not None
            ended = Result(mover, f"{defender.kind}-captured")
        elif self._mobile_count[Color.RED] == 0 and self._mobile_count[Color.BLUE] == 0:
            ended = Result(None, results.BOTH_IMMOBILE)
        elif self._mobile_count[opponent] == 0:
            ended = Result(mover, results.NO_MOVABLE_PIECES)
            if self.variant.cannot_move == "loses" and not self._could_move(mover):
                ended = Result(None, results.NEITHER_CAN_MOVE)  # both unable to move: a draw
        elif self._mobile_count[mover] == 0 and self.variant.cannot_move == "passes":
            # Where a blocked player passes, a side without mobile pieces would pass for ever:
            # losing the last one ends the game at once (Espionage: the opponent captured them all).
            ended = Result(opponent, results.NO_MOVABLE_PIECES)
        if ended is None:
            turn_over = len(self._turn_pieces) >= self.variant.moves_per_turn or not self.has_legal_move()
            if turn_over:
                self._pass_turn()
                undo.events.append(TurnEvent(self.to_move.value, self.turn, self.ply))
                if not self.has_legal_move():
                    ended = self._when_blocked(undo)
        if ended is not None:
            self.result = ended
            undo.events.append(GameEndEvent(
                ended.winner.value if ended.winner else None, ended.reason, self.ply
            ))

    def _when_blocked(self, undo: _Undo) -> Result | None:
        """The player to move has no legal move: loses, or passes (a TurnEvent each) until one can."""
        if self.variant.cannot_move == "loses":
            # Only here, at the end of a game, is the other side looked at: when neither side
            # has a piece that could move, both are unable to move and the game is drawn
            # (the German rule booklet: "beide Spieler zugunfähig"; Gravon's ending 2).
            if not (self._could_move(self.to_move) or self._could_move(self.to_move.other)):
                return Result(None, results.NEITHER_CAN_MOVE)
            return Result(self.to_move.other, results.NO_LEGAL_MOVE)
        # A pass lets the no-return restriction expire, so three passes always settle it;
        # the bound only guards against a variant whose restrictions never expire.
        for _ in range(4):
            if not (self._could_move(Color.RED) or self._could_move(Color.BLUE)):
                break
            self._pass_turn()
            undo.events.append(TurnEvent(self.to_move.value, self.turn, self.ply))
            if self.has_legal_move():
                return None
        return Result(None, results.NEITHER_CAN_MOVE)

    def _could_move(self, color: Color) -> bool:
        """True when a piece of `color` has a move by its powers (passing restrictions ignored)."""
        pieces = self._pieces
        return any(
            pieces[piece_id].color is color and any(True for _ in self._targets(index, pieces[piece_id]))
            for piece_id, index in self._where.items()
        )

    def _pass_turn(self) -> None:
        self.to_move = self.to_move.other
        self.turn += 1
        self._turn_pieces = ()
        self.hash ^= self.geometry.side_key

    def pop(self) -> Move:
        """Take back the last move (both players agreed); returns it."""
        if self._declared is not None:
            raise ValueError("the game was ended by the players; a move cannot be taken back now")
        if not self._history:
            raise ValueError("there is no move to take back")
        undo = self._history.pop()
        self.repetition.undo(undo.repetition_token)
        piece = undo.piece
        board = self._board
        if self._where.get(piece.id) == undo.target:
            board[undo.target] = None
        for removed, index in reversed(undo.removed):
            self.captured.pop()
            if self._kinds[removed.kind].mobile:
                self._mobile_count[removed.color] += 1
            if index is not None:
                board[index] = removed
                self._where[removed.id] = index
        board[undo.origin] = piece
        self._where[piece.id] = undo.origin
        for color, piece_id in undo.revealed:
            self._known[color].discard(piece_id)
        if undo.first_move:
            self.moved.discard(piece.id)
        if undo.left_before is None:
            self._left.pop(piece.id, None)
        else:
            self._left[piece.id] = undo.left_before
        self.result = undo.result_before
        self.to_move = undo.to_move_before
        self.turn = undo.turn_before
        self._turn_pieces = undo.turn_pieces_before
        self.hash = undo.hash_before
        self.ply -= 1
        return undo.move

    # -- endings the players declare ----------------------------------------------------

    def _declare(self, result: Result) -> list[Event]:
        if self.result is not None:
            raise IllegalMove(Refusal("game-over", f"the game is over ({self.result.reason})",
                                      "game-over", {"why": self.result.reason}))
        self.result = result
        self._declared = result
        winner = result.winner.value if result.winner else None
        return [GameEndEvent(winner, result.reason, self.ply)]

    def pop_end(self) -> Result:
        """Take back the declared end on top of the undo stack (the referee could not record it);
        the game goes on exactly as before the declaration. A takeback by the players is `pop`,
        which a declared end refuses."""
        declared = self._declared
        if declared is None:
            raise ValueError("the game has no declared end to take back")
        self._declared = None
        self.result = None  # a declaration is only made while the game runs
        return declared

    def resign(self, color: Color) -> list[Event]:
        """`color` resigns and loses."""
        return self._declare(Result(Color(color).other, results.RESIGNATION))

    def agree_draw(self) -> list[Event]:
        """Both players agreed to a draw."""
        return self._declare(Result(None, results.AGREEMENT))

    def game_time_expired(self) -> list[Event]:
        """The agreed total game time ran out: a draw (the German game description)."""
        return self._declare(Result(None, results.GAME_TIME))

    def clock_fallen(self, color: Color) -> list[Event]:
        """`color`'s own clock ran out: that player loses."""
        return self._declare(Result(Color(color).other, results.CLOCK))

    # -- what the players may be told ---------------------------------------------------------

    def moves_left_in_run(self, color: Color) -> int | None:
        """How many more moves `color`'s current back-and-forth may have (two-squares rule)."""
        return self.repetition.moves_left_in_run(color)

    def chase_warning(self, color: Color) -> ChaseWarning | None:
        """None, or what `color` should know while chasing (more-squares rule)."""
        moving = self.to_move is color and self.result is None
        candidates = self._candidate_moves(color) if moving else ()
        return self.repetition.chase_warning(color, self.hash, candidates)

    def view(self, viewer: Color | None = None) -> PlayerView:
        """What `viewer` may know of the game (None: the public view)."""
        return player_view(self, viewer)

    def __repr__(self) -> str:
        return f"<Game {self.variant.name} ply={self.ply} to_move={self.to_move.value}>"


def place_volcanoes(variant: Variant, rng: random.Random) -> tuple[Square, ...]:
    """Random volcano squares on the middle rows (Espionage), none for other variants."""
    if variant.volcanoes <= 0:
        return ()
    candidates = [
        Square(f, r) for r in variant.middle_rows() for f in range(variant.width)
        if Square(f, r) not in variant.lakes
    ]
    return tuple(sorted(rng.sample(candidates, variant.volcanoes)))
