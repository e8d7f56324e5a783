"""The referee's publishing pipeline: what goes to whom, in which order, after a ruling.

One pipeline for every way out: the MQTT link (mqtt_outbox.py: public payloads signed, a seat's
sealed to its tablet) and the app's in-process table (companion_app/demo/local_table.py) are
outboxes it writes to. After rulings: each ruling's public events, then each seat's redacted
events, then the public snapshot and every seat's snapshot. Publishing comes after the journal,
never before: the game table has committed every ruling it hands over.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from firmware_bridge.protocol import contract
from firmware_bridge.referee.rulings import Ruling
from firmware_bridge.referee.table import GameTable

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split

StatePart = Callable[[dict[str, Any]], None]  # adds its part to the public state (board check, ...)
SeatPart = Callable[[str, dict[str, Any]], None]  # adds its part to a seat's state
Follower = Callable[[list[Ruling]], list[Ruling]]  # hears rulings; returns the rulings it made


class Outbox(Protocol):
    """Where published messages go. Public kinds: info, presence, state, events, error; a seat's
    kinds: seat_state, seat_events, reply. An outbox validates a public body as it sends it, and
    drops a seat's message when no tablet holds the seat."""

    def public(self, kind: str, body: dict[str, Any], retain: bool = False) -> None:
        """Send a public message."""

    def to_seat(self, seat: str, kind: str, body: Mapping[str, Any], retain: bool = False) -> None:
        """Send a message only the seat's tablet may read."""


class Publisher:
    """Publishes a game table's rulings and snapshots through an outbox."""

    def __init__(self, table: GameTable, outbox: Outbox, board: str,
                 online: Callable[[], set[str]], state_parts: Iterable[StatePart] = (),
                 seat_parts: Iterable[SeatPart] = (), followers: Iterable[Follower] = (),
                 clocks: Callable[[], dict[str, Any] | None] | None = None) -> None:
        self.table, self.outbox, self.board = table, outbox, board
        self.online = online  # the seats whose tablet is online now
        self.state_parts = list(state_parts)
        self.seat_parts = list(seat_parts)
        self.followers = list(followers)
        self.clocks = clocks or table.clocks
        # seat -> (the key it was sealed to, the state): what each seat's tablet holds already
        self._seat_sent: dict[str, tuple[str | None, dict[str, Any]]] = {}

    def public_state(self) -> dict[str, Any]:
        """The public snapshot as it goes out: the table's, with every part added."""
        state = self.table.public_state(self.board, self.online())
        for part in self.state_parts:
            part(state)
        return state

    def seat_state(self, seat: str) -> dict[str, Any]:
        """One seat's snapshot as it goes out (to be sealed to that seat)."""
        state = dict(self.table.seat_state(seat))
        for part in self.seat_parts:
            part(seat, state)
        return state

    def snapshots(self, only_changed: bool = False) -> None:
        """The retained public snapshot, then every seat's.

        only_changed: leave out a seat's snapshot that its tablet already holds, word for word
        (a lift changes the public board check, never a seat's view). Republishing after a
        hello or a reconnect sends all of them.
        """
        self.outbox.public("state", self.public_state(), retain=True)
        for seat in contract.SEATS:
            state = self.seat_state(seat)
            holder = self.table.seats.get(seat)
            sent = (holder.key if holder else None, state)
            if only_changed and self._seat_sent.get(seat) == sent:
                continue
            self._seat_sent[seat] = sent
            self.outbox.to_seat(seat, "seat_state", state, retain=True)

    def rulings(self, rulings: list[Ruling]) -> None:
        """Announce rulings (and what the followers made of them), then the snapshots."""
        rulings = list(rulings)
        for follower in self.followers:
            rulings += follower(rulings)
        for ruling in rulings:
            # Public facts only: the log is no place for a hidden rank.
            summary = ", ".join(str(e.get("move") or e.get("type")) for e in ruling.public_events)
            log.info("ruling %d (%s): %s", ruling.seq, ruling.kind, summary,
                     extra={"board": self.board, "game": ruling.game, "seq": ruling.seq})
            self.outbox.public("events", {"v": 1, "game": ruling.game, "seq": ruling.seq,
                                          "events": ruling.public_events, "clocks": self.clocks(),
                                          "at": time.time()})
            for seat in contract.SEATS:
                self.outbox.to_seat(seat, "seat_events", contract.validate("seat_events", {
                    "v": 1, "seat": seat, "game": ruling.game, "seq": ruling.seq,
                    "events": ruling.seat_events[seat]}))
        if rulings:
            self.snapshots()

    def reply(self, seat: str, reply: Mapping[str, Any]) -> None:
        """The answer to a seat's command, to that seat alone."""
        self.outbox.to_seat(seat, "reply", reply)
