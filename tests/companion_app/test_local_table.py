"""The app's in-process table rules with the referee's own session and publishes what it publishes.

No Kivy here: each link's messages are recorded as the app would receive them.
"""

from __future__ import annotations

import random

import pytest

from companion_app.demo.local_table import LocalLink, LocalTable
from engine import Color, Square, random_setup
from firmware_bridge.referee.publishing import Publisher


class Tablet:
    """A link to the table and every (kind, payload) message it delivered, in order."""

    def __init__(self, table: LocalTable, seat: str | None) -> None:
        self.messages: list[tuple[str, dict]] = []
        self.link = LocalLink(table, seat)
        self.link.open(lambda kind, payload: self.messages.append((kind, payload)))

    def events(self, kind: str | None = None) -> list[dict]:
        return [p for k, p in self.messages if k == "event" and (kind is None or p["type"] == kind)]

    def clear(self) -> None:
        self.messages.clear()


@pytest.fixture
def playing():
    """A classic game between two tablets, watched by a referee display."""
    table = LocalTable("classic", seed=3)
    red, blue, display = Tablet(table, "red"), Tablet(table, "blue"), Tablet(table, None)
    rng = random.Random(4)
    for tablet in (red, blue):
        setup = random_setup(table.variant, Color(tablet.link.seat), rng)
        tablet.link.send("setup", {"setup": {square.name: kind for square, kind in setup.items()}})
    assert table.game is not None
    return table, red, blue, display


def _bomb_move(table: LocalTable, color: str) -> str:
    """A move of one of `color`'s bombs onto a free square beside it."""
    game = table.game
    for square, piece in game.pieces():
        if piece.color.value == color and piece.kind == "bomb":
            for rank in (square.rank + 1, square.rank - 1):
                target = Square(square.file, rank)
                if 0 <= rank < game.variant.height and target not in game.blocked \
                        and game.piece_at(target) is None:
                    return f"{square.name}-{target.name}"
    raise AssertionError("no bomb with a free square beside it")


def test_a_refused_board_move_names_the_piece_only_to_its_owner(playing):
    table, red, blue, display = playing
    move = _bomb_move(table, "red")
    origin = move.split("-")[0]
    for tablet in (red, blue, display):
        tablet.clear()
    answer = table.play(move)
    assert answer["ok"] is False and answer["code"] == "illegal"
    (to_red,), (to_blue,), (to_public,) = (t.events("refusal") for t in (red, blue, display))
    assert to_red["message"] == f"the bomb on {origin} cannot move"
    # Blue and the public only learn that the piece cannot go there, not that it is a bomb.
    for heard in (to_blue, to_public):
        assert heard["move"] == move and heard["color"] == "red"
        assert "bomb" not in heard["message"]
    assert table.game.ply == 0


def test_a_draw_offered_by_both_players_is_agreed(playing):
    table, red, blue, _ = playing
    red.link.send("draw_offer")
    blue.link.send("draw_offer")  # Blue offers too instead of answering: that is an agreement
    assert table.game.result is not None and table.game.result.reason == "agreement"
    assert blue.link.replies[-1]["ok"] is True
    assert [e["color"] for e in blue.events("draw_offer")] == ["red"]
    for tablet in (red, blue):
        (end,) = tablet.events("game_end")
        assert end["winner"] is None


def test_every_ruling_is_announced_as_events_before_the_new_snapshot(playing):
    table, red, blue, display = playing
    move = str(random.Random(5).choice(table.game.legal_moves()))
    for tablet in (red, blue, display):
        tablet.clear()
    assert table.play(move) == {"ok": True}
    for tablet in (red, blue, display):
        kinds = [k for k, _ in tablet.messages]
        assert "event" in kinds and "view" in kinds, kinds
        # The ruling's events come first, then the view after the move (the service's order).
        assert kinds.index("event") < kinds.index("view")
        assert [e["move"] for e in tablet.events("move")] == [move]
        view = next(p for k, p in tablet.messages if k == "view")
        assert view["ply"] == 1


def test_a_tablet_command_is_ruled_and_journalled_by_the_session(playing):
    table, red, _, _ = playing
    move = str(random.Random(6).choice(table.game.legal_moves()))
    red.link.send("move", {"move": move})
    assert red.link.replies[-1]["ok"] is True
    kinds = [entry.kind for entry in table.journal.entries()]
    assert kinds[-2:] == ["move", "reply"]  # one transaction: the ruling and its answer
    # A second move of Red's is refused by the session's turn check, and nothing changes.
    red.link.send("move", {"move": move})
    assert red.link.replies[-1]["code"] == "not-your-turn"
    assert table.game.ply == 1


def test_a_takeback_leaves_a_board_check_with_the_squares_to_put_right(playing):
    table, red, blue, _ = playing
    move = str(random.Random(7).choice(table.game.legal_moves()))
    table.play(move)
    red.link.send("takeback_request")
    blue.link.send("takeback_answer", {"accept": True})
    assert table.game.ply == 0
    origin, target = move.split("-")
    assert table.board_check["matches"] is False
    assert table.board_check["clear"] == [target] and table.board_check["fill"] == [origin]
    # The next move on the board shows the position again.
    table.play(move)
    assert table.board_check is None


class Recorder:
    """An outbox that keeps what the publisher sends, as (audience, kind)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def public(self, kind, body, retain=False):
        self.sent.append(("public", kind))

    def to_seat(self, seat, kind, body, retain=False):
        self.sent.append((seat, kind))


def test_the_table_publishes_through_the_referees_own_publisher_in_its_order():
    table = LocalTable("classic", seed=3)
    assert type(table.publisher) is Publisher, "one pipeline for MQTT and the in-process table"
    recorder = Recorder()
    table.publisher.outbox = recorder
    for seat in ("red", "blue"):
        table.session.pair(seat, f"local-{seat}", f"local-{seat}", seat)
    setup = {square.name: kind for square, kind in random_setup(table.variant, Color.RED, random.Random(1)).items()}
    table.command("red", "setup", {"setup": setup})
    # The ruling's events (public, then each seat's), then every snapshot, then the reply.
    assert recorder.sent == [("public", "events"), ("red", "seat_events"), ("blue", "seat_events"),
                             ("public", "state"), ("red", "seat_state"), ("blue", "seat_state"),
                             ("red", "reply")]
