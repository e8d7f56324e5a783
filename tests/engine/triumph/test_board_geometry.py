"""The printed board's geometry held against our own map lists (locales, borders, entries).

The geometry was transcribed from another file of the public reconstruction than our locale and
border lists were, so agreement here is a real check: every locale has an outline, every passable
border two printed bars lying on the edge the two outlines share, each bar facing into its own
locale, wide borders long bars, every entry road inside its entry locale.
"""

from __future__ import annotations

import math

import pytest

from engine.triumph.board_geometry import (
    BoardGeometry,
    Point,
    inside,
    load_board_geometry,
    raw_geometry,
)
from engine.triumph.mapdata import load_austerlitz

MAP = load_austerlitz()
GEOMETRY = load_board_geometry()
# bars are fitted to the printed bars and outlines traced on a 2-unit grid, then simplified
ON_EDGE = 5.0


def distance_to_edge(point: Point, outline: tuple[Point, ...]) -> float:
    """How far the point is from the polygon's nearest edge."""
    best = math.inf
    for (x1, y1), (x2, y2) in zip(outline, outline[-1:] + outline[:-1], strict=True):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((point[0] - x1) * dx + (point[1] - y1) * dy) / (dx * dx + dy * dy or 1)))
        best = min(best, math.hypot(point[0] - x1 - t * dx, point[1] - y1 - t * dy))
    return best


def crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do the segments ab and cd properly cross?"""
    def turn(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
    return turn(c, d, a) * turn(c, d, b) < 0 and turn(a, b, c) * turn(a, b, d) < 0


def test_every_locale_of_our_map_has_an_outline_and_nothing_else_has() -> None:
    assert set(GEOMETRY.locales) == set(MAP.locales)
    assert len(GEOMETRY.locales) == 168
    assert (GEOMETRY.width, GEOMETRY.height) == (2550, 3300)


def test_outlines_are_simple_polygons_on_the_sheet() -> None:
    for shape in GEOMETRY.locales.values():
        outline = shape.outline
        assert len(outline) >= 3, shape.id
        assert all(0 <= x <= GEOMETRY.width and 0 <= y <= GEOMETRY.height for x, y in outline)
        edges = list(zip(outline, outline[1:] + outline[:1], strict=True))
        for i, (a, b) in enumerate(edges):
            for c, d in edges[i + 2:len(edges) - (1 if i == 0 else 0)]:
                assert not crosses(a, b, c, d), shape.id


def test_anchor_and_capacity_box_lie_inside_their_own_locale_only() -> None:
    for shape in GEOMETRY.locales.values():
        assert inside(shape.anchor, shape.outline), shape.id
        assert inside(shape.capacity_box, shape.outline), shape.id
        # the source measured clearance in steps of its raster (diagonals counting one step)
        depth = distance_to_edge(shape.anchor, shape.outline)
        assert shape.clearance - 6 <= depth <= shape.clearance * math.sqrt(2) + 6, shape.id
        others = [o.id for o in GEOMETRY.locales.values()
                  if o.id != shape.id and inside(shape.anchor, o.outline)]
        assert others == [], shape.id


def test_two_bars_for_every_passable_border_none_for_an_impassable_one() -> None:
    expected = set()
    for border in MAP.borders:
        pair = {f"{border.a}>{border.b}", f"{border.b}>{border.a}"}
        if border.passable:
            expected |= pair
        else:
            assert not pair & set(GEOMETRY.approaches), (border.a, border.b)
    assert set(GEOMETRY.approaches) == expected
    assert len(expected) == 2 * 281


@pytest.mark.parametrize("border", [b for b in MAP.borders if b.passable],
                         ids=lambda b: f"{b.a}|{b.b}")
def test_a_bar_lies_on_the_edge_its_two_locales_share_and_faces_its_own(border) -> None:
    here, there = GEOMETRY.bar(border.a, border.b), GEOMETRY.bar(border.b, border.a)
    assert (here.centre, here.angle, here.length) == (there.centre, there.angle, there.length)
    assert here.inward == pytest.approx((-there.inward[0], -there.inward[1]))
    for locale in (border.a, border.b):
        assert distance_to_edge(here.centre, GEOMETRY.locales[locale].outline) < ON_EDGE
    for bar in (here, there):  # the inward vector points at the bar's own locale
        anchor = GEOMETRY.locales[bar.locale].anchor
        toward = (anchor[0] - bar.centre[0], anchor[1] - bar.centre[1])
        assert toward[0] * bar.inward[0] + toward[1] * bar.inward[1] > 0
        # and it stands across the bar, as a bar's normal does
        along = (math.cos(math.radians(bar.angle)), math.sin(math.radians(bar.angle)))
        assert abs(along[0] * bar.inward[0] + along[1] * bar.inward[1]) < 0.15
    assert here.length == (261 if border.wide else 131)


def test_source_numbers_follow_our_border_order() -> None:
    """The correspondence: the source's approach 2k+s is side s (0: a, 1: b) of our k-th border."""
    for index, border in enumerate(MAP.borders):
        if border.passable:
            assert GEOMETRY.bar(border.a, border.b).source_id == 2 * index
            assert GEOMETRY.bar(border.b, border.a).source_id == 2 * index + 1
    assert sorted(b.source_id for b in GEOMETRY.approaches.values()) == list(range(562))


def test_every_entry_road_comes_on_inside_its_locale_on_its_army_s_edge() -> None:
    assert set(GEOMETRY.entries) == set(MAP.entries)
    for entry in MAP.entries.values():
        point = GEOMETRY.entries[entry.id]
        assert inside(point, GEOMETRY.locales[entry.locale].outline), entry.id
        # the French come on from the west, the Allies from the east
        assert (point[0] < GEOMETRY.width / 3) == (entry.side == "french"), entry.id


def test_the_battlefield_points_the_way_the_printed_board_does() -> None:
    def where(locale: int) -> Point:
        return GEOMETRY.locales[locale].anchor
    # the Santon (54) is north-west of the Pratzen heights (106, 121), Lösch (23) in the north
    assert where(54)[0] < where(106)[0] and where(54)[1] < where(106)[1]
    assert where(54)[0] < where(121)[0]
    assert where(23)[1] < min(where(n)[1] for n in MAP.locales if n >= 100)


def test_locales_tile_the_board_without_overlapping() -> None:
    """Sampled on a grid: a point is inside at most one outline, apart from thin slivers
    where the source's simplified outlines meet (under one sample in a hundred)."""
    boxes = {s.id: (min(x for x, _ in s.outline), min(y for _, y in s.outline),
                    max(x for x, _ in s.outline), max(y for _, y in s.outline))
             for s in GEOMETRY.locales.values()}
    doubled = samples = 0
    for x in range(0, 2550, 25):
        for y in range(0, 3300, 25):
            hits = [n for n, (x0, y0, x1, y1) in boxes.items() if x0 <= x <= x1 and y0 <= y <= y1
                    and inside((x, y), GEOMETRY.locales[n].outline)]
            doubled += len(hits) > 1
            samples += bool(hits)
    assert samples > 8000 and doubled < samples / 100


def test_the_stored_file_names_its_source() -> None:
    meta = raw_geometry()["meta"]
    assert meta["source_commit"] == "6ee8f86de7f8924aee1eebe7a15360174d809925"
    assert "boardGeometry.ts" in meta["source"]
    assert isinstance(GEOMETRY, BoardGeometry)
