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

import contextlib
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
        scratch = self.path.with_name(self.path.name + ".tmp")
        try:
            # Private from the start (created 0600), and whole or not at all: a reader never
            # sees half a beat. Few system calls: a hall runs a hundred of these a second.
            descriptor = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                os.write(descriptor, json.dumps({"at": now, "game": game, "seq": seq, "clock": clock}).encode())
            finally:
                os.close(descriptor)
            os.replace(scratch, self.path)
        except OSError as error:
            # A full disk is told through the journal; a lost heartbeat only makes away_s longer.
            log.debug("could not write the heartbeat: %s", error)
            with contextlib.suppress(OSError):
                scratch.unlink()
