"""Translations (gettext catalogues for German, English, Bulgarian) and rank numbering."""

from __future__ import annotations

import ast
import gettext
import io
import struct
from dataclasses import dataclass, field
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "arbiter"
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "bg": "Български"}


def _unquote(text: str) -> str:
    return ast.literal_eval(text) if text else ""


def parse_po(source: str) -> dict[str, str]:
    """The msgid -> msgstr pairs of a .po file (untranslated and fuzzy entries left out).

    A plural entry is keyed as gettext's .mo files key it: "singular\\0plural" -> "form 0\\0form 1".
    """
    catalog: dict[str, str] = {}
    msgid: list[str] = []
    plural: list[str] = []
    forms: dict[int, list[str]] = {}
    current: list[str] | None = None
    fuzzy = next_fuzzy = False  # the entry being read; the one whose comments are being read

    def flush() -> None:
        key = "".join(msgid) + ("\0" + "".join(plural) if plural else "")
        values = ["".join(forms[index]) for index in sorted(forms)]
        if values and all(values) and not fuzzy:
            catalog[key] = "\0".join(values)

    for raw in source.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            next_fuzzy = True
        elif line.startswith("msgid "):
            if forms:
                flush()
            msgid, plural, forms = [_unquote(line[6:])], [], {}
            current, fuzzy, next_fuzzy = msgid, next_fuzzy, False
        elif line.startswith("msgid_plural "):
            plural = [_unquote(line[13:])]
            current = plural
        elif line.startswith("msgstr"):
            index = int(line[7:line.index("]")]) if line.startswith("msgstr[") else 0
            forms[index] = [_unquote(line[line.index(" ") + 1:])]
            current = forms[index]
        elif line.startswith('"') and current is not None:
            current.append(_unquote(line))
        elif not line and forms:
            flush()
            msgid, plural, forms, current = [], [], {}, None
    if forms:
        flush()
    return catalog


def compile_mo(catalog: dict[str, str]) -> bytes:
    """A GNU .mo file of the catalogue (the format gettext reads), without msgfmt."""
    keys = sorted(catalog)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(catalog[k].encode() + b"\0" for k in keys)
    count = len(keys)
    key_table = 7 * 4
    value_table = key_table + count * 8
    ids_start = value_table + count * 8
    strs_start = ids_start + len(ids)
    offsets: list[int] = []
    pos = 0
    for k in keys:
        offsets += [len(k.encode()), ids_start + pos]
        pos += len(k.encode()) + 1
    pos = 0
    for k in keys:
        offsets += [len(catalog[k].encode()), strs_start + pos]
        pos += len(catalog[k].encode()) + 1
    header = struct.pack("<7I", 0x950412DE, 0, count, key_table, value_table, 0, 0)
    return header + struct.pack(f"<{len(offsets)}I", *offsets) + ids + strs


def _load_domain(folder: Path, domain: str) -> gettext.GNUTranslations | None:
    po, mo = folder / f"{domain}.po", folder / f"{domain}.mo"
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    if not po.exists():
        return None
    # A fresh install may lack compiled catalogues; compiling in memory needs no write access.
    data = compile_mo(parse_po(po.read_text(encoding="utf-8")))
    return gettext.GNUTranslations(io.BytesIO(data))


def domains(folder: Path) -> list[str]:
    """The catalogues of one language: the app's own first, then each game's (triumph.po, ...)."""
    names = {path.stem for path in folder.glob("*.po")} | {path.stem for path in folder.glob("*.mo")}
    return sorted(names, key=lambda name: (name != DOMAIN, name))


def load_translations(language: str) -> gettext.NullTranslations:
    """A language's catalogues, the app's first and each game's domain after it (a message is
    looked up in each in turn): the shipped .mo if it is current, else compiled from the .po."""
    if language == "en":
        return gettext.NullTranslations()
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    chain: gettext.NullTranslations | None = None
    for domain in domains(folder):
        found = _load_domain(folder, domain)
        if found is None:
            continue
        if chain is None:
            chain = found
        else:
            chain.add_fallback(found)
    return chain or gettext.NullTranslations()


# Piece kinds in the order of strength, with what the old numbering (Marshal = 1) printed on them.
RANKED_KINDS = ("marshal", "general", "colonel", "major", "captain", "lieutenant", "sergeant",
                "miner", "scout", "spy")
NEW_RANK = {"marshal": 10, "general": 9, "colonel": 8, "major": 7, "captain": 6, "lieutenant": 5,
            "sergeant": 4, "miner": 3, "scout": 2, "spy": 1}
OLD_RANK = {"marshal": "1", "general": "2", "colonel": "3", "major": "4", "captain": "5",
            "lieutenant": "6", "sergeant": "7", "miner": "8", "scout": "9", "spy": "S"}
SYMBOLS = {"bomb": "B", "flag": "F", "mine": "M", "headquarters": "H", "sapper": "Sa", "spy": "S"}
# The running material score of de Boer's "Strategy" rules: Scout 1, Miner 2, and so on up the ranks.
MATERIAL = {"scout": 1, "miner": 2, "sergeant": 3, "lieutenant": 4, "captain": 5, "major": 6,
            "colonel": 7, "general": 8, "marshal": 9, "spy": 1, "bomb": 1, "flag": 0}


def kind_names(_) -> dict[str, str]:
    """The display name of every piece kind in the current language."""
    return {
        "marshal": _("Marshal"), "general": _("General"), "colonel": _("Colonel"),
        "major": _("Major"), "captain": _("Captain"), "lieutenant": _("Lieutenant"),
        "sergeant": _("Sergeant"), "miner": _("Miner"), "scout": _("Scout"), "spy": _("Spy"),
        "bomb": _("Bomb"), "flag": _("Flag"), "corporal": _("Corporal"),
        "sapper": _("Sapper"), "mine": _("Mine"), "headquarters": _("Headquarters"),
    }


@dataclass
class Translator:
    """One tablet's language and numbering; widgets ask it for every text they show."""

    language: str = "en"
    numbering: str = "new"  # "new": Marshal 10 ... Spy 1; "old": Marshal 1 ... Scout 9, Spy S
    variant: str = ""
    labels_new: dict[str, str] = field(default_factory=dict)
    labels_old: dict[str, str] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=lambda: dict(MATERIAL))
    _translations: gettext.NullTranslations = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.set_language(self.language)

    def set_language(self, language: str) -> None:
        """Switch every later text to another language."""
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}; choose one of {sorted(LANGUAGES)}")
        self.language = language
        self._translations = load_translations(language)

    def set_variant(self, name: str) -> None:
        """Take the marks and material values of a variant's pieces from the engine."""
        if name == self.variant:
            return
        try:
            from engine import get_variant

            kinds = get_variant(name).kinds
        except (ImportError, ValueError):
            return
        self.variant = name
        self.labels_new, self.labels_old = {}, {}
        for kind, power in kinds.items():
            symbol = SYMBOLS.get(kind, power.symbol)
            self.labels_new[kind] = str(power.rank) if power.rank else symbol
            self.labels_old[kind] = str(power.old_rank) if power.old_rank else (
                symbol if not power.rank or kind == "spy" else str(power.rank))
        self.points = {kind: power.points for kind, power in kinds.items()}

    def material(self, kinds: list[str | None]) -> int:
        """The material value of captured pieces in this variant (unknown kinds count nothing)."""
        return sum(self.points.get(kind, 0) for kind in kinds if kind)

    def __call__(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """Singular or plural form for a count."""
        return self._translations.ngettext(singular, plural, count)

    def kind_name(self, kind: str | None) -> str:
        """A piece kind's name, or a question mark for a hidden one."""
        if kind is None:
            return "?"
        return kind_names(self).get(kind, kind.capitalize())

    def rank_label(self, kind: str | None) -> str:
        """The short mark printed on a piece: its number in the chosen numbering, or a letter."""
        if kind is None:
            return "?"
        table = self.labels_old if self.numbering == "old" else self.labels_new
        if kind in table:
            return table[kind]
        if kind in NEW_RANK:
            return OLD_RANK[kind] if self.numbering == "old" else str(NEW_RANK[kind])
        return SYMBOLS.get(kind, kind[:2].capitalize())


def material(kinds: list[str | None]) -> int:
    """The material value of captured pieces (unknown kinds count nothing)."""
    return sum(MATERIAL.get(kind, 0) for kind in kinds if kind)


def N_(message: str) -> str:
    """Mark a text for translation where it is defined; it is translated where it is shown."""
    return message
