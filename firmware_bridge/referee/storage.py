"""Whether the journal takes writes: a refused write is said once, and so is its end.

While the journal refuses writes (a full disk, a card gone read-only) nothing is ruled; the
public state carries the problem so the table knows why, and it goes once a ruling is written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from firmware_bridge.referee.journal import JournalError

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split


class StorageWatch:
    """Whether the journal takes writes: a failure is said once (log and public state)."""

    def __init__(self, refresh: Callable[[], None]) -> None:
        self.refresh = refresh
        self.problem: dict[str, str] | None = None  # what keeps the referee from ruling

    def failed(self, error: JournalError) -> None:
        """The journal refused a write: say so once, to the log and in the public state."""
        problem = error.to_dict()
        if problem != self.problem:
            log.error("%s; nothing is ruled until the journal can be written again", error.message)
            self.problem = problem
            self.refresh()

    def works(self) -> None:
        """A ruling was journalled: a storage problem, if there was one, is over."""
        if self.problem is not None:
            log.warning("the journal can be written again; rulings go on")
            self.problem = None
            self.refresh()

    def state_part(self, state: dict) -> None:
        """The public state's ``problem``: what keeps the referee from ruling, or None."""
        state["problem"] = self.problem
