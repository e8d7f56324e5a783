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


def _shown_notebook(setup: dict[str, str], shown: set[str], use_library: bool = True) -> Notebook:
    """Red's notebook once Blue, set up as `setup`, showed the kinds of the `shown` squares."""
    notebook = Notebook(CLASSIC, Color.RED, library=use_library)
    pieces = [{"square": square, "color": "blue", "id": number, "moved": False,
               "known": square in shown, "kind": setup[square] if square in shown else None}
              for number, square in enumerate(sorted(setup))]
    view = {"viewer": "red", "variant": "classic", "width": 10, "height": 10,
            "blocked": sorted(s.name for s in CLASSIC.lakes), "volcanoes": [], "to_move": "red",
            "turn": 1, "ply": 0, "pieces": pieces, "captured": {"red": [], "blue": []},
            "last_move": None, "last_events": [], "result": None, "two_squares_left": None,
            "chase_warning": None}
    notebook.observe(view, [])
    return notebook


def _true_kind_chances(setup: dict[str, str], shown_count: int, use_library: bool) -> list[float]:
    """Red's log chances of the true kinds of Blue's hidden pieces once `shown_count` showed."""
    squares = sorted(setup)
    random.Random(len(squares)).shuffle(squares)
    shown = set(squares[:shown_count])
    beliefs = _shown_notebook(setup, shown, use_library).beliefs()
    return [math.log(beliefs[number][setup[square]])
            for number, square in enumerate(sorted(setup)) if square not in shown]


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


# A setup no person makes: every bomb and the flag on the front row (the owner's indices 30-39).
PROGRAM = ("scout",) * 8 + ("miner",) * 5 + ("sergeant",) * 4 + ("lieutenant",) * 4 + (
    "captain",) * 4 + ("major",) * 3 + ("colonel",) * 2 + ("spy", "general", "marshal") + (
    "bomb",) * 6 + ("flag",)


def _blue(setup: tuple[str, ...]) -> dict[str, str]:
    """A setup in the owner's indices as Blue's squares."""
    books = library()
    squares = [f"{file}{rank}" for file in "abcdefghij" for rank in range(7, 11)]
    return {square: setup[books.index(Color.BLUE, square)] for square in squares}


def _prior_chances(setup: tuple[str, ...], indices: list[int]) -> list[tuple[int, str, float]]:
    """(index, kind, the counted prior's chance of it there) for Blue's squares at `indices`."""
    notebook, books = Notebook(CLASSIC, Color.RED), library()
    by_index = {books.index(Color.BLUE, square): square for square in _blue(setup)}
    return [(i, setup[i], notebook.prior.at(by_index[i]).get(setup[i], 0.0)) for i in indices]


def test_the_evidence_favours_the_library_when_the_enemy_reuses_one_of_its_setups():
    setup = library().setups[10]
    assert library().log_evidence(_prior_chances(setup, list(range(0, 40, 3)))) > 5.0


def test_the_evidence_turns_from_the_library_when_the_enemy_sets_up_unlike_people():
    assert library().log_evidence(_prior_chances(PROGRAM, list(range(30, 40)))) < -3.0
    assert library().log_evidence([]) == 0.0


def test_a_notebook_trusts_the_library_only_while_it_foresees_what_was_shown():
    nothing = _shown_notebook(_blue(PROGRAM), set())
    assert nothing.library_weight() == pytest.approx(0.7)  # the library's share before anything shows
    front = {square for square in _blue(PROGRAM) if square.endswith("7")}
    assert _shown_notebook(_blue(PROGRAM), front).library_weight() < 0.2  # measured: 0.09
    reused = _blue(library().setups[10])
    assert _shown_notebook(reused, set(sorted(reused)[::3])).library_weight() > 0.95
    assert _shown_notebook(reused, set(), use_library=False).library_weight() == 0.0


def test_an_enemy_that_reuses_a_kept_setup_is_read_almost_from_that_setup_alone():
    reused = _blue(library().setups[10])
    shown = set(sorted(reused)[::3])
    beliefs = _shown_notebook(reused, shown).beliefs()
    chances = [math.log(beliefs[number][reused[square]])
               for number, square in enumerate(sorted(reused)) if square not in shown]
    assert sum(chances) / len(chances) > -0.35  # measured: -0.20; -0.46 at the share of 0.7
