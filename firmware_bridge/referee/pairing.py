"""Pairing proves presence at the board: a tablet gets a seat by putting a piece where told.

A tablet asks for a seat with a fresh public key. The referee names a random empty square (on
the middle rows when it can, so no setup is disturbed); the seat is granted when the sensors
see a piece there. Without a board the referee shows a short numeric code on its own console
(never over MQTT), and the tablet sends it back encrypted. Wrong codes use up a small number of
tries, so nobody can guess one through the broker.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.protocol import crypto


class Reason(str):
    """Why a pairing step failed: the English sentence, with a stable key and its data beside it
    (the pair_reply's ``reason``/``data``) so the tablet says it in its own language."""

    key: str
    data: dict

    def __new__(cls, sentence: str, key: str, **data: object) -> Reason:
        reason = super().__new__(cls, sentence)
        reason.key, reason.data = key, dict(data)
        return reason


CODE_DIGITS = 6
CODE_TRIES = 5
CHALLENGE_SECONDS = 300.0
MAX_PENDING = 16  # a flood of requests through the broker cannot grow the desk without bound
# Asking again gives a new code with fresh tries, so wrong codes are also counted per seat: past
# this many in the window, codes for that seat are refused until the window has passed.
SEAT_WRONG_CODES = 10
SEAT_WINDOW_SECONDS = 600.0


@dataclass
class Challenge:
    """One pending request for a seat."""

    client: str
    seat: str
    key: str
    name: str
    method: str  # "square" or "code"
    square: str | None = None
    code: str | None = None
    tries_left: int = CODE_TRIES
    created: float = field(default_factory=time.monotonic)

    def reply(self) -> dict:
        """The pair_reply payload that tells the tablet what to do (never holds the code)."""
        body = {"v": 1, "status": "challenge", "seat": self.seat, "method": self.method}
        if self.method == "square":
            body["square"] = self.square
            body["message"] = f"Place any piece on {self.square} to take the {self.seat} seat."
        else:
            body["message"] = "Type the code shown by the referee."
        return body


class PairingDesk:
    """Pending challenges, keyed by client id."""

    def __init__(self, timeout: float = CHALLENGE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.timeout = timeout
        self.clock = clock
        self.pending: dict[str, Challenge] = {}
        self.wrong_codes: dict[str, list[float]] = {}  # seat -> when each wrong code came

    def seat_locked(self, seat: str) -> float:
        """Seconds until codes for ``seat`` are taken again (0: they are taken now)."""
        now = self.clock()
        recent = [at for at in self.wrong_codes.get(seat, []) if now - at < SEAT_WINDOW_SECONDS]
        self.wrong_codes[seat] = recent
        if len(recent) < SEAT_WRONG_CODES:
            return 0.0
        return SEAT_WINDOW_SECONDS - (now - recent[-SEAT_WRONG_CODES])

    def request(self, client: str, seat: str, key: str, name: str,
                empty_squares: list[str] | None, preferred: set[str] | None = None) -> Challenge:
        """Open a challenge; ``empty_squares`` is None when no board is attached."""
        self._expire()
        held = self.pending.get(client)
        if held and (held.seat, held.key) == (seat, key):
            return held  # the same tablet asking again (e.g. after a reconnect): same challenge
        # Each pending challenge its own square: one piece put down must not pair a second tablet
        # (someone else's request that happened to get the same square).
        free = [s for s in empty_squares or () if s not in self.squares_in_use()] or empty_squares
        if free:
            choices = [s for s in free if preferred and s in preferred] or free
            challenge = Challenge(client, seat, key, name, "square",
                                  square=choices[secrets.randbelow(len(choices))],
                                  created=self.clock())
        else:
            code = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"
            challenge = Challenge(client, seat, key, name, "code", code=code, created=self.clock())
        self.pending[client] = challenge
        while len(self.pending) > MAX_PENDING:
            del self.pending[next(iter(self.pending))]  # the oldest request goes first
        return challenge

    def placed(self, occupied: frozenset[str] | set[str]) -> list[Challenge]:
        """Challenges fulfilled by a piece now standing on their square (removed from pending)."""
        self._expire()
        done = [c for c in self.pending.values() if c.method == "square" and c.square in occupied]
        for challenge in done:
            self._grant(challenge)
        return done

    def code_entered(self, client: str, code: str) -> tuple[Challenge | None, str]:
        """(challenge, "") when the code is right; (None, reason: a Reason) otherwise."""
        self._expire()
        challenge = self.pending.get(client)
        if challenge is None or challenge.method != "code":
            return None, Reason("no code was asked of this tablet (or it expired)", "no-code")
        wait = self.seat_locked(challenge.seat)
        if wait:
            del self.pending[client]
            minutes = int(wait // 60) + 1
            return None, Reason(f"too many wrong codes for the {challenge.seat} seat: try again in "
                                f"{minutes} min", "seat-locked", minutes=minutes)
        if secrets.compare_digest(code, challenge.code or ""):
            self._grant(challenge)
            return challenge, ""
        self.wrong_codes.setdefault(challenge.seat, []).append(self.clock())
        challenge.tries_left -= 1
        if challenge.tries_left <= 0:
            del self.pending[client]
            return None, Reason("too many wrong codes: ask for the seat again", "too-many-codes")
        return None, Reason(f"wrong code ({challenge.tries_left} tries left)", "wrong-code",
                            tries_left=challenge.tries_left)

    def squares_in_use(self) -> set[str]:
        """Squares that pending challenges wait on (the referee ignores them for moves)."""
        return {c.square for c in self.pending.values() if c.square}

    def _grant(self, challenge: Challenge) -> None:
        # One seat, one winner: the other requests for the same seat are void.
        for client in [k for k, c in self.pending.items() if c.seat == challenge.seat]:
            del self.pending[client]

    def _expire(self) -> None:
        now = self.clock()
        for client in [k for k, c in self.pending.items() if now - c.created > self.timeout]:
            del self.pending[client]


class SeatHandover:
    """A held seat changes tablet during a game only when its current tablet (or the console) agrees.

    Whoever passes a pairing challenge (a piece on a square, a code from the console) proves they
    are at the board, not that the player agrees: while a game is played, a new tablet for a held
    seat waits here until the seat's tablet sends ``approve_pairing`` with the new key's
    fingerprint (or the referee's console confirms). Outside a game a new pairing is granted at
    once, as before. Either way the replaced tablet is told it lost the seat.
    """

    def __init__(self) -> None:
        self.waiting: dict[str, Challenge] = {}  # seat -> the fulfilled challenge awaiting approval

    @staticmethod
    def needs_approval(playing: bool, holder_key: str | None, challenge: Challenge) -> bool:
        """True if ``challenge`` takes a seat another key holds while a game is played."""
        return playing and holder_key is not None and holder_key != challenge.key

    def wait(self, challenge: Challenge) -> dict:
        """Keep ``challenge`` until approved (a later one for the seat replaces it); the reply."""
        self.waiting[challenge.seat] = challenge
        fingerprint = crypto.fingerprint(challenge.key)
        return {"v": 1, "status": "challenge", "seat": challenge.seat, "method": "approval",
                "fingerprint": fingerprint,
                "message": (f"A game is being played: the tablet holding the {challenge.seat} seat must "
                            f"approve this tablet (key {fingerprint}), or the referee's console confirms.")}

    def request(self, seat: str) -> dict | None:
        """What the seat's tablet is shown: the waiting tablet's fingerprint and name, or None."""
        challenge = self.waiting.get(seat)
        if challenge is None:
            return None
        return {"fingerprint": crypto.fingerprint(challenge.key), "name": challenge.name}

    def approve(self, seat: str, fingerprint: str | None) -> tuple[Challenge | None, str]:
        """(the challenge to grant, "") if ``fingerprint`` (None: the console) names the waiting one."""
        challenge = self.waiting.get(seat)
        if challenge is None:
            return None, f"no other tablet is waiting for the {seat} seat"
        if fingerprint is not None and not secrets.compare_digest(fingerprint, crypto.fingerprint(challenge.key)):
            return None, "the waiting tablet has another key: compare the numbers again"
        del self.waiting[seat]
        return challenge, ""

    def clear(self) -> None:
        """The game is over: nobody waits any more (a new request is granted at once)."""
        self.waiting.clear()
