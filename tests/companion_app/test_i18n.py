"""Catalogues: every text the app shows exists in German and Bulgarian, placeholders intact."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion_app.i18n.catalog import LANGUAGES, LOCALE_DIR, Translator, compile_mo, parse_po
from tests.system_packages import requires

APP = Path(__file__).resolve().parents[2] / "companion_app"
CALL = re.compile(r"""\b(?:tr|N_)\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)""")
# A call inside an f-string quotes its message the other way: f"{tr('Move')} 3".
SINGLE_QUOTED_CALL = re.compile(r"""\b(?:tr|N_)\('((?:[^'\\]|\\.)*)'\)""")


PLURAL = re.compile(r"""\bngettext\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+),""")


def _literal(text: str) -> str:
    return "".join(eval(part) for part in re.findall(r'"(?:[^"\\]|\\.)*"', text))


def messages_in_file(path: Path) -> set[str]:
    """Every literal passed to tr(...) or N_(...) in one source file, and each ngettext pair
    keyed as the catalogue keys it ("singular\\0plural")."""
    source = path.read_text(encoding="utf-8")
    found = {_literal(match.group(1)) for match in CALL.finditer(source)}
    found |= {match.group(1) for match in SINGLE_QUOTED_CALL.finditer(source)}
    found |= {_literal(match.group(1)) + "\0" + _literal(match.group(2))
              for match in PLURAL.finditer(source)}
    return found


def messages_in_code() -> set[str]:
    """Every message of the app's sources (messages_in_file over companion_app)."""
    found: set[str] = set()
    for path in APP.rglob("*.py"):
        found |= messages_in_file(path)
    return found


@pytest.mark.parametrize("language", ["de", "bg"])
def test_every_message_is_translated_with_the_same_placeholders(language):
    catalog: dict[str, str] = {}
    for po in (LOCALE_DIR / language / "LC_MESSAGES").glob("*.po"):  # the app's and each game's
        catalog.update(parse_po(po.read_text("utf-8")))
    wanted = messages_in_code()
    assert len(wanted) > 100
    missing = sorted(m for m in wanted if m not in catalog)
    assert missing == []
    for message in wanted:
        assert set(re.findall(r"{\w+}", catalog[message])) == set(re.findall(r"{\w+}", message)), message


@requires("msgfmt", shutil.which("msgfmt") is not None, "GNU gettext checks the catalogues")
@pytest.mark.parametrize("language", ["de", "bg"])
def test_catalogue_compiled_in_memory_reads_like_msgfmt_output(language, tmp_path):
    po = LOCALE_DIR / language / "LC_MESSAGES" / "arbiter.po"
    subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "x.mo"), str(po)], check=True)
    theirs = gettext.GNUTranslations((tmp_path / "x.mo").open("rb"))
    ours = gettext.GNUTranslations(io.BytesIO(compile_mo(parse_po(po.read_text("utf-8")))))
    for message in messages_in_code():
        assert ours.gettext(message) == theirs.gettext(message)


def test_a_fresh_install_without_mo_files_still_speaks_every_language():
    assert not list(LOCALE_DIR.rglob("*.mo"))
    for code in LANGUAGES:
        tr = Translator(code)
        assert tr("Your turn") == {"en": "Your turn", "de": "Du bist am Zug", "bg": "Ваш ход"}[code]


def test_rank_numbering_old_and_new():
    tr = Translator("en")
    tr.set_variant("classic")
    assert [tr.rank_label(k) for k in ("marshal", "scout", "spy", "bomb", None)] == ["10", "2", "1", "B", "?"]
    tr.numbering = "old"
    assert [tr.rank_label(k) for k in ("marshal", "scout", "spy", "bomb")] == ["1", "9", "S", "B"]


def test_unknown_language_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown language"):
        Translator("fr")


def test_plural_entries_give_the_form_for_the_count():
    source = ('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
              'msgid "{count} unit"\nmsgid_plural "{count} units"\n'
              'msgstr[0] "{count} Einheit"\nmsgstr[1] "{count} Einheiten"\n')
    translations = gettext.GNUTranslations(io.BytesIO(compile_mo(parse_po(source))))
    assert translations.ngettext("{count} unit", "{count} units", 1) == "{count} Einheit"
    assert translations.ngettext("{count} unit", "{count} units", 4) == "{count} Einheiten"


def test_a_game_brings_its_own_catalogue_beside_the_apps(tmp_path, monkeypatch):
    from companion_app.i18n import catalog

    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "arbiter.po").write_text('msgid "Your turn"\nmsgstr "Du bist am Zug"\n', "utf-8")
    (folder / "triumph.po").write_text('msgid "End turn"\nmsgstr "Zug beenden"\n\n'
                                       'msgid "Your turn"\nmsgstr "not this one"\n', "utf-8")
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path)
    tr = Translator("de")
    assert (tr("Your turn"), tr("End turn"), tr("Board")) == ("Du bist am Zug", "Zug beenden", "Board")
