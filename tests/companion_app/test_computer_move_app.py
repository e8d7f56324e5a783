"""The computer's move as the app tells it: a sentence in every language, rings, no takeback wording."""

from __future__ import annotations

import pytest

from companion_app.i18n.catalog import LANGUAGES, Translator
from companion_app.i18n.texts import computer_move_text, guidance_lines, refusal_text
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator
from companion_app.ui.board_screen import game_marks

MOVE = {"seat": "blue", "move": "e7-e6", "square": "e7", "to": "e6", "level": "normal"}
STEP = {"action": "move", "square": "e7", "to": "e6", "color": "blue"}


def state_with(computer_move, check) -> dict:
    return {"v": 1, "board": "b", "game": "g1", "seq": 3, "phase": "playing", "view": None, "seats": {},
            "board_check": check, "computer_move": computer_move}


def test_the_human_is_asked_to_move_the_computers_piece_in_every_language():
    assert computer_move_text(Translator("en"), MOVE) == "Move the blue piece from e7 to e6 for the computer."
    for language in LANGUAGES:
        text = computer_move_text(Translator(language), MOVE)
        assert "e7" in text and "e6" in text
    assert computer_move_text(Translator("en"), None) == ""
    assert computer_move_text(Translator("en"), {"seat": "green", "square": "e7", "to": "e6"}) == ""


def test_an_attack_by_the_computer_says_which_piece_it_attacks():
    view = {"pieces": [{"square": "e7", "color": "blue", "kind": None},
                       {"square": "e6", "color": "red", "kind": "lieutenant"}]}
    told = computer_move_text(Translator("en"), MOVE, view, "red")
    assert told == ("Move the blue piece from e7 to e6 for the computer: it attacks your "
                    "Lieutenant (5).")
    public = {"pieces": [dict(p, kind=None) for p in view["pieces"]]}
    assert computer_move_text(Translator("en"), MOVE, public) == (
        "Move the blue piece from e7 to e6 for the computer: it attacks the red piece there.")
    assert "Leutnant" in computer_move_text(Translator("de"), MOVE, view, "red")


@pytest.mark.parametrize("seat", ["red", None])  # the human's tablet and the referee display
def test_the_state_reaches_the_model_and_rings_its_squares(seat):
    model = TableState(seat=seat)
    adapter = ContractTranslator(model.apply, seat)
    adapter.public_state(state_with(MOVE, {"matches": True, "clear": [], "fill": [], "wrong": [],
                                            "reason": None, "reading": True, "plan": [STEP]}))
    assert model.computer_move == MOVE
    assert game_marks(model, {}) == {"e7": "computer-from", "e6": "computer-to"}
    adapter.public_state(state_with(None, None))
    assert model.computer_move is None and game_marks(model, {}) == {}


def test_while_the_board_needs_fixing_the_computer_step_is_not_told_as_a_takeback():
    model = TableState(seat=None)
    adapter = ContractTranslator(model.apply, None)
    check = {"matches": False, "clear": ["a9"], "fill": [], "wrong": [], "reason": "unexpected",
             "reading": True, "plan": [{"action": "remove", "square": "a9"}, STEP]}
    adapter.public_state(state_with(MOVE, check))
    lines = guidance_lines(Translator("en"), model.guidance, model.board_steps)
    assert lines == ["Take the piece off a9."]


def test_a_wrong_move_of_a_computer_piece_is_explained():
    text = refusal_text(Translator("en"), {"rule": "computer-move", "move": "e7-e5",
                                           "message": "the computer moves blue e7 to e6, not e7-e5: put the piece back"})
    assert "not the move the computer asked for" in text and "Put the piece back on e7." in text
