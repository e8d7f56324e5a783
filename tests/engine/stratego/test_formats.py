"""engine.stratego.formats: a game file in any of our three formats is recognised by its content."""

import json
from pathlib import Path

import pytest

from engine.core.errors import RecordError
from engine.stratego.formats import FormatError, detect, dump, load, record_data
from engine.stratego.gravon import GravonError

CORPUS = Path(__file__).parent / "data" / "gravon"


def read(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("text, kind", [
    ('{"variant": "classic"}', "json"),
    ("\ufeff  <?xml version='1.0'?><stratego/>", "xml"),
    ("\n#X38FA11 Stratego-Notation v1\n", "gsn"),
    ("whatever", "json"),
])
def test_the_format_is_told_by_the_first_characters(text, kind):
    assert detect(text) == kind


def test_the_three_formats_load_to_the_same_record():
    game = load(read("classic-two-ends.gsn"))
    as_xml = load(dump(game, "xml"))
    as_json = load(dump(game, "json"))
    assert game.format == "gsn" and as_xml.format == "xml" and as_json.format == "json"
    assert game.record == as_xml.record == as_json.record
    assert as_xml.players == game.players and as_xml.archive_result == game.archive_result
    assert as_json.players == ("", "") and as_json.archive_result is None  # JSON has no such fields


def test_a_bare_record_is_written_with_the_result_its_moves_lead_to():
    record = load(read("classic-two-ends.gsn")).record
    assert 'result type="1" winner="1"' in dump(record, "xml")


def test_record_data_gives_json_as_parsed_and_gravon_as_its_record():
    assert record_data('{"a": 1}') == {"a": 1}
    with pytest.raises(json.JSONDecodeError):
        record_data("{not json")
    assert record_data(read("barrage-tie-agreed.gsn"))["ending"] == {"reason": "agreement"}
    with pytest.raises(GravonError):
        record_data("<stratego/>")


def test_what_cannot_be_read_or_written_says_why():
    with pytest.raises(FormatError, match="not JSON, Gravon XML or GSN"):
        load("just words")
    with pytest.raises(RecordError):
        load('{"variant": "classic"}')
    with pytest.raises(FormatError, match="unknown format"):
        dump(load(read("classic-two-ends.gsn")), "pgn")
