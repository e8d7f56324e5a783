"""Napoleon's Triumph at a table: two tablets and a referee display on a real mosquitto play a whole
scripted battle to its result, with a referee restart in the middle; nothing either tablet, the
display or a broker admin reads ever holds a face or a block id the rules keep from them."""

from __future__ import annotations

import json
import random
import threading
import time

from firmware_bridge.bot.triumph_script import choose_action
from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.service import Referee, RefereeSettings
from tests.firmware_bridge.helpers import requires_mosquitto, start_table
from tests.firmware_bridge.referee.triumph_table import (
    SIDES,
    moments,
    strings,
    telling_setup,
    view_problems,
)

VARIANT = "napoleons-triumph"


class Recorder:
    """Everything one client was given: snapshots and event lists, in arrival order."""

    def __init__(self) -> None:
        self.states: list[dict] = []
        self.events: list[dict] = []
        self.lock = threading.Lock()

    def state(self, payload: dict) -> None:
        with self.lock:
            self.states.append(payload)

    def event(self, payload: dict) -> None:
        with self.lock:
            self.events.append(payload)


def play(table, rng: random.Random, actions: int) -> int:
    """Let the scripted players answer their seat views for up to ``actions`` actions."""
    sent = 0
    while sent < actions:
        referee_seq = table.referee.session.seq
        for client in (table.red, table.blue, table.display):  # everyone holds the latest ruling
            assert client.wait(lambda c, s=referee_seq: c.seq == s and (c.state or {}).get("seq") == s, 20)
        if table.referee.session.phase != "playing":
            return sent
        for seat in ("red", "blue"):
            client = table.seat(seat)
            action = choose_action(client.state["view"], rng)
            if action is None:
                continue
            command_id = client.nt(action)
            assert client.wait(lambda c, i=command_id: i in c.replies, 20)
            assert client.replies[command_id]["ok"], (action, client.replies[command_id])
            sent += 1
            break
    return sent


@requires_mosquitto
def test_a_whole_battle_through_mosquitto_reaches_a_result_and_keeps_every_face_private(mosquitto, tmp_path):
    journal = tmp_path / "journal.db"
    admin: list[tuple[str, bytes]] = []
    watcher = MqttLink(mosquitto.url, "broker-admin")
    watcher.subscribe("arbiter/#", lambda topic, payload: admin.append((topic, bytes(payload))))
    assert watcher.start()
    table = start_table(mosquitto.url, journal, variant=VARIANT)
    recorders = {name: Recorder() for name in ("red", "blue", "display")}
    for name, client in (("red", table.red), ("blue", table.blue), ("display", table.display)):
        client.on_state = recorders[name].state
        client.on_events = recorders[name].event
    started = time.monotonic()
    try:
        for seat in ("red", "blue"):
            client = table.seat(seat)
            command_id = client.setup(telling_setup(SIDES[seat]))
            assert client.wait(lambda c, i=command_id: i in c.replies, 20)
            assert client.replies[command_id]["ok"], client.replies[command_id]
        rng = random.Random(2)
        sent = play(table, rng, 60)
        # The referee goes down mid-battle and comes back from its journal; the tablets go on.
        before = table.referee.session.seat_state("blue")
        table.referee.stop()
        table.referee = Referee(RefereeSettings("b1", journal, mosquitto.url, variant=VARIANT))
        assert table.referee.start()
        assert table.referee.session.seat_state("blue") == before
        sent += play(table, rng, 2000)
        result = table.referee.session.result
        assert result is not None and result["winner"] in ("french", "allied", None)
        assert table.display.wait(lambda c: (c.state or {}).get("phase") == "over", 20)
        for seat in ("red", "blue"):
            assert table.seat(seat).wait(lambda c: (c.state or {}).get("phase") == "over", 20)
            assert table.seat(seat).state["view"]["result"] == result
    finally:
        table.close()
        watcher.stop()
    seconds = time.monotonic() - started
    print(f"NT scripted battle: {sent} actions through mosquitto in {seconds:.1f} s; {result}")

    found, secret = moments(journal)
    units = {uid: side for moment in found.values() for uid, side in moment.sides.items()}
    problems: list[str] = []
    for name, recorder in recorders.items():
        viewer = SIDES.get(name)
        enemy_ids = {uid for uid, side in units.items() if side != viewer}
        for state in recorder.states:
            if state.get("view"):
                problems += view_problems(state["view"], viewer, found[state["seq"]], secret)
            problems += [f"{name} read the block id {uid}" for uid in strings(state) & enemy_ids]
        for message in recorder.events:
            problems += [f"{name}'s events named {uid}" for uid in strings(message) & enemy_ids]
    # The broker admin reads the public topics and cannot open a seat's envelope.
    for topic, payload in admin:
        if "/seat/" in topic:
            assert not payload or len(payload) == crypto.ENVELOPE_SIZE, topic
            continue
        if "/pair/" in topic:  # pairing v2: public JSON of a SPAKE2 exchange (or the "lost" envelope)
            assert not payload or len(payload) == crypto.ENVELOPE_SIZE or json.loads(payload)["v"] == 2, topic
            continue
        if topic.endswith(("/state", "/events")) and payload:
            message = json.loads(payload)
            problems += [f"the admin read the block id {uid} on {topic}" for uid in strings(message) & set(units)]
            if topic.endswith("/state") and message.get("view"):
                problems += view_problems(message["view"], None, found[message["seq"]], secret)
    assert not problems, problems[:10]
    assert len(recorders["red"].states) > 50 and len(recorders["display"].events) > 50
