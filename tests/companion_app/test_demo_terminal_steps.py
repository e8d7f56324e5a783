"""What the windowed demo says in the terminal and in the codes window, in the demo's language."""

from __future__ import annotations

import pytest

from companion_app.demo.terminal_steps import WIDTH, stratego_steps, triumph_steps
from companion_app.demo.triumph_windows import codes_text
from companion_app.i18n.catalog import Translator
from tests.companion_app.layout_checks import english

URL = "mqtt://127.0.0.1:1883/demo"


@pytest.mark.parametrize("language", ["en", "de", "bg"])
def test_the_steps_name_the_buttons_as_the_windows_show_them(language):
    tr = Translator(language)
    text = stratego_steps(tr, URL, ["red", "blue"], None)
    flowing = " ".join(text.split())  # a button's name may wrap onto the next line
    assert URL in text and tr("Red tablet") in text and tr("Blue tablet") in text
    for button in ("Send code", "Random", "Put both setups on the board"):
        assert tr(button) in flowing  # quoted as the language quotes
    assert text.splitlines()[0].endswith(f"{URL}).")  # the address on one line, to copy
    assert all(len(line) <= WIDTH for line in text.splitlines()[1:])
    assert text.splitlines()[-1].strip() == tr("Close any window to end the demo.")
    if language != "en":
        assert english({"terminal": [line for line in text.splitlines() if URL not in line]}) == []


def test_a_computer_seat_leaves_its_tablet_out_and_says_whose_moves_to_make():
    text = " ".join(stratego_steps(Translator("de"), URL, ["red"], "blue").split())
    assert "Tablet Blau" not in text and "Tablet Rot" in text
    assert "Der Computer spielt Blau" in text


@pytest.mark.parametrize("language", ["de", "bg"])
def test_napoleons_triumph_steps_and_codes_window_speak_the_language(language):
    tr = Translator(language)
    text = triumph_steps(tr, URL)
    assert tr("Send code") in " ".join(text.split())
    assert english({"terminal": [line for line in text.splitlines() if URL not in line]}) == []
    waiting = codes_text({}, tr)
    shown = codes_text({"red": "123456", "blue": "654321", "display": "111222"}, tr)
    assert english({"codes": [waiting, shown]}) == []
    assert f"{tr('Allies')}: [b]123456[/b]" in shown and f"{tr('French')}: [b]654321[/b]" in shown
    assert f"{tr('Referee display')}: [b]111222[/b]" in shown
