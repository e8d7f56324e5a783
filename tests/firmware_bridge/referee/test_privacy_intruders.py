"""Two intruders watch and meddle through a whole game; neither learns a hidden rank or acts for red.

The broker is mosquitto with the shipped ACL (hardware/deploy/acl) and password file. One intruder
holds the opponent's (blue's) broker account *and* blue's tablet key; the other is a broker admin
who reads and writes every topic. An ACL is judged by what is delivered, never by the SUBACK.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from nacl.public import PrivateKey

from engine import Color
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.broker import Mosquitto
from tests.firmware_bridge.helpers import requires_mosquitto, start_table, submit_setups, wait_until

pytestmark = requires_mosquitto

ACL = (Path(__file__).parents[3] / "hardware" / "deploy" / "acl").read_text()
PASSWORDS = {"referee": "ref-pw", "red": "red-pw", "blue": "blue-pw", "display": "disp-pw",
             "admin": "admin-pw"}
ID_AND_KIND = (("id", "kind"), ("piece_id", "kind"), ("attacker_id", "attacker"),
               ("defender_id", "defender"))


class Recorder:
    """An MQTT client that records every message delivered to it."""

    def __init__(self, url: str, client_id: str) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self.link = MqttLink(url, client_id)
        self.link.subscribe("#", self._record)
        assert self.link.start()

    def _record(self, topic: str, payload: bytes) -> None:
        with self._lock:
            self.messages.append((topic, payload))

    def taken(self, start: int) -> list[tuple[str, bytes]]:
        with self._lock:
            return self.messages[start:]


def read_as_blue(messages: list[tuple[str, bytes]], as_blue: crypto.Channel) -> list[tuple[str, dict]]:
    """What blue's account can read of ``messages``: public JSON and blue's own envelopes opened.

    A red seat topic there fails the test: the ACL must never deliver one to blue.
    """
    readable = []
    for topic, payload in messages:
        assert "/seat/red/" not in topic, f"the ACL delivered {topic} to blue"
        if "/seat/blue/" in topic and topic.endswith(("state", "events", "reply")):
            readable.append((topic, as_blue.open(payload)[1]))
        elif "/seat/" not in topic and "/pair/" not in topic:
            readable.append((topic, contract.decode_public(topic, payload)))
    return readable


def leaked_kinds(data, hidden_ids: set[int]) -> list:
    """Every (id, kind) in a JSON structure that names the kind of a hidden piece."""
    found = []
    if isinstance(data, dict):
        for id_key, kind_key in ID_AND_KIND:
            if data.get(id_key) in hidden_ids and data.get(kind_key):
                found.append((data[id_key], data[kind_key]))
        for value in data.values():
            found += leaked_kinds(value, hidden_ids)
    elif isinstance(data, list):
        for value in data:
            found += leaked_kinds(value, hidden_ids)
    return found


@pytest.fixture
def broker():
    acl = ACL + "\nuser admin\ntopic readwrite #\n"
    with Mosquitto(acl=acl, passwords=PASSWORDS, anonymous=True) as broker:
        yield broker


def test_neither_intruder_learns_a_hidden_red_rank_or_acts_for_red_in_a_whole_game(broker, tmp_path):
    table = start_table(broker.url, tmp_path / "journal.db", variant="barrage",
                        referee_url=broker.url_for("referee", "ref-pw"),
                        seat_accounts={"red": ("red", "red-pw"), "blue": ("blue", "blue-pw")})
    try:
        play_watched_game(table, broker)
    finally:
        table.close()


def play_watched_game(table, broker) -> None:
    referee = table.referee
    topics = referee.topics
    assert table.red.wait(lambda c: c.link.url.username == "red" and c.link.connected.is_set(), 10)
    blue_spy = Recorder(broker.url_for("blue", "blue-pw"), "intruder-blue")
    admin = Recorder(broker.url_for("admin", "admin-pw"), "intruder-admin")
    blue_key = table.blue.key  # the opponent's own tablet key, stolen
    referee_key = crypto.public_key_from_text(referee.public_key)
    as_blue = crypto.Channel(blue_key, referee_key)
    forger = crypto.Channel(PrivateKey.generate(), referee_key)
    submit_setups(table, "barrage", seed=11)
    rng = random.Random(5)
    checked_blue = checked_admin = 0
    red_commands: list[bytes] = []
    stale_red_state: bytes | None = None
    red_accepted: list[int] = []  # every snapshot seq red's tablet took, in order
    table.red.on_state = lambda state: red_accepted.append(state["seq"])

    for ply in range(400):
        game = referee.session.game
        if game.result is not None:
            break
        hidden = {piece.id for _, piece in game.pieces()
                  if piece.color is Color.RED and not game.knows(Color.BLUE, piece)}
        # What the opponent's account saw so far: no red seat topic, no hidden rank anywhere.
        for topic, data in read_as_blue(blue_spy.taken(checked_blue), as_blue):
            assert not leaked_kinds(data, hidden), f"hidden red rank on {topic}"
        checked_blue = len(blue_spy.messages)
        # What the admin saw: every private envelope the same size, none opens with blue's key.
        for topic, payload in admin.taken(checked_admin):
            if "/seat/red/" in topic:
                assert len(payload) == crypto.ENVELOPE_SIZE
                with pytest.raises(crypto.CryptoError):
                    as_blue.open(payload)
                if topic.endswith("/cmd"):
                    red_commands.append(payload)
                elif topic.endswith("/state") and stale_red_state is None and ply > 2:
                    stale_red_state = payload
            elif "/seat/" not in topic and "/pair/" not in topic and not topic.startswith("$"):
                assert not leaked_kinds(contract.decode_public(topic, payload), hidden)
        checked_admin = len(admin.messages)

        # The meddling, every few plies, while it is red's turn.
        if game.to_move is Color.RED and ply % 3 == 0:
            before = (referee.session.seq, game.hash)
            counter = 10**17 + ply
            # Resign, offer a draw or submit a setup in red's name, in turn.
            kind = ("resign", "offer_draw", "setup")[(ply // 3) % 3]
            args = {"setup": {"a1": "flag"}} if kind == "setup" else {}
            resign = contract.command("red", f"evil-{ply}", counter, kind, **args)
            red_cmd = topics.seat_command("red")
            # blue's account writes red's command topic: the ACL drops it.
            blue_spy.link.publish(red_cmd, as_blue.seal({"topic": red_cmd, "seat": "red", "counter": counter}, resign))
            # blue's own topic with red's name inside: refused.
            blue_cmd = topics.seat_command("blue")
            blue_spy.link.publish(blue_cmd, as_blue.seal({"topic": blue_cmd, "seat": "blue", "counter": counter}, resign))
            # The admin forges one with its own key, and replays red's old commands.
            admin.link.publish(red_cmd, forger.seal({"topic": red_cmd, "seat": "red", "counter": counter}, resign))
            for old in red_commands[-3:]:
                admin.link.publish(red_cmd, old)
            # The admin tries to roll red's tablet back to an old snapshot.
            if stale_red_state:
                admin.link.publish(topics.seat_state("red"), stale_red_state, retain=True)
            # A marker: once the admin's own hello is answered, the meddling has been handled.
            marker, mark = referee.session.seq, len(admin.messages)
            admin.link.publish(topics.hello, contract.encode("hello", {"v": 1, "client": "intruder-admin", "reason": "manual"}))
            assert wait_until(lambda m=marker, k=mark: any(
                t == topics.state and contract.decode("state", p)["seq"] == m for t, p in admin.taken(k)))
            assert (referee.session.seq, game.hash) == before, "an intruder changed the game"
            assert referee.session.phase == "playing" and referee.session.draw_offer is None
            # red's own snapshot may still be on its way: wait for it, never for a time.
            assert table.red.wait(lambda c, s=referee.session.seq: c.seq == s, 10), "red's tablet lags"
            assert red_accepted == sorted(red_accepted), "red's tablet was rolled back"

        mover = table.seat(game.to_move.value)
        move = str(rng.choice(game.legal_moves()))
        command_id = mover.move(move)
        assert mover.wait(lambda c, i=command_id: i in c.replies, 10)
        assert mover.replies[command_id]["ok"], mover.replies[command_id]
        seq = referee.session.seq
        assert wait_until(lambda s=seq, k=checked_blue: any(
            t == topics.state and contract.decode("state", p)["seq"] == s for t, p in blue_spy.taken(k)))

    if referee.session.phase == "playing":  # a long game: red resigns to end it
        command_id = table.red.resign()
        assert table.red.wait(lambda c: command_id in c.replies, 10)
    assert referee.session.phase == "over"
    assert len(red_commands) > 10, "the admin saw red's commands to replay"
    # The legitimate red tablet was never taken over: it still commands its seat.
    assert referee.session.seats["red"].key == crypto.key_to_text(table.red.key.public_key)
    assert not any("/seat/red/" in t for t, _ in blue_spy.messages)
    assert any("/seat/red/" in t for t, _ in admin.messages)
    blue_spy.link.stop()
    admin.link.stop()


def test_the_acl_keeps_anonymous_clients_to_public_and_pairing_topics(broker, tmp_path):
    table = start_table(broker.url, tmp_path / "journal.db", variant="barrage",
                        referee_url=broker.url_for("referee", "ref-pw"),
                        seat_accounts={"red": ("red", "red-pw"), "blue": ("blue", "blue-pw")})
    try:
        anonymous = Recorder(broker.url, "anonymous-watcher")
        submit_setups(table, "barrage", seed=2)
        assert wait_until(lambda: any(t.endswith("/state") for t, _ in anonymous.messages))
        topics = {t for t, _ in anonymous.messages}
        assert not any("/seat/" in t for t in topics)
        assert table.referee.topics.state in topics
        anonymous.link.stop()
    finally:
        table.close()
