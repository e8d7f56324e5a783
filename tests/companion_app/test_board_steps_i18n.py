"""The referee's board steps arrive as data and every language words them itself.

No sentence travels and none is parsed back: a step the app cannot word falls back on the
squares to clear and fill, which it translates like everything else.
"""

from __future__ import annotations

import re

import pytest

from companion_app.i18n.catalog import LANGUAGES, Translator
from companion_app.i18n.texts import (
    STEP_SENTENCES,
    board_step_text,
    guidance_lines,
    restore_plan,
    takeback_lines,
    volcano_marker_lines,
)
from engine import Square
from firmware_bridge.board.guidance import as_plan, plan_steps, setup_steps, volcano_marker_steps
from firmware_bridge.protocol.board_steps import StepAction

S = Square.parse

# One step of every action, as the referee's guidance makes it (not written by hand).
EVERY_STEP = as_plan(plan_steps([S("e6"), S("a9")], [S("e5"), S("c3"), S("d6")], [S("b2")],
                                focus=S("e5"), volcanoes=[S("d6")]) + setup_steps([], [S("a4")]))

ENGLISH = {
    "move": "Move the piece from e6 to e5.",
    "remove": "Take the piece off a9.",
    "put_back": "Put the missing piece back on c3.",
    "marker": "Put a volcano marker on d6.",
    "replace": "The piece on b2 is the wrong one: swap it for the right piece.",
    "place": "Put a piece on a4.",
}


def words(text: str) -> set[str]:
    """The words of a sentence, square names left out."""
    return {w.lower() for w in re.findall(r"\w+", text) if not re.fullmatch(r"[a-z]\d+", w)}


def test_every_action_of_the_vocabulary_has_a_sentence_and_the_guidance_makes_each():
    assert set(STEP_SENTENCES) == set(StepAction)
    assert sorted(step["action"] for step in EVERY_STEP) == sorted(ENGLISH)


def test_every_step_reads_in_english_as_the_players_know_it():
    tr = Translator("en")
    assert {step["action"]: board_step_text(tr, step) for step in EVERY_STEP} == ENGLISH


@pytest.mark.parametrize("language", sorted(set(LANGUAGES) - {"en"}))
def test_every_step_is_worded_in_the_language_with_no_english_leaking(language):
    tr = Translator(language)
    for step in EVERY_STEP:
        text = board_step_text(tr, step)
        english = ENGLISH[step["action"]]
        assert text and text != english, (language, step)
        assert step["square"] in text and step.get("to", step["square"]) in text, text
        # "e5" may stay, "piece" or "the" may not: a word of the English sentence is a leak.
        assert not (words(text) & words(english)), (language, text)


def test_german_board_steps_read_as_a_german_player_expects():
    tr = Translator("de")
    lines = guidance_lines(tr, {"clear": ["e6", "a9"], "fill": ["e5", "c3"]}, EVERY_STEP)
    assert lines[:3] == ["Setze die Figur von e6 auf e5.", "Nimm die Figur von a9 weg.",
                         "Stelle die fehlende Figur zurück auf c3."]
    assert "Stelle eine Figur auf a4." in lines


def test_a_step_the_app_cannot_word_falls_back_on_the_translated_squares():
    tr = Translator("de")
    guidance = {"clear": ["e6"], "fill": ["e5"]}
    newer = [{"action": "move", "square": "e6", "to": "e5"}, {"action": "lift_board", "square": "a1"}]
    assert guidance_lines(tr, guidance, newer) == ["Figuren wegnehmen: e6", "Figuren zurückstellen auf: e5"]
    # An English sentence is no step: it is not parsed, the squares are shown instead.
    assert board_step_text(tr, "take the piece off e6") is None
    assert guidance_lines(tr, guidance, ["take the piece off e6"]) == guidance_lines(tr, guidance, [])


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_volcano_markers_are_named_one_step_each_in_every_language(language):
    tr = Translator(language)
    plan = as_plan(volcano_marker_steps([S("h6"), S("b5")]))
    lines = volcano_marker_lines(tr, plan, ["b5", "h6"])
    expected = {"en": "Put a volcano marker on {square}.", "de": "Stelle einen Vulkanmarker auf {square}.",
                "bg": "Поставете маркер за вулкан на {square}."}[language]
    assert lines == [expected.format(square="b5"), expected.format(square="h6")]
    # Without a plan (an older referee), the squares.
    assert len(volcano_marker_lines(tr, [], ["b5", "h6"])) == 1


# Red's Captain took Blue's Scout on e5; the move is taken back. Each tablet's view knows its own ranks.
RESTORE_RED = [("off", "e5", {"id": 7, "color": "red", "kind": "captain"}),
               ("on", "e4", {"id": 7, "color": "red", "kind": "captain"}),
               ("on", "e5", {"id": 30, "color": "blue", "kind": None})]
RESTORE_BLUE = [("off", "e5", {"id": 7, "color": "red", "kind": None}),
                ("on", "e4", {"id": 7, "color": "red", "kind": None}),
                ("on", "e5", {"id": 30, "color": "blue", "kind": "scout"})]


def test_a_takeback_is_the_same_steps_naming_whose_piece_and_only_a_rank_the_tablet_knows():
    assert restore_plan(RESTORE_RED) == [
        {"action": "move", "square": "e5", "to": "e4", "color": "red", "kind": "captain"},
        {"action": "put_back", "square": "e5", "color": "blue"}]
    assert all("kind" not in step for step in restore_plan(RESTORE_BLUE) if step["color"] == "red")


@pytest.mark.parametrize(("language", "red", "blue"), [
    ("en", ["Move your Captain (6) back from e5 to e4.", "Blue puts a piece back on e5."],
     ["Red moves a piece back from e5 to e4.", "Put your Scout (2) back on e5."]),
    ("de", ["Ziehe deine Figur Hauptmann (6) von e5 zurück auf e4.", "Blau stellt eine Figur zurück auf e5."],
     ["Rot zieht eine Figur von e5 zurück auf e4.", "Stelle deine Figur Aufklärer (2) zurück auf e5."]),
])
def test_each_tablet_is_told_the_takeback_its_own_way(language, red, blue):
    tr = Translator(language)
    tr.set_variant("classic")
    assert takeback_lines(tr, "e4-e5", RESTORE_RED, "red")[1:] == red
    assert takeback_lines(tr, "e4-e5", RESTORE_BLUE, "blue")[1:] == blue
    # The referee display names nobody's rank.
    display = takeback_lines(tr, "e4-e5", RESTORE_RED, None)[1:]
    assert display == [blue[0], red[1]]
