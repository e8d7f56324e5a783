"""Napoleon's Triumph seat views fit the fixed encrypted envelope: a full 80-unit position with an
attack in progress, at every step of the attack, for both seats (the largest is reported)."""

from __future__ import annotations

import json
import random
import zlib

from nacl.public import PrivateKey

from engine.triumph.game import TriumphGame
from engine.triumph.sample import crowded_position
from firmware_bridge.bot.triumph_script import choose_action
from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.triumph_contract import SEAT_OF_SIDE
from firmware_bridge.protocol.vocabulary import EventType
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.triumph_session import TriumphSession

SEATS = ("red", "blue")


def seat_of(side: str) -> str:
    return SEAT_OF_SIDE[side]


def packed_size(body: dict) -> int:
    """What the envelope must hold: the compressed JSON of header and body (crypto._pack)."""
    header = {"topic": "arbiter/v1/board1/seat/red/state", "game": body["game"], "seq": body["seq"]}
    text = json.dumps({"h": header, "b": body}, separators=(",", ":")).encode()
    return len(zlib.compress(text, 6)) + 4


def crowded_session(tmp_path) -> TriumphSession:
    """A session whose game is the crowded position (every unit of both armies on the map)."""
    session = TriumphSession(Journal(tmp_path / "j.db"))
    session.game = TriumphGame.from_position(crowded_position(), handle_secret=session.handle_secret)
    return session


def fighting_choice(view: dict, options: list[dict], rng: random.Random) -> dict:
    """Attack whenever possible, defend rather than retreat, press rather than feint: the
    attack steps with the most options (leaders, counter-attacks, losses) all come up."""
    for kind in ("threat", "defend", "press"):
        found = [o for o in options if o.get("type") == kind]
        if found:
            chosen = dict(max(found, key=lambda o: len(o.get("units", ()))))
            chosen.pop("side", None)
            return {k: v for k, v in chosen.items() if k != "guard"}
    action = choose_action(view, rng)
    assert action is not None
    return action


def test_every_seat_state_of_attacks_in_a_full_position_fits_the_envelope(tmp_path):
    session = crowded_session(tmp_path)
    game = session.game
    rng = random.Random(5)
    channel = crypto.Channel(PrivateKey.generate(), PrivateKey.generate().public_key)
    largest, steps_seen, attacks = 0, set(), 0
    while attacks < 12 and game.result is None:
        for seat in SEATS:
            body = session.seat_state(seat)
            largest = max(largest, packed_size(body))
            assert len(channel.seal({"topic": "t", "game": body["game"], "seq": body["seq"]},
                                    dict(body))) == crypto.ENVELOPE_SIZE
        awaiting = game.awaiting()
        assert awaiting is not None
        side, decision = awaiting
        steps_seen.add(decision)
        view = session.seat_state(seat_of(side))["view"]
        menu = view["options"]
        action = fighting_choice(view, menu, rng)
        attacks += action["type"] == "threat"
        # Through the session, so that each seat's instructions pile up as in play.
        session._apply(EventType.NT, {"seat": seat_of(side),
                                      "action": session._real_ids({**action, "side": side})})
    assert {"response", "command", "attack", "defence_leaders", "counter_attack"} <= steps_seen
    assert all(session.instructions.values())  # both seats were told what to do with their blocks
    print(f"largest NT seat_state: {largest} of {crypto.PADDED_SIZE} bytes; steps {sorted(steps_seen)}")
    assert largest <= crypto.PADDED_SIZE


def test_a_seat_state_too_large_sheds_old_instructions_then_road_moves_never_plain_ones(tmp_path):
    from firmware_bridge.referee.triumph_session import _packed, fitted

    session = crowded_session(tmp_path)
    state = session.seat_state("red")
    menu = state["view"]["options"]
    assert any(isinstance(d, dict) for e in menu for d in e.get("to", ()))
    state["instructions"] = [{"seq": n, "steps": [{"step": "show", "at": "R1", "faces": []}] * 20}
                             for n in range(1, 7)]
    limit = _packed({**state, "instructions": state["instructions"][-1:]}) - 10
    shrunk = fitted(dict(state), limit)
    assert shrunk["instructions"] == state["instructions"][-1:]  # the newest stays
    options = shrunk["view"]["options"]
    assert not any(isinstance(d, dict) for e in options for d in e.get("to", ()))
    assert {(e["type"], e.get("commander")) for e in options} <= {(e["type"], e.get("commander")) for e in menu}
    assert any(e["type"] == "end_turn" for e in options) and any(e["type"] == "threat" for e in options) \
        or all(e["type"] != "threat" for e in menu)
