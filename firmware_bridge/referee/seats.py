"""The seats of a board: which tablet key holds each, its player's name and its command history."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.vocabulary import SeatSummary

REPLY_CACHE = 64  # replies kept per seat for resent commands


@dataclass
class Seat:
    """A seat's paired tablet and its command history."""

    key: str
    client: str
    name: str = ""
    last_counter: int = 0
    replies: OrderedDict[int, dict] = field(default_factory=OrderedDict)

    def remember(self, counter: int, reply: dict) -> None:
        """Keep the reply for a resent command; the counter only grows."""
        self.last_counter = max(self.last_counter, counter)
        self.replies[counter] = reply
        while len(self.replies) > REPLY_CACHE:
            self.replies.popitem(last=False)


def key_fingerprint(key: str) -> str | None:
    """The fingerprint of a seat's key text, or None if it is not a public key."""
    try:
        return crypto.fingerprint(key)
    except crypto.CryptoError:
        return None


def seats_summary(seats: dict[str, Seat], setup_ready: set[str], online: set[str]) -> dict[str, SeatSummary]:
    """Public facts about the seats: paired, online, setup submitted, player name, key fingerprint.

    The fingerprint of the granted tablet key lets the family compare it with the number the
    tablet shows for its own key: a key swapped in during pairing gives a different one.
    """
    return {s: {"paired": s in seats, "online": s in online, "setup_ready": s in setup_ready,
                "name": seats[s].name if s in seats else "",
                "key_fingerprint": key_fingerprint(seats[s].key) if s in seats else None}
            for s in contract.SEATS}
