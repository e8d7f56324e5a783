"""The pairing messages of the MQTT contract (pairing version 2): what a tablet or a display and
the referee say to each other while a seat (or a display's trust) is given by SPAKE2 (pake.py).

Every message is public JSON: nothing in it helps a stranger, who can read all of it. The tablet
signs its own with the Ed25519 key it names as ``asker`` (so nobody else can use up its tries or
take its place in the queue); the referee signs its own with its signing key (a tablet checks
that only after pairing: before, the SPAKE2 confirmation is what it trusts). What must stay
secret (the tablet's X25519 key once paired, the referee's keys, a broker account) travels in
``box``, sealed under the key the exchange derived.
"""

from __future__ import annotations

import re
from typing import Any

from firmware_bridge.protocol.schema import (
    INT,
    OPT,
    STR,
    Schema,
    length,
    matches,
    non_negative,
    one_of,
)

PAIRING_VERSION = 2
ROLES = ("red", "blue", "display")  # what may be asked for: a seat, or a display's trust
METHODS = ("code", "squares")
CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KEY_TEXT = length(40, 60)
PAKE_TEXT = length(40, 60)  # 33 bytes of a SPAKE2 message as base64
MAX_ATTEMPT = 1000

VERSION_2 = (INT, True, one_of(PAIRING_VERSION))
ATTEMPT = (INT, True, lambda v: None if 1 <= v <= MAX_ATTEMPT else f"must be 1..{MAX_ATTEMPT}")
OPT_TEXT = ((str, type(None)), OPT, length(0, 8000))

SCHEMAS: dict[str, Schema] = {
    # pair/request: a tablet (or display) asks; with squares, its SPAKE2 message comes along.
    "pair_request": {
        "v": VERSION_2,
        "client": (STR, True, matches(CLIENT_ID, "client id")),
        "seat": (STR, True, one_of(*ROLES)),
        "key": (STR, True, KEY_TEXT),
        "asker": (STR, True, KEY_TEXT),
        "method": (STR, True, one_of(*METHODS)),
        "name": (STR, OPT, length(0, 40)),
        "pake": (STR, OPT, PAKE_TEXT),
        "attempt": (INT, OPT, non_negative),
        "sig": (STR, OPT, None),
    },
    # pair/<client>/code: the tablet's SPAKE2 message for a code ("start"), then its confirmation
    # and its sealed key ("confirm").
    "pair_attempt": {
        "v": VERSION_2,
        "asker": (STR, True, KEY_TEXT),
        "step": (STR, True, one_of("start", "confirm")),
        "attempt": ATTEMPT,
        "pake": (STR, OPT, PAKE_TEXT),
        "confirm": (STR, OPT, length(40, 60)),
        "box": (STR, OPT, length(1, 8000)),
        "sig": (STR, OPT, None),
    },
    # pair/<client>: the referee's answers (and, sealed to a replaced tablet's key, "lost").
    "pair_reply": {
        "v": VERSION_2,
        "status": (STR, True, one_of("challenge", "pake", "granted", "waiting", "refused", "lost")),
        "seat": (STR, True, one_of(*ROLES)),
        "asker": ((str, type(None)), OPT, None),
        "board": (STR, OPT, None),
        "method": ((str, type(None)), OPT, one_of(*METHODS, "approval", None)),
        "attempt": (INT, OPT, None),
        "pake": OPT_TEXT,
        "confirm": OPT_TEXT,
        "box": OPT_TEXT,
        "fingerprint": ((str, type(None)), OPT, None),
        "squares": (list, OPT, None),  # with "squares": the empty squares to choose two from
        "message": (STR, OPT, None),
        "tries_left": (INT, OPT, None),
        # Why a step failed, for the tablet to say in its language: computer-seat, busy,
        # too-many-codes (a refusal); tablet, computer (the seat "lost" to them).
        "reason": (STR, OPT, None),
        "data": ((dict,), OPT, None),
        "retry_after": (INT, OPT, None),
        "sig": (STR, OPT, None),
    },
    # Sealed in a grant's box: what the tablet pins and keeps.
    "pair_grant": {
        "seat": (STR, True, one_of(*ROLES)),
        "board": (STR, True, None),
        "referee_key": (STR, True, KEY_TEXT),
        "sign_key": (STR, True, KEY_TEXT),
        "run": (INT, True, non_negative),
        "game_no": (INT, OPT, non_negative),
        "broker_username": ((str, type(None)), OPT, None),
        "broker_password": ((str, type(None)), OPT, None),
    },
    # Sealed in a confirm's box: the tablet's X25519 key, once more, under the exchange's key.
    "pair_tablet": {
        "key": (STR, True, KEY_TEXT),
        "name": (STR, OPT, length(0, 40)),
    },
    # seat/<color>/cmd, sealed like a command: the tablet is still there (docs/mqtt.md, Liveness).
    "alive": {
        "v": (INT, True, one_of(1)),
        "seat": (STR, True, one_of("red", "blue")),
        "run": (INT, True, non_negative),
        "online": ((bool,), True, None),
    },
}
FROM_REFEREE = frozenset({"pair_reply", "pair_grant"})


def strictly(kind: str) -> bool:
    """What the referee receives is checked strictly (an unknown field is refused)."""
    return kind not in FROM_REFEREE


def reply(status: str, seat: str, **fields: Any) -> dict[str, Any]:
    """A pair_reply body (fields that are None are left out)."""
    return {"v": PAIRING_VERSION, "status": status, "seat": seat,
            **{k: v for k, v in fields.items() if v is not None}}
