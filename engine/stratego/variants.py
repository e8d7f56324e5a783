"""Variants as data: board, lakes, zones, armies, piece powers and rule switches."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from typing import Any, get_args, get_origin, get_type_hints

from engine.core.errors import ArbiterError
from engine.stratego.pieces import Color, PieceKind
from engine.stratego.squares import Square


class VariantError(ArbiterError, ValueError):
    """A variant that cannot be built or played; the message names the field at fault."""

    code = "bad-variant"


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
    """The variant of that name; VariantError (a ValueError) lists the known names otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise VariantError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}",
                           code="unknown-variant") from None


_SCALAR_FIELDS = {
    f.name for f in fields(Variant)
    if f.name not in ("lakes", "army", "kinds", "combat", "first", "recognizers")
}
_TYPE_WORDS = {int: "a whole number", bool: "true or false", str: "text"}


def _field_types(cls: type) -> dict[str, type]:
    """The plain type of each field of a dataclass (`int | None` counts as `int`)."""
    types = {}
    for name, hint in get_type_hints(cls).items():
        options = [t for t in get_args(hint) if t is not type(None)] or [hint]
        types[name] = get_origin(options[0]) or options[0]
    return types


_VARIANT_TYPES = _field_types(Variant)
_KIND_TYPES = _field_types(PieceKind)


def _checked(where: str, value: Any, expected: type) -> Any:
    """`value` if it has the type a field needs, else a VariantError naming the field."""
    # TOML's true is a Python int too: a number field must not take it, nor a flag a number.
    if isinstance(value, expected) and (expected is bool or not isinstance(value, bool)):
        return value
    words = _TYPE_WORDS.get(expected, f"a {expected.__name__}")
    raise VariantError(f"{where} must be {words}, not {value!r}")


def _table(where: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise VariantError(f"{where} must be a table, not {value!r}")
    return value


def _names(where: str, value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise VariantError(f"{where} must be a list of names, not {value!r}")
    return value


def _piece_kind(name: str, powers: Any) -> PieceKind:
    """A piece kind from its TOML table; an unknown or mistyped power names the field."""
    powers = _table(f"kinds.{name}", powers)
    for power, value in powers.items():
        if power == "name" or power not in _KIND_TYPES:
            known = ", ".join(p for p in _KIND_TYPES if p != "name")
            raise VariantError(f"kinds.{name}: unknown piece field {power!r} (known: {known})")
        _checked(f"kinds.{name}: {power!r}", value, _KIND_TYPES[power])
    return PieceKind(name, **powers)


def _combat(value: Any, base: CombatRules) -> CombatRules:
    """The combat rules of a TOML `[combat]` table: what it gives replaces the base's."""
    table = _table("'combat'", value)
    unknown = sorted(set(table) - {f.name for f in fields(CombatRules)})
    if unknown:
        raise VariantError(f"combat: unknown setting {unknown[0]!r}")
    pairs: dict[str, frozenset[tuple[str, str]]] = {}
    for key in ("assassins", "defusers"):
        if key not in table:
            pairs[key] = getattr(base, key)
            continue
        given = table[key]
        if not isinstance(given, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(n, str) for n in p) for p in given):
            raise VariantError(f"combat.{key} must be a list of [attacker, defender] pairs")
        pairs[key] = frozenset((a, b) for a, b in given)
    return CombatRules(
        ties=_checked("combat.ties", table.get("ties", base.ties), str),
        assassins=pairs["assassins"],
        defusers=pairs["defusers"],
        traps=frozenset(_names("combat.traps", table["traps"])) if "traps" in table else base.traps,
        objectives=(frozenset(_names("combat.objectives", table["objectives"]))
                    if "objectives" in table else base.objectives),
    )


def variant_from_toml(text: str) -> Variant:
    """Build a family's own variant from TOML text: a `base` variant plus what changes.

    Example::

        name = "quick"
        base = "classic"
        two_squares_limit = 5
        [army]
        scout = 10

    Anything that cannot make a variant raises VariantError (a ValueError) naming the field.
    """
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise VariantError(f"not valid TOML: {error}") from None
    base = get_variant(_checked("'base'", data.pop("base", "classic"), str))
    if "name" not in data:
        raise VariantError("a variant needs a name")
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SCALAR_FIELDS:
            changes[key] = _checked(repr(key), value, _VARIANT_TYPES[key])
        elif key == "lakes":
            try:
                changes["lakes"] = frozenset(Square.parse(s) for s in _names("'lakes'", value))
            except ValueError as error:
                raise VariantError(f"lakes: {error}") from None
        elif key == "first":
            if value not in tuple(Color):
                raise VariantError(f"'first' must be 'red' or 'blue', not {value!r}")
            changes["first"] = Color(value)
        elif key == "recognizers":
            changes["recognizers"] = frozenset(_names("'recognizers'", value))
        elif key == "army":
            army = dict(base.army) if data.get("army_mode") == "change" else {}
            for kind_name, count in _table("'army'", value).items():
                army[kind_name] = _checked(f"army.{kind_name}", count, int)
            changes["army"] = {k: v for k, v in army.items() if v > 0}
        elif key == "kinds":
            kinds = dict(base.kinds)
            for kind_name, powers in _table("'kinds'", value).items():
                kinds[kind_name] = _piece_kind(kind_name, powers)
            changes["kinds"] = kinds
        elif key == "combat":
            changes["combat"] = _combat(value, base.combat)
        elif key != "army_mode":
            raise VariantError(f"unknown variant setting {key!r}")
    variant = replace(base, **changes)
    problems = check_variant(variant)
    if problems:
        raise VariantError("; ".join(problems))
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
