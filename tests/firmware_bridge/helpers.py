"""Shared set-up for the referee tests: a referee and two paired tablets on a real broker."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

from engine import Color, get_variant, random_setup
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.broker import MOSQUITTO
from firmware_bridge.referee.service import Referee, RefereeSettings
from tests.system_packages import requires

requires_mosquitto = requires("mosquitto", os.access(MOSQUITTO, os.X_OK), "the real MQTT broker the tests start")


@dataclass
class Table:
    """A referee with both seats paired and a public display, all connected."""

    referee: Referee
    red: SeatClient
    blue: SeatClient
    display: DisplayClient

    def seat(self, color: str) -> SeatClient:
        return self.red if color == "red" else self.blue

    def close(self) -> None:
        for client in (self.red, self.blue, self.display):
            client.stop()
        self.referee.stop()


def pair_by_code(referee: Referee, client: SeatClient | DisplayClient, seat: str = "display",
                 timeout: float = 10.0) -> None:
    """Pair a tablet (or a display) the no-board way: the code the referee's console shows is typed."""
    codes: dict[str, str] = {}
    referee.on_pairing_code = lambda s, code: codes.__setitem__(s, code)
    assert client.link.connected.wait(timeout), "not connected to the broker"
    if isinstance(client, DisplayClient):
        client.pair()
    else:
        client.pair(seat)
    assert client.wait(lambda c: c.last_pairing is not None and c.last_pairing["status"] == "challenge", timeout)
    assert client.last_pairing["method"] == "code"
    client.send_code(codes[seat])
    assert client.wait(lambda c: c.paired, timeout), f"{seat} was not granted: {client.last_pairing}"
    referee.on_pairing_code = None


def start_table(url: str, journal_path, board: str = "b1", variant: str = "barrage",
                referee_url: str | None = None, client_ca_file: str | None = None, **settings) -> Table:
    """Start a referee and pair both seats by code; tablets and display connect to ``url``."""
    referee = Referee(RefereeSettings(board, journal_path, referee_url or url, variant=variant, **settings))
    assert referee.start()
    red = SeatClient(url, board, name="Anna", ca_file=client_ca_file)
    blue = SeatClient(url, board, name="Boris", ca_file=client_ca_file)
    display = DisplayClient(url, board, ca_file=client_ca_file)
    for client in (red, blue, display):
        assert client.start()
    pair_by_code(referee, red, "red")
    pair_by_code(referee, blue, "blue")
    pair_by_code(referee, display)
    return Table(referee, red, blue, display)


def setup_dict(variant: str, color: str, seed: int) -> dict[str, str]:
    """A random legal setup as the tablet sends it."""
    setup = random_setup(get_variant(variant), Color(color), random.Random(seed))
    return {square.name: kind for square, kind in setup.items()}


def submit_setups(table: Table, variant: str = "barrage", seed: int = 1) -> None:
    """Both seats submit a random setup; the game starts."""
    for color in ("red", "blue"):
        client = table.seat(color)
        command_id = client.setup(setup_dict(variant, color, seed))
        assert client.wait(lambda c, i=command_id: i in c.replies, 10)
        assert client.replies[command_id]["ok"], client.replies[command_id]
    for client in (table.red, table.blue):
        assert client.wait(lambda c: c.state is not None and c.state["phase"] == "playing", 10)


def wait_until(predicate, timeout: float = 10.0) -> bool:
    """Poll ``predicate()`` until it holds or ``timeout`` passes."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return bool(predicate())


def journal_sign_key(journal_path, timeout: float = 20.0) -> str:
    """The referee's signing key as its journal keeps it (for a display of a referee in another
    process: what a family would pair by code, a test reads off the journal)."""
    import sqlite3
    import time

    from firmware_bridge.protocol.signing import PublicSigner

    deadline = time.monotonic() + timeout
    while True:
        try:
            with sqlite3.connect(f"file:{journal_path}?mode=ro", uri=True) as db:
                row = db.execute("SELECT value FROM meta WHERE name = 'referee_signing_key'").fetchone()
            if row:
                return PublicSigner.from_text(row[0]).verify_key
        except sqlite3.Error:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"no signing key in {journal_path}")
        time.sleep(0.05)
