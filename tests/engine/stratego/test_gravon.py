"""Gravon archive files: famous games come in as records that replay, and go back out unchanged."""

import random
from pathlib import Path

import pytest

from engine import Color, Game, Square, get_variant, named_setup, random_setup
from engine.stratego.gravon import (
    GravonError,
    GravonResult,
    board_from_string,
    board_to_string,
    from_record,
    read_gravon,
    read_gsn,
    read_xml,
    setup_from_letters,
    setup_to_letters,
    write_gsn,
    write_xml,
)
from engine.stratego.records import GameRecord, check_record

DATA = Path(__file__).parent / "data"
RAID_BOARD = (
    "MBAAAAAAAAEAAAAAAAAAAAAAAAAAAADAKACALADA"
    "AA__AA__AAAA__AA__AA"
    "PAAAXAWAAPAAAAAAAAAAAAAAAAAAOQAAAAAAAANY"
)


def text(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def test_the_board_string_starts_on_reds_back_row_at_reds_left():
    pieces = board_from_string(RAID_BOARD, get_variant("barrage"))
    assert pieces[Square.parse("a1")] == (Color.RED, "flag")
    assert pieces[Square.parse("b1")] == (Color.RED, "bomb")
    assert pieces[Square.parse("g4")] == (Color.RED, "marshal")
    assert pieces[Square.parse("e7")] == (Color.BLUE, "marshal")
    assert pieces[Square.parse("j10")] == (Color.BLUE, "flag")
    assert len(pieces) == 16


def test_every_letter_names_its_kind_for_both_colours():
    board = "BCDEFGHIJKLMAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA__AA__AAAA__AA__AANOPQRSTUVWXYAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    pieces = board_from_string(board)
    kinds = ["bomb", "spy", "scout", "miner", "sergeant", "lieutenant", "captain", "major",
             "colonel", "general", "marshal", "flag"]
    assert [pieces[Square(i % 10, i // 10)] for i in range(12)] == [(Color.RED, k) for k in kinds]
    assert [pieces[Square(i % 10, 6 + i // 10)] for i in range(12)] == [(Color.BLUE, k) for k in kinds]
    assert board_to_string(pieces) == board


@pytest.mark.parametrize("board, complaint", [
    ("A" * 99, "100 characters"),
    (RAID_BOARD.replace("AA__AA__AAAA", "AAAAAA__AAAA", 1), "is a lake"),
    (RAID_BOARD[:42] + "AA" + RAID_BOARD[44:], "is a lake"),
    (RAID_BOARD[:5] + "Z" + RAID_BOARD[6:], "not a Gravon letter"),
])
def test_a_bad_board_string_is_refused_with_the_reason(board, complaint):
    with pytest.raises(GravonError, match=complaint):
        board_from_string(board)


def test_a_40_letter_setup_is_read_from_its_owners_side():
    variant = get_variant("classic")
    red = named_setup(variant, Color.RED, "corner-fortress")
    blue = named_setup(variant, Color.BLUE, "corner-fortress")
    red_letters = setup_to_letters(red, variant, Color.RED)
    blue_letters = setup_to_letters(blue, variant, Color.BLUE)
    # The same setup written by each owner reads the same, each in its own colour's letters.
    assert red_letters.translate(str.maketrans("BCDEFGHIJKLM", "NOPQRSTUVWXY")) == blue_letters
    assert setup_from_letters(red_letters, variant, Color.RED) == red
    assert setup_from_letters(red_letters, variant, Color.BLUE) == blue
    assert setup_from_letters(blue_letters, variant, Color.BLUE) == blue


def test_an_archive_xml_game_replays_to_the_archives_result():
    game = read_xml(text("gravon_barrage_marshal_raid.xml"))
    assert game.gravon_type == "barrage" and game.record.variant == "barrage"
    assert game.players == ("Player 1", "Player 2")
    assert game.result == GravonResult(1, Color.RED)
    assert game.result.text == "flag captured"
    assert game.record.moves[:3] == ["a4-a6", "a7-a6", "e4-e5"]
    assert game.record.moves[7] == "j9-i9"  # K is the tenth file: the old notation has no J
    verdict = check_record(game.record.to_dict())
    assert verdict["applied"] == 33 and verdict["illegal"] is None
    assert verdict["result"] == {"winner": "red", "reason": "flag-captured"}
    assert verdict["battles"][1] == {"attacker": "spy", "defender": "marshal", "outcome": "attacker"}
    assert verdict["battles"][4] == {"attacker": "general", "defender": "marshal", "outcome": "defender"}


def test_the_same_game_in_gsn_gives_the_same_record():
    from_gsn = read_gsn(text("gravon_barrage_marshal_raid.gsn"))
    from_xml = read_xml(text("gravon_barrage_marshal_raid.xml"))
    assert from_gsn.record == from_xml.record
    assert from_gsn.result == from_xml.result
    assert from_gsn.players == from_xml.players


def test_archive_games_replay_with_gravons_five_move_two_squares_rule():
    record = read_xml(text("gravon_barrage_marshal_raid.xml")).record
    assert record.two_squares_limit == 5
    # Blue shuffles its scout four times in a row: legal at Gravon, too many under ISF's three.
    strict = record.to_dict()
    del strict["two_squares_limit"]
    illegal = check_record(strict)["illegal"]
    assert illegal["rule"] == "two-squares" and illegal["move"] == "j8-j7"


def test_a_forfeit_in_the_archive_becomes_a_resignation_in_the_record():
    game = read_gravon(text("gravon_classic_forfeit.gsn"))
    assert game.gravon_type == "classic"
    assert game.players == ("Anna", "Boris")
    assert game.record.ending == {"reason": "resignation", "color": "blue"}
    verdict = check_record(game.record.to_dict())
    assert verdict["applied"] == 7
    assert [b["outcome"] for b in verdict["battles"]] == ["defender", "defender", "both"]
    assert verdict["result"] == {"winner": "red", "reason": "resignation"}


@pytest.mark.parametrize("name", ["gravon_barrage_marshal_raid.xml", "gravon_barrage_marshal_raid.gsn",
                                  "gravon_classic_forfeit.gsn"])
def test_export_writes_back_what_was_imported(name):
    game = read_gravon(text(name))
    for write, read in ((write_xml, read_xml), (write_gsn, read_gsn)):
        again = read(write(game))
        assert again.record == game.record
        assert again.players == game.players
        assert again.result == game.result


def test_an_exported_xml_file_is_the_archive_file_itself():
    game = read_xml(text("gravon_barrage_marshal_raid.xml"))
    assert write_xml(game) == text("gravon_barrage_marshal_raid.xml")
    assert write_gsn(game) == text("gravon_barrage_marshal_raid.gsn")


@pytest.mark.parametrize("variant_name", ["classic", "barrage", "duel"])
def test_a_random_game_round_trips_through_both_formats(variant_name):
    rng = random.Random(variant_name)
    variant = get_variant(variant_name)
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))
    while game.result is None and game.ply < 400:
        game.push(rng.choice(game.legal_moves()))
    exported = from_record(GameRecord.from_game(game), ("ann", "bob <&> \"c\""))
    back = read_xml(write_xml(exported))
    assert back.record.moves == [m.name for m in game.move_stack]
    assert back.record.pieces == game.initial_pieces
    assert back.players == ("ann", "bob <&> \"c\"")
    if game.result is not None:
        assert back.result.winner == game.result.winner
    if variant_name != "duel":  # GSN predates the duel type
        assert read_gsn(write_gsn(exported)).record == back.record


def test_duel_cannot_be_written_as_gsn():
    game = read_xml(text("gravon_barrage_marshal_raid.xml"))
    game.gravon_type = "duell"
    with pytest.raises(GravonError, match="write XML instead"):
        write_gsn(game)


def test_variants_gravon_never_had_cannot_be_exported():
    variant = get_variant("strategy8")
    record = GameRecord("strategy8", {
        **{sq: (Color.RED, k) for sq, k in named_setup(variant, Color.RED, "corner-fortress").items()},
        **{sq: (Color.BLUE, k) for sq, k in named_setup(variant, Color.BLUE, "corner-fortress").items()},
    })
    with pytest.raises(GravonError, match="no strategy8 games"):
        from_record(record)


def test_players_are_taken_by_their_ids():
    swapped = text("gravon_barrage_marshal_raid.xml").replace(
        '  <player id="1">Player 1</player>\n  <player id="2">Player 2</player>',
        '  <player id="2">Bea</player>\n  <player id="1">Al</player>')
    assert read_xml(swapped).players == ("Al", "Bea")


def test_the_archives_j_for_k_fault_is_read_as_the_tenth_file():
    faulty = text("gravon_barrage_marshal_raid.xml").replace('"K', '"J')
    assert read_xml(faulty).record == read_xml(text("gravon_barrage_marshal_raid.xml")).record


def test_rescue_moves_and_a_repeated_end_are_skipped_with_a_note():
    lines = text("gravon_barrage_marshal_raid.gsn").splitlines()
    lines.insert(5, "34:35")
    lines.insert(-1, "END")
    game = read_gsn("\n".join(lines))
    assert len(game.record.moves) == 33
    assert any("rescue move" in note for note in game.notes)


@pytest.mark.parametrize("document, complaint", [
    ("<stratego><game type='classic'>", "not XML"),
    ("<stratego/>", "no <game>"),
    ("<stratego><game type='ultimate lightning'/></stratego>", "not supported"),
    ("<stratego><game type='classic'><move id='1' source='A4' target='A5'/></game></stratego>",
     "before both setups were complete"),
    ("<stratego><game type='barrage'><field content='" + RAID_BOARD + "'/>"
     "<move id='1' source='A4'/></game></stratego>", "lacks a source or target"),
    ("<stratego><game type='barrage'><field content='" + RAID_BOARD + "'/>"
     "<move id='1' source='Z4' target='A5'/></game></stratego>", "not a Gravon square"),
    ("<stratego><game type='barrage'><field content='" + RAID_BOARD + "'/>"
     "<result type='1' winner='7'/></game></stratego>", "winner 7"),
    ("<stratego><game type='classic'><field content='" + RAID_BOARD + "'/></game></stratego>",
     "not a valid classic setup"),
    ("#X38FA11 Stratego-Notation v1\ntype 3\nEND\n", "not supported"),
    ("#X38FA11 Stratego-Notation v1\ntype 1\n" + RAID_BOARD + "\n30-50\n", "no END"),
    ("#X38FA11 Stratego-Notation v1\ntype 1\n" + RAID_BOARD + "\n30+50\nEND\n", "not a move"),
    ("just some text", "neither Gravon XML"),
])
def test_what_is_not_a_readable_gravon_game_is_refused_with_the_reason(document, complaint):
    with pytest.raises(GravonError, match=complaint):
        read_gravon(document)


def test_an_illegal_move_in_an_archive_file_is_reported_by_the_check_not_the_reader():
    broken = text("gravon_barrage_marshal_raid.xml").replace(
        'source="E4" target="E5"', 'source="E4" target="F5"')
    verdict = check_record(read_xml(broken).record.to_dict())
    assert verdict["illegal"]["index"] == 2 and verdict["illegal"]["rule"] == "movement"
