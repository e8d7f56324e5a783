"""Recall: an opponent's setups seen in earlier games, merged, kept, and read in the next game."""

from __future__ import annotations

import math
import random

import pytest

from engine import Color, get_variant
from engine.stratego.notebook import Notebook, NotebookError
from engine.stratego.notebook.library import MOVED, owner_index
from engine.stratego.notebook.recall import LIMIT, Recollection, Sighting
from engine.stratego.squares import Square
from tests.engine.stratego.notebook.test_counted_prior import held_out_setups

CLASSIC = get_variant("classic")


def sighting_of(setup: dict[str, str], squares: list[str]) -> Sighting:
    """What a game showed of Blue's `setup`: the kinds on `squares`, nothing elsewhere."""
    seen: list[str | None] = [None] * 40
    for square in squares:
        index = owner_index(CLASSIC, Color.BLUE, Square.parse(square))
        assert index is not None
        seen[index] = setup[square]
    return tuple(seen)


def view_showing(setup: dict[str, str], shown: set[str]) -> dict:
    """Red's view of Blue's pieces on their setup squares, those on `shown` shown."""
    pieces = [{"square": square, "color": "blue", "id": number, "moved": False,
               "known": square in shown, "kind": setup[square] if square in shown else None}
              for number, square in enumerate(sorted(setup))]
    return {"viewer": "red", "variant": "classic", "width": 10, "height": 10,
            "blocked": sorted(s.name for s in CLASSIC.lakes), "volcanoes": [], "to_move": "red",
            "turn": 1, "ply": 0, "pieces": pieces, "captured": {"red": [], "blue": []},
            "last_move": None, "last_events": [], "result": None, "two_squares_left": None,
            "chase_warning": None}


def hidden_log_chance(setup: dict[str, str], shown: set[str], recall: Recollection | None) -> float:
    """Red's mean log chance of the true kinds of Blue's hidden pieces."""
    notebook = Notebook(CLASSIC, Color.RED, recall=recall)
    view = view_showing(setup, shown)
    notebook.observe(view, [])
    beliefs = notebook.beliefs()
    chances = [math.log(beliefs[p["id"]][setup[p["square"]]]) for p in view["pieces"] if not p["known"]]
    return sum(chances) / len(chances)


def test_two_games_that_agree_are_one_remembered_setup_and_its_mirror_image_too():
    setup = held_out_setups(Color.BLUE)[0]
    squares = sorted(setup)
    recollection = Recollection(CLASSIC)
    recollection.remember(sighting_of(setup, squares[:20]))
    recollection.remember(sighting_of(setup, squares[10:30]))
    recollection.remember(recollection.mirror(sighting_of(setup, squares[5:35])))
    assert recollection.games == [3]
    assert sum(kind is not None for kind in recollection.setups[0]) == 35


def test_a_game_that_disagrees_is_remembered_apart():
    first, second = held_out_setups(Color.BLUE)[:2]
    recollection = Recollection(CLASSIC)
    recollection.remember(sighting_of(first, sorted(first)))
    recollection.remember(sighting_of(second, sorted(second)))
    assert recollection.games == [1, 1]


def test_a_first_move_agrees_with_any_mobile_kind_and_never_with_a_bomb():
    setup = held_out_setups(Color.BLUE)[0]
    squares = sorted(setup)
    recollection = Recollection(CLASSIC)
    recollection.remember(sighting_of(setup, squares))
    bomb = next(square for square in squares if setup[square] == "bomb")
    moved = list(sighting_of(setup, squares))
    moved[owner_index(CLASSIC, Color.BLUE, Square.parse(bomb)) or 0] = MOVED  # a bomb never moves
    recollection.remember(tuple(moved))
    assert recollection.games == [1, 1]


def test_few_setups_are_kept_and_the_least_seen_go_first():
    setups = held_out_setups(Color.BLUE)
    recollection = Recollection(CLASSIC)
    recollection.remember(sighting_of(setups[0], sorted(setups[0])))
    recollection.remember(sighting_of(setups[0], sorted(setups[0])))
    for setup in setups[1:LIMIT + 5]:
        recollection.remember(sighting_of(setup, sorted(setup)))
    assert len(recollection.setups) == LIMIT
    assert recollection.games[0] == 2


def test_a_recollection_is_kept_as_data_and_broken_data_is_refused():
    setup = held_out_setups(Color.BLUE)[0]
    recollection = Recollection(CLASSIC)
    seen = list(sighting_of(setup, sorted(setup)[:25]))
    seen[39] = MOVED
    recollection.remember(tuple(seen))
    again = Recollection.from_dict(CLASSIC, recollection.to_dict())
    assert again.setups == recollection.setups and again.games == [1]
    for broken in (None, [], {"variant": "barrage", "setups": []}, {"variant": "classic"},
                   {"variant": "classic", "setups": [{"games": 1, "squares": ["bomb"]}]},
                   {"variant": "classic", "setups": [{"games": 0, "squares": [None] * 40}]},
                   {"variant": "classic", "setups": [{"games": 1, "squares": ["dragon"] * 40}]}):
        with pytest.raises(NotebookError):
            Recollection.from_dict(CLASSIC, broken)


def test_a_remembered_setup_foresees_the_hidden_pieces_once_the_game_agrees_with_it():
    for setup in held_out_setups(Color.BLUE)[:10]:
        squares = sorted(setup)
        random.Random(7).shuffle(squares)
        recollection = Recollection(CLASSIC)
        recollection.remember(recollection.mirror(sighting_of(setup, squares[:30])))  # seen mirrored
        shown = set(squares[24:32])  # six pieces the last game showed, two it did not
        fresh = hidden_log_chance(setup, shown, None)
        recalled = hidden_log_chance(setup, shown, recollection)
        assert recalled > fresh + 1.0  # measured: about -0.5 against -2.0 per hidden piece


def test_a_remembered_setup_the_game_contradicts_is_soon_set_aside():
    setups = held_out_setups(Color.BLUE)
    for old, new in zip(setups[:10], setups[10:20], strict=True):
        recollection = Recollection(CLASSIC)
        recollection.remember(sighting_of(old, sorted(old)))
        squares = sorted(new)
        random.Random(3).shuffle(squares)
        shown = set(squares[:8])
        fresh = hidden_log_chance(new, shown, None)
        assert hidden_log_chance(new, shown, recollection) == pytest.approx(fresh, abs=0.05)


def test_the_notebook_remembers_only_what_the_game_showed():
    setup = held_out_setups(Color.BLUE)[0]
    squares = sorted(setup)
    notebook = Notebook(CLASSIC, Color.RED)
    notebook.observe(view_showing(setup, set(squares[:12])), [])
    assert notebook.seen_setup() == sighting_of(setup, squares[:12])
