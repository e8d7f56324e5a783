"""A whole random Espionage game through the real referee and mosquitto, watched by everyone.

Espionage hides more than Stratego: battles show only their outcome, and a Spy's recognition
(a `reveal` event) is for its owner alone; even that it happened would point at the Spy. Over a
whole game, neither the opponent's tablet and account, the public display, nor a broker admin
ever receives a `reveal` meant for the other side or a rank that was not revealed to them, and
every battle reaches all of them with its outcome but no rank.
"""

from __future__ import annotations

import random
import threading

from engine import Color
from firmware_bridge.protocol import contract, crypto
from tests.firmware_bridge.helpers import requires_mosquitto, setup_dict, start_table, wait_until
from tests.firmware_bridge.referee.test_privacy_intruders import (  # noqa: F401
    Recorder,
    broker,
    leaked_kinds,
    read_as_blue,
)

pytestmark = requires_mosquitto
MAX_PLIES = 240


class Inbox:
    """Every event message one client received, in order."""

    def __init__(self) -> None:
        self.messages: list[dict] = []
        self.lock = threading.Lock()

    def __call__(self, message: dict) -> None:
        with self.lock:
            self.messages.append(message)

    def events(self, start: int = 0) -> list[dict]:
        with self.lock:
            return [e for m in self.messages[start:] for e in m["events"]]


def hidden_from(game, viewer: Color | None) -> set[int]:
    """Ids of the pieces whose kind ``viewer`` (None: the public) may not know now."""
    every = (game.piece(piece_id) for piece_id in range(len(game.initial_pieces)))  # captured too
    return {piece.id for piece in every if not game.knows(viewer, piece)}


def pick(game, rng: random.Random):
    """A random legal move; attacks are preferred so that battles happen in a short game."""
    moves = game.legal_moves()
    attacks = [m for m in moves if game.piece_at(m.target) is not None]
    return rng.choice(attacks if attacks and rng.random() < 0.7 else moves)


def test_no_reveal_or_unrevealed_rank_reaches_anyone_else_in_a_whole_espionage_game(broker, tmp_path):  # noqa: F811
    table = start_table(broker.url, tmp_path / "journal.db", variant="espionage",
                        referee_url=broker.url_for("referee", "ref-pw"),
                        seat_accounts={"red": ("red", "red-pw"), "blue": ("blue", "blue-pw")})
    inbox = {"red": Inbox(), "blue": Inbox(), "public": Inbox()}
    table.red.on_events, table.blue.on_events, table.display.on_events = \
        inbox["red"], inbox["blue"], inbox["public"]
    blue_account = Recorder(broker.url_for("blue", "blue-pw"), "intruder-blue")
    admin = Recorder(broker.url_for("admin", "admin-pw"), "intruder-admin")
    as_blue = crypto.Channel(table.blue.key, crypto.public_key_from_text(table.referee.public_key))
    referee, topics = table.referee, table.referee.topics
    try:
        assert table.red.wait(lambda c: c.link.url.username == "red" and c.link.connected.is_set(), 10)
        with referee.lock:  # the same volcanoes every run, so the same game is played
            referee.session.rng = random.Random(4)
            referee.session.new_game()
            referee.republish()
        for color, seed in (("red", 21), ("blue", 22)):
            client = table.seat(color)
            command_id = client.setup(setup_dict("espionage", color, seed))
            assert client.wait(lambda c, i=command_id: i in c.replies and c.replies[i]["ok"], 10)
        game = referee.session.game
        assert wait_until(lambda: game is not None and referee.session.phase == "playing")
        rng = random.Random(9)
        seen = {"battles": 0, "reveals": {"red": 0, "blue": 0}, "turns": 0}
        checked = {"red": 0, "blue": 0, "public": 0, "account": 0, "admin": 0}

        for _ in range(MAX_PLIES):
            if game.result is not None:
                break
            mover = table.seat(game.to_move.value)
            command_id = mover.move(str(pick(game, rng)))
            assert mover.wait(lambda c, i=command_id: i in c.replies, 10)
            assert mover.replies[command_id]["ok"], mover.replies[command_id]
            seq = referee.session.seq
            for client in (table.red, table.blue, table.display):
                assert client.wait(lambda c, s=seq: c.seq >= s, 10)
            assert wait_until(lambda s=seq: any(
                t == topics.state and contract.decode("state", p)["seq"] == s
                for t, p in blue_account.taken(checked["account"])))
            over = game.result is not None  # at the end the whole board is revealed to everyone

            # Each tablet: reveals only its own, no kind of a piece its owner may not know.
            for color in ("red", "blue"):
                events = inbox[color].events(checked[color])
                checked[color] = len(inbox[color].messages)
                for event in events:
                    if event["type"] == "reveal":
                        assert event["to"] == color, f"{color}'s tablet got the other side's reveal"
                        seen["reveals"][color] += 1
                if not over:
                    hidden = hidden_from(game, Color(color))
                    assert not leaked_kinds(events, hidden), f"{color} was told a rank it may not know"
                    assert not leaked_kinds(table.seat(color).view, hidden)
            # The public display: battles with outcome and no rank, never a reveal.
            events = inbox["public"].events(checked["public"])
            checked["public"] = len(inbox["public"].messages)
            for event in events:
                assert event["type"] != "reveal", "a Spy's recognition reached the public"
                seen["turns"] += event["type"] == "turn"
                if event["type"] == "battle":
                    seen["battles"] += 1
                    assert event["outcome"] in ("attacker", "defender")
                    if not over:
                        assert event["attacker"] is None and event["defender"] is None, event
                        for color in ("red", "blue"):  # the players got the same battle
                            assert any(e["type"] == "battle" and e["square"] == event["square"]
                                       and e["outcome"] == event["outcome"] and e["ply"] == event["ply"]
                                       for e in inbox[color].events())
            if not over:
                assert not leaked_kinds(table.display.state["view"], hidden_from(game, None))

            # Blue's broker account (with blue's tablet key): no red topic, no red reveal, no hidden rank.
            hidden_red = hidden_from(game, Color.BLUE)
            for topic, data in read_as_blue(blue_account.taken(checked["account"]), as_blue):
                assert not any(e.get("type") == "reveal" and e.get("to") != "blue"
                               for e in data.get("events", []))
                assert over or not leaked_kinds(data, hidden_red), f"hidden red rank on {topic}"
            checked["account"] = len(blue_account.messages)
            # The broker admin: public payloads never carry a reveal or a hidden rank, and red's
            # envelopes are all the same size and do not open with blue's key.
            public_hidden = hidden_from(game, None)
            for topic, payload in admin.taken(checked["admin"]):
                if "/seat/red/" in topic:
                    assert len(payload) == crypto.ENVELOPE_SIZE
                    try:
                        as_blue.open(payload)
                    except crypto.CryptoError:
                        continue
                    raise AssertionError(f"blue's key opened {topic}")
                if "/seat/" in topic or "/pair/" in topic or topic.startswith("$"):
                    continue
                data = contract.decode_public(topic, payload)
                assert not any(e.get("type") == "reveal" for e in data.get("events", []))
                assert over or not leaked_kinds(data, public_hidden), f"hidden rank on public {topic}"
            checked["admin"] = len(admin.messages)

        if referee.session.phase == "playing":  # a long game: red resigns to end it
            command_id = table.red.resign()
            assert table.red.wait(lambda c: command_id in c.replies, 10)
        assert referee.session.phase == "over"
        print(f"{game.ply} plies, {seen}")
        # The game really exercised what is private in Espionage.
        assert seen["battles"] >= 5 and seen["reveals"]["red"] > 0 and seen["reveals"]["blue"] > 0
        assert seen["turns"] * 2 >= game.ply - 2, "two moves a turn: about one turn event per two moves"
    finally:
        blue_account.link.stop()
        admin.link.stop()
        table.close()
