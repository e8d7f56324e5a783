"""What the pairing screen says when the referee does not give the seat: in the tablet's language, with plurals."""

from __future__ import annotations

from companion_app.i18n.catalog import Translator
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator
from companion_app.ui.screen_connect import pairing_refusal_text


def told(language: str, reply: dict) -> str:
    delivered = []
    ContractTranslator(lambda kind, payload: delivered.append(payload), "blue").pairing(reply)
    return pairing_refusal_text(Translator(language), delivered[-1])


def test_a_wrong_code_counts_the_tries_left_in_each_language():
    reply = {"v": 1, "status": "refused", "seat": "blue", "message": "wrong code (1 tries left)",
             "reason": "wrong-code", "data": {"tries_left": 1}}
    assert told("en", reply) == "Wrong code: 1 try left."
    assert told("de", reply) == "Falscher Code: noch 1 Versuch."
    assert told("bg", {**reply, "data": {"tries_left": 3}}) == "Грешен код: остават 3 опита."


def test_the_seat_the_computer_plays_is_named_and_the_way_back_told():
    reply = {"v": 1, "status": "refused", "seat": "blue", "reason": "computer-seat", "message": "..."}
    assert told("en", reply) == ("The computer plays Blue in this game. To play Blue yourself, press "
                                 "“Play a person” on the other tablet.")
    assert "Computer" in told("de", reply) and "Blau" in told("de", reply)


def test_an_older_referees_english_sentence_is_never_shown_in_another_language():
    reply = {"v": 1, "status": "refused", "seat": "blue", "message": "wrong code (4 tries left)"}
    assert "wrong code" not in told("de", reply) and told("de", reply).startswith("Der Schiedsrichter")


def told_display(language: str, reply: dict) -> str:
    delivered = []
    ContractTranslator(lambda kind, payload: delivered.append(payload), None).pairing(reply)
    return pairing_refusal_text(Translator(language), delivered[-1], display=True)


def test_the_referee_display_is_told_about_itself_not_about_a_seat():
    wrong = {"v": 1, "status": "refused", "seat": "display", "method": "code", "reason": "wrong-code",
             "message": "The code did not match: type it again.", "data": {"tries_left": 2}}
    assert told_display("en", wrong) == "Wrong code: 2 tries left."
    spent = {**wrong, "reason": "too-many-codes", "data": {}}
    assert told_display("en", spent) == "Too many wrong codes: press Back and pair this display again."
    assert told_display("de", spent) == "Zu viele falsche Codes: Drücke „Zurück“ und kopple diese Anzeige erneut."
    assert told_display("bg", {**wrong, "reason": "busy"}).startswith("В момента много екрани")
    older = {"v": 1, "status": "refused", "seat": "display", "message": "no"}  # English only, no reason
    assert told_display("en", older) == "The referee did not pair this display: press Back and try again."
    assert "seat" not in told_display("en", older) and "Platz" not in told_display("de", older)
    # A referee that does not count the tries: still a wrong code, to type again.
    assert told_display("de", {**wrong, "data": {}}) == "Falscher Code: Gib ihn noch einmal ein."


def test_a_code_that_is_not_six_digits_is_said_beside_the_squares_to_cover():
    # The tablet refuses it itself (nothing is sent): the challenge on screen stands.
    state = TableState(seat="red")
    adapter = ContractTranslator(state.apply, "red")
    adapter.pairing({"status": "challenge", "method": "squares", "squares": ["c4", "h7"]})
    adapter.pairing({"status": "refused", "method": "code", "bad_code": True})
    assert state.pairing is not None
    assert state.pairing["squares"] == ["c4", "h7"] and state.pairing["bad_code"] is True
    assert pairing_refusal_text(Translator("en"), state.pairing) == "The code has six digits, 0 to 9."
    # The referee's next word replaces the note.
    adapter.pairing({"status": "challenge", "method": "squares", "squares": ["a2", "b9"]})
    assert state.pairing["squares"] == ["a2", "b9"] and not state.pairing.get("bad_code")


def test_a_tablet_asked_to_pair_again_by_a_new_referee_is_told_why_until_it_is_paired():
    state = TableState(seat="red")
    adapter = ContractTranslator(state.apply, "red")
    adapter.deliver("phase", {"phase": "pairing"})
    assert not state.referee_new  # a first pairing says nothing of keys
    adapter.deliver("phase", {"phase": "pairing", "referee_new": True})
    adapter.pairing({"status": "challenge", "method": "squares", "squares": ["c4", "h7"]})
    assert state.referee_new and state.phase == "pairing"
    adapter.pairing({"status": "granted", "seat": "red"})
    assert not state.referee_new
