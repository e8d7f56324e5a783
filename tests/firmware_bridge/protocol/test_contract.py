"""The MQTT contract: topics, schemas and what is refused."""

from __future__ import annotations

import json

import pytest

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.contract import ContractError, Topics


def test_every_topic_of_a_board_lives_under_the_versioned_root_and_parses_back():
    topics = Topics("hall-3")
    assert topics.state == "arbiter/v1/hall-3/state"
    assert topics.seat_command("red") == "arbiter/v1/hall-3/seat/red/cmd"
    assert contract.parse_topic(topics.seat_state("blue")) == ("hall-3", "seat_state", "blue")
    assert contract.parse_topic(topics.pair_reply("tab-1")) == ("hall-3", "pair_reply", "tab-1")
    assert contract.parse_topic(topics.pair_code("tab-1")) == ("hall-3", "pair_code", "tab-1")
    assert contract.parse_topic(topics.presence("referee")) == ("hall-3", "presence", "referee")


@pytest.mark.parametrize("topic", ["arbiter/v2/b/state", "arbiter/v1/b/seat/green/state",
                                   "arbiter/v1/b/seat/red/secret", "other/v1/b/state",
                                   "arbiter/v1/b+/state"])
def test_foreign_topics_are_refused(topic):
    with pytest.raises(ContractError):
        contract.parse_topic(topic)


@pytest.mark.parametrize("name", ["", "a/b", "+", "#", "x" * 33, "hall 1"])
def test_a_board_name_must_be_one_safe_topic_level(name):
    with pytest.raises(ContractError):
        Topics(name)


def test_only_the_public_topics_may_be_bridged_to_a_hall():
    public = Topics("b1").public_topics()
    assert all("/seat/" not in t and "/pair/" not in t for t in public)


def test_a_valid_command_round_trips():
    body = contract.command("red", "c1", 7, "move", move="a4-a5")
    assert contract.validate("command", json.loads(json.dumps(body))) == body


@pytest.mark.parametrize("change, message", [
    ({"type": "teleport"}, "type"),
    ({"counter": -1}, "negative"),
    ({"counter": True}, "wrong type"),
    ({"seat": "green"}, "seat"),
    ({"args": {"move": "a4 to a5"}}, "move"),
    ({"args": {}}, "lacks argument"),
    ({"args": {"move": "a4-a5", "extra": 1}}, "takes no arguments"),
    ({"sneaky": 1}, "unknown fields"),
])
def test_malformed_commands_are_refused_with_a_reason(change, message):
    body = {**contract.command("red", "c1", 7, "move", move="a4-a5"), **change}
    with pytest.raises(ContractError, match=message):
        contract.validate("command", body)


def test_a_setup_command_checks_its_squares():
    contract.command("red", "c", 1, "setup", setup={"a1": "flag", "j10": "bomb"})
    with pytest.raises(ContractError, match="bad square"):
        contract.command("red", "c", 1, "setup", setup={"A1": "flag"})


def test_public_payloads_are_size_limited_and_must_be_json():
    with pytest.raises(ContractError) as error:
        contract.decode("hello", b"{" * (contract.MAX_PUBLIC_PAYLOAD + 1))
    assert error.value.code == "too-large"
    with pytest.raises(ContractError, match="not UTF-8 JSON"):
        contract.decode("hello", b"\xff\xfe")
    with pytest.raises(ContractError, match="JSON object"):
        contract.decode("hello", b"[1, 2]")


def test_encode_refuses_what_decode_would_refuse():
    with pytest.raises(ContractError):
        contract.encode("presence", {"v": 1, "client": "a b", "role": "seat", "online": True})


def test_clients_ignore_new_fields_from_the_referee_but_the_referee_refuses_them_in_commands():
    state = {"v": 1, "board": "b", "game": "g", "seq": 0, "phase": "setup", "view": None,
             "seats": {}, "added_in_a_later_release": 1}
    assert contract.validate("state", state) is state
    with pytest.raises(ContractError, match="unknown fields"):
        contract.validate("hello", {"v": 1, "client": "c", "reason": "gap", "extra": 1})
