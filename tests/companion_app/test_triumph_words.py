"""Napoleon's Triumph in the player's language: refusals and set-up objections worded from the
engine's reason and data, plural forms, the approach and the hour as players read them."""

from __future__ import annotations

import re

import pytest

from companion_app.i18n.catalog import LOCALE_DIR, Translator, parse_po
from companion_app.i18n.triumph_refusals import COUNTED, REASON_TEXTS, refusal_sentence
from companion_app.i18n.triumph_tablet_texts import destination_text, hour_text, position_text
from companion_app.model.triumph_answers import RetreatDraft
from companion_app.model.triumph_setup import TriumphSetupDraft
from engine.triumph.refusals import REASONS
from tests.companion_app.test_triumph_answers import threatened_93

ENGLISH = re.compile(r"\b(the|is|are|not|must|units?|locale|corps has)\b")


def test_every_worded_reason_is_one_the_engine_gives():
    assert set(REASON_TEXTS) | set(COUNTED) <= set(REASONS)


@pytest.mark.parametrize("language", ["de", "bg"])
def test_every_counted_sentence_has_both_forms_with_its_placeholders(language):
    catalog = parse_po((LOCALE_DIR / language / "LC_MESSAGES" / "triumph.po").read_text("utf-8"))
    for singular, plural, _ in COUNTED.values():
        forms = catalog[f"{singular}\0{plural}"].split("\0")
        assert len(forms) == 2
        for form in forms:
            assert set(re.findall(r"{\w+}", form)) == set(re.findall(r"{\w+}", singular))


def test_a_retreat_s_problem_is_worded_by_reason_in_each_language():
    game = threatened_93()
    view = game.view("french").to_dict()
    draft = RetreatDraft.start(view)
    problem = draft.problem()
    refusal = {"rule": problem.rule, "message": problem.message, "reason": problem.reason,
               "data": problem.data}
    units = {u["id"]: u for u in view["units"]}
    english = refusal_sentence(Translator("en"), refusal, units)
    assert english == ("Infantry 3, Infantry 2, Infantry 2, Infantry 2 lose 2 steps between them, "
                       "not 0.")
    german = refusal_sentence(Translator("de"), refusal, units)
    assert german == ("Infanterie 3, Infanterie 2, Infanterie 2, Infanterie 2 verlieren zusammen "
                      "2 Stärkepunkte, nicht 0.")
    bulgarian = refusal_sentence(Translator("bg"), refusal, units)
    assert "губят общо 2 точки сила" in bulgarian and not ENGLISH.search(bulgarian)


def test_a_set_up_objection_from_the_engine_speaks_german_and_counts_right():
    draft = TriumphSetupDraft("french")
    legrand = [u for u in draft.units if u.get("commander") == "Legrand"]
    draft.move_to_corps(legrand[0]["id"], "St. Hilaire")
    objection = draft.objection()
    assert objection["reason"] == "setup-corps-size"
    units = {u["id"]: u for u in draft.units}
    assert refusal_sentence(Translator("de"), objection, units) == (
        "Das Korps von Legrand hat 2 Einheiten (erlaubt: 3-8).")
    one = dict(objection, data=dict(objection["data"], count=1))
    assert refusal_sentence(Translator("de"), one, units).startswith("Das Korps von Legrand hat 1 Einheit ")


def test_an_unknown_reason_falls_back_to_the_rule_and_the_referee_s_words():
    tr = Translator("de")
    said = refusal_sentence(tr, {"rule": "nt-movement", "message": "no road", "reason": "new-one"})
    assert said.endswith(": no road") and not said.startswith("nt-")
    # an older referee sends no reason at all
    assert refusal_sentence(tr, {"rule": "nt-movement", "message": "no road"}).endswith("no road")


def test_approaches_and_hours_as_players_read_them():
    en, de, bg = Translator("en"), Translator("de"), Translator("bg")
    assert position_text(en, "67>57") == "the approach from 67 toward 57"
    assert position_text(de, "67>57") == "der Zugang von 67 nach 57"
    assert position_text(bg, "67>57") == "подстъпът от 67 към 57"
    assert destination_text(en, "64>63") == "approach from 64 toward 63"
    assert [hour_text(tr, 13) for tr in (en, de, bg)] == ["13:00"] * 3
    assert hour_text(de, 7) == "7:00"


def test_the_end_of_a_battle_says_who_won_why_the_morale_the_objectives_and_where_it_is_kept():
    from companion_app.i18n.triumph_texts import end_lines
    from companion_app.model.triumph_table import TriumphTable

    table = TriumphTable(seat="blue")
    table.take("record", {"record": "records/2026-11-26-austerlitz-napoleons-triumph.json"})
    view = {"round": 14, "morale": {"french": 9, "allied": 0}, "record": table.record,
            "result": {"winner": "french", "reason": "objectives",
                       "control": {"french": [87, 99], "allied": []}}}
    lines = dict(end_lines(Translator("en"), view, "french"))
    assert lines["head"] == "You won the battle!"
    assert lines["morale"] == "Morale at the end: French 9 · Allies 0"
    assert lines["objectives"] == "Objectives the Allies hold: none"  # the last one of two
    assert lines["time"] == "The battle ended at 14:00."
    assert lines["saved"] == ("The battle is saved as "
                              "records/2026-11-26-austerlitz-napoleons-triumph.json.")
    german = dict(end_lines(Translator("de"), view, "allied"))
    assert german["head"] == "Deine Armee hat die Schlacht verloren."
    assert german["time"] == "Die Schlacht endete um 14:00 Uhr."
    table.take("record", {"record": None})
    assert table.record is None
