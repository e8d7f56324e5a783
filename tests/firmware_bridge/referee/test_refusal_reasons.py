"""A refused move reaches the tablets as a reason and its data (docs/mqtt.md "Refusal reasons"), so
each tablet says it in its player's language; a reason that tells a hidden rank reaches only its owner."""

from __future__ import annotations

from engine import Color, Move, Square
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.vocabulary import Command, EventType
from tests.firmware_bridge.referee.test_session import command
from tests.firmware_bridge.referee.test_session_single_writer import started


def test_a_refused_tablet_move_replies_with_its_reason_and_data(tmp_path):
    session = started(tmp_path)
    bomb = next(s for s, p in session.game.pieces() if p.color is Color.RED and p.kind == "bomb")
    reply, _ = session.execute("red", command("red", 5, Command.MOVE, move=f"{bomb.name}-{bomb.name[0]}{bomb.rank + 2}"))
    assert not reply["ok"] and reply["code"] == "illegal"
    assert (reply["reason"], reply["data"]) == ("immobile", {"square": bomb.name, "kind": "bomb"})
    assert reply["message"].startswith("movement: the bomb on ")  # the English stays for old tablets
    assert contract.validate("reply", dict(reply)) == reply


def test_a_refusal_on_the_board_names_the_piece_to_its_owner_only(tmp_path):
    session = started(tmp_path)
    bomb = next(s for s, p in session.game.pieces() if p.color is Color.RED and p.kind == "bomb")
    ruling = session.board_move(Move(bomb, Square(bomb.file, bomb.rank + 1)))
    assert ruling.kind == EventType.REFUSAL
    owner, other, public = ruling.seat_events["red"][0], ruling.seat_events["blue"][0], ruling.public_events[0]
    assert (owner["reason"], owner["data"]) == ("immobile", {"square": bomb.name, "kind": "bomb"})
    assert (other["reason"], other["data"]) == ("", {}) and (public["reason"], public["data"]) == ("", {})
