"""The referee's log of refused messages: one line per kind of junk, then counts, never a line each.

Anyone on an open broker can send the referee junk, and a flood of it must neither fill the log
nor make the referee answer every message. The first refusal of each (topic kind, error code) is
logged with its reason; later ones are only counted, and a summary line gives the counts at most
once a minute (and at stop). The error message on the ``errors`` topic, which helps a client's
developer, is likewise limited to a few a second for each kind.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable

from firmware_bridge.protocol import contract

log = logging.getLogger("firmware_bridge.referee.service")
SUMMARY_SECONDS = 60.0
ERRORS_PER_SECOND = 5  # published error messages, per kind of junk


def topic_kind(topic: str) -> str:
    """The contract kind of a topic ("seat_cmd", "hello", ...), "foreign" if it is none."""
    try:
        return contract.parse_topic(topic)[1]
    except contract.ContractError:
        return "foreign"


class RefusalLog:
    """Counts refused messages by (topic kind, code); logs the first of each and periodic sums."""

    def __init__(self, summary_seconds: float = SUMMARY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.summary_seconds = summary_seconds
        self.clock = clock
        self.total: Counter[tuple[str, str]] = Counter()  # every refusal since start
        self._unreported: Counter[tuple[str, str]] = Counter()  # since the last summary
        self._summary_at = clock()
        self._second = 0.0
        self._published: Counter[tuple[str, str]] = Counter()  # error messages in this second
        # Refusals come from the broker's thread and the referee's; whoever reads the count
        # must find every refusal it counts already logged.
        self._lock = threading.RLock()  # a log handler may read the count

    def note(self, topic: str, code: str, message: str) -> bool:
        """Count one refusal; True if its error message should still be published."""
        key = (topic_kind(topic), code)
        with self._lock:
            now = self.clock()
            if key not in self.total:  # logged before it is counted, so a counted refusal is logged
                log.info("refused a message on %s: %s (%s); more of this kind are only counted",
                         topic, message[:200], code)
            else:
                self._unreported[key] += 1
            self.total[key] += 1
            if now - self._summary_at >= self.summary_seconds:
                self._flush()
            if now - self._second >= 1.0:
                self._second, self._published = now, Counter()
            self._published[key] += 1
            return self._published[key] <= ERRORS_PER_SECOND

    def flush(self) -> None:
        """Log the counts not yet reported (one line), if any."""
        with self._lock:
            self._flush()

    def _flush(self) -> None:
        self._summary_at = self.clock()
        if not self._unreported:
            return
        counts = ", ".join(f"{kind} {code}: {n}" for (kind, code), n in sorted(self._unreported.items()))
        log.warning("refused %d more messages (%s)", sum(self._unreported.values()), counts)
        self._unreported = Counter()

    @property
    def count(self) -> int:
        """How many messages were refused since start."""
        with self._lock:
            return sum(self.total.values())
