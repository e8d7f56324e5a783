"""The pairing desk: pending requests for a seat (or a display's trust) and the limits on them.

A tablet asks with two keys of its own: the X25519 key the seat will be sealed to, and the
Ed25519 key (the "asker") it signs every pairing message with, so nobody else can use up its
tries or stand in its place. Without a board the referee shows a six-digit code for each request
on its console, beside the tablet's name and key fingerprint; with a board the tablet chooses two
empty squares and the player covers them. Either is the password of a SPAKE2 exchange
(protocol/pake.py): a stranger can only guess online, one guess per try.

Limits, none of which a stranger can turn against the player (all kept in the journal, so a
restart resets none of them):
- each request has ``TRIES`` tries (a typo or two), then it is void: its own tablet asks again;
- each asking key may open ``ASKER_REQUESTS`` requests per ``WINDOW_SECONDS``;
- each seat takes at most ``SEAT_ATTEMPTS`` tries per window from everyone together: past that,
  new requests wait (the answer says how long) while pending requests keep their tries;
- each seat keeps at most ``PER_SEAT`` pending requests: a new one past that waits, none is
  ever pushed out.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.errors import ArbiterError
from firmware_bridge.protocol import crypto, pake
from firmware_bridge.referee.journal import Journal, JournalError

TRIES = 3
CHALLENGE_SECONDS = 300.0
WINDOW_SECONDS = 600.0
ASKER_REQUESTS = 5
SEAT_ATTEMPTS = 30
PER_SEAT = 8
LIMITS_NOTE = "pairing_limits"


@dataclass
class Request:
    """One pending request for a seat, by one asking key."""

    client: str
    seat: str  # "red", "blue" or "display"
    key: str  # the tablet's X25519 key
    asker: str  # the Ed25519 key its pairing messages are signed with
    name: str
    method: str  # "code" or "squares"
    code: str | None = None
    tries_left: int = TRIES
    created: float = field(default_factory=time.monotonic)
    attempt: int = 0  # the tablet's attempt being answered
    tablet_message: str | None = None  # with squares: its SPAKE2 message, waiting for the board
    placements: set[frozenset[str]] = field(default_factory=set)  # squares already tried
    keys: pake.SessionKeys | None = None  # the last answer's keys, until the tablet confirms

    @property
    def fingerprint(self) -> str:
        """The fingerprint of the tablet's key, as the tablet shows it."""
        return crypto.fingerprint(self.key)

    def ids(self, board: str) -> pake.Identities:
        """The identities bound into this request's exchange."""
        return pake.Identities(board, self.seat, self.client, self.key, self.asker)

    def notice(self) -> dict[str, str]:
        """What the console and the display show of it (never the code)."""
        return {"seat": self.seat, "name": self.name, "fingerprint": self.fingerprint, "method": self.method}


class Refused(ArbiterError):
    """A request the desk does not take now; ``retry_after`` seconds, when waiting helps."""

    code = "refused"

    def __init__(self, message: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PairingLimits:
    """The rate limits, by asking key and by seat, kept in the journal across restarts."""

    def __init__(self, journal: Journal | None, clock: Callable[[], float] = time.time) -> None:
        self.journal, self.clock = journal, clock
        self.askers: dict[str, list[float]] = {}
        self.seats: dict[str, list[float]] = {}
        if journal is not None:
            try:
                saved = json.loads(journal.note(LIMITS_NOTE) or "{}")
                self.askers = {k: [float(t) for t in v] for k, v in saved.get("askers", {}).items()}
                self.seats = {k: [float(t) for t in v] for k, v in saved.get("seats", {}).items()}
            except (ValueError, TypeError, AttributeError):
                pass  # a note of another version: the limits start afresh
        self._prune()

    def _prune(self) -> None:
        since = self.clock() - WINDOW_SECONDS
        for table in (self.askers, self.seats):
            for name in list(table):
                table[name] = [t for t in table[name] if t > since]
                if not table[name]:
                    del table[name]

    def _wait(self, times: list[float], allowed: int) -> int:
        if len(times) < allowed:
            return 0
        return int(times[-allowed] + WINDOW_SECONDS - self.clock()) + 1

    def asker_wait(self, asker: str) -> int:
        """Seconds until ``asker`` may open another request (0: now)."""
        self._prune()
        return self._wait(self.askers.get(asker, []), ASKER_REQUESTS)

    def seat_wait(self, seat: str) -> int:
        """Seconds until ``seat`` takes new requests again (0: now)."""
        self._prune()
        return self._wait(self.seats.get(seat, []), SEAT_ATTEMPTS)

    def requested(self, asker: str) -> None:
        """Count a request opened by ``asker``."""
        self.askers.setdefault(asker, []).append(self.clock())
        self._save()

    def tried(self, seat: str) -> None:
        """Count a try (one guess of a password) for ``seat``."""
        self.seats.setdefault(seat, []).append(self.clock())
        self._save()

    def _save(self) -> None:
        self._prune()
        if self.journal is None:
            return
        # Storage trouble shows elsewhere; the limits hold in memory meanwhile.
        with contextlib.suppress(JournalError):
            self.journal.set_note(LIMITS_NOTE, json.dumps({"askers": self.askers, "seats": self.seats}))


class PairingDesk:
    """Pending requests, keyed by asking key, and the limits on them."""

    def __init__(self, journal: Journal | None = None, timeout: float = CHALLENGE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.timeout = timeout
        self.clock = clock
        self.pending: dict[str, Request] = {}
        self.limits = PairingLimits(journal, wall_clock)

    def request(self, client: str, seat: str, key: str, asker: str, name: str, method: str) -> Request:
        """Open a request (or return the same asker's open one); Refused when it must wait."""
        self.expire()
        held = self.pending.get(asker)
        if held is not None and (held.client, held.seat, held.key) == (client, seat, key):
            return held  # asked again (a reconnect): the same request, the same code
        if held is not None:
            raise Refused("this asking key already has a request open")
        wait = self.limits.asker_wait(asker)
        if wait:
            raise Refused("too many requests from this tablet: wait", wait)
        wait = self.limits.seat_wait(seat)
        if wait:
            raise Refused(f"too many wrong tries for the {seat} seat lately: wait", wait)
        if sum(1 for r in self.pending.values() if r.seat == seat) >= PER_SEAT:
            oldest = min(r.created for r in self.pending.values() if r.seat == seat)
            raise Refused(f"too many tablets are asking for the {seat} seat: wait",
                          int(oldest + self.timeout - self.clock()) + 1)
        code = f"{secrets.randbelow(10 ** 6):06d}" if method == "code" else None
        request = Request(client, seat, key, asker, name, method, code=code, created=self.clock())
        self.pending[asker] = request
        self.limits.requested(asker)
        return request

    def tried(self, request: Request) -> None:
        """One try of ``request``'s password was answered; a request without tries left is void."""
        request.tries_left -= 1
        self.limits.tried(request.seat)
        if request.tries_left <= 0 and request.keys is None:
            self.pending.pop(request.asker, None)

    def spent(self, request: Request) -> bool:
        """Whether ``request`` has no try left."""
        return request.tries_left <= 0

    def granted(self, request: Request) -> None:
        """One seat, one winner: every request for the same seat is void."""
        for asker in [a for a, r in self.pending.items() if r.seat == request.seat or a == request.asker]:
            del self.pending[asker]

    def notices(self) -> list[dict[str, str]]:
        """Every pending request as the console and display show it, oldest first."""
        self.expire()
        return [r.notice() for r in sorted(self.pending.values(), key=lambda r: r.created)]

    def expire(self) -> None:
        """Requests older than the timeout are void."""
        now = self.clock()
        for asker in [a for a, r in self.pending.items() if now - r.created > self.timeout]:
            del self.pending[asker]


class SeatHandover:
    """A held seat changes tablet during a game only when its current tablet (or the console) agrees.

    Whoever passes a pairing exchange proves they are at the table (they read the code on the
    console or covered the squares), not that the player agrees: while a game is played, a new
    tablet for a seat whose tablet is still there (its sealed heartbeat says so) waits here
    until the seat's tablet sends ``approve_pairing`` with the new key's fingerprint, or the
    referee's console confirms. Either way the replaced tablet is told it lost the seat.
    """

    def __init__(self) -> None:
        self.waiting: dict[str, Request] = {}  # seat -> the confirmed request awaiting approval

    @staticmethod
    def needs_approval(playing: bool, holder_key: str | None, request: Request) -> bool:
        """True if ``request`` takes a seat another key holds while a game is played."""
        return playing and holder_key is not None and holder_key != request.key

    def wait(self, request: Request) -> dict[str, str]:
        """Keep ``request`` until approved (a later one for the seat replaces it); what it is told."""
        self.waiting[request.seat] = request
        return {"fingerprint": request.fingerprint,
                "message": (f"A game is being played: the tablet holding the {request.seat} seat must "
                            f"approve this tablet (key {request.fingerprint}), or the referee's console confirms.")}

    def request(self, seat: str) -> dict | None:
        """What the seat's tablet is shown: the waiting tablet's fingerprint and name, or None."""
        request = self.waiting.get(seat)
        if request is None:
            return None
        return {"fingerprint": request.fingerprint, "name": request.name}

    def approve(self, seat: str, fingerprint: str | None) -> tuple[Request | None, str]:
        """(the request to grant, "") if ``fingerprint`` (None: the console) names the waiting one."""
        request = self.waiting.get(seat)
        if request is None:
            return None, f"no other tablet is waiting for the {seat} seat"
        if fingerprint is not None and not secrets.compare_digest(fingerprint.encode(), request.fingerprint.encode()):
            return None, "the waiting tablet has another key: compare the numbers again"
        del self.waiting[seat]
        return request, ""

    def clear(self) -> None:
        """The game is over: nobody waits any more (a new request is granted at once)."""
        self.waiting.clear()
