"""Variants as data: board, lakes, zones, armies, piece powers and rule switches."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.pieces import Color, PieceKind
from engine.squares import Square


@dataclass(frozen=True)
class CombatRules:
    """How a battle is decided, beyond "the higher rank wins"."""

    ties: str = "both"  # "both": equal ranks both leave; "attacker": the attacker wins ties
    # (attacker, defender): the attacker wins although weaker, only when it attacks (Spy vs Marshal)
    assassins: frozenset[tuple[str, str]] = frozenset()
    # (attacker, trap): this attacker removes the trap (Miner vs Bomb, Sapper vs Mine)
    defusers: frozenset[tuple[str, str]] = frozenset()
    traps: frozenset[str] = frozenset()  # kills any other attacker and stays (Bomb, Mine)
    objectives: frozenset[str] = frozenset()  # falls to any attacker and ends the game (Flag)


@dataclass(frozen=True)
class Variant:
    """Everything that makes one game of the family different from another."""

    name: str
    title: str
    width: int
    height: int
    lakes: frozenset[Square]
    setup_rows: int
    army: dict[str, int] = field(hash=False)
    kinds: dict[str, PieceKind] = field(hash=False)
    combat: CombatRules = CombatRules()
    full_setup: bool = True  # every square of the zone must be filled
    first: Color = Color.RED
    scout_strike: bool = True  # a scout may attack at the end of a long move
    two_squares_limit: int | None = 3  # moves allowed between the same two squares; None = off
    more_squares_rule: bool = True  # the chasing rule (ISF 11)
    battle_reveals: bool = True  # both ranks are shown to both players in a battle
    recognizers: frozenset[str] = frozenset()  # kinds that recognise touching enemies (Espionage spies)
    moves_per_turn: int = 1  # moves per turn, each by a different piece
    no_immediate_return: bool = False  # a piece may not go straight back on its owner's next turn
    volcanoes: int = 0  # blocked squares placed at random on the middle rows when a game is created
    # A player who must move and cannot: "loses" (ISF), or "passes" (Espionage: drawn when neither
    # side can move, and capturing all enemy mobile pieces wins whoever's turn it is).
    cannot_move: str = "loses"

    def squares(self) -> tuple[Square, ...]:
        """Every square of the board, lakes included, rank by rank."""
        return tuple(Square(f, r) for r in range(self.height) for f in range(self.width))

    def on_board(self, square: Square) -> bool:
        """True when the square exists on this board."""
        return 0 <= square.file < self.width and 0 <= square.rank < self.height

    def zone(self, color: Color) -> tuple[Square, ...]:
        """The squares where `color` sets up: the rows nearest that player."""
        if color is Color.RED:
            rows = range(self.setup_rows)
        else:
            rows = range(self.height - self.setup_rows, self.height)
        return tuple(
            Square(f, r) for r in rows for f in range(self.width) if Square(f, r) not in self.lakes
        )

    def middle_rows(self) -> tuple[int, ...]:
        """The rows between the two setup zones (where volcanoes may go)."""
        return tuple(range(self.setup_rows, self.height - self.setup_rows))

    def army_size(self) -> int:
        """Pieces per side."""
        return sum(self.army.values())


def _kind(name: str, rank: int | None, *, mobile: bool = True, scout: bool = False,
          points: int = 0, old_rank: int | None = None, symbol: str = "") -> PieceKind:
    if not symbol:
        symbol = {"spy": "S", "bomb": "B", "flag": "F"}.get(name) or ("X" if rank == 10 else str(rank))
    return PieceKind(name, rank, mobile=mobile, scout=scout, points=points, old_rank=old_rank,
                     symbol=symbol)


# Classic ranks (the German rule booklet: higher number, higher rank); material points as de Boer's
# "Strategy" rules count them.
STRATEGO_KINDS: dict[str, PieceKind] = {
    "marshal": _kind("marshal", 10, points=9, old_rank=1),
    "general": _kind("general", 9, points=8, old_rank=2),
    "colonel": _kind("colonel", 8, points=7, old_rank=3),
    "major": _kind("major", 7, points=6, old_rank=4),
    "captain": _kind("captain", 6, points=5, old_rank=5),
    "lieutenant": _kind("lieutenant", 5, points=4, old_rank=6),
    "sergeant": _kind("sergeant", 4, points=3, old_rank=7),
    "miner": _kind("miner", 3, points=2, old_rank=8),
    "scout": _kind("scout", 2, scout=True, points=1, old_rank=9),
    "spy": _kind("spy", 1, points=1),
    "bomb": _kind("bomb", None, mobile=False),
    "flag": _kind("flag", None, mobile=False),
}

CLASSIC_LAKES = frozenset(Square.parse(s) for s in ["c5", "d5", "c6", "d6", "g5", "h5", "g6", "h6"])

STRATEGO_COMBAT = CombatRules(
    ties="both",
    assassins=frozenset({("spy", "marshal")}),
    defusers=frozenset({("miner", "bomb")}),
    traps=frozenset({"bomb"}),
    objectives=frozenset({"flag"}),
)

CLASSIC = Variant(
    name="classic",
    title="Stratego (classic, ISF rules)",
    width=10,
    height=10,
    lakes=CLASSIC_LAKES,
    setup_rows=4,
    army={
        "marshal": 1, "general": 1, "colonel": 2, "major": 3, "captain": 4, "lieutenant": 4,
        "sergeant": 4, "miner": 5, "scout": 8, "spy": 1, "bomb": 6, "flag": 1,
    },
    kinds=STRATEGO_KINDS,
    combat=STRATEGO_COMBAT,
)

BARRAGE = replace(
    CLASSIC,
    name="barrage",
    title="Stratego Barrage (8 pieces)",
    army={"marshal": 1, "general": 1, "miner": 1, "scout": 2, "spy": 1, "bomb": 1, "flag": 1},
    full_setup=False,
)

DUEL = replace(
    BARRAGE,
    name="duel",
    title="Stratego Duel (10 pieces)",
    army={"marshal": 1, "general": 1, "miner": 2, "scout": 2, "spy": 1, "bomb": 2, "flag": 1},
)

COMPACT = replace(
    CLASSIC,
    name="compact",
    title="Stratego Compact (30 pieces, 3 rows)",
    setup_rows=3,
    army={
        "marshal": 1, "general": 1, "colonel": 2, "major": 3, "captain": 3, "lieutenant": 2,
        "sergeant": 2, "miner": 4, "scout": 5, "spy": 1, "bomb": 5, "flag": 1,
    },
)

# de Boer's "Strategy" rules: the General is the top rank, only the attacking Spy beats it.
STRATEGY8_KINDS = {name: kind for name, kind in STRATEGO_KINDS.items() if name not in ("marshal", "sergeant")}
STRATEGY8_KINDS["general"] = _kind("general", 9, points=7, old_rank=1)
STRATEGY8_KINDS["colonel"] = _kind("colonel", 8, points=6, old_rank=2)
STRATEGY8_KINDS["major"] = _kind("major", 7, points=5, old_rank=3)
STRATEGY8_KINDS["captain"] = _kind("captain", 6, points=4, old_rank=4)
STRATEGY8_KINDS["lieutenant"] = _kind("lieutenant", 5, points=3, old_rank=5)
STRATEGY8_KINDS["miner"] = _kind("miner", 3, points=2, old_rank=6)
STRATEGY8_KINDS["scout"] = _kind("scout", 2, scout=True, points=1, old_rank=7)

STRATEGY8 = Variant(
    name="strategy8",
    title="Strategy (8x8)",
    width=8,
    height=8,
    lakes=frozenset(Square.parse(s) for s in ["c4", "c5", "f4", "f5"]),
    setup_rows=3,
    army={
        "general": 1, "colonel": 1, "major": 2, "captain": 3, "lieutenant": 3, "miner": 3,
        "scout": 5, "spy": 1, "bomb": 4, "flag": 1,
    },
    kinds=STRATEGY8_KINDS,
    combat=replace(STRATEGO_COMBAT, assassins=frozenset({("spy", "general")})),
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (CLASSIC, BARRAGE, DUEL, COMPACT, STRATEGY8)}


def register_variant(variant: Variant) -> None:
    """Make a variant available by name (used by variant modules such as Espionage)."""
    VARIANTS[variant.name] = variant


def variant_names() -> tuple[str, ...]:
    """The names of every variant shipped or registered."""
    return tuple(VARIANTS)


def get_variant(name: str) -> Variant:
    """The variant of that name; ValueError lists the known names otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}") from None


_SCALAR_FIELDS = {
    f.name for f in fields(Variant)
    if f.name not in ("lakes", "army", "kinds", "combat", "first", "recognizers")
}


def variant_from_toml(text: str) -> Variant:
    """Build a family's own variant from TOML text: a `base` variant plus what changes.

    Example::

        name = "quick"
        base = "classic"
        two_squares_limit = 5
        [army]
        scout = 10
    """
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"not valid TOML: {error}") from None
    base = get_variant(data.pop("base", "classic"))
    if "name" not in data:
        raise ValueError("a variant needs a name")
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SCALAR_FIELDS:
            changes[key] = value
        elif key == "lakes":
            changes["lakes"] = frozenset(Square.parse(s) for s in value)
        elif key == "first":
            changes["first"] = Color(value)
        elif key == "recognizers":
            changes["recognizers"] = frozenset(value)
        elif key == "army":
            army = dict(base.army) if data.get("army_mode") == "change" else {}
            army.update({str(k): int(v) for k, v in value.items()})
            changes["army"] = {k: v for k, v in army.items() if v > 0}
        elif key == "kinds":
            kinds = dict(base.kinds)
            for kind_name, powers in value.items():
                kinds[kind_name] = PieceKind(kind_name, **powers)
            changes["kinds"] = kinds
        elif key == "combat":
            changes["combat"] = CombatRules(
                ties=value.get("ties", base.combat.ties),
                assassins=frozenset(tuple(p) for p in value.get("assassins", base.combat.assassins)),
                defusers=frozenset(tuple(p) for p in value.get("defusers", base.combat.defusers)),
                traps=frozenset(value.get("traps", base.combat.traps)),
                objectives=frozenset(value.get("objectives", base.combat.objectives)),
            )
        elif key != "army_mode":
            raise ValueError(f"unknown variant setting {key!r}")
    variant = replace(base, **changes)
    problems = check_variant(variant)
    if problems:
        raise ValueError("; ".join(problems))
    return variant


def check_variant(variant: Variant) -> list[str]:
    """Reasons a variant cannot be played (empty when it can)."""
    problems = []
    if not (2 <= variant.width <= 26 and 2 <= variant.height <= 99):
        problems.append(f"board {variant.width}x{variant.height} is not supported")
    if 2 * variant.setup_rows > variant.height:
        problems.append("the two setup zones overlap")
    unknown = [k for k in variant.army if k not in variant.kinds]
    if unknown:
        problems.append(f"army names unknown pieces: {', '.join(unknown)}")
    for color in Color:
        zone = len(variant.zone(color))
        size = variant.army_size()
        if size > zone or (variant.full_setup and size != zone):
            problems.append(f"{size} pieces do not fit a zone of {zone} squares")
            break
    if not any(variant.kinds[k].mobile for k in variant.army if k in variant.kinds):
        problems.append("the army has no piece that moves")
    if variant.cannot_move not in ("loses", "passes"):
        problems.append("cannot_move is 'loses' or 'passes'")
    return problems
