"""Bad commands get a clear error reply and change nothing; good ones apply exactly once."""

from __future__ import annotations

import os
import uuid

import pytest

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.mqtt_link import MqttLink
from tests.firmware_bridge.helpers import start_table, submit_setups, wait_until


@pytest.fixture
def table(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    submit_setups(table)
    yield table
    table.close()


@pytest.fixture
def errors(mosquitto, table):
    """Everything the referee says on the public errors topic."""
    seen: list[dict] = []
    link = MqttLink(mosquitto.url, "error-watcher")
    link.subscribe(table.referee.topics.errors, lambda t, p: seen.append(contract.decode("error", p)))
    assert link.start()
    yield seen
    link.stop()


def sealed(client, body: dict, counter: int | None = None) -> bytes:
    """An envelope as the tablet would seal it, around any body."""
    topic = client.topics.seat_command(client.seat)
    counter = body.get("counter", 0) if counter is None else counter
    return client._channel.seal({"topic": topic, "seat": client.seat, "counter": counter}, body)


def send_raw(client, command_id: str, envelope: bytes) -> None:
    """Publish a hand-made command envelope; the client keeps (and resends) it like its own."""
    topic = client.topics.seat_command(client.seat)
    client._pending[command_id] = (topic, envelope)
    client.link.publish(topic, envelope)


def wait_reply(client, command_id: str) -> dict:
    assert client.wait(lambda c: command_id in c.replies, 10), "no reply"
    return client.replies[command_id]


def position(table) -> tuple:
    session = table.referee.session
    return session.seq, session.game.hash, session.game.ply, len(session.journal)


def test_a_move_out_of_turn_is_refused_and_changes_nothing(table):
    before = position(table)
    reply = wait_reply(table.blue, table.blue.move("a7-a6"))
    assert not reply["ok"] and reply["code"] == "not-your-turn"
    assert "red's turn" in reply["message"]
    assert position(table)[:3] == before[:3]


def test_an_illegal_move_is_refused_with_the_rule(table):
    before = position(table)
    reply = wait_reply(table.red, table.red.move("a1-a9"))
    assert not reply["ok"] and reply["code"] == "illegal"
    assert position(table)[:3] == before[:3]


def test_a_malformed_command_gets_a_reply_naming_the_problem(table):
    client = table.red
    client._counter += 1
    body = {"v": 1, "id": "bad-1", "seat": "red", "counter": client._counter + 10**12,
            "type": "teleport", "args": {}}
    send_raw(client, "bad-1", sealed(client, body))
    reply = wait_reply(client, "bad-1")
    assert not reply["ok"] and reply["code"] == "malformed" and "type" in reply["message"]


def test_oversized_and_garbage_payloads_are_refused_on_the_errors_topic(table, errors):
    before = position(table)
    topic = table.red.topics.seat_command("red")
    table.red.link.publish(topic, os.urandom(200_000))
    table.red.link.publish(topic, b"not an envelope")
    assert wait_until(lambda: len(errors) >= 2)
    assert [e["code"] for e in errors[:2]] == ["too-large", "malformed"]
    assert position(table) == before


def test_a_resent_command_is_applied_once_and_answered_again(table):
    client = table.red
    move = str(table.referee.session.game.legal_moves()[0])
    command_id = client.move(move)
    first = wait_reply(client, command_id)
    assert first["ok"]
    after_first = position(table)
    client.replies.pop(command_id)
    # Resend the same command, as after a lost reply.
    send_raw(client, command_id, sealed(client, contract.command("red", command_id, client._counter, "move", move=move)))
    again = wait_reply(client, command_id)
    assert again["ok"] and again.get("duplicate") and again["seq"] == first["seq"]
    assert position(table)[:3] == after_first[:3]


def test_an_old_counter_with_a_new_id_is_a_replay(table):
    client = table.red
    old_counter = client._counter  # the setup command's counter
    command_id = uuid.uuid4().hex
    send_raw(client, command_id, sealed(client, contract.command("red", command_id, old_counter, "resign")))
    reply = wait_reply(client, command_id)
    assert not reply["ok"] and reply["code"] == "replayed"
    assert table.referee.session.phase == "playing"


def test_resign_and_draw_agreement(table):
    reply = wait_reply(table.red, table.red.offer_draw())
    assert reply["ok"]
    assert table.blue.wait(lambda c: c.public_state and c.public_state["draw_offer"] == "red", 10)
    assert wait_reply(table.red, table.red.accept_draw())["code"] == "no-offer"
    assert wait_reply(table.blue, table.blue.accept_draw())["ok"]
    assert table.red.wait(lambda c: c.state["phase"] == "over", 10)
    assert table.red.view["result"]["winner"] is None
    assert wait_reply(table.red, table.red.resign())["code"] == "wrong-phase"


def test_a_new_game_keeps_the_seats(table):
    wait_reply(table.red, table.red.resign())
    assert table.blue.wait(lambda c: c.state["phase"] == "over", 10)
    old_game = table.blue.state["game"]
    assert wait_reply(table.blue, table.blue.new_game())["ok"]
    assert table.red.wait(lambda c: c.state["game"] != old_game and c.state["phase"] == "setup", 10)
    assert table.referee.session.seats.keys() == {"red", "blue"}


def test_a_new_espionage_game_with_the_one_move_option_is_chosen_from_a_tablet(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "spy.db", board="spy", variant="espionage")
    try:
        submit_setups(table, "espionage", seed=4)
        assert table.display.wait(lambda c: c.state["moves_per_turn"] == 2, 10)
        wait_reply(table.red, table.red.resign())
        assert wait_reply(table.blue, table.blue.new_game(moves_per_turn=1))["ok"]
        assert table.display.wait(lambda c: c.state["phase"] == "setup" and c.state["moves_per_turn"] == 1, 10)
        submit_setups(table, "espionage", seed=5)
        assert table.red.view["moves_per_turn"] == 1
        table.red.move(str(table.referee.session.game.legal_moves()[0]))
        assert table.blue.wait(lambda c: c.view["to_move"] == "blue", 10), "one move, and the turn passed"
    finally:
        table.close()


def test_the_one_move_option_is_refused_for_a_variant_without_it(table):
    wait_reply(table.red, table.red.resign())
    reply = wait_reply(table.red, table.red.new_game(moves_per_turn=2))
    assert not reply["ok"] and reply["code"] == "invalid-option"
    assert table.referee.session.phase == "over"
