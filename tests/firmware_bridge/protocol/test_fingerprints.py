"""Key fingerprints: the referee display shows the key it granted, the tablet its own; they must agree."""

from __future__ import annotations

import re

import pytest
from nacl.public import PrivateKey

from firmware_bridge.protocol import crypto
from firmware_bridge.protocol.client import SeatClient
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.helpers import pair_by_code, requires_mosquitto, start_table, wait_until

FINGERPRINT = re.compile(r"^\d{4}-\d{4}-\d{4}-\d{4}$")


def test_a_fingerprint_is_sixteen_digits_in_four_groups_and_the_same_for_text_and_key():
    key = PrivateKey.generate().public_key
    assert FINGERPRINT.match(crypto.fingerprint(key))
    assert crypto.fingerprint(crypto.key_to_text(key)) == crypto.fingerprint(key)
    assert crypto.fingerprint(PrivateKey.generate().public_key) != crypto.fingerprint(key)


def test_a_paired_seat_shows_its_key_fingerprint_and_an_unpaired_one_none(tmp_path):
    session = Session(Journal(tmp_path / "journal.db"))
    key = PrivateKey.generate().public_key
    session.pair("red", crypto.key_to_text(key), "tablet-1", "Anna")
    seats = session.seats_summary(online=set())
    assert seats["red"]["key_fingerprint"] == crypto.fingerprint(key)
    assert seats["blue"]["key_fingerprint"] is None


def test_a_journaled_key_that_is_no_public_key_has_no_fingerprint_and_breaks_nothing(tmp_path):
    session = Session(Journal(tmp_path / "journal.db"))
    session.pair("red", "r" * 44, "tablet-1")
    assert session.seats_summary(online=set())["red"]["key_fingerprint"] is None


@pytest.fixture
def table(mosquitto, tmp_path):
    table = start_table(mosquitto.url, tmp_path / "journal.db")
    yield table
    table.close()


def public_fingerprint(client, seat: str) -> str | None:
    """The fingerprint the public state shows for ``seat`` (what the referee display prints)."""
    state = client.state if not isinstance(client, SeatClient) else client.public_state
    return state["seats"][seat]["key_fingerprint"] if state else None


@requires_mosquitto
def test_the_display_shows_for_each_seat_the_fingerprint_its_tablet_shows(table):
    for seat, tablet in (("red", table.red), ("blue", table.blue)):
        assert wait_until(lambda s=seat, t=tablet: public_fingerprint(table.display, s) == t.fingerprint)
        assert wait_until(lambda s=seat, t=tablet: public_fingerprint(t, s) == t.fingerprint)
    assert table.red.fingerprint != table.blue.fingerprint


@requires_mosquitto
def test_pairing_another_tablet_changes_the_seat_fingerprint(table, mosquitto):
    before = table.red.fingerprint
    assert wait_until(lambda: public_fingerprint(table.display, "red") == before)
    replacement = SeatClient(mosquitto.url, table.referee.topics.board, name="Anna's new tablet")
    try:
        assert replacement.start()
        pair_by_code(table.referee, replacement, "red")
        assert replacement.fingerprint != before
        assert wait_until(lambda: public_fingerprint(table.display, "red") == replacement.fingerprint)
        assert public_fingerprint(table.display, "blue") == table.blue.fingerprint
    finally:
        replacement.stop()
