"""A referee replaced by another (a new Pi, a wiped journal: a new signing key) is noticed by a
paired display as by a seat, and the display pairs again by the new console's code; a stranger's
self-signed info while the real referee runs unpairs nobody.

Real referees on a real broker (the embedded one families use, and an anonymous mosquitto).
``REPLACED_AFTER_SECONDS`` is shortened, as the time the pinned key must stay silent.
"""

from __future__ import annotations

import json
import time

import pytest

from firmware_bridge.protocol import public_client
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.service import Referee, RefereeSettings
from tests.firmware_bridge.helpers import pair_by_code, start_table, wait_until

SILENCE = 0.5  # REPLACED_AFTER_SECONDS in these tests


@pytest.fixture(autouse=True)
def short_silence(monkeypatch):
    monkeypatch.setattr(public_client, "REPLACED_AFTER_SECONDS", SILENCE)


def test_a_display_notices_a_new_referee_and_pairs_with_it_by_the_new_code(broker_url, tmp_path):
    old = Referee(RefereeSettings("b1", tmp_path / "old" / "journal.db", broker_url))
    assert old.start()
    display = DisplayClient(broker_url, "b1")
    new: Referee | None = None
    try:
        assert display.start()
        pair_by_code(old, display)
        assert display.wait(lambda c: c.state is not None and c.info is not None)
        old_key, old_game = old.signer.verify_key, display.state["game"]
        assert display.pin.key == old_key
        # The old referee goes; a new one (its own journal: another signing key) takes the board.
        old.stop()
        new = Referee(RefereeSettings("b1", tmp_path / "new" / "journal.db", broker_url))
        assert new.start()
        assert new.signer.verify_key != old_key
        assert wait_until(lambda: display.referee_replaced), "the display never noticed the new referee"
        # Nothing of the new referee was shown on the old pin.
        assert display.state["game"] == old_game and display.info["sign_key"] == old_key
        display.forget_referee()
        assert not display.paired and not display.referee_replaced
        assert display.state is None and display.info is None
        # Before the new pairing the new referee's messages are held unread, not shown.
        assert wait_until(lambda: new.topics.info in display._held)
        assert display.info is None and display.state is None
        pair_by_code(new, display)  # the new console's code (SPAKE2), as the first time
        assert display.pin.key == new.signer.verify_key
        assert display.wait(lambda c: c.info is not None and c.state is not None
                            and c.state["game"] == new.session.game_id and c.referee_online)
        assert display.info["sign_key"] == new.signer.verify_key
        assert display.state["game"] != old_game
        assert not display.referee_replaced
    finally:
        display.stop()
        if new is not None:
            new.stop()
        if not old.stopping.is_set():
            old.stop()


def test_a_strangers_self_signed_info_while_the_referee_runs_unpairs_nobody(broker_url, tmp_path):
    table = start_table(broker_url, tmp_path / "journal.db")
    display, red = table.display, table.red
    topics = table.referee.topics
    real_key = table.referee.signer.verify_key
    retained: dict[str, bytes] = {}
    stranger = MqttLink(broker_url, "stranger")
    stranger.subscribe(topics.info, lambda topic, raw: retained.setdefault(topic, bytes(raw)))
    try:
        assert stranger.start()
        assert wait_until(lambda: topics.info in retained)
        forger = PublicSigner.generate()
        info = json.loads(retained[topics.info])
        info.pop("sig")
        info["sign_key"] = forger.verify_key
        stranger.publish(topics.info, forger.sign(topics.info, json.dumps(info, separators=(",", ":")).encode()),
                         retain=True)
        for client in (display, red):
            # The forgery came and verified with its own key; the real referee answered it.
            assert wait_until(lambda c=client: c._foreign_info_at is not None), "the forged info never came"
            assert wait_until(lambda c=client: c._genuine_at > c._foreign_info_at), "the referee never answered"
        time.sleep(SILENCE * 2)  # past the silence that would mean a new referee
        for client in (display, red):
            assert not client.referee_replaced, f"{client.role} took a stranger's info for a new referee"
            assert client.pin.key == real_key
        assert display.info["sign_key"] == real_key and red.paired
    finally:
        stranger.stop()
        table.close()
