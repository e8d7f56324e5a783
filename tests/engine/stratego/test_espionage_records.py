"""Espionage game records: volcanoes, the one-move option, and `arbiter check`'s verdicts."""

import json
import random
import subprocess
import sys

import pytest

from engine import Color, Game, get_variant, named_setup, random_setup
from engine.core.errors import RecordError
from engine.stratego.records import GameRecord, check_record

ESPIONAGE = get_variant("espionage")

STUDY = {
    "red": {"a1": "headquarters", "e4": "sapper", "c3": "spy", "g3": "corporal"},
    "blue": {"j10": "headquarters", "e5": "mine", "c6": "sapper", "g8": "general"},
}


def record(moves, **extra):
    return {"variant": "espionage", "position": STUDY, "to_move": "red", "moves": moves, **extra}


def arbiter_check(data) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "check", "-"],
                          input=json.dumps(data), capture_output=True, text=True, timeout=60)


def random_game(seed: int, moves_per_turn: int = 2) -> Game:
    rng = random.Random(seed)
    variant = ESPIONAGE if moves_per_turn == 2 else GameRecord(
        "espionage", {}, moves_per_turn=1).variant_rules()
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng), rng=rng)
    while game.result is None and game.ply < 2000:
        game.push(rng.choice(game.legal_moves()))
    return game


def test_a_record_with_volcanoes_reports_battles_and_the_result():
    data = record(["e4-e5", "c3-c4", "c6-c5", "g8-g7", "c4-c5"], volcanoes=["d5", "h5"])
    verdict = check_record(data)
    assert verdict == {
        "applied": 5,
        "illegal": None,
        "battles": [
            {"attacker": "sapper", "defender": "mine", "outcome": "attacker"},
            {"attacker": "spy", "defender": "sapper", "outcome": "attacker"},
        ],
        "result": None,
    }


def test_entering_a_volcano_is_the_first_illegal_move():
    verdict = check_record(record(["e4-d4", "c3-c4", "g8-g7", "c6-c5", "d4-d5"], volcanoes=["d5"]))
    assert verdict["applied"] == 4
    assert verdict["illegal"] == {"index": 4, "move": "d4-d5", "rule": "movement",
                                  "message": "d5 is a volcano"}


def test_an_empty_list_of_volcanoes_means_none():
    assert check_record(record(["e4-d4", "c3-c4", "g8-g7", "c6-c5", "d4-d5"],
                               volcanoes=[]))["illegal"] is None


def test_the_same_piece_twice_in_one_turn_is_refused_by_the_turn_rule():
    verdict = check_record(record(["g3-g4", "g4-g5"]))
    assert verdict["illegal"]["rule"] == "turn" and verdict["applied"] == 1


def test_with_moves_per_turn_1_the_turn_passes_after_every_move():
    moves = ["g3-g4", "g8-g7", "g4-g5", "g7-g6"]
    assert check_record(record(moves, moves_per_turn=1))["illegal"] is None
    # The same moves under the standard rules: Blue's g8-g7 comes while Red still has a move.
    assert check_record(record(moves))["illegal"]["rule"] == "turn"


def test_going_straight_back_is_reported_as_a_movement_refusal():
    verdict = check_record(record(["g3-g4", "c3-c4", "g8-g7", "c6-c5", "g4-g3"]))
    assert verdict["illegal"]["index"] == 4 and verdict["illegal"]["rule"] == "movement"


def test_capturing_the_headquarters_is_the_result():
    data = {"variant": "espionage", "to_move": "red", "moves": ["e4-e5"],
            "position": {"red": {"e4": "spy", "a1": "headquarters"},
                         "blue": {"e5": "headquarters", "j10": "general"}}}
    verdict = check_record(data)
    assert verdict["result"] == {"winner": "red", "reason": "headquarters-captured"}
    assert verdict["battles"] == [{"attacker": "spy", "defender": "headquarters", "outcome": "attacker"}]


@pytest.mark.parametrize("seed, moves_per_turn", [(1, 2), (2, 2), (3, 1)])
def test_a_whole_random_game_replays_to_the_same_end(seed, moves_per_turn):
    game = random_game(seed, moves_per_turn)
    data = GameRecord.from_game(game).to_dict()
    assert data["volcanoes"] == [s.name for s in game.volcanoes]
    assert data.get("moves_per_turn") == (1 if moves_per_turn == 1 else None)
    data = json.loads(json.dumps(data))
    verdict = check_record(data)
    assert verdict["illegal"] is None and verdict["applied"] == game.ply
    assert verdict["result"] == (game.result.to_dict() if game.result else None)
    assert GameRecord.from_dict(data).replay().hash == game.hash


def test_the_record_of_a_named_setup_game_is_a_valid_setup_record():
    game = Game.from_setup(ESPIONAGE, named_setup(ESPIONAGE, Color.RED, "mined-headquarters"),
                           named_setup(ESPIONAGE, Color.BLUE, "spy-screen"), rng=random.Random(5))
    data = GameRecord.from_game(game).to_dict()
    assert "setup" in data and len(data["volcanoes"]) == 4
    assert check_record(data)["illegal"] is None


def test_a_volcano_under_a_piece_is_not_a_valid_record():
    with pytest.raises(RecordError, match="cannot stand on e4"):
        check_record(record([], volcanoes=["e4"]))


def test_moves_per_turn_is_one_or_two():
    with pytest.raises(RecordError, match="moves_per_turn"):
        check_record(record([], moves_per_turn=3))


def test_arbiter_check_replays_an_espionage_record():
    data = record(["e4-e5", "c3-c4", "c6-c5", "g8-g7", "c4-c5"], volcanoes=["d5", "h5"])
    done = arbiter_check(data)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == check_record(data)


def test_arbiter_check_rejects_an_invalid_espionage_record():
    done = arbiter_check(record([], volcanoes=["z99"]))
    assert done.returncode == 2 and "not a valid record" in done.stderr
    assert done.stdout == ""
