"""Napoleon's Triumph in the MQTT contract: which seat plays which army, and the shape checks of
the ``setup`` and ``nt`` commands' arguments (the engine then rules on their content)."""

from __future__ import annotations

from dataclasses import fields

from engine.triumph.actions import ACTION_TYPES, DeclareEnd, action_from_dict
from engine.triumph.errors import TriumphError

VARIANT = "napoleons-triumph"
# The Allies move first in every hour, as red moves first in Stratego; the French are blue.
SIDE_OF_SEAT = {"red": "allied", "blue": "french"}
SEAT_OF_SIDE = {side: seat for seat, side in SIDE_OF_SEAT.items()}
MAX_SETUP_UNITS = 120  # 80 units in the order of battle; more is no set-up
MAX_ACTION_TEXT = 4000  # one action fits in a command envelope with room to spare
SETUP_FIELDS = frozenset({"commanders", "units", "fixed_battery"})
UNIT_FIELDS = frozenset({"id", "type", "strength", "guard", "commander", "from", "at"})


def is_triumph_setup(value: dict) -> bool:
    """Whether a ``setup`` argument is a Napoleon's Triumph set-up object (not Stratego squares)."""
    return "units" in value or "commanders" in value


def setup_problem(value: dict) -> str | None:
    """What is wrong with the shape of a side's set-up object, or None (the engine checks the rules)."""
    unknown = set(value) - SETUP_FIELDS
    if unknown:
        return f"has unknown fields {sorted(unknown)}"
    commanders, units = value.get("commanders"), value.get("units")
    if not isinstance(commanders, dict) or not all(
            isinstance(k, str) and len(k) <= 40 and (v is None or isinstance(v, str) and len(v) <= 12)
            for k, v in commanders.items()) or len(commanders) > 20:
        return "commanders must map names to positions (or null)"
    if not isinstance(units, list) or len(units) > MAX_SETUP_UNITS:
        return f"units must be a list of at most {MAX_SETUP_UNITS} units"
    for unit in units:
        if not isinstance(unit, dict) or set(unit) - UNIT_FIELDS:
            return f"a unit must be an object with the fields {sorted(UNIT_FIELDS)}"
        if not all(isinstance(v, (str, int, bool, type(None))) and len(str(v)) <= 40 for v in unit.values()):
            return "a unit's fields are short names, numbers or true/false"
    battery = value.get("fixed_battery")
    if battery is not None and not (isinstance(battery, str) and len(battery) <= 40):
        return "fixed_battery must be a unit id"
    return None


def action_problem(value: dict) -> str | None:
    """What is wrong with the shape of an ``nt`` action (without its side), or None."""
    if "side" in value:
        return "carries no side: the seat's side is the action's"
    kind = value.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or cls is DeclareEnd:
        # a game ends by the referee's own rulings (resign, the draw commands, the clocks), never
        # by a seat declaring it: an agreed end needs both players
        known = sorted(k for k, c in ACTION_TYPES.items() if c is not DeclareEnd)
        return f"has an unknown type {kind!r} (known: {', '.join(known)})"
    allowed = {f.name.rstrip("_") for f in fields(cls)} | {"type"}
    unknown = set(value) - allowed
    if unknown:
        return f"{kind} has unknown fields {sorted(unknown)}"
    if len(repr(value)) > MAX_ACTION_TEXT:
        return "is too long"
    try:
        action_from_dict({**value, "side": "french"})
    except TriumphError as error:
        return error.message
    except (TypeError, ValueError) as error:  # a position that does not parse, and the like
        return str(error)
    return None
