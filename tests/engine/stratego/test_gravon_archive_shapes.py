"""The shapes real Gravon archive files take, as the archive's public readers show them.

Where each shape comes from is in docs/records.md ("Where the shapes come from"): row 10 written
`:`, classicfree games from any arrangement, GSN files with more than one END, and the XML that
the archive's readers write when they convert a GSN file.
"""

from pathlib import Path

import pytest

from engine import Color, Square
from engine.stratego.gravon import (
    GravonError,
    GravonResult,
    from_record,
    read_gravon,
    read_gsn,
    read_xml,
    write_gsn,
    write_xml,
    xml_square,
)
from engine.stratego.records import GameRecord, check_record

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "gravon"


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_an_xml_row_10_written_as_a_colon_is_the_tenth_row():
    plain = read_xml(text(DATA / "gravon_barrage_marshal_raid.xml"))
    colon = read_xml(text(CORPUS / "barrage-raid-row10.xml"))
    assert 'target="K:"' in text(CORPUS / "barrage-raid-row10.xml")
    assert colon.record == plain.record
    assert colon.record.moves[-1] == "j9-j10"  # K: is the top right corner
    assert xml_square(Square.parse("j10")) == "K10"  # we write the plain form


@pytest.mark.parametrize("square", ["K;", "L:", "K0", "K11", ":5"])
def test_other_characters_after_the_file_letter_are_still_refused(square):
    document = text(DATA / "gravon_barrage_marshal_raid.xml").replace('target="K10"', f'target="{square}"')
    with pytest.raises(GravonError, match="not a Gravon square"):
        read_xml(document)


def test_a_classicfree_game_starts_from_any_arrangement_as_a_position_record():
    game = read_gravon(text(CORPUS / "classicfree-both-unable-to-move.xml"))
    assert game.gravon_type == "classicfree"
    record = game.record
    assert record.variant == "classic" and record.is_setup is False
    assert len(record.pieces) == 12  # far from a 40-piece setup
    data = record.to_dict()
    assert "position" in data and "setup" not in data
    assert GameRecord.from_dict(data) == record


def test_a_classicfree_gsn_game_is_a_position_record_too():
    game = read_gsn(text(CORPUS / "classicfree-unable-to-move.gsn"))
    assert game.gravon_type == "classicfree" and game.record.is_setup is False
    assert check_record(game.record.to_dict())["result"] == {"winner": "red",
                                                             "reason": "no-legal-move"}


def test_a_classic_setup_that_is_not_full_is_still_refused():
    document = text(CORPUS / "classicfree-both-unable-to-move.xml").replace(
        'type="classicfree"', 'type="classic"')
    with pytest.raises(GravonError, match="not a valid classic setup"):
        read_xml(document)


def test_a_position_record_is_exported_as_classicfree_and_reads_back():
    game = read_gravon(text(CORPUS / "classicfree-both-unable-to-move.xml"))
    fresh = from_record(game.record, game.players)
    assert fresh.gravon_type == "classicfree"
    assert fresh.result == GravonResult(2, None)  # both unable to move
    for write, read in ((write_xml, read_xml), (write_gsn, read_gsn)):
        again = read(write(fresh))
        assert again.record == game.record and again.gravon_type == "classicfree"


def test_a_barrage_position_cannot_be_exported():
    game = read_gravon(text(CORPUS / "classicfree-both-unable-to-move.xml"))
    game.record.variant = "barrage"
    with pytest.raises(GravonError, match="only as classicfree"):
        from_record(game.record)


def test_moves_after_the_first_end_belong_to_the_game():
    game = read_gsn(text(CORPUS / "classic-two-ends.gsn"))
    assert game.record.moves == ["a4-a5", "j7-j6", "a5-a7"]
    assert game.result == GravonResult(1, Color.RED)
    assert game.players == ("Anna", "Boris")
    assert any("after the first END" in note for note in game.notes)
    verdict = check_record(game.record.to_dict())
    assert verdict["applied"] == 3
    assert verdict["result"] == {"winner": "red", "reason": "flag-captured"}


def test_with_two_result_lines_the_first_is_the_games_as_the_archives_readers_pair_them():
    lines = text(CORPUS / "classic-two-ends.gsn").splitlines()
    lines[-1] = "Anna vs Boris result 3 winner 1"
    game = read_gsn("\n".join(lines))
    assert game.result == GravonResult(1, Color.RED)
    assert len(game.record.moves) == 3
    assert any("later result line ignored" in note for note in game.notes)


def test_a_single_end_followed_by_more_moves_keeps_them_too():
    # The second fault the archive's readers repair: END and the result line in the middle.
    lines = text(CORPUS / "classic-two-ends.gsn").splitlines()
    del lines[-2:]  # the second END and result line
    game = read_gsn("\n".join(lines))
    assert game.record.moves == ["a4-a5", "j7-j6", "a5-a7"]
    assert game.result == GravonResult(1, Color.RED)


def test_the_xml_the_archives_readers_write_from_gsn_reads_as_the_same_game():
    converted = read_xml(text(CORPUS / "classic-converted-from-gsn.xml"))
    original = read_gsn(text(CORPUS / "classic-two-ends.gsn"))
    assert converted.record == original.record
    assert converted.result == original.result
    assert converted.players == original.players


def test_a_draw_by_both_sides_unable_to_move_is_exported_as_ending_2():
    game = read_gravon(text(CORPUS / "classicfree-both-unable-to-move.xml"))
    assert check_record(game.record.to_dict())["result"] == {"winner": None,
                                                             "reason": "neither-can-move"}
    assert from_record(game.record).result == GravonResult(2, None)


def test_a_gsn_game_that_ended_during_the_setup_is_refused_with_the_reason():
    # The archive's readers: an END right after the type line means no board was ever complete.
    with pytest.raises(GravonError, match="before both setups were complete"):
        read_gsn("#X38FA11 Stratego-Notation v1\ntype 0\nEND\nAnna vs Boris result 3 winner 1\n")
