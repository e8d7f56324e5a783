"""What the Napoleon's Triumph map draws for a view, and where: pure data, no Kivy.

The map is the printed board: locale outlines and approach bars from the engine's
board_geometry (sheet units, x east, y south). A position is written as in the engine:
"R63" (the reserve of locale 63) or "64>63" (locale 64's approach on its border with 63).
Where each block and flag goes without covering another is companion_app.model.triumph_chips.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.triumph.board_geometry import (
    ApproachBar,
    BoardGeometry,
    Point,
    inside,
    load_board_geometry,
)
from engine.triumph.mapdata import BattleMap, load_austerlitz

SIDES = ("french", "allied")
TYPE_LETTERS = {"infantry": "I", "cavalry": "C", "artillery": "A"}
STAR_ORDER = ("blue", "red", "green", "black")
BAR_DEPTH = 16.0  # how far inside its own locale an approach's blocks stand off the bar (sheet units)


def face_code(face: dict[str, Any] | None) -> str:
    """A face in two characters: "I3", "C2", "A1", "G3" for Guard infantry, "?" when hidden."""
    if not face:
        return "?"
    letter = "G" if face.get("guard") else TYPE_LETTERS.get(face.get("type", ""), "?")
    return f"{letter}{face.get('strength', '?')}"


def faces_label(faces: list[dict[str, Any] | None]) -> str:
    """Known faces strongest first (Guard, infantry, cavalry, artillery), then "+n" for the
    hidden ones: "I3 I2 +2"."""
    known = sorted((face_code(f) for f in faces if f), key=lambda c: (-int(c[1]), "GICA".find(c[0])))
    hidden = sum(1 for f in faces if not f)
    if not known:
        return ""
    return " ".join(known) + (f" +{hidden}" if hidden else "")


def short_name(commander: str) -> str:
    """A commander's flag label, four letters at most: "Lann", "StHi", "Bagr"."""
    return commander.replace("St. ", "St").replace(" ", "")[:4]


def parse_position(text: str) -> tuple[int, int | None]:
    """(locale, None) for "R63"; (64, 63) for the approach "64>63"."""
    if text.startswith("R"):
        return int(text[1:]), None
    left, right = text.split(">")
    return int(left), int(right)


def segment_distance(point: Point, a: Point, b: Point) -> float:
    """The distance from a point to the segment ab."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((point[0] - a[0]) * dx + (point[1] - a[1]) * dy) / (dx * dx + dy * dy or 1.0)
    t = max(0.0, min(1.0, t))
    return math.hypot(point[0] - a[0] - t * dx, point[1] - a[1] - t * dy)


def edge_distance(point: Point, outline: tuple[Point, ...]) -> float:
    """The distance from a point to a polygon's nearest edge."""
    return min(segment_distance(point, a, b)
               for a, b in zip(outline, outline[1:] + outline[:1], strict=True))


@dataclass(frozen=True)
class Region:
    """One locale as drawn: its printed outline and what is printed in it."""

    id: int
    outline: tuple[Point, ...]
    anchor: Point
    clearance: float
    label_at: Point  # where its number goes (the printed capacity box)
    capacity: int
    hill: bool
    stars: tuple[str, ...]
    name: str | None


@dataclass(frozen=True)
class BorderBar:
    """A passable border's printed bar (one per border: both approaches share it)."""

    a: int
    b: int
    ends: tuple[Point, Point]
    wide: bool


@dataclass(frozen=True)
class RoadLine:
    """A road across a border, drawn from one locale's anchor over the bar to the other's."""

    points: tuple[Point, ...]
    main: bool


@dataclass
class Stack:
    """The blocks one side has in one position: how many, and the faces this view knows."""

    position: str
    side: str
    x: float
    y: float
    count: int = 0
    faces: list[dict[str, Any] | None] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The known faces, or "" when none is known."""
        return faces_label(self.faces)


@dataclass(frozen=True)
class Flag:
    """A commander's flag at a position."""

    name: str
    side: str
    position: str
    label: str


@dataclass
class Scene:
    """Everything one view puts on the map."""

    stacks: list[Stack]
    flags: list[Flag]
    attack_locale: int | None = None
    defence_locale: int | None = None
    closed: list[str] = field(default_factory=list)
    stormed: list[int] = field(default_factory=list)
    off_map: list[str] = field(default_factory=list)


class TriumphBoard:
    """The printed map (outlines, bars, roads) and the scene of a view on it."""

    def __init__(self, geometry: BoardGeometry | None = None,
                 battle_map: BattleMap | None = None) -> None:
        self.map = battle_map or load_austerlitz()
        self.geometry = geometry or load_board_geometry()
        self.width, self.height = self.geometry.width, self.geometry.height
        self.regions: dict[int, Region] = {}
        for locale in self.map.locales.values():
            shape = self.geometry.locales[locale.id]
            self.regions[locale.id] = Region(
                locale.id, shape.outline, shape.anchor, shape.clearance, shape.capacity_box,
                locale.capacity, locale.hill, tuple(s for s in STAR_ORDER if s in locale.stars),
                locale.name)
        self.bars = [BorderBar(b.a, b.b, self.geometry.bar(b.a, b.b).ends(), b.wide)
                     for b in self.map.borders if b.passable]
        self.closed_borders = [(b.a, b.b) for b in self.map.borders if not b.passable]
        mains: dict[tuple[int, int], bool] = {}
        for road in self.map.roads:
            key = (min(road.a, road.b), max(road.a, road.b))
            mains[key] = mains.get(key, False) or road.main
        self.roads = [RoadLine((self.regions[a].anchor, self.geometry.bar(a, b).centre,
                                self.regions[b].anchor), main)
                      for (a, b), main in sorted(mains.items())]

    @property
    def aspect(self) -> float:
        """Width over height of the printed sheet."""
        return self.width / self.height

    def bar(self, position: str) -> ApproachBar:
        """The printed bar of an approach position ("64>63")."""
        locale, toward = parse_position(position)
        assert toward is not None
        return self.geometry.bar(locale, toward)

    def point(self, position: str) -> Point:
        """Where a position's blocks gather: a locale's anchor, or just inside its own locale
        behind an approach's bar."""
        locale, toward = parse_position(position)
        if toward is None:
            return self.regions[locale].anchor
        bar = self.geometry.bar(locale, toward)
        return (bar.centre[0] + bar.inward[0] * BAR_DEPTH, bar.centre[1] + bar.inward[1] * BAR_DEPTH)

    def approaches(self) -> list[str]:
        """Every approach position (two per passable border)."""
        return sorted(self.geometry.approaches)

    def scene(self, view: dict[str, Any]) -> Scene:
        """The stacks, flags and marks of a view (public or a seat's)."""
        stacks: dict[tuple[str, str], Stack] = {}
        for unit in view.get("units", ()):
            at, side = unit.get("at"), unit.get("side")
            if not at or side not in SIDES:
                continue
            key = (at, side)
            if key not in stacks:
                x, y = self.point(at)
                stacks[key] = Stack(at, side, x, y)
            stacks[key].count += 1
            stacks[key].faces.append(unit.get("face"))
        flags = [Flag(c["name"], c["side"], c["at"], short_name(c["name"]))
                 for c in view.get("commanders", ()) if c.get("at")]
        # the view does not tell reinforcements still to come from eliminated commanders
        off_map = [c["name"] for c in view.get("commanders", ()) if not c.get("at")]
        attack = view.get("attack") or {}
        return Scene(sorted(stacks.values(), key=lambda s: (s.position, s.side)), flags,
                     attack.get("attack_locale"), attack.get("defence_locale"),
                     list(view.get("closed", ())), list(view.get("stormed", ())), off_map)

    def position_at(self, x: float, y: float, approaches: set[str] | frozenset[str] = frozenset(),
                    reach: float = 0.0) -> str | None:
        """The position a tap at sheet point (x, y) means: one of the listed approaches when the
        tap is within `reach` of its bar on its own side, else the locale it falls in (or the
        nearest within `reach` of it); None when there is none."""
        tap = (x, y)
        best: tuple[float, str] | None = None
        for position in approaches:
            bar = self.bar(position)
            dist = segment_distance(tap, *bar.ends())
            own_side = ((x - bar.centre[0]) * bar.inward[0] + (y - bar.centre[1]) * bar.inward[1]
                        > -BAR_DEPTH)
            if dist <= max(reach, BAR_DEPTH * 1.5) and own_side and (best is None or dist < best[0]):
                best = (dist, position)
        if best is not None:
            return best[1]
        for region in self.regions.values():
            if inside(tap, region.outline):
                return f"R{region.id}"
        nearest = min(self.regions.values(), key=lambda r: edge_distance(tap, r.outline))
        return f"R{nearest.id}" if edge_distance(tap, nearest.outline) <= reach else None
