"""Freshness: what makes a genuine but old referee message worthless to whoever replays it.

A signature proves who wrote a message, not when. So every message the referee signs or seals
carries a stamp: the board, the referee's ``run`` (a number the journal raises at every start)
and ``n`` (a number that grows with every message of that run), and for a game's messages the
``game``, its ``game_no`` (the journal's number of the game: it only grows, so an old game can
never pass for a new one) and ``seq``. A client keeps the newest stamp it has seen and drops
anything older, of another board or of an older game, retained copies included.

The referee's last will is signed before it is needed: each connection of a run gets a block of
numbers, and its will takes the last number of its block, so the will is newer than every
message of its connection and older than everything after the reconnect (a will replayed later
is old).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CONNECTION_BLOCK = 2 ** 32  # numbers of one connection of a run; the will takes the last
MAX_STAMP = 2 ** 53  # JSON numbers stay exact below this


@dataclass(order=True, frozen=True)
class Stamp:
    """Where a message stands in the referee's history: (run, n), compared in that order."""

    run: int
    n: int

    @classmethod
    def of(cls, payload: dict[str, Any]) -> Stamp | None:
        """The stamp a payload or header carries, or None when it carries none (or a bad one)."""
        run, n = payload.get("run"), payload.get("n")
        if not (isinstance(run, int) and isinstance(n, int)) or isinstance(run, bool) or isinstance(n, bool):
            return None
        if not (0 <= run < MAX_STAMP and 0 <= n < MAX_STAMP):
            return None
        return cls(run, n)


class StampCounter:
    """The referee's side: numbers its messages within one run (not thread safe: callers lock)."""

    def __init__(self, run: int) -> None:
        self.run = run
        self.connection = 0
        self._next = 0

    def next(self) -> dict[str, int]:
        """The stamp of the next message."""
        n = self._next
        self._next += 1
        if self._next >= (self.connection + 1) * CONNECTION_BLOCK - 1:
            self.reconnected()  # a block used up: move on as after a reconnect (its will is stale)
        return {"run": self.run, "n": n}

    def will(self) -> dict[str, int]:
        """The stamp of this connection's last will: after all of its messages."""
        return {"run": self.run, "n": (self.connection + 1) * CONNECTION_BLOCK - 1}

    def reconnected(self) -> None:
        """A new connection: its messages come after the last connection's will."""
        self.connection += 1
        self._next = self.connection * CONNECTION_BLOCK


@dataclass
class Freshness:
    """A client's side: the newest stamp per stream, and the newest game of the board.

    Streams that describe one thing share a floor: an event published before the snapshot a
    client holds is already in it, so ``state`` and ``events`` (and a seat's state and events)
    are one family. ``min_run`` is a floor kept across restarts (the credentials file).
    """

    board: str
    min_run: int = 0
    game_no: int = 0
    floors: dict[str, Stamp] = field(default_factory=dict)
    dropped: int = 0

    def forget(self) -> None:
        """Forget every floor and the run seen: the referee is another one (a new signing key)."""
        self.floors.clear()
        self.min_run = self.game_no = 0

    def accept(self, family: str, payload: dict[str, Any]) -> bool:
        """True (and remembered) if ``payload`` is newer than anything of ``family`` seen."""
        stamp = Stamp.of(payload)
        game_no = payload.get("game_no", self.game_no)  # only a game's messages carry one
        fresh = (stamp is not None and payload.get("board") == self.board and stamp.run >= self.min_run
                 and isinstance(game_no, int) and game_no >= self.game_no
                 and (family not in self.floors or stamp > self.floors[family]))
        if not fresh:
            self.dropped += 1
            return False
        assert stamp is not None
        self.floors[family] = stamp
        self.game_no = max(self.game_no, game_no)
        self.min_run = max(self.min_run, stamp.run)
        return True
