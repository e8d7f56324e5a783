"""The schematic NT map layout: computed from our map data alone, stored, readable."""

from __future__ import annotations

import math

from companion_app.model.triumph_board import TriumphBoard
from companion_app.ui.triumph_layout import LAYOUT_FILE, compute_layout, layout_text, load_layout
from engine.triumph.mapdata import load_austerlitz


def board() -> TriumphBoard:
    return TriumphBoard(load_layout())


def test_the_stored_layout_is_what_the_function_computes():
    # after a change to the map data or the layout code: python -m companion_app.ui.triumph_layout
    assert layout_text(compute_layout()) == LAYOUT_FILE.read_text(encoding="utf-8")


def test_every_locale_has_a_point_inside_the_map():
    layout = load_layout()
    assert set(layout["points"]) == {str(i) for i in load_austerlitz().locales}
    assert len(layout["points"]) == 168
    for x, y in layout["points"].values():
        assert 0 <= x <= 1 and 0 <= y <= 1


def test_no_two_locales_overlap():
    nodes = list(board().nodes.values())
    for n, a in enumerate(nodes):
        for b in nodes[n + 1:]:
            assert math.hypot(a.x - b.x, a.y - b.y) > a.radius + b.radius, (a.id, b.id)


def test_borders_are_short():
    # a border is drawn at most twice as long as its two circles are wide together
    b = board()
    for border in b.borders:
        na, nb = b.nodes[border.a], b.nodes[border.b]
        assert math.hypot(na.x - nb.x, na.y - nb.y) < 2 * (na.radius + nb.radius), border


def test_french_entries_lie_west_and_allied_entries_east():
    b = board()
    entries = load_austerlitz().entries.values()
    french = [b.nodes[e.locale].x for e in entries if e.side == "french"]
    allied = [b.nodes[e.locale].x for e in entries if e.side == "allied"]
    assert max(french) < 0.35 < 0.65 < min(allied)


def test_north_is_up():
    # Lösch and Bosenitz lie north of the battlefield, Telnitz and Satschan south of it
    # (the 1805 battle maps); the map keeps them so.
    nodes = board().nodes
    assert min(nodes[23].y, nodes[42].y) > max(nodes[141].y, nodes[154].y)
