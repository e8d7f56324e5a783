"""A whole game watched for side channels: what a broker admin and the opponent can infer beyond the rules.

The embedded broker is anonymous, so the watcher here reads every topic, as a broker admin would.
Hidden ranks in payloads are covered by test_privacy_intruders and test_privacy_espionage; this
sweep checks what leaks around them: payload sizes, sequence numbers, retained topics, the
referee's refusals and log lines.
"""

from __future__ import annotations

import json
import logging
import random
import re
import threading

from engine import get_variant
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.mqtt_link import MqttLink
from tests.firmware_bridge.helpers import start_table, submit_setups, wait_until

PRIVATE = re.compile(r"/(seat/(red|blue)/(state|events|reply|cmd)|pair/[^/]+)$")


class Watcher:
    """Everything published on the board's topics, with whether it came retained."""

    def __init__(self, url: str, client_id: str) -> None:
        self.messages: list[tuple[str, bytes]] = []
        self._lock = threading.Lock()
        self.link = MqttLink(url, client_id)
        self.link.subscribe("arbiter/#", self._record)
        assert self.link.start()

    def _record(self, topic: str, payload: bytes) -> None:
        with self._lock:
            self.messages.append((topic, bytes(payload)))


def test_a_whole_game_leaks_nothing_beyond_the_rules_through_sizes_seqs_retained_topics_or_logs(
        embedded, tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger="firmware_bridge")
    admin = Watcher(embedded.url, "admin")  # from before the pairing on
    table = start_table(embedded.url, tmp_path / "journal.db", variant="barrage")
    referee = table.referee
    rng = random.Random(21)
    refusals: list[dict] = []
    try:
        submit_setups(table, "barrage", seed=4)
        for _ in range(300):
            game = referee.session.game
            if game.result is not None:
                break
            mover = table.seat(game.to_move.value)
            waiting = table.seat("blue" if game.to_move.value == "red" else "red")
            # The waiting player tries to move out of turn: the refusal must not depend on hidden ranks.
            attempt = waiting.move(str(rng.choice(game.legal_moves())))
            assert waiting.wait(lambda c, i=attempt: i in c.replies, 10)
            refusals.append(waiting.replies[attempt])
            command_id = mover.move(str(rng.choice(game.legal_moves())))
            assert mover.wait(lambda c, i=command_id: i in c.replies, 10)
            assert mover.replies[command_id]["ok"]
            # Sequence numbers: both seats and the public state count the same rulings.
            seq = referee.session.seq
            for client in (table.red, table.blue, table.display):
                assert client.wait(lambda c, s=seq: c.seq == s, 10)
        if referee.session.phase == "playing":
            command_id = table.red.resign()
            assert table.red.wait(lambda c: command_id in c.replies, 10)
        assert wait_until(lambda: any(t == referee.topics.state and b'"phase":"over"' in p
                                      for t, p in admin.messages))

        # 1. Every private envelope has one size, whatever it carries (a setup, a battle, a reply).
        kinds = set(get_variant("barrage").army)
        sizes: dict[str, set[int]] = {}
        for topic, payload in admin.messages:
            match = PRIVATE.search(topic)
            if match and payload:
                kind = "pair" if match.group(1).startswith("pair") else match.group(3)
                sizes.setdefault(kind, set()).add(len(payload))
        for kind in ("state", "events", "reply", "cmd"):
            assert sizes[kind] == {crypto.ENVELOPE_SIZE}, (kind, sizes[kind])
        # Pairing is public JSON (SPAKE2 messages, confirmations, sealed boxes), or the one envelope
        # "lost": nothing in it names a rank, the code or a key's secret.
        for topic, payload in admin.messages:
            if "/pair/" in topic and payload and len(payload) != crypto.ENVELOPE_SIZE:
                text = payload.decode()
                assert json.loads(text)["v"] == 2 and not kinds & set(re.findall(r"[a-z]+", text)), text

        # 2. Refusals of out-of-turn moves read the same whatever the piece: no rank, one code.
        assert {r["code"] for r in refusals} == {"not-your-turn"}
        assert {r["message"] for r in refusals} <= {"it is red's turn", "it is blue's turn"}
        for reply in refusals:
            assert not kinds & set(re.findall(r"[a-z]+", reply["message"].lower())), reply["message"]

        # 3. Seat events and the public events share one seq per ruling: no private-only counter.
        public_seqs = [contract.decode("events", p)["seq"] for t, p in admin.messages if t == referee.topics.events]
        assert public_seqs == sorted(public_seqs) and len(public_seqs) == len(set(public_seqs))

        # 4. Retained topics are the public ones and the seats' fixed-size state envelopes.
        late = Watcher(embedded.url, "late-admin")
        assert wait_until(lambda: any(t == referee.topics.state for t, _ in late.messages))
        base = referee.topics.base
        retained = {t.removeprefix(base + "/") for t, _ in late.messages}
        allowed = {"info", "state", "seat/red/state", "seat/blue/state"}
        assert {t for t in retained if not t.startswith("presence/")} <= allowed, retained
        late.link.stop()

        # 5. No log line of the whole game names a piece kind (public or hidden).
        for record in caplog.records:
            words = set(re.findall(r"[a-z]+", record.getMessage().lower()))
            assert not kinds & words, record.getMessage()
    finally:
        admin.link.stop()
        table.close()
