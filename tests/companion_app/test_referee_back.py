"""After the referee restarted, the tablets and the display say how long it was away and that the
clocks were paused, in the reader's language, until play goes on."""

from __future__ import annotations

import pytest

from companion_app.i18n.catalog import LANGUAGES, Translator
from companion_app.i18n.texts import referee_back_text
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator


def table_after(*states: dict) -> TableState:
    """What a display's table holds after these public states arrived."""
    table = TableState()
    adapter = ContractTranslator(table.apply, None)
    for state in states:
        adapter.public_state(state)
    return table


def public_state(**extra) -> dict:
    return {"v": 1, "board": "b", "game": "g1", "seq": 4, "phase": "playing", "view": None,
            "seats": {}, "clocks": None, "board_check": None, **extra}


def test_the_display_learns_how_long_the_referee_was_away():
    table = table_after(public_state(referee_back={"type": "referee_back", "away_s": 12, "clocks": "paused"}))
    assert table.referee_away_s == 12
    assert referee_back_text(Translator("en"), table.referee_away_s) == \
        "The referee was away 12 s; clocks were paused"


def test_the_note_goes_once_play_goes_on():
    table = table_after(public_state(referee_back={"type": "referee_back", "away_s": 12, "clocks": "paused"}),
                        public_state(seq=5, referee_back=None))
    assert table.referee_away_s is None


def test_a_malformed_note_is_ignored():
    assert table_after(public_state(referee_back={"away_s": "twelve"})).referee_away_s is None
    assert table_after(public_state(referee_back={"away_s": True})).referee_away_s is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_says_it_with_the_seconds(language):
    text = referee_back_text(Translator(language), 12)
    assert "12" in text and "{" not in text
    if language != "en":
        assert text != referee_back_text(Translator("en"), 12)
