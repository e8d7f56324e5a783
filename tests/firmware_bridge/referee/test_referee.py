"""The referee service end to end over a real mosquitto: pairing, setups, moves, views."""

from __future__ import annotations

import random

import pytest

from tests.firmware_bridge.helpers import start_table, submit_setups


@pytest.fixture
def table(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    yield table
    table.close()


def test_a_paired_tablet_sees_its_own_ranks_and_only_its_own(table):
    submit_setups(table)
    red_view = table.red.view
    assert red_view["viewer"] == "red"
    own = [p for p in red_view["pieces"] if p["color"] == "red"]
    theirs = [p for p in red_view["pieces"] if p["color"] == "blue"]
    assert own and all(p["kind"] for p in own)
    assert theirs and not any(p["kind"] for p in theirs)


def test_moves_from_tablets_reach_both_tablets_and_the_display(table):
    submit_setups(table)
    rng = random.Random(3)
    for _ in range(6):
        game = table.referee.session.game
        client = table.seat(game.to_move.value)
        move = str(rng.choice(game.legal_moves()))
        command_id = client.move(move)
        assert client.wait(lambda c, i=command_id: i in c.replies, 10)
        assert client.replies[command_id]["ok"], client.replies[command_id]
        seq = table.referee.session.seq
        for seat in (table.red, table.blue):
            assert seat.wait(lambda c, s=seq: c.seq == s, 10)
            assert seat.view["last_move"] == move
        assert table.display.wait(lambda c, s=seq: c.seq == s, 10)
        assert table.display.state["view"]["last_move"] == move
        if table.referee.session.phase != "playing":
            break


def test_the_public_state_shows_seats_and_phase(table):
    assert table.display.wait(lambda c: c.state and all(c.state["seats"][s]["paired"] for s in ("red", "blue")), 10)
    assert table.display.state["phase"] == "setup"
    submit_setups(table)
    assert table.display.wait(lambda c: c.state["phase"] == "playing", 10)
    assert table.display.state["seats"]["red"]["name"] == "Anna"


def test_a_flood_of_hellos_gets_a_bounded_number_of_republishes_and_the_last_is_answered(table, mosquitto):
    import time

    from firmware_bridge.protocol import contract
    from firmware_bridge.protocol.mqtt_link import MqttLink
    from tests.firmware_bridge.helpers import wait_until

    states: list[float] = []
    watcher = MqttLink(mosquitto.url, "hello-flood")
    watcher.subscribe(table.referee.topics.state, lambda t, p: states.append(time.monotonic()))
    assert watcher.start()
    assert wait_until(lambda: states)  # the retained one
    states.clear()
    hello = contract.encode("hello", {"v": 1, "client": "hello-flood", "reason": "manual"})
    for _ in range(300):
        watcher.publish(table.referee.topics.hello, hello)
    flood_end = time.monotonic()
    assert wait_until(lambda: states and states[-1] >= flood_end - 0.2), "the last hello went unanswered"
    assert 1 <= len(states) <= 40, f"{len(states)} republishes for 300 hellos"
    watcher.stop()


def test_a_fallen_flag_ends_the_game_for_everyone(mosquitto, tmp_path):
    from firmware_bridge.referee.clocks import TimeControl

    table = start_table(mosquitto.url, tmp_path / "clock.db",
                        time_control=TimeControl(player_seconds=0.6, increment=0))
    try:
        submit_setups(table)
        assert table.display.wait(lambda c: c.state["clocks"] and c.state["clocks"]["running"] == "red", 10)
        for client in (table.red, table.blue):
            assert client.wait(lambda c: c.state["phase"] == "over", 10)
            assert client.view["result"] == {"winner": "blue", "reason": "clock"}
        assert table.display.wait(lambda c: c.state["phase"] == "over", 10)
    finally:
        table.close()
