"""Time while the referee is down: clocks paused, nothing charged, and everybody told how long.

A running referee writes a small heartbeat file beside its journal about once a second: the wall
time, the game and ruling it is at, and the clocks as charged up to that moment. A referee that
starts again reads it:

* the clocks go on from the heartbeat (not from the last ruling), so the time a player spent
  thinking while the referee still ran is charged, and the time it was down is not: clocks were
  paused while nobody could see them run;
* ``away_s`` (start minus the last heartbeat, whole seconds) goes out in the public state as
  ``referee_back`` until the next ruling, so the tablets and the display can say "the referee
  was away 12 s; clocks were paused".

The heartbeat is a hint, not a record: a missing, torn or foreign one is ignored (the clocks then
go on from the last ruling's checkpoint in the journal, as before).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)
BEAT_EVERY_S = 1.0


def heartbeat_path(journal_path: str | Path) -> Path | None:
    """Where the heartbeat of a journal lives (None for an in-memory journal)."""
    text = str(journal_path)
    if not text or text == ":memory:" or text.startswith("file::memory:"):
        return None
    return Path(text + ".alive")


class Heartbeat:
    """Writes and reads the referee's last sign of life."""

    def __init__(self, journal_path: str | Path, every_s: float = BEAT_EVERY_S,
                 wall: Callable[[], float] = time.time) -> None:
        self.path = heartbeat_path(journal_path)
        self.every_s = every_s
        self.wall = wall
        self._last = 0.0

    def read(self) -> dict[str, Any] | None:
        """The last heartbeat written, or None (none yet, unreadable, or not ours)."""
        if self.path is None:
            return None
        try:
            beat = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(beat, dict) or not isinstance(beat.get("at"), int | float):
            return None
        return beat

    def away_s(self, beat: dict[str, Any] | None) -> int | None:
        """Whole seconds since ``beat`` (None without one)."""
        if beat is None:
            return None
        return max(0, round(self.wall() - float(beat["at"])))

    def due(self) -> bool:
        """True when the next heartbeat should be written."""
        return self.path is not None and self.wall() - self._last >= self.every_s

    def beat(self, game: str, seq: int, clock: dict | None) -> None:
        """Write a heartbeat now; never raises."""
        if self.path is None:
            return
        now = self._last = self.wall()
        record = json.dumps({"at": now, "game": game, "seq": seq, "clock": clock}).encode()
        try:
            # Over the last beat, in place: no scratch file renamed over it, since on ext4 a rename
            # over a file flushes its data to the disk at once (about a millisecond, and a write to
            # the SD card every second, next to the journal's fsync of each ruling). Spaces pad the
            # record (still JSON) to the file's length, so nothing of a longer beat is left over.
            # Nothing reads it while this referee runs, and a kill never stops a write halfway;
            # a beat torn by a power cut reads as no beat (see read()).
            descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                found = os.fstat(descriptor)
                if found.st_mode & 0o077:
                    os.fchmod(descriptor, 0o600)  # private, as the journal beside it
                size = found.st_size
                if size > len(record) + 4096:  # not a beat of ours: cut it back
                    os.ftruncate(descriptor, size := len(record))
                os.pwrite(descriptor, record.ljust(size), 0)
            finally:
                os.close(descriptor)
        except OSError as error:
            # A full disk is told through the journal; a lost heartbeat only makes away_s longer.
            log.debug("could not write the heartbeat: %s", error)
