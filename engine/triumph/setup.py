"""Set-up of the 2 December scenario (RB 6): each side's private deployment, checked, as a position.

A side's set-up is an object:
    {"commanders": {"Lannes": "R64", "Davout": null, ...},
     "units": [{"id", "type", "strength", "guard", "commander": "Lannes", "at": "R64"},
               {"id", ..., "from": "Lannes", "at": "62>63"}],   # a French detachment
     "fixed_battery": "f1"}                                       # French only
A unit with `commander` stands with its corps; one without stands detached and names in `from`
the corps it came out of. Reinforcement corps stand off the map (`null`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.triumph import readings
from engine.triumph.errors import TriumphError
from engine.triumph.mapdata import BattleMap
from engine.triumph.pieces import ALLIED, FRENCH, INFANTRY, Position
from engine.triumph.refusals import refusal
from engine.triumph.rules import commanders as known_commanders
from engine.triumph.rules import constants, raw_order_of_battle

RULE = "nt-setup"
FRENCH_OBJECTIVE_STARS = frozenset({"green", "red", "black"})


class SetupError(TriumphError):
    """A set-up the rules do not allow; the message names the first thing that is wrong.

    `reason` and `data` say the same for a tablet to write in its language (`side` in the data
    names whose set-up it is; the catalogue is engine/triumph/refusals.py)."""

    code = RULE

    def __init__(self, message: str, code: str | None = None, reason: str = "",
                 data: dict[str, Any] | None = None) -> None:
        super().__init__(message, code)
        self.reason = reason
        self.data = dict(data or {})


def setup_error(side: str | None, key: str, **data: Any) -> SetupError:
    """The objection `key` to `side`'s set-up (None: to both set-ups together)."""
    objection = refusal(key, side=side, **data)
    prefix = f"{side} set-up" if side else "set-up"
    return SetupError(f"{prefix}: {objection.message}", RULE, key, dict(objection.data))


def _refuse(side: str, key: str, **data: Any) -> SetupError:
    return setup_error(side, key, **data)


def position_from_setups(french: Any, allied: Any, battle_map: BattleMap) -> dict[str, Any]:
    """The opening position (7:00 AM, Allies to move) from both set-ups; SetupError if invalid."""
    units: list[dict[str, Any]] = []
    commanders: list[dict[str, Any]] = []
    battery = None
    for side, setup in ((FRENCH, french), (ALLIED, allied)):
        placed, side_commanders, side_battery = check_setup(side, setup, battle_map)
        units += placed
        commanders += side_commanders
        battery = battery or side_battery
    taken: dict[int, str] = {}
    for item in units:
        if item["at"] is None:
            continue
        locale = Position.parse(item["at"]).locale
        if taken.setdefault(locale, item["side"]) != item["side"]:
            raise _refuse(FRENCH, "setup-allied-locale", locale=locale)
    return {"round": constants().first_hour, "to_move": ALLIED,
            "morale": dict(constants().starting_morale), "reinforcements_entered": False,
            "commanders": commanders, "units": units, "fixed_battery": battery}


def check_setup(side: str, setup: Any, battle_map: BattleMap
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str | None]:
    """One side's units and commanders as position entries (and the fixed battery's id)."""
    if not isinstance(setup, dict):
        raise _refuse(side, "setup-not-object")
    mine = {n: c for n, c in known_commanders().items() if c.side == side}
    placed_at = setup.get("commanders")
    if not isinstance(placed_at, dict) or set(placed_at) != set(mine):
        raise _refuse(side, "setup-commanders", commanders=sorted(mine))
    corps_at: dict[str, Position | None] = {}
    for name, info in mine.items():
        where = _position(side, placed_at[name], battle_map)
        if info.setup is None:
            if where is not None:
                raise _refuse(side, "setup-reinforcement-off-map", commander=name)
        elif where is None or where.locale != info.setup:
            raise _refuse(side, "setup-commander-locale", commander=name, locale=info.setup)
        corps_at[name] = where
    units = setup.get("units")
    if not isinstance(units, list) or not all(isinstance(u, dict) for u in units):
        raise _refuse(side, "setup-units-list")
    _check_army(side, units)
    sizes: Counter[str] = Counter()
    detached: list[dict[str, Any]] = []
    entries = []
    for item in units:
        name, origin = item.get("commander"), item.get("from")
        corps = name if name is not None else origin
        if not isinstance(corps, str) or corps not in mine:
            raise _refuse(side, "setup-no-commander", unit=str(item.get("id")))
        sizes[corps] += 1
        at = _position(side, item.get("at"), battle_map)
        if name is not None:
            if at != corps_at[name]:
                raise _refuse(side, "setup-with-commander", unit=item["id"], commander=name)
        else:
            detached.append(item)
            if at is None:
                raise _refuse(side, "setup-detachment-on-map", unit=item["id"])
        entry = {k: item[k] for k in ("id", "type", "strength") if k in item}
        entry.update(side=side, guard=bool(item.get("guard", False)),
                     at=str(at) if at is not None else None)
        if name is not None:
            entry["commander"] = name
        entries.append(entry)
    limits = constants()
    for name, info in mine.items():
        if not info.least_units <= sizes[name] <= limits.corps_max_units:
            raise _refuse(side, "setup-corps-size", commander=name, count=sizes[name],
                          least=info.least_units, most=limits.corps_max_units)
        kept = [u for u in units if u.get("commander") == name]
        if corps_at[name] is not None and not kept:
            raise _refuse(side, "setup-corps-keeps-one", commander=name)
        if info.setup is None and all(u.get("type") == INFANTRY and u.get("strength") == 2
                                      for u in kept):
            raise _refuse(side, "setup-reinforcement-mix", commander=name)
    battery = _check_battery(side, setup.get("fixed_battery"), units)
    # The fixed battery in its own corps' locale was only moved to an approach; anywhere else it
    # was placed as a detachment first and obeys the detachment limits.
    _check_detachments(side, [u for u in detached if u.get("id") != battery or Position.parse(
        u["at"]).locale != _locale(corps_at[u["from"]])], corps_at, battle_map)
    commanders = [{"name": n, "side": side, "at": str(p) if p is not None else None}
                  for n, p in corps_at.items()]
    return entries, commanders, battery


def _check_army(side: str, units: list[dict[str, Any]]) -> None:
    ids = [u.get("id") for u in units]
    if not all(isinstance(i, str) and i for i in ids) or len(set(ids)) != len(ids):
        raise _refuse(side, "setup-unit-ids")
    if not all(isinstance(u.get("guard", False), bool) for u in units):
        raise _refuse(side, "setup-guard-flag")
    wanted: Counter[tuple[Any, Any, Any]] = Counter()
    for face in raw_order_of_battle()["armies"][side]:
        wanted[(face["type"], face["strength"], face["guard"])] += face["count"]
    given = Counter((u.get("type"), u.get("strength"), bool(u.get("guard", False)))
                    for u in units)
    if given != wanted:
        missing = sorted(f"{k[0]}-{k[1]!r}{' Guard' if k[2] else ''} x{n}"
                         for k, n in (wanted - given).items())
        extra = sorted(f"{k[0]}-{k[1]!r}{' Guard' if k[2] else ''} x{n}"
                       for k, n in (given - wanted).items())
        raise _refuse(side, "setup-order-of-battle", missing=missing or ["none"],
                      extra=extra or ["none"])


def _locale(position: Position | None) -> int | None:
    return position.locale if position is not None else None


def _check_battery(side: str, battery: Any, units: list[dict[str, Any]]) -> str | None:
    if side == ALLIED:
        if battery is not None:
            raise _refuse(side, "setup-allied-battery")
        return None
    unit = next((u for u in units if u.get("id") == battery), None)
    if unit is None or unit.get("type") != "artillery":
        raise _refuse(side, "setup-battery-artillery")
    if unit.get("commander") is not None or unit.get("at") is None:
        raise _refuse(side, "setup-battery-detached", unit=str(battery))
    if Position.parse(unit["at"]).is_reserve:
        raise _refuse(side, "setup-battery-blocks", unit=str(battery))
    return str(battery)


def _check_detachments(side: str, detached: list[dict[str, Any]],
                       corps_at: dict[str, Position | None], battle_map: BattleMap) -> None:
    if side == ALLIED and detached:
        raise _refuse(side, "setup-allied-detachments")
    count = len(detached)
    if count > readings.FRENCH_DETACHMENTS_MAX:
        raise _refuse(side, "setup-detachments-count", count=count,
                      limit=readings.FRENCH_DETACHMENTS_MAX)
    for item in detached:
        home = corps_at[item["from"]]
        if home is None:
            raise _refuse(side, "setup-detachment-of-reinforcement", unit=item["id"])
        _check_detachment_place(side, item["id"], Position.parse(item["at"]).locale,
                                home.locale, battle_map)


def _check_detachment_place(side: str, unit_id: str, locale: int, home: int,
                            battle_map: BattleMap) -> None:
    """Within 2 passable steps of the corps' set-up locale, away from French objective stars."""
    reach, frontier = {home}, {home}
    for _ in range(readings.DETACHMENT_REACH):
        frontier = {n for loc in frontier for n in battle_map.neighbours(loc)} - reach
        reach |= frontier
    if locale not in reach:
        raise _refuse(side, "setup-detachment-reach", unit=unit_id,
                      reach=readings.DETACHMENT_REACH, locale=home)
    near = {locale} | battle_map.touching(locale)
    starred = sorted(n for n in near
                     if FRENCH_OBJECTIVE_STARS & set(battle_map.locales[n].stars))
    if starred:
        raise _refuse(side, "setup-detachment-stars", unit=unit_id, locales=starred)


def _position(side: str, value: Any, battle_map: BattleMap) -> Position | None:
    if value is None:
        return None
    try:
        position = Position.parse(value)
    except TriumphError as error:
        raise _refuse(side, "setup-position", problem=error.message,
                      position=str(value)) from None
    if position.locale not in battle_map.locales:
        raise _refuse(side, "setup-no-locale", locale=position.locale)
    if position.toward is not None and not battle_map.is_passable(position.locale,
                                                                  position.toward):
        raise _refuse(side, "setup-not-passable", position=str(position))
    return position
