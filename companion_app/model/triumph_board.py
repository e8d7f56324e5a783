"""What the Napoleon's Triumph map draws for a view, and where: pure data, no Kivy.

Coordinates are in "width units": x runs 0..1 across the map, y 0..1/aspect upwards, so
distances are the same in both directions; the widget multiplies by its box's width.
A position is written as in the engine: "R63" (the reserve of locale 63) or "64>63" (locale
64's approach on its border with 63).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.triumph.mapdata import BattleMap, load_austerlitz

SIDES = ("french", "allied")
TYPE_LETTERS = {"infantry": "I", "cavalry": "C", "artillery": "A"}
STAR_ORDER = ("blue", "red", "green", "black")
APPROACH_GAP = 0.35  # how far outside its locale's circle an approach's blocks sit (in radii)


def node_radius(capacity: int, scale: float) -> float:
    """A locale's circle radius in width units (the same formula the layout used)."""
    return (0.22 + 0.075 * math.sqrt(capacity)) * scale


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


@dataclass(frozen=True)
class Node:
    """One locale as drawn: centre, radius, what is printed on it."""

    id: int
    x: float
    y: float
    radius: float
    capacity: int
    hill: bool
    stars: tuple[str, ...]
    name: str | None


@dataclass(frozen=True)
class BorderLine:
    """A border as a line between two centres: "wide", "narrow" or "impassable"."""

    a: int
    b: int
    kind: str


@dataclass(frozen=True)
class RoadLine:
    """A road across a border (drawn over it); `main` for the main road."""

    a: int
    b: int
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
    """The static map (nodes, borders, roads) and the scene of a view on it."""

    def __init__(self, layout: dict[str, Any], battle_map: BattleMap | None = None) -> None:
        self.map = battle_map or load_austerlitz()
        self.aspect: float = layout["aspect"]
        scale = layout["scale"]
        self.nodes: dict[int, Node] = {}
        for locale in self.map.locales.values():
            x, y = layout["points"][str(locale.id)]
            self.nodes[locale.id] = Node(locale.id, x, y / self.aspect,
                                         node_radius(locale.capacity, scale), locale.capacity,
                                         locale.hill, tuple(s for s in STAR_ORDER
                                                            if s in locale.stars), locale.name)
        self.borders = [BorderLine(b.a, b.b, "impassable" if not b.passable else
                                   "wide" if b.wide else "narrow") for b in self.map.borders]
        mains: dict[tuple[int, int], bool] = {}
        for road in self.map.roads:
            key = (min(road.a, road.b), max(road.a, road.b))
            mains[key] = mains.get(key, False) or road.main
        self.roads = [RoadLine(a, b, main) for (a, b), main in sorted(mains.items())]

    @property
    def height(self) -> float:
        """The map's height in width units."""
        return 1 / self.aspect

    def point(self, position: str) -> tuple[float, float]:
        """Where a position is drawn: a locale's centre, or its approach just outside its circle
        on the line to the neighbour."""
        locale, other = parse_position(position)
        node = self.nodes[locale]
        if other is None:
            return node.x, node.y
        far = self.nodes[other]
        dx, dy = far.x - node.x, far.y - node.y
        dist = math.hypot(dx, dy) or 1e-9
        reach = min(node.radius * (1 + APPROACH_GAP), dist / 2)
        return node.x + dx / dist * reach, node.y + dy / dist * reach

    def approaches(self) -> list[str]:
        """Every approach position (two per passable border)."""
        found = []
        for border in self.map.borders:
            if border.passable:
                found += [f"{border.a}>{border.b}", f"{border.b}>{border.a}"]
        return found

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
                    slack: float = 1.0, reach: float = 0.0) -> str | None:
        """The position a tap at (x, y) means: a reserve, or one of the listed approaches, whose
        mark it falls in (`slack` widens every mark, `reach` is the least radius a finger gets),
        the nearest edge winning; None when it falls in none."""
        best: tuple[float, str] | None = None
        for node in self.nodes.values():
            dist = math.hypot(x - node.x, y - node.y)
            if dist <= max(node.radius * slack, reach):
                score = dist - node.radius
                if best is None or score < best[0]:
                    best = (score, f"R{node.id}")
        for position in approaches:
            ax, ay = self.point(position)
            mark = self.nodes[parse_position(position)[0]].radius * 0.6
            dist = math.hypot(x - ax, y - ay)
            if dist <= max(mark * slack, reach * 0.7):
                score = dist - mark
                if best is None or score < best[0]:
                    best = (score, position)
        return best[1] if best else None
