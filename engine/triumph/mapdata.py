"""The Austerlitz map as facts: locales, borders with their two approaches, roads and entries."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

SYMBOL_LETTERS = frozenset("ICAO")
CAPACITIES = frozenset({1, 2, 4, 6, 9, 12, 16, 20})


@dataclass(frozen=True)
class Locale:
    """One map polygon: its number, capacity in blocks, hill, objective stars, set-up commander."""

    id: int
    capacity: int
    name: str | None
    hill: bool
    stars: tuple[str, ...]
    setup: str | None


@dataclass(frozen=True)
class Border:
    """The edge two locales share; `symbols[L]`, printed on L's side, penalise attacks into L."""

    a: int
    b: int
    wide: bool
    passable: bool
    symbols: tuple[tuple[int, str], tuple[int, str]]

    def symbols_of(self, locale: int) -> str:
        """The symbol letters printed on `locale`'s side of this border."""
        for side, letters in self.symbols:
            if side == locale:
                return letters
        raise KeyError(locale)

    def other(self, locale: int) -> int:
        """The locale across this border from `locale`."""
        return self.b if locale == self.a else self.a


@dataclass(frozen=True)
class RoadCrossing:
    """A road across the a|b border, from stretch `a_stretch` of a to stretch `b_stretch` of b."""

    a: int
    a_stretch: int
    b: int
    b_stretch: int
    main: bool


@dataclass(frozen=True)
class Entry:
    """A map-edge road where reinforcements come on: it arrives on one stretch of one locale."""

    id: str
    side: str
    locale: int
    stretch: int
    main: bool


@dataclass(frozen=True)
class RoadStep:
    """One crossing as travelled: from a stretch of one locale onto a stretch of the next."""

    source: int
    source_stretch: int
    target: int
    target_stretch: int
    main: bool


class BattleMap:
    """The map with lookups the rules need: neighbours, borders, approaches and road steps."""

    def __init__(self, meta: dict[str, Any], locales: list[Locale], borders: list[Border],
                 roads: list[RoadCrossing], entries: list[Entry]) -> None:
        self.meta = meta
        self.locales = {locale.id: locale for locale in locales}
        self.borders = borders
        self.roads = roads
        self.entries = {entry.id: entry for entry in entries}
        self._border: dict[tuple[int, int], Border] = {}
        self._neighbours: dict[int, list[int]] = {loc: [] for loc in self.locales}
        self._touching: dict[int, set[int]] = {loc: set() for loc in self.locales}
        for border in borders:
            self._border[(border.a, border.b)] = border
            self._border[(border.b, border.a)] = border
            self._touching[border.a].add(border.b)
            self._touching[border.b].add(border.a)
            if border.passable:
                self._neighbours[border.a].append(border.b)
                self._neighbours[border.b].append(border.a)
        for neighbours in self._neighbours.values():
            neighbours.sort()
        self._steps: dict[int, list[RoadStep]] = {loc: [] for loc in self.locales}
        for road in roads:
            self._steps[road.a].append(RoadStep(road.a, road.a_stretch, road.b, road.b_stretch,
                                                road.main))
            self._steps[road.b].append(RoadStep(road.b, road.b_stretch, road.a, road.a_stretch,
                                                road.main))

    def border(self, a: int, b: int) -> Border | None:
        """The border between two locales, or None when they share none."""
        return self._border.get((a, b))

    def neighbours(self, locale: int) -> list[int]:
        """Locales across a passable border, in number order."""
        return self._neighbours[locale]

    def touching(self, locale: int) -> set[int]:
        """Locales sharing any border with `locale`, impassable ones included."""
        return self._touching[locale]

    def is_passable(self, a: int, b: int) -> bool:
        """True when a and b share a passable border."""
        border = self._border.get((a, b))
        return border is not None and border.passable

    def road_steps(self, locale: int) -> list[RoadStep]:
        """Every road crossing leaving `locale`, as steps out of it."""
        return self._steps[locale]


def _parse(data: dict[str, Any]) -> BattleMap:
    locales = [Locale(item["id"], item["capacity"], item.get("name"), bool(item.get("hill")),
                      tuple(item.get("stars", ())), item.get("setup")) for item in data["locales"]]
    borders = []
    for item in data["borders"]:
        a, b = item["a"], item["b"]
        symbols = item.get("symbols", {})
        borders.append(Border(a, b, item["width"] == "wide", bool(item["passable"]),
                              ((a, symbols.get(str(a), "")), (b, symbols.get(str(b), "")))))
    roads = [RoadCrossing(r["a"], r["a_stretch"], r["b"], r["b_stretch"], bool(r["main"]))
             for r in data["roads"]]
    entries = [Entry(e["id"], e["side"], e["locale"], e["stretch"], bool(e["main"]))
               for e in data["entries"]]
    return BattleMap(data["meta"], locales, borders, roads, entries)


def raw_austerlitz() -> dict[str, Any]:
    """The map file as stored (for the validation tests)."""
    text = resources.files("engine.triumph").joinpath("data/austerlitz.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def load_austerlitz() -> BattleMap:
    """The Austerlitz map of Napoleon's Triumph, loaded once."""
    return _parse(raw_austerlitz())
