"""A stranger on the embedded broker (anonymous, as ``make run`` and families have it) sends junk.

Junk and retained junk on every topic the referee and the tablets subscribe to, payloads up to
10 MB, deep nesting, NaN, wrong protocol versions, then a flood of about 1,000 messages a second.
The referee stays up, changes nothing, logs one line per kind of junk (not one per message), and
rulings still reach both tablets during the flood. The flood lasts ARBITER_FLOOD_SECONDS (5 s
unless set; the issue's full minute with ARBITER_FLOOD_SECONDS=60).
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time

from engine import Color
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.mqtt_link import MqttLink
from tests.firmware_bridge.helpers import start_table, submit_setups, wait_until
from tests.firmware_bridge.referee.test_privacy_intruders import leaked_kinds

FLOOD_SECONDS = float(os.environ.get("ARBITER_FLOOD_SECONDS", "5"))
FLOOD_RATE = 1000  # messages a second
MB = 1024 * 1024


def junk_payloads(rng: random.Random) -> dict[str, bytes]:
    """Every kind of bad payload, by name."""
    return {
        "empty": b"",
        "text": b"hello referee, I am the referee now",
        "not-utf8": b"\xff\xfe\xfa" * 50,
        "random": rng.randbytes(1000),
        "envelope-sized": crypto.MAGIC + rng.randbytes(crypto.ENVELOPE_SIZE - len(crypto.MAGIC)),
        "sealed-sized": crypto.MAGIC + rng.randbytes(crypto.SEALED_SIZE - len(crypto.MAGIC)),
        "json-null": b"null",
        "json-list": b"[1,2,3]",
        # Under the 64 KiB limit of a public payload, so the JSON parser does see them.
        "deep-nesting": b"[" * 30_000 + b"]" * 30_000,
        "deep-object": b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
        "nan": b'{"v":NaN,"client":"x","reason":"manual","online":NaN,"role":"seat"}',
        "infinity": b'{"v":1,"client":Infinity,"reason":"manual"}',
        "wrong-version": b'{"v":2,"client":"stranger","reason":"manual","role":"seat","online":true}',
        "version-zero": b'{"v":0,"client":"stranger","reason":"manual"}',
        "one-megabyte": b"{" + b" " * MB + b"}",
        # A 5,000-digit integer: Python's int() refuses more than 4,300 digits with a ValueError.
        "huge-integer": b'{"v":1,"client":"stranger","reason":"manual","role":"seat","online":true,"seq":'
                        + b"9" * 5000 + b"}",
        "huge-float": b'{"v":1e999,"client":"stranger","reason":"manual"}',
        # A pairing attempt whose numbers and texts are out of bounds.
        "bad-attempt": b'{"v":2,"asker":"' + b"A" * 44 + b'","step":"start","attempt":' + b"7" * 5000 + b"}",
    }


def subscribed_topics(topics: contract.Topics, red_client: str) -> dict[str, bool]:
    """Every topic someone of the table subscribes to -> whether the referee subscribes to it."""
    referee = {topics.hello: True, topics.pair_request: True, topics.pair_code(red_client): True,
               topics.pair_code("stranger"): True, topics.seat_command("red"): True,
               topics.seat_command("blue"): True,
               # Tablets' presence decides nothing any more (sealed heartbeats do): unheard.
               topics.presence("stranger"): False, topics.presence(red_client): False}
    clients = {topics.info: False, topics.state: False, topics.events: False,
               topics.presence("referee"): True,  # the referee watches its own retained topics
               topics.pair_reply(red_client): False}
    seats = {getattr(topics, kind)(seat): False for seat in contract.SEATS
             for kind in ("seat_state", "seat_events", "seat_reply")}
    return referee | clients | seats


class Stranger:
    """An anonymous client that records everything it is sent and publishes junk."""

    def __init__(self, url: str) -> None:
        self.received: list[tuple[str, bytes]] = []
        self.link = MqttLink(url, "stranger")
        self.link.subscribe("#", lambda t, p: self.received.append((t, p)))
        assert self.link.start()

    def stop(self) -> None:
        self.link.stop()


def game_fingerprint(table) -> tuple:
    """Everything a stranger must not change: the game, seats, offers and the clients' trust."""
    referee = table.referee
    session = referee.session
    return (session.seq, session.game.hash, session.phase, session.draw_offer, session.takeback_offer,
            {s: (r.key, r.client) for s, r in session.seats.items()},
            table.red.pin.key, table.blue.pin.key, table.display.pin.key,
            table.red.referee_key, table.red.seat, table.blue.seat)


def play_one_move(table, rng: random.Random, timeout: float = 30.0) -> int:
    """A random move onto an empty square where there is one: no battle, so the game goes on
    however many rulings a test needs (a flood lasts as long as it lasts)."""
    game = table.referee.session.game
    client = table.seat(game.to_move.value)
    moves = game.legal_moves()
    quiet = [move for move in moves if game.piece_at(move.target) is None]
    command_id = client.move(str(rng.choice(quiet or moves)))
    assert client.wait(lambda c: command_id in c.replies, timeout), "no reply to a move"
    assert client.replies[command_id]["ok"], client.replies[command_id]
    seq = table.referee.session.seq
    for other in (table.red, table.blue, table.display):
        assert other.wait(lambda c, s=seq: c.seq >= s, timeout), "a ruling did not reach a tablet"
    return seq


def test_junk_on_every_topic_changes_nothing_and_is_logged_once_per_kind(embedded, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="firmware_bridge.referee.service")
    table = start_table(embedded.url, tmp_path / "journal.db")
    stranger = Stranger(embedded.url)
    rng = random.Random(14)
    try:
        submit_setups(table)
        play_one_move(table, rng)
        referee = table.referee
        before = game_fingerprint(table)
        payloads = junk_payloads(rng)
        topics = subscribed_topics(referee.topics, table.red.client_id)
        refused_before = referee.refusals.count
        to_referee = 0
        for topic, referee_hears in topics.items():
            for name, payload in payloads.items():
                stranger.link.publish(topic, payload, retain=name in ("random", "wrong-version"))
                to_referee += referee_hears
        # Ten-megabyte payloads on the referee's command and pairing topics and on the public state.
        big = b"{" + b"x" * (10 * MB) + b"}"
        for topic in (referee.topics.seat_command("red"), referee.topics.pair_request, referee.topics.hello,
                      referee.topics.state):
            stranger.link.publish(topic, big)
            to_referee += topic != referee.topics.state
        # Every message the referee hears is refused and counted: wait for the last one.
        assert wait_until(lambda: referee.refusals.count - refused_before >= to_referee, 60), \
            (referee.refusals.count - refused_before, to_referee)

        assert referee.ticker.alive and referee.link.connected.is_set()
        assert game_fingerprint(table) == before, "a stranger changed the game"
        # The junk logged one line per (topic kind, code), never one per message.
        refused_lines = [r for r in caplog.records if r.getMessage().startswith("refused a message")]
        kinds = set(referee.refusals.total)
        assert len(refused_lines) == len(kinds) < to_referee / 10, sorted(kinds)
        assert len(kinds) < 20, sorted(kinds)  # a handful of kinds, whatever the number of messages
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged for junk"
        assert not [r for r in caplog.records if "was dropped" in r.getMessage()], "a handler raised on junk"
        # The clients dropped the public junk and kept their state; the game goes on.
        for client in (table.red, table.blue, table.display):
            assert client.pin.dropped["unsigned"] + client.pin.dropped["bad-signature"] > 0
        for _ in range(2):
            play_one_move(table, rng)
        # Nothing the stranger was sent names a hidden rank.
        game = referee.session.game
        for color in Color:
            opponent = Color.BLUE if color is Color.RED else Color.RED
            hidden = {p.id for _, p in game.pieces() if p.color is color and not game.knows(opponent, p)}
            for topic, payload in stranger.received:
                if "/seat/" in topic or "/pair/" in topic:
                    continue
                try:
                    data = contract.decode_public(topic, payload)
                except (contract.ContractError, ValueError):
                    continue  # the stranger's own junk, echoed back by the broker
                assert not leaked_kinds(data, hidden), topic
    finally:
        stranger.stop()
        table.close()


def test_a_flood_of_a_thousand_junk_messages_a_second_does_not_stop_the_rulings(embedded, tmp_path):
    table = start_table(embedded.url, tmp_path / "journal.db")
    flooder = MqttLink(embedded.url, "flooder")
    assert flooder.start()
    rng = random.Random(15)
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        # Commands that fail authentication, bad pairing requests and attempts, hellos with NaN.
        topics = table.referee.topics
        junk = [(topics.seat_command("red"), crypto.MAGIC + rng.randbytes(crypto.ENVELOPE_SIZE - 4)),
                (topics.pair_request, b"x" * 600), (topics.hello, b'{"v":NaN}'),
                (topics.pair_code("stranger"), b"[]")]
        start = time.monotonic()
        while not stop.is_set() and time.monotonic() - start < FLOOD_SECONDS:
            due = int((time.monotonic() - start) * FLOOD_RATE)
            while sent[0] < due:
                topic, payload = junk[sent[0] % len(junk)]
                flooder.publish(topic, payload)
                sent[0] += 1
            stop.wait(0.005)

    try:
        submit_setups(table)
        referee = table.referee
        flooding = threading.Thread(target=flood, daemon=True)
        flooding.start()
        moves = 0
        while flooding.is_alive():
            play_one_move(table, rng)
            moves += 1
        assert moves >= 2, "no ruling got through during the flood"
        assert sent[0] >= FLOOD_RATE * FLOOD_SECONDS * 0.5
        assert wait_until(lambda: referee.refusals.count >= sent[0] * 0.99, 60), (referee.refusals.count, sent[0])
        assert referee.session.phase == "playing" and referee.ticker.alive
        play_one_move(table, rng)
    finally:
        stop.set()
        flooder.stop()
        table.close()
