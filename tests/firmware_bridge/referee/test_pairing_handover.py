"""A third tablet for a held seat during a game needs the seat's tablet (or the console) to agree.

Passing the pairing challenge proves presence at the board, not the player's consent: while a
game is played the new tablet waits, the holder's tablet is shown its key fingerprint and may
approve it; until then the new tablet is refused the seat with a clear reason. The replaced
tablet is told it lost the seat and stops sending.
"""

from __future__ import annotations

import pytest

from firmware_bridge.protocol import contract, crypto, pake
from firmware_bridge.protocol.client import SeatClient
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.pairing import Request
from firmware_bridge.referee.pairing_service import PairingService
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.helpers import pair_by_code, start_table, submit_setups


def ask_for_seat(table, client: SeatClient, seat: str) -> None:
    """The new tablet asks for ``seat`` and types the code the console shows."""
    codes: dict[str, str] = {}
    table.referee.on_pairing_code = lambda s, code: codes.__setitem__(s, code)
    assert client.link.connected.wait(10)
    client.pair(seat)
    assert client.wait(lambda c: c.last_pairing is not None and c.last_pairing.get("method") == "code", 10)
    client.send_code(codes[seat])
    table.referee.on_pairing_code = None


def test_during_a_game_a_third_tablet_waits_for_the_holders_approval(embedded, tmp_path):
    table = start_table(embedded.url, tmp_path / "journal.db")
    third = SeatClient(embedded.url, "b1", name="Mallory")
    assert third.start()
    try:
        submit_setups(table)
        red_key = table.referee.session.seats["red"].key
        ask_for_seat(table, third, "red")
        # The code was right, but a game is played: the seat stays with red's tablet.
        assert third.wait(lambda c: c.last_pairing.get("method") == "approval", 10), third.last_pairing
        assert third.last_pairing["status"] == "challenge" and not third.paired
        assert "must approve" in third.last_pairing["message"]
        assert third.last_pairing["fingerprint"] == third.fingerprint
        assert table.referee.session.seats["red"].key == red_key
        # Red's tablet is shown who asks, by key fingerprint.
        assert table.red.wait(lambda c: c.pairing_request is not None, 10)
        assert table.red.pairing_request == {"fingerprint": third.fingerprint, "name": "Mallory"}
        assert table.blue.pairing_request is None
        # A wrong fingerprint is refused; the right one hands the seat over.
        wrong = table.red.approve_pairing("0000-0000-0000-0000")
        assert table.red.wait(lambda c: wrong in c.replies, 10)
        assert not table.red.replies[wrong]["ok"] and table.red.replies[wrong]["code"] == "refused"
        assert not third.paired
        approved = table.red.approve_pairing(third.fingerprint)
        assert table.red.wait(lambda c: approved in c.replies, 10)
        assert table.red.replies[approved]["ok"], table.red.replies[approved]
        assert third.wait(lambda c: c.paired and c.seat == "red", 10)
        # The replaced tablet is told, and sends nothing more in the seat's name.
        assert table.red.wait(lambda c: c.seat_lost == "red", 10)
        assert not table.red.paired and table.red.seat is None
        with pytest.raises(RuntimeError):
            table.red.resign()
        # The new tablet plays on.
        game = table.referee.session.game
        if game.to_move.value == "red":
            command_id = third.move(str(game.legal_moves()[0]))
            assert third.wait(lambda c: command_id in c.replies, 10)
            assert third.replies[command_id]["ok"], third.replies[command_id]
    finally:
        third.stop()
        table.close()


def test_the_referees_console_can_confirm_instead(embedded, tmp_path):
    table = start_table(embedded.url, tmp_path / "journal.db")
    third = SeatClient(embedded.url, "b1", name="Anna's new tablet")
    assert third.start()
    try:
        submit_setups(table)
        ask_for_seat(table, third, "blue")
        assert third.wait(lambda c: c.last_pairing.get("method") == "approval", 10)
        assert not table.referee.confirm_pairing("red"), "nobody waits for red"
        assert table.referee.confirm_pairing("blue")
        assert third.wait(lambda c: c.paired and c.seat == "blue", 10)
        assert table.blue.wait(lambda c: c.seat_lost == "blue", 10)
    finally:
        third.stop()
        table.close()


def test_before_the_game_a_new_tablet_takes_the_seat_at_once_and_the_old_one_is_told(embedded, tmp_path):
    table = start_table(embedded.url, tmp_path / "journal.db")
    third = SeatClient(embedded.url, "b1", name="spare")
    assert third.start()
    try:
        pair_by_code(table.referee, third, "red")
        assert table.referee.session.seats["red"].client == third.client_id
        assert table.red.wait(lambda c: c.seat_lost == "red", 10)
        assert not table.red.paired
    finally:
        third.stop()
        table.close()


def test_a_new_tablet_takes_the_seat_of_one_that_went_away(embedded, tmp_path):
    """The holder's tablet is gone (its battery died): nobody can approve, so the challenge,
    which proves presence at the board, is enough, as before a game."""
    table = start_table(embedded.url, tmp_path / "journal.db")
    spare = SeatClient(embedded.url, "b1", name="the spare tablet")
    assert spare.start()
    try:
        submit_setups(table)
        red_client = table.referee.session.seats["red"].client
        table.red.stop()  # says offline, as its last will would
        assert table.display.wait(lambda c: not c.state["seats"]["red"]["online"], 10)
        assert red_client not in table.referee.online
        ask_for_seat(table, spare, "red")
        assert spare.wait(lambda c: c.paired and c.seat == "red", 10), spare.last_pairing
    finally:
        spare.stop()
        table.close()


class Outbox:
    """What pairing sends, kept for the test (the MQTT outbox seals and publishes it)."""

    topics = contract.Topics("b1")
    run = 1

    def __init__(self) -> None:
        self.to_seats: list[tuple[str, str, dict]] = []
        self.to_tablets: list[tuple[str, dict]] = []
        self.pairings: list[tuple[str, dict]] = []

    def game_no(self, game):
        return 1

    def pairing(self, client, body):
        self.pairings.append((client, body))

    def to_seat(self, seat, kind, body, retain=False):
        self.to_seats.append((seat, kind, dict(body)))

    def to_tablet(self, client, tablet, body):
        self.to_tablets.append((client, body))


def test_an_approval_is_journalled_like_every_command_so_a_restart_keeps_its_counter(tmp_path):
    journal = Journal(tmp_path / "journal.db")
    session = Session(journal, "barrage")
    holder, newcomer = crypto.PrivateKey.generate(), crypto.PrivateKey.generate()
    session.pair("red", crypto.key_to_text(holder.public_key), "tab-red")
    outbox = Outbox()
    pairing = PairingService(session, outbox, crypto.PrivateKey.generate(), "sign-key",
                             online=lambda: {"tab-red": "seat"}, changed=lambda: None,
                             refuse=lambda *error: None)
    waiting = Request("tab-new", "red", crypto.key_to_text(newcomer.public_key), "asker", "new", "code")
    waiting.keys = pake.SessionKeys.derive(bytes(32), b"a", b"b")
    pairing.handover.wait(waiting)
    wrong = {"v": 1, "id": "approve-7", "seat": "red", "counter": 7, "type": "approve_pairing",
             "args": {"fingerprint": "0000-0000-0000-0000"}}
    pairing.approve("red", wrong)
    assert outbox.to_seats[-1][2]["code"] == "refused" and session.seats["red"].last_counter == 7
    pairing.approve("red", wrong)  # sent again: the same answer, nothing done twice
    assert outbox.to_seats[-1][2]["duplicate"] and outbox.to_seats[-1][2]["code"] == "refused"
    journal.close()
    again = Session(Journal(tmp_path / "journal.db"), "barrage")
    try:
        assert again.seats["red"].last_counter == 7, "the refused approval's counter survives a restart"
        _, owed = again.fresh("red", wrong)
        assert owed is not None and owed["duplicate"] and owed["code"] == "refused"
        right = {**wrong, "id": "approve-8", "counter": 8, "args": {"fingerprint": crypto.fingerprint(waiting.key)}}
        restarted = PairingService(again, outbox, crypto.PrivateKey.generate(), "sign-key",
                                   online=lambda: {"tab-red": "seat"}, changed=lambda: None,
                                   refuse=lambda *error: None)
        restarted.handover.wait(waiting)
        restarted.approve("red", right)
        assert again.seats["red"].key == waiting.key, "the right fingerprint hands the seat over"
    finally:
        again.journal.close()
