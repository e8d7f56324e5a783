"""The probe's forgery: a stranger's retained "blue wins" state and another referee key are never shown.

Found by a probe on the embedded broker (anonymous, what ``make run`` and families use): a stranger
copied the real retained ``state``, raised ``seq`` by a million, wrote "blue wins, flag captured"
into it and published it retained, with a retained ``info`` naming another referee key. The
display showed the forged end at once and the real snapshots never replaced it. Here the same
forgery runs on the embedded broker and, by a broker admin, on mosquitto with accounts: the display
and both tablets drop it (and count the drops), keep their pinned key and keep following the game.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.broker import Mosquitto
from tests.firmware_bridge.helpers import requires_mosquitto, start_table, submit_setups, wait_until

ACL = (Path(__file__).parents[3] / "hardware" / "deploy" / "acl").read_text()
PASSWORDS = {"referee": "ref-pw", "red": "red-pw", "blue": "blue-pw", "admin": "admin-pw"}


@pytest.fixture
def mosquitto():
    acl = ACL + "\nuser admin\ntopic readwrite #\n"
    with Mosquitto(acl=acl, passwords=PASSWORDS, anonymous=True) as broker:
        yield broker


def test_a_strangers_forged_end_on_the_embedded_broker_is_never_shown(embedded, tmp_path):
    table = start_table(embedded.url, tmp_path / "journal.db")
    try:
        forge_and_check(table, embedded.url)
    finally:
        table.close()


@requires_mosquitto
def test_a_broker_admins_forged_end_on_mosquitto_is_never_shown(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db",
                        referee_url=mosquitto.url_for("referee", "ref-pw"),
                        seat_accounts={"red": ("red", "red-pw"), "blue": ("blue", "blue-pw")})
    try:
        forge_and_check(table, mosquitto.url_for("admin", "admin-pw"))
    finally:
        table.close()


def forged_state(real: bytes) -> bytes:
    """The probe's forgery: the real state, seq raised by a million, blue wins by the flag."""
    state = json.loads(real)
    state["seq"] += 1_000_000
    state["phase"] = "over"
    state["view"]["result"] = {"winner": "blue", "reason": "flag-captured"}
    return json.dumps(state, separators=(",", ":")).encode()  # the old "sig" stays: it cannot fit


def forged_info(real: bytes, signer: PublicSigner) -> bytes:
    """The real info with another referee key and the stranger's own signing key, self-signed."""
    info = json.loads(real)
    info.pop("sig")
    info["referee_key"] = crypto.key_to_text(crypto.PrivateKey.generate().public_key)
    info["sign_key"] = signer.verify_key
    topic = f"{contract.ROOT}/{info['board']}/info"
    return signer.sign(topic, json.dumps(info, separators=(",", ":")).encode())


def play_one_move(table, rng: random.Random) -> int:
    """The player to move makes a random legal move from the tablet; the ruling's seq."""
    game = table.referee.session.game
    client = table.seat(game.to_move.value)
    command_id = client.move(str(rng.choice(game.legal_moves())))
    assert client.wait(lambda c: command_id in c.replies, 10)
    assert client.replies[command_id]["ok"], client.replies[command_id]
    return table.referee.session.seq


def forge_and_check(table, stranger_url: str) -> None:
    referee, display, red, blue = table.referee, table.display, table.red, table.blue
    topics = referee.topics
    submit_setups(table)
    rng = random.Random(3)
    seq = play_one_move(table, rng)
    assert display.wait(lambda c: c.seq == seq, 10)
    real_key = referee.signer.verify_key
    for client in (display, red, blue):
        assert client.pin.key == real_key
    real_referee_key = red.referee_key

    # The stranger reads the retained state and info, as anyone on the broker can.
    retained: dict[str, bytes] = {}
    stranger_log: list[tuple[str, bytes]] = []

    def heard(topic: str, payload: bytes) -> None:
        retained.setdefault(topic, bytes(payload))  # the first: what the broker kept
        stranger_log.append((topic, bytes(payload)))

    stranger = MqttLink(stranger_url, "stranger")
    stranger.subscribe(topics.state, heard)
    stranger.subscribe(topics.info, heard)
    assert stranger.start()
    try:
        assert wait_until(lambda: topics.state in retained and topics.info in retained)
        dropped_before = {c: sum(c.pin.dropped.values()) for c in (display, red, blue)}

        def real_infos() -> int:
            return sum(1 for t, p in list(stranger_log) if t == topics.info and real_key.encode() in p)

        infos_before = real_infos()
        stranger.publish(topics.state, forged_state(retained[topics.state]), retain=True)
        stranger.publish(topics.info, forged_info(retained[topics.info], PublicSigner.generate()), retain=True)
        # Every client received and dropped both: the drops are counted, reason by reason.
        for client in (display, red, blue):
            assert client.wait(lambda c, n=dropped_before[client]: sum(c.pin.dropped.values()) >= n + 2, 10), \
                dict(client.pin.dropped)
            assert client.pin.dropped["bad-signature"] >= 2  # the info is signed, but not by the pinned key
        # The referee overwrites the forged retained messages at once: a display that connects
        # now, pinned by a pairing, reads the real info and state at once.
        assert wait_until(lambda: real_infos() > infos_before), "the forged info stayed retained"
        newcomer = DisplayClient(display.link.url, topics.board, sign_key=real_key)
        assert newcomer.start()
        try:
            assert newcomer.wait(lambda c: c.info is not None and c.state is not None, 10)
            assert newcomer.pin.key == real_key, "a display that came later trusts the stranger's key"
            assert newcomer.state["phase"] == "playing"
        finally:
            newcomer.stop()
        # A hello (the resync that did not help before) and two real moves: the real game goes on.
        display.hello("manual")
        for _ in range(2):
            seq = play_one_move(table, rng)
        for client in (display, red, blue):
            assert client.wait(lambda c, s=seq: c.seq == s, 10), "the real snapshots stopped arriving"
            assert client.pin.key == real_key, "a client trusts the stranger's key"
        assert display.state["seq"] == seq < 1_000_000
        assert display.state["phase"] == "playing" and display.state["view"]["result"] is None
        assert red.public_state["seq"] == blue.public_state["seq"] == seq
        assert red.referee_key == blue.referee_key == real_referee_key
        assert display.info["sign_key"] == real_key
        assert red.paired and blue.paired
    finally:
        stranger.stop()
