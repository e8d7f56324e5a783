"""The printed Austerlitz board's geometry as facts: locale outlines and approach bars on the sheet.

Data, not rules: the engine never reads it; the tablet and the display draw the map from it.
Coordinates are those of the source (a 2550 x 3300 sheet, x east, y south); see
data/PROVENANCE.md for where the numbers come from.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True)
class LocaleShape:
    """One locale as printed: its outline, the point deepest inside it, its capacity box."""

    id: int
    outline: tuple[Point, ...]
    anchor: Point
    clearance: float  # distance from the anchor to the nearest edge
    capacity_box: Point  # centre of the printed capacity number


@dataclass(frozen=True)
class ApproachBar:
    """The printed bar of `locale`'s approach on its border with `toward`."""

    locale: int
    toward: int
    centre: Point
    angle: float  # degrees clockwise from the x axis (y runs down)
    length: float
    inward: Point  # unit vector from the bar into `locale`
    source_id: int  # the source's approach number (2k or 2k+1 of its k-th border)

    @property
    def position(self) -> str:
        """The approach as the engine writes it: "64>63"."""
        return f"{self.locale}>{self.toward}"

    def ends(self) -> tuple[Point, Point]:
        """The bar's two end points."""
        half = self.length / 2
        dx, dy = math.cos(math.radians(self.angle)) * half, math.sin(math.radians(self.angle)) * half
        return (self.centre[0] - dx, self.centre[1] - dy), (self.centre[0] + dx, self.centre[1] + dy)


@dataclass(frozen=True)
class BoardGeometry:
    """Every locale's shape, every approach's bar and every entry road's point on the sheet."""

    width: float
    height: float
    locales: dict[int, LocaleShape]
    approaches: dict[str, ApproachBar]  # by position, "64>63"
    entries: dict[str, Point]
    meta: dict[str, Any]

    def bar(self, locale: int, toward: int) -> ApproachBar:
        """The bar of `locale`'s approach toward `toward` (KeyError if none is printed)."""
        return self.approaches[f"{locale}>{toward}"]


def _point(value: Any) -> Point:
    return float(value[0]), float(value[1])


def inside(point: Point, outline: tuple[Point, ...]) -> bool:
    """Even-odd rule: is the point inside the polygon?"""
    x, y = point
    result = False
    for (x1, y1), (x2, y2) in zip(outline, outline[-1:] + outline[:-1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            result = not result
    return result


def parse_geometry(data: dict[str, Any]) -> BoardGeometry:
    """The geometry from its stored form."""
    locales = {int(key): LocaleShape(int(key), tuple(_point(p) for p in item["outline"]),
                                     _point(item["anchor"]), float(item["clearance"]),
                                     _point(item["capacity_box"]))
               for key, item in data["locales"].items()}
    approaches = {}
    for key, item in data["approaches"].items():
        here, there = (int(part) for part in key.split(">"))
        approaches[key] = ApproachBar(here, there, _point(item["centre"]), float(item["angle"]),
                                      float(item["length"]), _point(item["inward"]),
                                      int(item["source_id"]))
    entries = {key: _point(value) for key, value in data["entries"].items()}
    sheet = data["meta"]["sheet"]
    return BoardGeometry(float(sheet["width"]), float(sheet["height"]), locales, approaches,
                         entries, data["meta"])


def raw_geometry() -> dict[str, Any]:
    """The geometry file as stored (for the validation tests)."""
    text = resources.files("engine.triumph").joinpath("data/board_geometry.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def load_board_geometry() -> BoardGeometry:
    """The printed Austerlitz board's geometry, loaded once."""
    return parse_geometry(raw_geometry())
