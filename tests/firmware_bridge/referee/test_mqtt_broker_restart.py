"""Recovery never relies on the broker: kill mosquitto mid-game, every client converges."""

from __future__ import annotations

import random
import signal

import pytest

from engine import Color
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.broker import Mosquitto
from tests.firmware_bridge.helpers import requires_mosquitto, start_table, submit_setups, wait_until

pytestmark = requires_mosquitto



def saved(broker: Mosquitto) -> None:
    """Have mosquitto write its database now (SIGUSR1) and wait until the file shows it."""
    database = broker.dir / "mosquitto.db"
    before = database.stat().st_mtime_ns if database.exists() else 0
    broker.process.send_signal(signal.SIGUSR1)
    assert wait_until(lambda: database.exists() and database.stat().st_mtime_ns != before, 10)

def play(table, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        game = table.referee.session.game
        if game.result is not None:
            return
        client = table.seat(game.to_move.value)
        command_id = client.move(str(rng.choice(game.legal_moves())))
        assert client.wait(lambda c, i=command_id: i in c.replies and c.replies[i]["ok"], 20)


def converged(table) -> None:
    session = table.referee.session
    for color, client in (("red", table.red), ("blue", table.blue)):
        assert client.wait(lambda c, s=session.seq: c.seq == s, 20), f"{color} did not converge"
        assert client.view == session.game.view(Color(color)).to_dict()
    assert table.display.wait(lambda c, s=session.seq: c.seq == s, 20)
    assert table.display.state["view"] == session.game.view(None).to_dict()


@pytest.mark.parametrize("persistence", [True, False], ids=["stale-database", "no-persistence"])
def test_every_client_converges_after_the_broker_is_killed_mid_game(tmp_path, persistence):
    # With persistence, mosquitto reloads an old database after SIGKILL: stale retained
    # snapshots arrive first and must be recognised as old.
    # The database is written when the test says (SIGUSR1), never by the clock: a later autosave
    # would make the "stale" database current.
    with Mosquitto(persistence=persistence, extra="autosave_interval 3600" if persistence else "") as broker:
        table = start_table(broker.url, tmp_path / "journal.db")
        try:
            rng = random.Random(7)
            submit_setups(table)
            play(table, 6, rng)
            converged(table)
            if persistence:
                saved(broker)  # mosquitto saves its database now...
                play(table, 6, rng)  # ...and these rulings happen after the last save
                stale_seq = table.referee.session.seq - 6
            broker.restart(kill=True)
            if persistence:
                seen: list[int] = []
                watcher = MqttLink(broker.url, "stale-watcher")
                watcher.subscribe(table.referee.topics.state,
                                  lambda t, p: seen.append(contract.decode("state", p)["seq"]))
                assert watcher.start()
            play(table, 6, rng)
            converged(table)
            if persistence:
                assert seen and seen[0] <= stale_seq, "the broker did not serve a stale snapshot"
                watcher.stop()
            broker.restart(kill=True)
            converged(table)
        finally:
            table.close()


def test_a_move_made_while_the_broker_is_down_reaches_everyone_when_it_is_back(tmp_path):
    with Mosquitto() as broker:
        table = start_table(broker.url, tmp_path / "journal.db")
        try:
            submit_setups(table)
            converged(table)
            broker.kill()
            # A move on the board while the network is down: ruled and journaled all the same.
            table.referee.play(table.referee.session.game.legal_moves()[0])
            broker.start()
            converged(table)
        finally:
            table.close()
