"""Napoleon's Triumph in the player's language: refusals and set-up objections worded from the
engine's reason and data, plural forms, the approach and the hour as players read them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion_app.i18n.catalog import LOCALE_DIR, Translator, parse_po
from companion_app.i18n.triumph_refusals import COUNTED, LEFT_OUT, REASON_TEXTS, refusal_sentence
from companion_app.i18n.triumph_tablet_texts import (
    destination_text,
    hour_text,
    position_text,
    refusal_title,
)
from companion_app.model.triumph_answers import RetreatDraft
from companion_app.model.triumph_setup import TriumphSetupDraft
from engine.triumph.refusals import REASONS, template_fields
from engine.triumph.refusals import refusal as refusal_of
from tests.companion_app.test_i18n import messages_in_file
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
    from companion_app.i18n.triumph_texts import turn_text

    for tr in (en, de, bg):  # the display's turn line: 24-hour, never AM/PM
        said = turn_text(tr, {"round": 13, "to_move": "allied"})
        assert said.startswith("13:00") and "PM" not in said, said


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


# -- the whole catalogue ---------------------------------------------------------------------------
ENGINE = Path(__file__).resolve().parents[2] / "engine" / "triumph"
REFUSING = {"refusal": 0, "refused": 0, "setup_error": 1, "_refuse": 1}  # name -> index of the key
SETUP_WRAPPERS = {"setup_error", "_refuse"}  # these add the side whose set-up it is


def _keys(node: ast.expr) -> list[str]:
    """The reason keys a call's key argument can be ("a" if test else "b" gives both)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _keys(node.body) + _keys(node.orelse)
    raise AssertionError(f"a refusal key the test cannot read: {ast.dump(node)}")


def data_the_engine_sends() -> dict[str, set[str]]:
    """Every reason the engine's code refuses with, and the names of the data it sends with it
    (read from each call in engine/triumph, beside the catalogue's template)."""
    sent: dict[str, set[str]] = {reason: template_fields(reason) for reason in REASONS}
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name not in REFUSING:
                continue
            key = node.args[REFUSING[name]]
            if isinstance(key, ast.Name) and key.id == "key":
                continue  # a helper passing its caller's key on (refused, setup_error, _refuse)
            names = {keyword.arg for keyword in node.keywords if keyword.arg}
            if name in SETUP_WRAPPERS:
                names.add("side")
            for reason in _keys(key):
                sent[reason] |= names
    return sent


def _sentence(reason: str) -> str:
    return REASON_TEXTS[reason] if reason in REASON_TEXTS else COUNTED[reason][0]


def test_every_reason_of_the_engine_has_a_sentence():
    assert set(REASON_TEXTS) | set(COUNTED) == set(REASONS)
    assert not set(REASON_TEXTS) & set(COUNTED)


@pytest.mark.parametrize("language", ["de", "bg"])
def test_every_reason_s_sentence_is_in_triumph_po_with_its_placeholders(language):
    catalog = parse_po((LOCALE_DIR / language / "LC_MESSAGES" / "triumph.po").read_text("utf-8"))
    for reason, sentence in REASON_TEXTS.items():
        assert sentence in catalog, (language, reason)
        assert set(re.findall(r"{\w+}", catalog[sentence])) == set(re.findall(r"{\w+}", sentence))
    for reason, (singular, plural, _) in COUNTED.items():
        assert f"{singular}\0{plural}" in catalog, (language, reason)


def test_every_datum_the_engine_sends_is_said_or_deliberately_left_out():
    sent = data_the_engine_sends()
    assert len(sent) == len(REASONS) and sum(map(len, sent.values())) > 150
    for reason, names in sent.items():
        said = set(re.findall(r"{(\w+)}", _sentence(reason)))
        if reason in COUNTED:
            said |= set(re.findall(r"{(\w+)}", COUNTED[reason][1])) | {COUNTED[reason][2]}
        assert said <= names, (reason, "the sentence speaks of data the engine does not send")
        assert names - said <= LEFT_OUT.get(reason, set()), (reason, names - said)
        assert not LEFT_OUT.get(reason, set()) & said, (reason, "left out but said")


def _sample(name: str) -> object:
    """A datum as the engine sends it, for every name its catalogue uses."""
    return {"unit": "F.f-st. -0", "units": ["F.f-st. -0", "F.f-st. -1"], "side": "allied",
            "decision": "counter_attack", "position": "93>94", "positions": ["R93", "93>94"],
            "start": "R67", "to": "67>57", "at": "R93", "road": [67, 57, 56], "hour": 9,
            "round": 8, "commanders": ["Legrand"], "missing": ["F.x"], "extra": ["F.y"],
            "locales": [87, 99], "actions": ["defend"]}.get(name, 2)


@pytest.mark.parametrize("language", ["en", "de", "bg"])
def test_every_reason_is_worded_from_its_data_in_each_language(language):
    tr = Translator(language)
    units = {"F.f-st. -0": {"id": "F.f-st. -0", "face": {"type": "infantry", "strength": 3}},
             "F.f-st. -1": {"id": "F.f-st. -1", "face": {"type": "cavalry", "strength": 2}}}
    for reason, names in data_the_engine_sends().items():
        refusal = refusal_of(reason, **{name: _sample(name) for name in names})
        said = refusal_sentence(tr, {"rule": refusal.rule, "message": refusal.message,
                                     "reason": reason, "data": refusal.data}, units)
        assert said != f"{refusal_title(tr, refusal.rule)}: {refusal.message}", reason
        if language != "en":
            assert refusal.message not in said, (reason, said)  # not the referee's English
        assert "{" not in said and "F.f-st." not in said, (reason, said)  # blocks by face
        if language != "en":
            assert not ENGLISH.search(said.replace("true", "").replace("false", "")), (reason, said)
    assert refusal_sentence(tr, {"rule": "nt-road", "message": "m", "reason": "too-early",
                                 "data": {"commander": "Kienmayer", "hour": 9, "round": 8}}
                            ).count(":00") == 2  # hours as 9:00 in every language


# -- one place for Napoleon's Triumph's words --------------------------------------------------------
def _catalogue(language: str, domain: str) -> dict[str, str]:
    return parse_po((LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po").read_text("utf-8"))


@pytest.mark.parametrize("language", ["de", "bg"])
def test_no_triumph_word_is_shadowed_by_another_translation_in_the_app_s_catalogue(language):
    # gettext looks arbiter.po up first: a msgid in both would show arbiter.po's words on NT
    # screens (it happened: the Stratego "battle" is a fight in German)
    app, triumph = _catalogue(language, "arbiter"), _catalogue(language, "triumph")
    shadowed = {m: (app[m], said) for m, said in triumph.items() if m and m in app and app[m] != said}
    assert shadowed == {}


@pytest.mark.parametrize("language", ["de", "bg", "en"])
def test_words_only_napoleon_s_triumph_shows_live_in_triumph_po(language):
    triumph_only, elsewhere = set(), set()
    for path in (Path(__file__).resolve().parents[2] / "companion_app").rglob("*.py"):
        found = messages_in_file(path)
        (triumph_only if "triumph" in path.name else elsewhere).update(found)
    triumph_only -= elsewhere
    assert len(triumph_only) > 300
    assert sorted(triumph_only & set(_raw_msgids(language, "arbiter"))) == []
    if language != "en":
        assert sorted(triumph_only - set(_catalogue(language, "triumph"))) == []


def _raw_msgids(language: str, domain: str) -> list[str]:
    """Every msgid of a catalogue, translated or not (the English one is a template)."""
    text = (LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po").read_text("utf-8")
    blank = re.sub(r'^(msgstr(?:\[\d\])?) ""$', r'\1 "x"', text, flags=re.M)
    return list(parse_po(blank))
