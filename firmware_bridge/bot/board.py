"""The search board: a compact board of plain arrays with fast make/unmake, for the bot's search.

It is built from what one seat knows plus one sampled world (a kind for every enemy piece), never
from a `Game`. Kinds are small integers, the battle table is computed once per variant with the
rules engine's own `resolve_battle`, and the two-squares rule is modelled exactly as the engine
reads it (`engine/stratego/repetition.py`); the more-squares rule is not modelled here: the player filters
its root moves with the chase warning its view carries and with its own copy of the repetition
rules (`public_rules.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.stratego.combat import Outcome, resolve_battle
from engine.stratego.geometry import Geometry, geometry_for
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

EMPTY = -1
BLOCKED = -2
RED, BLUE = 0, 1

# Battle results in the table: who stays.
ATTACKER_WINS, DEFENDER_WINS, BOTH_DIE = 1, 2, 3
_OUTCOME_CODE = {Outcome.ATTACKER: ATTACKER_WINS, Outcome.DEFENDER: DEFENDER_WINS,
                 Outcome.BOTH: BOTH_DIE}

# A run of the two-squares rule: (piece index, lowest square, highest square, step, count).
Run = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Rules:
    """A variant's rules as small tables the search looks up."""

    variant: Variant
    geometry: Geometry
    blocked: frozenset[Square]  # lakes and any other square nobody may enter
    kinds: tuple[str, ...]  # kind code -> kind name
    code: dict[str, int]  # kind name -> kind code
    mobile: tuple[bool, ...]
    scout: tuple[bool, ...]
    objective: tuple[bool, ...]
    battle: tuple[tuple[int, ...], ...]  # battle[attacker][defender] -> ATTACKER_WINS ...
    limit: int  # two-squares limit; a very large number when the rule is off
    diggers: frozenset[str]  # the kinds that defuse bombs (Miners)


def rules_for(variant: Variant, blocked: frozenset[Square] = frozenset()) -> Rules:
    """The search tables of a variant (blocked: extra squares nobody may enter)."""
    kinds = tuple(sorted(variant.kinds))
    code = {name: index for index, name in enumerate(kinds)}
    battle = tuple(
        tuple(_OUTCOME_CODE[resolve_battle(variant, attacker, defender)] for defender in kinds)
        for attacker in kinds
    )
    return Rules(
        variant=variant,
        geometry=geometry_for(variant, frozenset(blocked) - variant.lakes),
        blocked=variant.lakes | frozenset(blocked),
        kinds=kinds,
        code=code,
        mobile=tuple(variant.kinds[k].mobile for k in kinds),
        scout=tuple(variant.kinds[k].scout for k in kinds),
        objective=tuple(k in variant.combat.objectives for k in kinds),
        battle=battle,
        limit=(variant.two_squares_limit or 10**9),
        diggers=frozenset(name for name, _ in variant.combat.defusers),
    )


class SearchBoard:
    """Pieces as parallel lists (kind code, colour, square); squares hold a piece index or EMPTY."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        geometry = rules.geometry
        self.width = geometry.width
        self.size = geometry.size
        self.neighbours = geometry.neighbours
        self.rays = geometry.rays
        self.cells: list[int] = [EMPTY] * self.size
        for square in rules.blocked:
            self.cells[geometry.index(square)] = BLOCKED
        self.kind: list[int] = []
        self.color: list[int] = []
        self.square: list[int] = []  # -1 once captured
        self.ident: list[int] = []  # the engine's piece id
        self.moved: list[bool] = []
        # How much an enemy piece's kind is a guess in this world: 0 shown, 1 hidden and moved,
        # more for one that never moved (a bomb is among its guesses); see `loss_aversion`.
        self.hidden: list[float] = []
        self.movers: tuple[list[int], list[int]] = ([], [])  # mobile piece indices per colour
        self.mobile_count = [0, 0]
        self.runs: list[Run | None] = [None, None]
        self.to_move = RED
        self.winner: int | None = None  # set while a finished position is on the board
        self.finished = False

    # -- building -------------------------------------------------------------------------

    def add(self, square: int, color: int, kind: str, ident: int, moved: bool = False,
            hidden: float = 0.0) -> int:
        """Put a piece on an empty square; returns its index (hidden: how much its kind is a
        guess, 0 when shown)."""
        if self.cells[square] != EMPTY:
            raise ValueError(f"square {square} is not free")
        code = self.rules.code[kind]
        index = len(self.kind)
        self.kind.append(code)
        self.color.append(color)
        self.square.append(square)
        self.ident.append(ident)
        self.moved.append(moved)
        self.hidden.append(hidden)
        self.cells[square] = index
        if self.rules.mobile[code]:
            self.mobile_count[color] += 1
            self.movers[color].append(index)
        return index

    def set_run(self, color: int, ident: int, squares: frozenset[int] | set[int], count: int) -> None:
        """Load a two-squares run as the engine keeps it (piece id, squares, count)."""
        index = self.ident.index(ident)
        low, high = min(squares), max(squares)
        step = 1 if low // self.width == high // self.width else self.width
        self.runs[color] = (index, low, high, step, count)

    def index_of(self, ident: int) -> int:
        """The piece index of an engine piece id."""
        return self.ident.index(ident)

    # -- moves ----------------------------------------------------------------------------

    def _refused(self, piece: int, origin: int, target: int) -> bool:
        run = self.runs[self.color[piece]]
        if run is None or run[0] != piece or run[4] < self.rules.limit:
            return False
        _, low, high, step, _ = run
        return (low <= origin <= high and (origin - low) % step == 0
                and low <= target <= high and (target - low) % step == 0)

    def moves(self, color: int | None = None) -> list[tuple[int, int]]:
        """Every legal (origin, target) for `color` (default: the side to move), two-squares applied."""
        if self.finished:
            return []
        color = self.to_move if color is None else color
        squares = self.square
        result: list[tuple[int, int]] = []
        for piece in self.movers[color]:
            if squares[piece] >= 0:
                result.extend(self.moves_of(piece))
        return result

    def moves_of(self, piece: int) -> list[tuple[int, int]]:
        """The legal moves of one piece on the board (two-squares applied)."""
        cells, colors = self.cells, self.color
        origin = self.square[piece]
        color = colors[piece]
        code = self.kind[piece]
        found: list[tuple[int, int]] = []
        if origin < 0 or not self.rules.mobile[code]:
            return found
        if self.rules.scout[code]:
            strike = self.rules.variant.scout_strike
            for ray in self.rays[origin]:
                for distance, target in enumerate(ray):
                    occupant = cells[target]
                    if occupant == EMPTY:
                        found.append((origin, target))
                        continue
                    if occupant >= 0 and colors[occupant] != color and (distance == 0 or strike):
                        found.append((origin, target))
                    break
        else:
            for target in self.neighbours[origin]:
                occupant = cells[target]
                if occupant == EMPTY or (occupant >= 0 and colors[occupant] != color):
                    found.append((origin, target))
        run = self.runs[color]
        if run is not None and run[0] == piece and run[4] >= self.rules.limit:
            found = [m for m in found if not self._refused(piece, m[0], m[1])]
        return found

    def make(self, origin: int, target: int) -> tuple:
        """Play a move (legal by `moves`); returns what `unmake` needs."""
        cells = self.cells
        piece = cells[origin]
        defender = cells[target]
        color = self.color[piece]
        old_run = self.runs[color]
        old_moved = self.moved[piece]
        self._record_run(piece, color, origin, target, old_run)
        self.moved[piece] = True
        cells[origin] = EMPTY
        outcome = 0
        if defender == EMPTY:
            cells[target] = piece
            self.square[piece] = target
        else:
            outcome = self.rules.battle[self.kind[piece]][self.kind[defender]]
            if outcome == ATTACKER_WINS:
                self._take(defender)
                cells[target] = piece
                self.square[piece] = target
                if self.rules.objective[self.kind[defender]]:
                    self.finished, self.winner = True, color
            elif outcome == DEFENDER_WINS:
                self._take(piece)
            else:
                self._take(defender)
                self._take(piece)
                cells[target] = EMPTY
        if not self.finished:
            self._check_immobile(color)
        self.to_move = 1 - color
        return (origin, target, piece, defender, outcome, old_run, old_moved)

    def _take(self, piece: int) -> None:
        self.square[piece] = -1
        if self.rules.mobile[self.kind[piece]]:
            self.mobile_count[self.color[piece]] -= 1

    def _check_immobile(self, mover: int) -> None:
        counts = self.mobile_count
        if counts[0] == 0 and counts[1] == 0:
            self.finished, self.winner = True, None
        elif counts[1 - mover] == 0:
            self.finished, self.winner = True, mover

    def _record_run(self, piece: int, color: int, origin: int, target: int, run: Run | None) -> None:
        if run is not None and run[0] == piece:
            _, low, high, step, count = run
            if (low <= origin <= high and (origin - low) % step == 0
                    and low <= target <= high and (target - low) % step == 0):
                self.runs[color] = (piece, low, high, step, count + 1)
                return
        low, high = min(origin, target), max(origin, target)
        step = 1 if low // self.width == high // self.width else self.width
        self.runs[color] = (piece, low, high, step, 1)

    def unmake(self, undo: tuple) -> None:
        """Take back the move `make` returned `undo` for."""
        origin, target, piece, defender, outcome, old_run, old_moved = undo
        cells = self.cells
        color = self.color[piece]
        self.runs[color] = old_run
        self.moved[piece] = old_moved
        self.finished, self.winner = False, None
        if defender == EMPTY:
            cells[target] = EMPTY
            cells[origin] = piece
            self.square[piece] = origin
        else:
            if outcome != DEFENDER_WINS:
                self._restore(defender, target)
            if outcome == ATTACKER_WINS:
                cells[origin] = piece
                self.square[piece] = origin
            else:
                self._restore(piece, origin)
        self.to_move = color

    def _restore(self, piece: int, square: int) -> None:
        self.square[piece] = square
        self.cells[square] = piece
        if self.rules.mobile[self.kind[piece]]:
            self.mobile_count[self.color[piece]] += 1

    # -- reading ----------------------------------------------------------------------------

    def square_name(self, index: int) -> str:
        """The name of a square index, e.g. "e4"."""
        return self.rules.geometry.squares[index].name

    def move_name(self, origin: int, target: int) -> str:
        """A move in record notation, e.g. "a4-a5"."""
        return f"{self.square_name(origin)}-{self.square_name(target)}"

    def index(self, name: str) -> int:
        """The index of a square name."""
        return self.rules.geometry.index(Square.parse(name))

    def kind_name(self, piece: int) -> str:
        """The kind of a piece by name."""
        return self.rules.kinds[self.kind[piece]]
