"""The Austerlitz map data against an independent count of the published transcription.

The figures come from our own count of the public transcription (justinkwaugh/tabletop,
austerlitzData.ts at commit 6ee8f86), written down before this file was made, and from the
set-up locales printed on the board as listed in the orders of battle.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from engine.triumph.mapdata import CAPACITIES, SYMBOL_LETTERS, load_austerlitz, raw_austerlitz
from engine.triumph.movement import road_path_reach

MAP = load_austerlitz()


def test_168_locales_numbered_1_to_170_without_145_and_146() -> None:
    assert sorted(MAP.locales) == [n for n in range(1, 171) if n not in (145, 146)]
    assert {loc.capacity for loc in MAP.locales.values()} <= CAPACITIES
    assert sum(1 for loc in MAP.locales.values() if loc.name) == 42


def test_capacity_counts() -> None:
    counts = Counter(loc.capacity for loc in MAP.locales.values())
    assert counts == {1: 9, 2: 1, 4: 55, 6: 17, 9: 17, 12: 27, 16: 17, 20: 25}
    assert MAP.locales[54].capacity == 2 and MAP.locales[54].name == "Santon"


def test_293_borders_281_passable_12_impassable_71_wide() -> None:
    assert len(MAP.borders) == 293
    assert sum(b.passable for b in MAP.borders) == 281
    impassable = {frozenset((b.a, b.b)) for b in MAP.borders if not b.passable}
    assert impassable == {frozenset(p) for p in [(2, 3), (3, 4), (6, 7), (8, 9), (10, 11),
                                                 (14, 15), (15, 16), (17, 18), (18, 19),
                                                 (21, 22), (58, 78), (92, 103)]}
    assert sum(b.wide for b in MAP.borders) == 71
    assert all(b.passable for b in MAP.borders if b.wide)


def test_borders_are_symmetric_and_unique() -> None:
    pairs = [frozenset((b.a, b.b)) for b in MAP.borders]
    assert len(set(pairs)) == len(pairs)
    for border in MAP.borders:
        assert MAP.border(border.a, border.b) is MAP.border(border.b, border.a)
        if border.passable:
            assert border.b in MAP.neighbours(border.a) and border.a in MAP.neighbours(border.b)


def test_symbols_only_icao_and_none_on_impassable_borders() -> None:
    sides = Counter()
    for border in MAP.borders:
        for _, letters in border.symbols:
            assert set(letters) <= SYMBOL_LETTERS
            if not border.passable:
                assert letters == ""
            else:
                sides[letters] += 1
    assert sides == {"": 297, "AO": 107, "CA": 81, "IAO": 27, "C": 24, "A": 10, "IC": 8,
                     "IO": 7, "O": 1}


def test_730_positions_and_a_connected_passable_graph() -> None:
    passable = sum(b.passable for b in MAP.borders)
    assert len(MAP.locales) + 2 * passable == 730
    seen, todo = {1}, [1]
    while todo:
        for n in MAP.neighbours(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(MAP.locales)
    degrees = [len(MAP.neighbours(loc)) for loc in MAP.locales]
    assert min(degrees) == 1 and max(degrees) == 7


def test_hills_and_stars() -> None:
    def having(star: str) -> set[int]:
        return {loc.id for loc in MAP.locales.values() if star in loc.stars}

    assert {loc.id for loc in MAP.locales.values() if loc.hill} == {
        24, 25, 53, 54, 57, 61, 62, 84, 106, 112, 121, 147}
    assert having("blue") == {25, 51, 53, 61, 62, 70, 81, 91, 102, 116, 117, 118, 132}
    assert having("red") == {84, 86, 87, 88, 97, 99, 112, 113, 115, 126, 128}
    assert having("green") == {58, 59, 67, 68, 87, 88, 99, 115, 128}
    assert having("black") == {87, 88, 96, 99, 106, 108, 112, 115, 121, 126, 128}
    assert having("red") & having("green") & having("black") == {87, 88, 99, 115, 128}


def test_setup_locales_match_the_orders_of_battle() -> None:
    data = resources.files("engine.triumph").joinpath("data/order_of_battle.json")
    commanders = json.loads(data.read_text("utf-8"))["commanders"]
    expected = {c["setup"]: c["name"] for c in commanders if c["setup"]}
    printed = {loc.id: loc.setup for loc in MAP.locales.values() if loc.setup}
    assert len(printed) == 15
    assert printed == expected
    assert printed[53] == "Bessières" and printed[108] == "Prebyshevsky"


def test_279_road_crossings_on_passable_borders_13_main() -> None:
    assert len(MAP.roads) == 279
    assert len({frozenset((r.a, r.b)) for r in MAP.roads}) == 218
    for road in MAP.roads:
        assert MAP.is_passable(road.a, road.b)
        assert road.a_stretch in (0, 1, 2) and road.b_stretch in (0, 1, 2)
    main = {frozenset((r.a, r.b)) for r in MAP.roads if r.main}
    chain = [51, 38, 52, 53, 63, 64, 55, 66, 67]
    expected = {frozenset(p) for p in zip(chain, chain[1:], strict=False)}
    expected |= {frozenset(p) for p in [(67, 68), (68, 58), (58, 59), (67, 77), (77, 87)]}
    assert sum(r.main for r in MAP.roads) == 13
    assert main == expected


def test_roadless_locales() -> None:
    with_roads = {r.a for r in MAP.roads} | {r.b for r in MAP.roads}
    assert set(MAP.locales) - with_roads == {3, 7, 9, 10, 11, 15, 16, 17, 22, 37, 92, 122,
                                            164, 165}


def test_20_entries_3_main() -> None:
    entries = MAP.entries
    assert len(entries) == 20
    assert sum(e.side == "french" for e in entries.values()) == 13
    assert sum(e.side == "allied" for e in entries.values()) == 7
    assert {(e.id, e.locale) for e in entries.values() if e.main} == {
        ("F2", 51), ("A15", 59), ("A17", 87)}
    assert entries["F20"].locale == 139 and entries["A19"].locale == 129


@pytest.mark.parametrize(("a", "b", "wide", "a_symbols", "b_symbols"), [
    (95, 108, False, "", ""),
    (93, 94, True, "", ""),
    (93, 103, False, "IC", ""),
    (25, 39, False, "CA", "AO"),
    (99, 87, True, "", ""),
    (99, 88, False, "CA", "AO"),
])
def test_spot_borders(a: int, b: int, wide: bool, a_symbols: str, b_symbols: str) -> None:
    border = MAP.border(a, b)
    assert border is not None and border.passable
    assert border.wide is wide
    assert border.symbols_of(a) == a_symbols and border.symbols_of(b) == b_symbols


def test_spot_neighbourhoods() -> None:
    assert MAP.neighbours(99) == [87, 88]
    assert MAP.border(58, 78) is not None and not MAP.is_passable(58, 78)
    assert MAP.border(114, 115) is None and MAP.border(124, 151) is None


def test_the_file_records_its_provenance() -> None:
    meta = raw_austerlitz()["meta"]
    assert meta["source_commit"] == "6ee8f86de7f8924aee1eebe7a15360174d809925"
    assert "austerlitzData.ts" in meta["source"]
    assert meta["checked_against_board"] is False


@pytest.mark.parametrize(("start", "path", "reach"), [
    (51, [38, 52, 53], 3),   # the main road all the way
    (88, [99], 2),           # one locale on a local road
    (42, [29, 43], 2),       # 42 arrives on the stretch of 29 that continues to 43
])
def test_road_paths_that_exist(start: int, path: list[int], reach: int) -> None:
    assert road_path_reach(MAP, start, path) == reach


@pytest.mark.parametrize(("start", "path"), [
    (51, [38, 52, 61]),  # 52|61 is a local road: three locales need the main road throughout
    (41, [29, 43]),      # 41 arrives on a stretch of 29 that does not lead to 43
])
def test_road_paths_that_do_not(start: int, path: list[int]) -> None:
    assert road_path_reach(MAP, start, path) is None
