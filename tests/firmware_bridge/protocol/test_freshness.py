"""Freshness: a client keeps the newest stamp per family and drops anything older or foreign."""

from firmware_bridge.protocol.freshness import CONNECTION_BLOCK, Freshness, Stamp, StampCounter


def stamped(run: int, n: int, board: str = "b1", **more) -> dict:
    return {"board": board, "run": run, "n": n, **more}


def test_older_repeated_foreign_or_unstamped_messages_are_dropped():
    fresh = Freshness("b1")
    assert fresh.accept("public", stamped(2, 10, game_no=5))
    assert not fresh.accept("public", stamped(2, 10, game_no=5)), "the same message again"
    assert not fresh.accept("public", stamped(2, 9, game_no=5)), "an older one"
    assert not fresh.accept("public", stamped(1, 99, game_no=5)), "one of an earlier run"
    assert not fresh.accept("public", stamped(2, 11, board="b2", game_no=5)), "another board's"
    assert not fresh.accept("public", stamped(2, 12, game_no=4)), "an older game's"
    assert not fresh.accept("public", {"board": "b1"}), "no stamp"
    assert fresh.accept("public", stamped(3, 0, game_no=6)), "the next run's first message"


def test_families_keep_their_own_floors_but_share_the_game_and_run():
    fresh = Freshness("b1")
    assert fresh.accept("public", stamped(1, 20, game_no=7))
    assert fresh.accept("presence", stamped(1, 5))
    assert not fresh.accept("seat", stamped(1, 30, game_no=6))


def test_a_wills_stamp_lies_between_its_connection_and_the_next():
    counter = StampCounter(run=4)
    online = Stamp(**counter.next())
    will = Stamp(**counter.will())
    counter.reconnected()
    after = Stamp(**counter.next())
    assert online < will < after and after.n == CONNECTION_BLOCK
