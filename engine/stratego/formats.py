"""Any game file (our JSON record, Gravon XML or GSN): recognise it, load it, write it in another.

Text in, text out (no file is opened here). The format is recognised by the content, not by a
file name: Gravon XML starts with `<`, GSN with `#` (its `#X38FA11` header), anything else is
read as our JSON record. See docs/records.md, "Formats and `arbiter convert`".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import ArbiterError
from engine.stratego.gravon import (
    GravonGame,
    GravonResult,
    from_record,
    read_gsn,
    read_xml,
    write_gsn,
    write_xml,
)
from engine.stratego.records import GameRecord

FORMATS = ("json", "xml", "gsn")


class FormatError(ArbiterError, ValueError):
    """The text is in no format we read, or the game cannot be written in the one asked for."""

    code = "bad-format"


@dataclass
class LoadedGame:
    """A game read from a file: its record and what the file said besides the moves."""

    format: str  # "json", "xml" or "gsn": what the text was
    record: GameRecord
    players: tuple[str, str] = ("", "")  # Red's name, Blue's name (Gravon files)
    archive_result: GravonResult | None = None  # the result the Gravon file states
    gravon_type: str = ""  # "classic", "classicfree", "barrage", "duell" (Gravon files)
    notes: list[str] = field(default_factory=list)  # what the reader skipped or repaired


def detect(text: str) -> str:
    """The format of a text by its first characters: "xml", "gsn" or (otherwise) "json"."""
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith("<"):
        return "xml"
    if start.startswith("#"):
        return "gsn"
    return "json"


def record_data(text: str) -> Any:
    """The JSON data of the record in a text of any format, for `check_record`.

    JSON comes back as parsed (json.JSONDecodeError when it is not JSON), so a JSON file is
    checked exactly as before; a Gravon file comes back as its record (GravonError if unreadable).
    """
    kind = detect(text)
    if kind == "json":
        return json.loads(text)
    return _read_gravon(text, kind).record.to_dict()


def load(text: str) -> LoadedGame:
    """Read a game in any of the three formats (FormatError, RecordError or GravonError say why not)."""
    kind = detect(text)
    if kind != "json":
        game = _read_gravon(text, kind)
        return LoadedGame(kind, game.record, game.players, game.result, game.gravon_type,
                          list(game.notes))
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        raise FormatError(f"not JSON, Gravon XML or GSN: {error}") from None
    return LoadedGame("json", GameRecord.from_dict(data))


def dump(game: LoadedGame | GameRecord, to: str) -> str:
    """Write a game (or a bare record) as JSON, Gravon XML or GSN text."""
    if to not in FORMATS:
        raise FormatError(f"unknown format {to!r} (one of {', '.join(FORMATS)})")
    loaded = game if isinstance(game, LoadedGame) else LoadedGame("json", game)
    if to == "json":
        return json.dumps(loaded.record.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if loaded.archive_result is not None or loaded.gravon_type:
        # From the archive: keep its type and its own result, whatever a replay would say.
        gravon = GravonGame(loaded.record, loaded.players, loaded.archive_result,
                            loaded.gravon_type)
    else:
        gravon = from_record(loaded.record, loaded.players)
    return write_xml(gravon) if to == "xml" else write_gsn(gravon)


def _read_gravon(text: str, kind: str) -> GravonGame:
    return read_xml(text) if kind == "xml" else read_gsn(text)
