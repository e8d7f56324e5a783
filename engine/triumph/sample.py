"""A full position near the printed set-up, for benches and tests (not a validated set-up)."""

from __future__ import annotations

from typing import Any

from engine.triumph.mapdata import load_austerlitz
from engine.triumph.rules import commanders, constants, raw_order_of_battle


def crowded_position(to_move: str = "allied", round_: int = 7) -> dict[str, Any]:
    """Every unit of both armies on the map: each on-map commander in its set-up locale with as
    many units as fit (at most 8), the rest detached in nearby free locales."""
    battle_map = load_austerlitz()
    oob = raw_order_of_battle()["armies"]
    taken: dict[int, str] = {}
    room: dict[int, int] = {}
    result_commanders: list[dict[str, Any]] = []
    units: list[dict[str, Any]] = []
    placed_commanders = [c for c in commanders().values() if c.setup is not None]
    for info in placed_commanders:
        taken[info.setup or 0] = info.side
    for side in ("french", "allied"):
        faces = [(f["type"], f["strength"], f["guard"]) for f in oob[side]
                 for _ in range(f["count"])]
        faces.sort(key=lambda f: (f[1], f[0]), reverse=True)
        mine = [c for c in placed_commanders if c.side == side]
        slots: list[tuple[str, int]] = []
        for info in mine:
            assert info.setup is not None
            size = min(constants().corps_max_units, battle_map.locales[info.setup].capacity)
            slots += [(info.name, info.setup)] * size
            result_commanders.append({"name": info.name, "side": side, "at": f"R{info.setup}"})
        # deal faces round-robin over corps so that every corps gets a mix
        order = sorted(range(len(slots)), key=lambda i: slots[:i].count(slots[i]))
        for number, (kind, strength, guard) in enumerate(faces):
            unit = {"id": f"{side[0]}{number + 1}", "side": side, "type": kind,
                    "strength": strength, "guard": guard}
            if number < len(order):
                name, locale = slots[order[number]]
                unit.update(at=f"R{locale}", commander=name)
            else:
                near = mine[number % len(mine)].setup
                locale = _free_locale_near(battle_map, taken, room, side, near)
                unit.update(at=f"R{locale}")
            units.append(unit)
    return {"round": round_, "to_move": to_move,
            "morale": dict(constants().starting_morale), "reinforcements_entered": False,
            "commanders": result_commanders, "units": units}


def _free_locale_near(battle_map: Any, taken: dict[int, str], room: dict[int, int], side: str,
                      start: int | None) -> int:
    frontier, seen = [start or 1], {start or 1}
    while frontier:
        locale = frontier.pop(0)
        if taken.get(locale, side) == side and room.get(locale, 1) > 0 and all(
                taken.get(n, side) == side for n in battle_map.neighbours(locale)):
            if locale not in room:
                room[locale] = battle_map.locales[locale].capacity - (
                    8 if any(c.setup == locale for c in commanders().values()) else 0)
            if room[locale] > 0:
                room[locale] -= 1
                taken[locale] = side
                return locale
        for n in battle_map.neighbours(locale):
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    raise ValueError("no room left on the map")  # pragma: no cover
