"""Seats that a stranger cannot free, lock or crowd out.

Issue 19's third and fourth attacks, by a stranger on the anonymous broker: one forged "offline"
presence for red let a tablet that had the code take red in the middle of a game without red's
approval (and read all 40 red ranks); ten wrong codes locked the red seat for ten minutes, so the
player's right code was refused; sixteen anonymous requests pushed the player's pending request
out. Now whether a holder is there comes from its own sealed heartbeat, wrong tries count against
the asking key's own request, and a full desk refuses newcomers instead of pushing anyone out.
"""

from __future__ import annotations

from firmware_bridge.protocol import contract
from firmware_bridge.protocol.client import SeatClient
from tests.firmware_bridge.attackers import Stranger
from tests.firmware_bridge.helpers import start_table, submit_setups, wait_until


def ask_by_code(table, client: SeatClient, seat: str, codes: dict[str, list[str]]) -> None:
    """The tablet asks for ``seat``; the referee's console shows a code (kept in ``codes``)."""
    table.referee.on_pairing_code = lambda s, code: codes.setdefault(s, []).append(code)
    assert client.link.connected.wait(10)
    before = len(codes.get(seat, []))
    client.pair(seat)
    assert client.wait(lambda c: (c.last_pairing or {}).get("method") == "code", 10), client.last_pairing
    assert wait_until(lambda: len(codes.get(seat, [])) > before)


def wrong(code: str) -> str:
    return "000000" if code != "000000" else "111111"


def test_a_forged_offline_presence_does_not_let_another_tablet_take_a_held_seat(broker_url, tmp_path):
    table = start_table(broker_url, tmp_path / "journal.db")
    stranger = Stranger(broker_url)
    intruder = SeatClient(broker_url, "b1", name="Mallory")
    assert intruder.start()
    try:
        submit_setups(table)
        red_key = table.referee.session.seats["red"].key
        # The stranger says red's tablet went away (its client id is public), retained.
        offline = contract.encode("presence", {"v": 1, "client": table.red.client_id, "role": "seat",
                                               "online": False})
        stranger.replay(table.referee.topics.presence(table.red.client_id), offline, retain=True)
        codes: dict[str, list[str]] = {}
        ask_by_code(table, intruder, "red", codes)
        intruder.send_code(codes["red"][-1])
        # The code was right, but red's tablet is there: it must approve, and it did not.
        assert intruder.wait(lambda c: (c.last_pairing or {}).get("method") == "approval", 10), \
            intruder.last_pairing
        assert not intruder.paired and table.referee.session.seats["red"].key == red_key
        assert table.red.wait(lambda c: c.pairing_request is not None, 10)
        assert table.display.state["seats"]["red"]["online"]
        assert table.red.paired and table.red.seat == "red"
    finally:
        intruder.stop()
        stranger.stop()
        table.close()


def test_a_flood_of_wrong_codes_does_not_lock_the_player_out(broker_url, tmp_path):
    table = start_table(broker_url, tmp_path / "journal.db")
    player = SeatClient(broker_url, "b1", name="Anna's new tablet")
    stranger = SeatClient(broker_url, "b1", name="stranger")
    for client in (player, stranger):
        assert client.start()
    try:
        codes: dict[str, list[str]] = {}
        ask_by_code(table, player, "blue", codes)
        players_code = codes["blue"][-1]
        answers: list[dict] = []
        stranger.on_pairing = answers.append
        for guess in range(12):  # the flood: twelve wrong codes, each answered
            if guess % 3 == 0:
                ask_by_code(table, stranger, "blue", codes)
            heard = len(answers)
            stranger.send_code(wrong(codes["blue"][-1]))
            assert wait_until(lambda h=heard: len(answers) > h), "a wrong code got no answer"
        assert not stranger.paired
        player.send_code(players_code)
        assert player.wait(lambda c: c.paired and c.seat == "blue", 10), \
            f"the player's right code was refused: {player.last_pairing}"
        # And a tablet asking only now still gets a code, and the seat with it.
        late = SeatClient(broker_url, "b1", name="Boris")
        assert late.start()
        try:
            ask_by_code(table, late, "red", codes)
            late.send_code(codes["red"][-1])
            assert late.wait(lambda c: c.paired, 10), late.last_pairing
        finally:
            late.stop()
    finally:
        for client in (player, stranger):
            client.stop()
        table.close()


def test_a_flood_of_requests_does_not_push_the_players_pending_request_out(broker_url, tmp_path):
    table = start_table(broker_url, tmp_path / "journal.db")
    player = SeatClient(broker_url, "b1", name="Anna")
    crowd = [SeatClient(broker_url, "b1", name=f"stranger {i}") for i in range(18)]
    try:
        for client in (player, *crowd):
            assert client.start()
        codes: dict[str, list[str]] = {}
        ask_by_code(table, player, "red", codes)
        players_code = codes["red"][-1]
        for client in crowd:
            client.pair("red")
        assert wait_until(lambda: all(c.last_pairing is not None for c in crowd)), "the crowd got no answer"
        # The console lists the player's request among a bounded few, each by name and key.
        assert len(set(codes["red"])) <= 9, codes["red"]
        player.send_code(players_code)
        assert player.wait(lambda c: c.paired and c.seat == "red", 10), \
            f"the player's pending request was pushed out: {player.last_pairing}"
    finally:
        for client in (player, *crowd):
            client.stop()
        table.close()
