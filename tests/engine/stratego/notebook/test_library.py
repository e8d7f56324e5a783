"""The library of real setups: each square read from whole setups that agree with what was shown."""

from __future__ import annotations

import math
import random

import pytest

from engine import Color, get_variant
from engine.stratego.notebook import Notebook
from engine.stratego.notebook.library import MOVED, SetupLibrary
from tests.engine.stratego.notebook.test_counted_prior import held_out_setups

CLASSIC = get_variant("classic")


def library() -> SetupLibrary:
    return SetupLibrary.classic(CLASSIC)


def test_with_nothing_shown_each_square_holds_one_kind_in_every_setup():
    reading = library().reading([])
    assert len(reading) == 40
    for square in reading:
        assert sum(square.values()) == pytest.approx(1.0)


def test_a_bomb_shown_beside_the_corner_makes_the_flag_likelier_in_the_corner():
    before = library().reading([])
    after = library().reading([(1, "bomb")])  # b1 in the owner's coordinates
    assert after[0]["flag"] > 1.3 * before[0]["flag"]  # measured: 0.11 -> 0.16


def test_a_first_move_weighs_down_the_setups_with_a_bomb_or_the_flag_where_it_started():
    # Softly (the notebook's hard facts rule them out for that piece): no sampled setup is
    # the enemy's own, so one that disagrees on a square still counts for the others.
    before, after = library().reading([]), library().reading([(0, MOVED)])
    for kind in ("flag", "bomb"):
        assert after[0][kind] < 0.6 * before[0][kind]


def test_squares_are_read_from_each_side_s_own_seat():
    books = library()
    assert books.index(Color.RED, "a1") == 0 and books.index(Color.RED, "j4") == 39
    assert books.index(Color.BLUE, "j10") == 0 and books.index(Color.BLUE, "a7") == 39
    # A game from a position may show pieces starting anywhere: no setup speaks of those squares.
    assert books.index(Color.RED, "a5") is None and books.index(Color.BLUE, "e4") is None


def test_only_classic_notebooks_keep_a_library():
    assert Notebook(CLASSIC, Color.RED).library is not None
    assert Notebook(CLASSIC, Color.RED, library=False).library is None
    assert Notebook(get_variant("barrage"), Color.RED).library is None


def _true_kind_chances(setup: dict[str, str], shown_count: int, use_library: bool) -> list[float]:
    """Red's log chances of the true kinds of Blue's hidden pieces once `shown_count` showed."""
    notebook = Notebook(CLASSIC, Color.RED, library=use_library)
    squares = sorted(setup)
    random.Random(len(squares)).shuffle(squares)
    shown = set(squares[:shown_count])
    pieces = [{"square": square, "color": "blue", "id": number, "moved": False,
               "known": square in shown, "kind": setup[square] if square in shown else None}
              for number, square in enumerate(sorted(setup))]
    view = {"viewer": "red", "variant": "classic", "width": 10, "height": 10,
            "blocked": sorted(s.name for s in CLASSIC.lakes), "volcanoes": [], "to_move": "red",
            "turn": 1, "ply": 0, "pieces": pieces, "captured": {"red": [], "blue": []},
            "last_move": None, "last_events": [], "result": None, "two_squares_left": None,
            "chase_warning": None}
    notebook.observe(view, [])
    beliefs = notebook.beliefs()
    return [math.log(beliefs[p["id"]][setup[p["square"]]]) for p in pieces if not p["known"]]


def test_the_library_reads_setups_it_never_saw_better_once_half_the_army_showed():
    books = library()
    fresh = []
    for setup in held_out_setups(Color.BLUE):
        whole = [""] * 40
        for square, kind in setup.items():
            whole[books.index(Color.BLUE, square)] = kind
        # Players reuse setups: only setups that no library setup matches on 30 squares or more.
        if max(sum(a == b for a, b in zip(whole, kept, strict=True)) for kept in books.setups) < 30:
            fresh.append(setup)
    assert len(fresh) >= 40

    def mean(use_library: bool) -> float:
        chances = [c for setup in fresh for c in _true_kind_chances(setup, 20, use_library)]
        return sum(chances) / len(chances)

    assert mean(True) > mean(False) + 0.03  # measured: -1.88 against -1.95
