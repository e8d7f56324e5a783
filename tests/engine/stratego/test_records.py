"""Game records: what a valid record is, how it replays, and the verdict `arbiter check` prints."""

import json

import pytest

from engine import Color, Game, Move, Square, get_variant, named_setup
from engine.core.errors import RecordError
from engine.stratego.records import ENDINGS, GameRecord, check_record


def setup_of(variant_name: str = "classic") -> dict:
    """Both sides' named setups in record form."""
    variant = get_variant(variant_name)
    name = {"barrage": "hidden-flag", "duel": "hidden-flag"}.get(variant_name, "corner-fortress")
    return {
        color.value: {sq.name: kind for sq, kind in named_setup(variant, color, name).items()}
        for color in Color
    }


def study(red: dict, blue: dict, moves=(), **extra) -> dict:
    """A `position` record (any arrangement, no setup rules)."""
    return {"variant": "classic", "position": {"red": red, "blue": blue}, "moves": list(moves), **extra}


# -- reading and writing --------------------------------------------------------------------


def test_a_setup_record_round_trips_through_json():
    data = {"variant": "classic", "setup": setup_of(), "to_move": "red", "moves": ["a4-a5", "j7-j6"]}
    record = GameRecord.from_dict(json.loads(json.dumps(data)))
    assert record.is_setup and record.to_move is Color.RED
    assert len(record.pieces) == 80
    assert GameRecord.from_dict(record.to_dict()) == record
    assert record.to_dict()["moves"] == ["a4-a5", "j7-j6"]


def test_options_survive_the_round_trip():
    data = study({"a1": "flag", "e4": "scout"}, {"j10": "flag", "e7": "scout"}, ["e4-e6"],
                 to_move="red", volcanoes=["b5"], moves_per_turn=1, two_squares_limit=5,
                 ending={"reason": "resignation", "color": "blue"})
    record = GameRecord.from_dict(data)
    assert record.to_dict() == GameRecord.from_dict(record.to_dict()).to_dict()
    assert record.to_dict()["volcanoes"] == ["b5"]
    assert record.to_dict()["two_squares_limit"] == 5
    assert record.to_dict()["ending"] == {"reason": "resignation", "color": "blue"}


def test_to_move_defaults_to_the_variants_first_player():
    record = GameRecord.from_dict({"variant": "classic", "setup": setup_of()})
    assert record.to_move is Color.RED and record.moves == []


def test_a_game_becomes_a_record_that_replays_to_the_same_position():
    variant = get_variant("classic")
    game = Game.from_setup(variant, named_setup(variant, Color.RED, "corner-fortress"),
                           named_setup(variant, Color.BLUE, "shoreline-bombs"))
    for text in ["a4-a5", "a7-a6", "a5-a6"]:
        game.push(Move.parse(text))
    game.resign(Color.BLUE)
    record = GameRecord.from_game(game)
    assert record.ending == {"reason": "resignation", "color": "blue"}
    replayed = GameRecord.from_dict(record.to_dict()).replay()
    assert replayed.hash == game.hash and replayed.ply == 3
    assert check_record(record.to_dict())["result"] == {"winner": "red", "reason": "resignation"}


def test_a_game_from_a_position_becomes_a_study_record():
    game = Game.from_position(get_variant("classic"), {
        Square.parse("a1"): (Color.RED, "flag"), Square.parse("e4"): (Color.RED, "scout"),
        Square.parse("j10"): (Color.BLUE, "flag"), Square.parse("e7"): (Color.BLUE, "scout"),
    }, to_move=Color.BLUE)
    game.push(Move.parse("e7-e6"))
    data = GameRecord.from_game(game).to_dict()
    assert "position" in data and "setup" not in data and data["to_move"] == "blue"
    assert check_record(data)["applied"] == 1


def test_a_study_may_hold_any_arrangement_and_start_with_blue():
    data = study({"e4": "marshal"}, {"e5": "spy", "j10": "flag"}, ["e5-e4"], to_move="blue")
    verdict = check_record(data)
    assert verdict["battles"] == [{"attacker": "spy", "defender": "marshal", "outcome": "attacker"}]


# -- what is not a record ------------------------------------------------------------------


@pytest.mark.parametrize("data, complaint", [
    ([], "JSON object"),
    ({"setup": {}}, "no 'variant'"),
    ({"variant": 7, "setup": {}}, "no 'variant'"),
    ({"variant": "chess", "setup": {}}, "unknown variant 'chess'"),
    ({"variant": "classic"}, "either 'setup' or 'position'"),
    ({"variant": "classic", "setup": {}, "position": {}}, "either 'setup' or 'position'"),
    ({"variant": "classic", "position": {"green": {}}}, "is {\"red\""),
    ({"variant": "classic", "position": {"red": ["a1"]}}, "mapping of square to piece"),
    ({"variant": "classic", "position": {"red": {"k1": "flag"}}}, "k1 is not on the 10x10 board"),
    ({"variant": "classic", "position": {"red": {"a11": "flag"}}}, "a11 is not on the 10x10 board"),
    ({"variant": "classic", "position": {"red": {"1a": "flag"}}}, "not a square"),
    ({"variant": "classic", "position": {"red": {"c5": "flag"}}}, "c5 is a lake"),
    ({"variant": "classic", "position": {"red": {"a1": "queen"}}}, "no piece called 'queen'"),
    ({"variant": "classic", "position": {"red": {"a1": ["flag"]}}}, "no piece called"),
    ({"variant": "strategy8", "position": {"red": {"a1": "marshal"}}}, "no piece called 'marshal'"),
    ({"variant": "classic", "position": {"red": {"a1": "flag"}, "blue": {"A1": "flag"}}},
     "two pieces on a1"),
    ({"variant": "classic", "position": {}, "to_move": "green"}, "'to_move' is 'red' or 'blue'"),
    ({"variant": "classic", "position": {}, "moves": "a4-a5"}, "'moves' is a list"),
    ({"variant": "classic", "position": {}, "moves": [["a4", "a5"]]}, "'moves' is a list"),
    ({"variant": "classic", "position": {}, "moves": ["a4a5"]}, "move 0 is not a move"),
    ({"variant": "classic", "position": {}, "volcanoes": "b5"}, "'volcanoes' is a list"),
    ({"variant": "classic", "position": {}, "volcanoes": ["z9"]}, "not on the 10x10 board"),
    ({"variant": "classic", "position": {}, "moves_per_turn": 3}, "'moves_per_turn' is 1 or 2"),
    ({"variant": "classic", "position": {}, "moves_per_turn": True}, "'moves_per_turn' is 1 or 2"),
    ({"variant": "classic", "position": {}, "two_squares_limit": -1}, "'two_squares_limit'"),
    ({"variant": "classic", "position": {}, "two_squares_limit": "5"}, "'two_squares_limit'"),
    ({"variant": "classic", "position": {}, "ending": "resigned"}, "'ending' needs a reason"),
    ({"variant": "classic", "position": {}, "ending": {"reason": "boredom"}}, "'ending' needs a reason"),
    ({"variant": "classic", "position": {}, "ending": {"reason": "resignation"}}, "needs the 'color'"),
    ({"variant": "classic", "position": {}, "ending": {"reason": "clock", "color": "green"}},
     "needs the 'color'"),
])
def test_what_is_not_a_record_is_refused_with_the_reason(data, complaint):
    with pytest.raises(RecordError, match=complaint):
        check_record(data)


def test_a_setup_record_must_hold_valid_setups_and_says_what_is_wrong():
    setup = setup_of()
    scout = next(sq for sq, kind in setup["blue"].items() if kind == "scout")
    setup["blue"][scout] = "miner"
    with pytest.raises(RecordError) as refused:
        GameRecord.from_dict({"variant": "classic", "setup": setup})
    assert "Blue has 7 Scouts, needs 8" in str(refused.value)
    assert "Blue has 6 Miners, needs 5" in str(refused.value)


def test_a_setup_piece_outside_its_zone_is_named():
    setup = setup_of()
    kind = setup["red"].pop("a4")
    setup["red"]["a5"] = kind
    with pytest.raises(RecordError, match="a5 is outside Red's zone"):
        GameRecord.from_dict({"variant": "classic", "setup": setup})


def test_a_volcano_under_a_piece_is_a_record_error():
    with pytest.raises(RecordError, match="cannot stand on a1"):
        check_record(study({"a1": "flag"}, {"j10": "flag"}, volcanoes=["a1"]))


# -- the verdict -----------------------------------------------------------------------------


def test_the_verdict_of_a_game_that_goes_on():
    verdict = check_record({"variant": "classic", "setup": setup_of(), "moves": ["a4-a5", "a7-a6"]})
    assert verdict == {"applied": 2, "illegal": None, "battles": [], "result": None}
    assert json.loads(json.dumps(verdict)) == verdict


def test_battles_name_both_pieces_and_who_won():
    data = study(
        {"a1": "flag", "e4": "captain", "b4": "miner", "j2": "scout"},
        {"a10": "flag", "e5": "captain", "b5": "bomb", "j9": "marshal", "h9": "sergeant"},
        ["e4-e5", "j9-j8", "b4-b5", "h9-h8", "j2-j8"],
    )
    assert check_record(data)["battles"] == [
        {"attacker": "captain", "defender": "captain", "outcome": "both"},
        {"attacker": "miner", "defender": "bomb", "outcome": "attacker"},
        {"attacker": "scout", "defender": "marshal", "outcome": "defender"},
    ]


def test_the_first_refused_move_is_reported_and_nothing_after_it_is_applied():
    data = study({"a1": "flag", "e4": "scout"}, {"j10": "flag", "e7": "scout"},
                 ["e4-e5", "e7-e6", "e5-f6", "e6-e5"])
    verdict = check_record(data)
    assert verdict["applied"] == 2
    assert verdict["illegal"] == {"index": 2, "move": "e5-f6", "rule": "movement",
                                  "message": "pieces move orthogonally, never diagonally"}


@pytest.mark.parametrize("moves, rule", [
    (["e7-e6"], "turn"),
    (["a1-a2"], "movement"),
    (["e4-e5", "e7-e6", "e5-e4", "e6-e7", "e4-e5", "e7-e6", "e5-e4"], "two-squares"),
    (["e4-e5", "e7-e6", "e5-e6", "j9-j8", "e6-e7", "j8-j7", "e7-e8", "j7-j6"], "game-over"),
])
def test_the_illegal_move_names_the_rule_it_breaks(moves, rule):
    data = study({"a1": "flag", "e4": "captain"}, {"e8": "flag", "e7": "scout", "j9": "scout"}, moves)
    verdict = check_record(data)
    assert verdict["illegal"]["rule"] == rule
    assert verdict["illegal"]["index"] == len(moves) - 1
    assert verdict["illegal"]["message"]


def test_every_reported_rule_is_one_of_the_contracts_names():
    from engine import RULES

    assert set(RULES) == {"movement", "turn", "two-squares", "more-squares", "game-over"}


def test_a_record_may_switch_the_two_squares_limit():
    moves = ["e4-e5", "e7-e6", "e5-e4", "e6-e7", "e4-e5", "e7-e6", "e5-e4"]
    base = study({"a1": "flag", "e4": "scout"}, {"j10": "flag", "e7": "scout"}, moves)
    assert check_record(base)["illegal"]["rule"] == "two-squares"
    assert check_record({**base, "two_squares_limit": 5})["illegal"] is None
    assert check_record({**base, "two_squares_limit": 0})["illegal"] is None


def test_the_result_says_who_won_and_why():
    won = study({"a1": "flag", "e4": "scout"}, {"e7": "flag", "j9": "scout"}, ["e4-e7"])
    assert check_record(won)["result"] == {"winner": "red", "reason": "flag-captured"}
    drawn = study({"a1": "flag", "e4": "scout"}, {"j10": "flag", "e5": "scout"}, ["e4-e5"])
    assert check_record(drawn)["result"] == {"winner": None, "reason": "both-immobile"}


@pytest.mark.parametrize("ending, result", [
    ({"reason": "resignation", "color": "red"}, {"winner": "blue", "reason": "resignation"}),
    ({"reason": "agreement"}, {"winner": None, "reason": "agreement"}),
    ({"reason": "game-time"}, {"winner": None, "reason": "game-time"}),
    ({"reason": "clock", "color": "blue"}, {"winner": "red", "reason": "clock"}),
])
def test_a_declared_ending_decides_the_result(ending, result):
    assert ending["reason"] in ENDINGS
    data = study({"a1": "flag", "e4": "scout"}, {"j10": "flag", "e7": "scout"}, ["e4-e5"],
                 ending=ending)
    verdict = check_record(data)
    assert verdict["applied"] == 1 and verdict["result"] == result


def test_a_declared_ending_does_not_override_a_game_the_moves_already_ended():
    data = study({"a1": "flag", "e4": "scout"}, {"e7": "flag", "j9": "scout"}, ["e4-e7"],
                 ending={"reason": "resignation", "color": "red"})
    assert check_record(data)["result"] == {"winner": "red", "reason": "flag-captured"}


def test_a_declared_ending_is_not_applied_after_an_illegal_move():
    data = study({"a1": "flag", "e4": "scout"}, {"j10": "flag", "e7": "scout"}, ["e4-f5"],
                 ending={"reason": "agreement"})
    verdict = check_record(data)
    assert verdict["illegal"]["index"] == 0 and verdict["result"] is None


def test_replay_raises_the_refusal_of_the_first_illegal_move():
    from engine import IllegalMove

    record = GameRecord.from_dict(study({"a1": "flag", "e4": "scout"}, {"j10": "flag"}, ["e4-f5"]))
    with pytest.raises(IllegalMove) as refused:
        record.replay()
    assert refused.value.refusal.rule == "movement"


def test_the_record_pieces_keep_their_squares():
    record = GameRecord.from_dict(study({"a1": "flag"}, {"j10": "flag"}))
    assert record.pieces == {Square.parse("a1"): (Color.RED, "flag"),
                             Square.parse("j10"): (Color.BLUE, "flag")}


def test_a_move_off_the_board_is_refused_as_movement_after_the_good_moves():
    record = {"variant": "classic", "position": {"red": {"a4": "scout", "j1": "flag"},
                                                 "blue": {"j10": "flag", "a10": "sergeant"}},
              "moves": ["a4-a5", "a10-a9", "a5-a12"]}
    verdict = check_record(record)
    assert verdict["applied"] == 2
    assert verdict["illegal"]["index"] == 2 and verdict["illegal"]["rule"] == "movement"
    assert "a12 is not on the board" in verdict["illegal"]["message"]
