"""Actions: small frozen records with a JSON form (the record format) and a one-line text form."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from engine.triumph.errors import TriumphError
from engine.triumph.pieces import ALLIED, FRENCH, SIDES, Position

Pairs = tuple[tuple[str, Any], ...]
PAIR_FIELDS = ("losses", "to", "keep", "allocation")


@dataclass(frozen=True)
class Order:
    """One command inside an attack, feint or occupation: a Unit Move or a Corps Move."""

    type: str
    unit: str | None = None
    commander: str | None = None
    units: tuple[str, ...] = ()
    road: tuple[int, ...] | None = None  # a cavalry attack by road: locales entered, in order
    entry: str | None = None  # a reinforcement corps attacking as it comes on by this entry road

    @property
    def moving_units(self) -> tuple[str, ...]:
        """The units this order moves."""
        return (self.unit,) if self.unit is not None else self.units

    def to_dict(self) -> dict[str, Any]:
        """The order as in a record."""
        data: dict[str, Any]
        if self.type == "unit_move":
            data = {"type": "unit_move", "unit": self.unit}
        else:
            data = {"type": self.type, "commander": self.commander, "units": list(self.units)}
        if self.road is not None:
            data["road"] = list(self.road)
        if self.entry is not None:
            data["entry"] = self.entry
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Order:
        """Read an order object of a record."""
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise TriumphError(f"not an order: {data!r}")
        road = _road(data["road"], "order") if "road" in data else None
        entry = _text(data, "entry") if "entry" in data else None
        if data["type"] == "unit_move":
            return cls("unit_move", unit=_text(data, "unit"), road=road, entry=entry)
        return cls(data["type"], commander=_text(data, "commander"),
                   units=_texts(data.get("units", [])), road=road, entry=entry)

    def __str__(self) -> str:
        by_road = "" if self.road is None else f" by {'-'.join(map(str, self.road))}"
        if self.entry is not None:
            by_road = f" entering by {self.entry}{by_road}"
        if self.type == "unit_move":
            return f"unit {self.unit}{by_road}"
        return f"{self.commander}[{','.join(self.units)}]{by_road}"


@dataclass(frozen=True)
class Action:
    """Base of all actions: the side that acts; `type` names the kind as in records."""

    side: str
    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The action as one object of a record's `actions` list."""
        data: dict[str, Any] = {"side": self.side, "type": self.type}
        for field in fields(self):
            if field.name == "side":
                continue
            value = getattr(self, field.name)
            if value is None:
                continue
            if field.name in PAIR_FIELDS and not (self.type != "retreat" and field.name == "to"):
                data[field.name] = {k: v for k, v in value}
            else:
                data[field.name.rstrip("_")] = _to_json(value)
        return data

    def __str__(self) -> str:
        parts = [self.side, self.type]
        for key, value in self.to_dict().items():
            if key not in ("side", "type"):
                parts.append(f"{key}={_text_form(value)}")
        return " ".join(parts)


@dataclass(frozen=True)
class CorpsMove(Action):
    """A commander moves with some of its units (the rest become detached)."""

    commander: str
    units: tuple[str, ...]
    to: Position
    road: tuple[int, ...] | None = None
    entry: str | None = None  # the entry road of a reinforcement corps coming on the map
    type: ClassVar[str] = "corps_move"


@dataclass(frozen=True)
class DetachMove(Action):
    """Some (never all) of a commander's units move away and become detached."""

    commander: str
    units: tuple[str, ...]
    to: Position
    road: tuple[int, ...] | None = None
    type: ClassVar[str] = "detach_move"


@dataclass(frozen=True)
class UnitMove(Action):
    """One unit moves on its own (an independent command) and becomes detached."""

    unit: str
    to: Position
    road: tuple[int, ...] | None = None
    type: ClassVar[str] = "unit_move"


@dataclass(frozen=True)
class Attach(Action):
    """A commander takes a unit standing in its position into its corps."""

    commander: str
    unit: str
    type: ClassVar[str] = "attach"


@dataclass(frozen=True)
class Threat(Action):
    """Step 1: the attacker threatens the enemy locale `into` from his locale `from_`."""

    from_: int
    into: int
    guard: str | None = None
    type: ClassVar[str] = "threat"


@dataclass(frozen=True)
class Retreat(Action):
    """The defender retreats every piece of the locale: losses, destinations, units kept."""

    losses: Pairs = ()
    to: Pairs = ()
    keep: Pairs = ()
    type: ClassVar[str] = "retreat"


@dataclass(frozen=True)
class Defend(Action):
    """Step 2: the defender stands, naming the defending units of the reserve."""

    units: tuple[str, ...]
    type: ClassVar[str] = "defend"


@dataclass(frozen=True)
class Feint(Action):
    """Step 3: the attacker commits commands but does not fight; `end` is approach or reserve."""

    orders: tuple[Order, ...]
    end: str = "approach"
    type: ClassVar[str] = "feint"


@dataclass(frozen=True)
class Press(Action):
    """Step 3: the attacker goes on with the attack."""

    type: ClassVar[str] = "press"


@dataclass(frozen=True)
class DefenceLeaders(Action):
    """Step 4: the defender names (and reveals) 0-2 leading units."""

    units: tuple[str, ...]
    type: ClassVar[str] = "defence_leaders"


@dataclass(frozen=True)
class Attack(Action):
    """Step 5: the attacker's commands, width and leaders (and the leader he engages)."""

    orders: tuple[Order, ...]
    wide: bool = False
    leaders: tuple[str, ...] = ()
    engage: str | None = None
    type: ClassVar[str] = "attack"


@dataclass(frozen=True)
class CounterAttack(Action):
    """Step 7: the defender reveals up to two more units, each losing a step at once."""

    units: tuple[str, ...]
    type: ClassVar[str] = "counter_attack"


@dataclass(frozen=True)
class AssignLosses(Action):
    """Step 10: loss points on the pieces that are not leaders, as the owner chooses."""

    allocation: Pairs
    type: ClassVar[str] = "assign_losses"


@dataclass(frozen=True)
class OddLoss(Action):
    """Step 10: which of two unequal leaders (or counter-attackers) takes the odd point."""

    unit: str
    type: ClassVar[str] = "odd_loss"


@dataclass(frozen=True)
class Advance(Action):
    """After a feint or repulse: defenders of the reserve that move up to block the approach."""

    units: tuple[str, ...]
    commanders: tuple[str, ...] = ()
    type: ClassVar[str] = "advance"


@dataclass(frozen=True)
class Regroup(Action):
    """After a repulse: the unit each attacking corps keeps (the others become detached)."""

    keep: Pairs
    type: ClassVar[str] = "regroup"


@dataclass(frozen=True)
class Occupy(Action):
    """After a retreat before combat: the commands that move into the emptied locale."""

    orders: tuple[Order, ...]
    type: ClassVar[str] = "occupy"


@dataclass(frozen=True)
class EndTurn(Action):
    """The player ends his turn."""

    type: ClassVar[str] = "end_turn"


# How a game ends other than by the rules, and the side a declaration names: the side that
# resigned, the side whose time ran out, the side that made an agreed end final, the side the
# game waited for when the agreed game time ran out.
DECLARED_ENDS = ("resignation", "time", "agreed", "game-time")


@dataclass(frozen=True)
class DeclareEnd(Action):
    """The game ends by a declaration (resignation, agreed end, time), not by the rules."""

    reason: str
    type: ClassVar[str] = "declare_end"

    @property
    def winner(self) -> str | None:
        """The side that wins: the other side after a resignation or a lost clock, else none."""
        if self.reason in ("resignation", "time"):
            return ALLIED if self.side == FRENCH else FRENCH
        return None


ACTION_TYPES: dict[str, type[Action]] = {cls.type: cls for cls in (
    CorpsMove, DetachMove, UnitMove, Attach, Threat, Retreat, Defend, Feint, Press,
    DefenceLeaders, Attack, CounterAttack, AssignLosses, OddLoss, Advance, Regroup, Occupy,
    EndTurn, DeclareEnd)}


def action_from_dict(data: Any) -> Action:
    """Read one action object of a record; TriumphError when it cannot be read at all."""
    if not isinstance(data, dict):
        raise TriumphError(f"an action must be an object, not {data!r}")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise TriumphError(f"unknown action type {kind!r}")
    side = data.get("side")
    if side not in SIDES:
        raise TriumphError(f"action side must be french or allied, not {side!r}")
    values: dict[str, Any] = {"side": side}
    for field in fields(cls):
        if field.name == "side":
            continue
        key = field.name.rstrip("_")
        if key not in data:
            if field.default is not MISSING:
                continue
            raise TriumphError(f"{kind} needs the field {key!r}")
        values[field.name] = _read_field(cls, field.name, data[key])
    return cls(**values)


def _read_field(cls: type[Action], name: str, value: Any) -> Any:
    kind = cls.type
    if name == "to" and kind != "retreat":
        return Position.parse(value)
    if name in ("units", "commanders", "leaders"):
        return _texts(value)
    if name == "reason":
        if value not in DECLARED_ENDS:
            raise TriumphError(f"{kind}.reason must be one of {', '.join(DECLARED_ENDS)}")
        return value
    if name in ("commander", "unit", "guard", "engage", "end", "entry"):
        if not isinstance(value, str):
            raise TriumphError(f"{kind}.{name} must be a string")
        return value
    if name in ("from_", "into"):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TriumphError(f"{kind}.{name} must be a locale number")
        return value
    if name == "road":
        return _road(value, kind)
    if name == "wide":
        if not isinstance(value, bool):
            raise TriumphError(f"{kind}.wide must be true or false")
        return value
    if name == "orders":
        if not isinstance(value, list):
            raise TriumphError(f"{kind}.orders must be a list")
        return tuple(Order.from_dict(item) for item in value)
    if name in ("losses", "to", "keep", "allocation"):
        if not isinstance(value, dict):
            raise TriumphError(f"{kind}.{name} must be an object")
        return tuple(sorted((str(k), v) for k, v in value.items()))
    raise TriumphError(f"{kind}: unexpected field {name}")  # pragma: no cover


def _road(value: Any, kind: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise TriumphError(f"{kind}.road must be a list of locale numbers")
    return tuple(value)


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise TriumphError(f"{key} must be a string, not {value!r}")
    return value


def _texts(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TriumphError(f"expected a list of names, not {value!r}")
    return tuple(value)


def _to_json(value: Any) -> Any:
    if isinstance(value, Position):
        return str(value)
    if isinstance(value, Order):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _text_form(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_text_form(v) for v in value)
    if isinstance(value, dict):
        if "type" in value:
            return str(Order.from_dict(value))
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)
