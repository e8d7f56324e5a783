"""Whether a seat's tablet is still there: its own sealed heartbeat, never a presence message.

Presence messages and last wills carry no signature a tablet could make, so anyone on the broker
could say "red is offline" and take red's seat without red's approval. Instead each paired
tablet sends, every few seconds, a heartbeat sealed like a command (only the seat's key makes one
that opens), numbered (an old one replayed is refused) and naming the referee's run (a heartbeat
of an earlier run is refused after a restart). A seat is online while its holder's heartbeats
come; it goes offline when the tablet says so (sealed, as it stops) or after ``window`` seconds
without one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.referee.table import GameTable

ALIVE_WINDOW = 12.0  # three heartbeats of a tablet (client.ALIVE_SECONDS) may go missing


@dataclass
class Beat:
    """The last heartbeat heard for one seat."""

    key: str
    client: str
    counter: int
    at: float


class Liveness:
    """The seats whose tablets are there, kept in the referee's ``online`` map (client -> role)."""

    def __init__(self, table: GameTable, online: dict[str, str], run: int, lock: threading.RLock,
                 changed: Callable[[], None], window: float = ALIVE_WINDOW,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.table, self.online, self.run, self.lock = table, online, run, lock
        self.changed, self.window, self.clock = changed, window, clock
        self.beats: dict[str, Beat] = {}
        self._clients: set[str] = set()  # the clients this put into ``online``
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def heard(self, seat: str, header: dict, body: dict) -> str | None:
        """A heartbeat that opened with the seat's key: None if taken, else why it is refused."""
        record = self.table.seats.get(seat)
        counter = header.get("alive")
        if record is None or not isinstance(counter, int) or isinstance(counter, bool):
            return "not a heartbeat of the seat's tablet"
        if header.get("run") != self.run or body.get("run") != self.run or body.get("seat") != seat:
            return "a heartbeat of another run of the referee"
        last = self.beats.get(seat)
        if last is not None and last.key == record.key and counter <= last.counter:
            return "an old heartbeat"
        was = self._here(seat)
        if body.get("online") is False:
            self.beats.pop(seat, None)
        else:
            self.beats[seat] = Beat(record.key, record.client, counter, self.clock())
        self._sync()
        if was != self._here(seat):
            self.changed()
        return None

    def _here(self, seat: str) -> bool:
        record = self.table.seats.get(seat)
        beat = self.beats.get(seat)
        return (record is not None and beat is not None and beat.key == record.key
                and self.clock() - beat.at <= self.window)

    def _sync(self) -> bool:
        """Make ``online`` say which holders are here; True if it changed."""
        for seat in [s for s in self.beats if not self._here(s)]:
            del self.beats[seat]
        here = {beat.client for beat in self.beats.values()}
        changed = False
        for client in self._clients - here:
            changed |= self.online.pop(client, None) is not None
        for client in here - set(self.online):
            self.online[client] = "seat"
            changed = True
        self._clients = here
        return changed

    def tick(self) -> None:
        """Seats whose heartbeat stopped go offline (under the referee's lock)."""
        with self.lock:
            if self._sync():
                self.changed()

    def start(self) -> None:
        """Check once a second on a thread of its own."""
        self._thread = threading.Thread(target=self._run, name="referee-liveness", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop checking."""
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop.wait(min(1.0, self.window / 4)):
            self.tick()
