"""Hard facts: what an enemy piece can no longer be, learnt from one seat's view and events only.

The games are real `engine.Game` games; each notebook sees `player_view(...).to_dict()` and
`redact_events(...)`, nothing else (see table.py). Setups: the shipped named setups.
Classic "corner-fortress" for both sides puts on Red's front row (rank 4)
a4 scout, b4 bomb, c4 scout, d4 colonel, e4 sergeant, f4 major, g4 scout, h4 bomb, i4 lieutenant,
j4 scout, and on Blue's front row (rank 7) a7 scout, b7 lieutenant, c7 bomb, d7 scout, e7 major,
f7 sergeant, g7 colonel, h7 scout, i7 bomb, j7 scout.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from engine import Color, TakebackEvent
from engine.stratego.notebook import NotebookError
from engine.stratego.variants import BARRAGE
from tests.engine.stratego.notebook.table import Table, named_game, position

RED, BLUE = Color.RED, Color.BLUE


@pytest.fixture
def classic() -> Table:
    return Table.start(named_game("classic", "corner-fortress", "corner-fortress"))


def test_a_piece_that_moved_is_no_bomb_and_no_flag(classic):
    classic.play("e4-e5", "e7-e6")
    red = classic.notebooks[RED]
    moved, still = classic.id_at("e6"), classic.id_at("f7")
    assert not {"bomb", "flag"} & red.possible(moved)
    assert "major" in red.possible(moved)
    assert {"bomb", "flag"} <= red.possible(still)


def test_a_piece_that_moved_more_than_one_square_is_a_scout(classic):
    classic.play("e4-e5", "a7-a5")
    assert classic.notebooks[RED].possible(classic.id_at("a5")) == {"scout"}


def test_a_kind_shown_in_battle_stays_known_while_the_piece_lives(classic):
    # Red's sergeant walks up and attacks Blue's major, and loses.
    classic.play("e4-e5", "a7-a6", "e5-e6", "a6-a7", "e6-e7")
    red = classic.notebooks[RED]
    major = classic.id_at("e7")
    assert red.possible(major) == {"major"}
    assert red.beliefs()[major] == {"major": 1.0}
    classic.play("e7-e6")
    assert red.possible(major) == {"major"}


def test_captured_pieces_leave_the_counts_of_their_kind(classic):
    classic.play("e4-e5", "a7-a6", "e5-e6", "a6-a7", "e6-e7")  # Red's sergeant dies
    assert classic.notebooks[BLUE].remaining()["sergeant"] == 3
    assert classic.notebooks[RED].remaining()["sergeant"] == 4  # Blue lost nothing


def test_when_every_piece_of_a_kind_is_found_no_other_piece_can_be_one():
    table = Table.start(named_game("barrage", "hidden-flag", "hidden-flag"))
    general = table.id_at("f7")
    red = table.notebooks[RED]
    table.play("h1-h2", "b7-b5")
    assert "scout" in red.possible(general)  # one of the two scouts is still unaccounted for
    table.play("h2-h3", "j7-j5")
    assert red.possible(table.id_at("b5")) == red.possible(table.id_at("j5")) == {"scout"}
    assert "scout" not in red.possible(general)


# -- battles that show no kinds: what the outcome alone proves --------------------------------

HIDDEN = replace(BARRAGE, name="hidden-barrage", battle_reveals=False)
RED_ARMY = {"a1": "flag", "c1": "spy", "d1": "miner", "e1": "scout", "f1": "scout", "j1": "bomb"}
BLUE_ARMY = {"j10": "flag", "i10": "bomb", "h10": "spy", "g10": "miner", "f10": "scout",
             "e10": "scout", "a10": "general", "b10": "marshal"}


def hidden_table(red: dict[str, str], blue: dict[str, str], to_move: Color) -> Table:
    army = {**RED_ARMY, **red}
    enemy = {s: k for s, k in BLUE_ARMY.items() if k not in blue.values()} | blue
    return Table.start(position(HIDDEN, army, enemy, to_move), uniform=True)


def test_a_piece_that_beats_my_general_is_the_marshal():
    table = hidden_table({"b4": "general", "b3": "marshal"}, {"b5": "marshal"}, BLUE)
    attacker = table.id_at("b5")
    table.play("b5-b4")
    assert table.notebooks[RED].possible(attacker) == {"marshal"}


def test_a_piece_that_beats_my_marshal_when_attacking_is_the_spy():
    table = hidden_table({"b4": "marshal", "b3": "general"}, {"b5": "spy"}, BLUE)
    attacker = table.id_at("b5")
    table.play("b5-b4")
    assert table.notebooks[RED].possible(attacker) == {"spy"}


def test_a_piece_that_beats_my_bomb_is_a_miner():
    table = hidden_table({"b4": "bomb", "b3": "general", "c3": "marshal"}, {"b5": "miner"}, BLUE)
    attacker = table.id_at("b5")
    table.play("b5-b4")
    assert table.notebooks[RED].possible(attacker) == {"miner"}


def test_a_piece_that_stops_my_attacking_general_is_the_marshal_or_a_bomb():
    table = hidden_table({"b4": "general", "b3": "marshal"}, {"b5": "marshal"}, RED)
    defender = table.id_at("b5")
    table.play("b4-b5")
    assert table.notebooks[RED].possible(defender) == {"marshal", "bomb"}


def test_a_tie_takes_the_one_general_off_the_board():
    table = hidden_table({"b4": "general", "b3": "marshal"}, {"b5": "general"}, BLUE)
    table.play("b5-b4")
    red = table.notebooks[RED]
    assert red.remaining()["general"] == 1  # the tray shows an unknown piece...
    for piece_id in red.beliefs():
        assert "general" not in red.possible(piece_id)  # ...which can only have been the general


# -- takebacks, bad input, what the opponent knows, the tablet's dict -------------------------

def test_a_takeback_forgets_what_the_taken_back_move_showed(classic):
    classic.play("e4-e5", "e7-e6")
    classic.game.pop()
    classic.deliver([TakebackEvent("e7-e6", classic.game.ply)])
    red = classic.notebooks[RED]
    piece = classic.id_at("e7")
    assert {"bomb", "flag"} <= red.possible(piece)
    assert next(p for p in red.to_dict()["pieces"] if p["id"] == piece)["square"] == "e7"


def test_a_view_of_the_other_seat_is_refused_and_changes_nothing(classic):
    from engine import player_view

    classic.play("e4-e5", "e7-e6")
    red = classic.notebooks[RED]
    before = red.to_dict()
    view = player_view(classic.game, RED).to_dict()
    good = {"type": "move", "color": "blue", "piece_id": classic.id_at("f7"), "kind": None,
            "move": "f7-f6", "ply": 3}
    with pytest.raises(NotebookError):
        red.observe(player_view(classic.game, BLUE).to_dict(), [])
    with pytest.raises(NotebookError):
        red.observe(view, [good, {"type": "move", "move": "zz"}])  # half readable: none of it
    with pytest.raises(NotebookError):
        red.observe({"viewer": "red", "pieces": "all of them"}, [])
    with pytest.raises(NotebookError):
        red.possible(classic.id_at("e5"))  # my own piece: not in the notebook
    assert red.to_dict() == before


def test_a_prior_of_the_wrong_side_is_refused():
    from engine import get_variant
    from engine.stratego.notebook import Notebook, SetupPrior

    classic = get_variant("classic")
    with pytest.raises(NotebookError):
        Notebook(classic, RED, SetupPrior.uniform(classic, RED))  # Red needs Blue's setups
    with pytest.raises(NotebookError):
        Notebook(classic, RED, SetupPrior.uniform(get_variant("compact"), BLUE))


def test_my_pieces_the_opponent_knows(classic):
    red = classic.notebooks[RED]
    scout, major = classic.id_at("j4"), classic.id_at("f4")
    assert red.known_to_opponent() == []
    classic.play("j4-j6")  # only a scout moves two squares
    classic.play("a7-a6", "f4-f5", "a6-a7", "f5-f6", "a7-a6", "f6-f7")  # the major beats a sergeant
    assert red.known_to_opponent() == sorted([scout, major])


def test_the_tablet_view_lists_chances_army_left_and_what_the_opponent_knows(classic):
    classic.play("e4-e5", "a7-a6", "e5-e6", "a6-a7", "e6-e7")
    data = classic.notebooks[RED].to_dict()
    json.dumps(data)
    assert len(data["pieces"]) == 40
    for piece in data["pieces"]:
        assert set(piece) == {"id", "square", "known", "moved", "kinds"}
        assert abs(sum(piece["kinds"].values()) - 1) < 0.02
    major = next(p for p in data["pieces"] if p["square"] == "e7")
    assert major["kinds"] == {"major": 1.0} and major["known"] == "major"
    assert data["remaining"]["sergeant"] == 4
    assert data["known_to_opponent"] == []  # Red's sergeant was shown, but it is gone
    assert classic.notebooks[BLUE].to_dict()["known_to_opponent"] == [
        {"id": classic.id_at("e7"), "square": "e7", "kind": "major"}]


def test_a_ruling_delivered_twice_is_read_once(classic):
    from engine import player_view, redact_events

    classic.play("e4-e5", "e7-e6")  # Blue's move: the still pieces beside empty squares wait
    red = classic.notebooks[RED]
    once = red.beliefs()
    game = classic.game
    red.observe(player_view(game, RED).to_dict(), redact_events(game, game.last_events(), RED))
    assert red.beliefs() == once
