"""The replay commands and the replay part of the state in the MQTT contract."""

from __future__ import annotations

import random

import pytest

from engine import Color, Game, get_variant, random_setup
from engine.stratego.formats import dump
from engine.stratego.records import GameRecord
from firmware_bridge.protocol import contract, crypto


def test_the_replay_commands_are_commands_of_the_contract():
    assert contract.command("red", "c1", 1, "replay_load", text="#X38FA11", name="raid.gsn")
    assert contract.command("blue", "c2", 2, "replay_step", step="forward")
    assert contract.command("blue", "c3", 3, "replay_step", step="jump", ply=12)
    assert contract.command("red", "c4", 4, "replay_play_on")
    assert contract.command("red", "c5", 5, "replay_stop")


@pytest.mark.parametrize(("kind", "args", "problem"), [
    ("replay_load", {}, "lacks argument 'text'"),
    ("replay_load", {"text": ""}, "text must have 1..200000"),
    ("replay_load", {"text": "x" * 200_001}, "text must have 1..200000"),
    ("replay_load", {"text": "x", "path": "/etc/passwd"}, "takes no arguments"),
    ("replay_load", {"text": 5}, "wrong type"),
    ("replay_step", {"step": "sideways"}, "must be one of"),
    ("replay_step", {"step": "jump", "ply": -1}, "must not be negative"),
    ("replay_step", {"step": "jump", "ply": True}, "wrong type"),
    ("replay_play_on", {"ply": 3}, "takes no arguments"),
])
def test_a_malformed_replay_command_is_refused_with_the_reason(kind, args, problem):
    with pytest.raises(contract.ContractError) as refused:
        contract.command("red", "c1", 1, kind, **args)
    assert problem in str(refused.value)


def test_the_state_carries_the_replay_and_invalid_replay_is_an_error_code():
    state = {"v": 1, "board": "b", "game": "g", "seq": 0, "phase": "setup", "view": None,
             "seats": {}, "replay": {"phase": "placing", "ply": 0, "steps": []}}
    assert contract.validate("state", state)["replay"]["phase"] == "placing"
    with pytest.raises(contract.ContractError):
        contract.validate("state", {**state, "replay": ["not", "an", "object"]})
    assert contract.reply("c1", False, "invalid-replay", "not a game")["code"] == "invalid-replay"


def test_a_game_of_six_hundred_moves_as_gsn_fits_one_command_envelope():
    rng = random.Random(1)
    variant = get_variant("classic")
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))
    while game.result is None and game.ply < 600:
        game.push(rng.choice(game.legal_moves()))
    text = dump(GameRecord.from_game(game), "gsn")
    body = contract.command("red", "c1", 1, "replay_load", text=text)
    channel = crypto.Channel(crypto.PrivateKey.generate(), crypto.PrivateKey.generate().public_key)
    assert len(channel.seal({"topic": "t"}, body)) == crypto.ENVELOPE_SIZE
