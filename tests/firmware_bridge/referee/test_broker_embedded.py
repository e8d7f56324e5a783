"""The embedded amqtt broker: a family needs nothing but the Pi."""

from __future__ import annotations

import random

from tests.firmware_bridge.helpers import start_table, submit_setups


def test_a_whole_exchange_works_on_the_embedded_broker(embedded, tmp_path):
    table = start_table(embedded.url, tmp_path / "journal.db")
    try:
        submit_setups(table)
        rng = random.Random(1)
        for _ in range(4):
            game = table.referee.session.game
            client = table.seat(game.to_move.value)
            command_id = client.move(str(rng.choice(game.legal_moves())))
            assert client.wait(lambda c, i=command_id: i in c.replies and c.replies[i]["ok"], 10)
        seq = table.referee.session.seq
        for client in (table.red, table.blue, table.display):
            assert client.wait(lambda c, s=seq: c.seq == s, 10)
        assert table.red.view["viewer"] == "red" and table.blue.view["viewer"] == "blue"
    finally:
        table.close()


def test_a_client_that_connects_late_is_consistent_at_once_from_retained_snapshots(embedded, tmp_path):
    from firmware_bridge.protocol.client import DisplayClient

    table = start_table(embedded.url, tmp_path / "journal.db")
    try:
        submit_setups(table)
        late = DisplayClient(embedded.url, "b1", sign_key=table.referee.signer.verify_key)
        assert late.start()
        assert late.wait(lambda c: c.state is not None and c.state["phase"] == "playing", 10)
        assert late.seq == table.referee.session.seq
        late.stop()
    finally:
        table.close()
