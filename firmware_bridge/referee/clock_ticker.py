"""The clock ticker: a thread that lets a game table's clocks run out and writes the heartbeat.

Every tick (under the referee's lock) the table is asked whether a clock ran out (then its
ruling is announced) and the heartbeat (downtime.py) is written when due, so a restarted
referee knows how long it was away. The heartbeat's file is written after the lock is let go
(a slow disk holds up no move), and a game without time control, where no flag can fall, is
ticked only when its heartbeat is due: a hall of referees in one process wakes ten times less.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from firmware_bridge.referee.downtime import Heartbeat
from firmware_bridge.referee.journal import JournalError
from firmware_bridge.referee.rulings import Ruling
from firmware_bridge.referee.storage import StorageWatch
from firmware_bridge.referee.table import GameTable

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split


class ClockTicker:
    """Ticks a game table's clocks on a thread of its own."""

    def __init__(self, table: GameTable, lock: threading.RLock, heartbeat: Heartbeat,
                 announce: Callable[[list[Ruling]], None], storage: StorageWatch,
                 period: float = 0.1) -> None:
        self.table, self.lock, self.heartbeat = table, lock, heartbeat
        self.announce, self.storage, self.period = announce, storage, period
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.wait_s = period  # seconds until the next tick

    def start(self) -> None:
        """Tick every ``period`` seconds until stopped."""
        self._thread = threading.Thread(target=self._run, name="referee-clock", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop ticking (waits for the tick under way)."""
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)

    @property
    def alive(self) -> bool:
        """Whether the ticker thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.wait(self.wait_s):
            self.tick()

    def tick(self) -> None:
        """One tick: a fallen flag is ruled and announced; the heartbeat is written when due."""
        beat = None
        with self.lock:
            try:
                ruling = self.table.tick()
            except JournalError as error:
                self.storage.failed(error)
                return
            except Exception:
                log.exception("clock tick failed")
                return
            if ruling:
                self.announce([ruling])
            if self.heartbeat.due():
                beat = (self.table.game_id, self.table.seq, self.table.clock_checkpoint())
            # A new game with time control comes from a ruling, long before its first flag can fall.
            timed = self.table.clocks() is not None
        if beat is not None:
            self.heartbeat.beat(*beat)
        self.wait_s = self.period if timed else max(self.period, self.heartbeat.every_s)
