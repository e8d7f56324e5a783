"""A tournament hall: each board's broker bridges only its public topics to one hall broker."""

from __future__ import annotations

from pathlib import Path

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.client import OverviewClient
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.broker import Mosquitto, free_port
from tests.firmware_bridge.helpers import requires_mosquitto, start_table, submit_setups, wait_until

pytestmark = requires_mosquitto

BRIDGE = (Path(__file__).parents[3] / "hardware" / "deploy" / "bridge-hall.conf").read_text()


def bridge_config(board: str, hall_port: int) -> str:
    """The shipped bridge file with the board name and hall address filled in."""
    text = BRIDGE.replace("BOARD", board).replace("HALL:1883", f"127.0.0.1:{hall_port}")
    return text + "\nrestart_timeout 1\n"


def test_the_hall_sees_every_board_public_state_and_no_private_topic(tmp_path):
    hall = Mosquitto().start()
    boards = {}
    tables = []
    try:
        for name in ("hall-1", "hall-2"):
            boards[name] = Mosquitto(free_port(), extra=bridge_config(name, hall.port)).start()
        everything: list[str] = []
        spy = MqttLink(hall.url, "hall-spy")
        spy.subscribe("#", lambda topic, payload: everything.append(topic))
        assert spy.start()
        overview = OverviewClient(hall.url)
        assert overview.start()
        for name, broker in boards.items():
            table = start_table(broker.url, tmp_path / f"{name}.db", board=name)
            tables.append(table)
            submit_setups(table)
        for table in tables:
            seq = table.referee.session.seq
            assert wait_until(lambda t=table, s=seq: overview.boards.get(t.referee.topics.board, {}).get("seq") == s, 15)
            assert overview.boards[table.referee.topics.board]["phase"] == "playing"
        # Private traffic happened on the boards, yet none of it reached the hall.
        assert any(t.startswith("arbiter/") for t in everything)
        for topic in everything:
            if topic.startswith("arbiter/"):
                kind = contract.parse_topic(topic)[1]
                assert kind in ("info", "state", "events", "presence"), topic
                assert "/seat/" not in topic and "/pair/" not in topic
        spy.stop()
        overview.stop()
    finally:
        for table in tables:
            table.close()
        for broker in boards.values():
            broker.cleanup()
        hall.cleanup()
