"""The MQTT contract of Arbiter, version 1: topics, payload schemas and their validation.

Both sides import this module: the referee on the Pi and the apps (tablets, the referee display,
the hall overview). docs/mqtt.md describes the same contract for people.

Topics, all under ``arbiter/v1/<board>/`` (MQTT 3.1.1 features only, QoS 1, clean sessions):

=========================  ========  =======  =============================================
topic                      retained  writer   payload
=========================  ========  =======  =============================================
info                       yes       referee  ``info``: board name, referee public key, variant
state                      yes       referee  ``state``: public snapshot with ``game`` and ``seq``
events                     no        referee  ``events``: the public events of one ruling
errors                     no        referee  ``error``: reply to a message nobody could be named for
presence/referee           yes       referee  ``presence`` (last will: offline)
presence/<client>          yes       client   ``presence`` (last will: offline)
hello                      no        client   ``hello``: "republish your snapshots" (on connect, on a gap)
pair/request               no        tablet   SealedBox to the referee key, plaintext ``pair_request``
pair/<client>              no        referee  Box to the tablet key, plaintext ``pair_reply``
pair/<client>/code         no        tablet   Box to the referee key, plaintext ``pair_code``
seat/<color>/state         yes       referee  Box to the seat key, plaintext ``seat_state``
seat/<color>/events        no        referee  Box to the seat key, plaintext ``seat_events``
seat/<color>/cmd           no        tablet   Box to the referee key, plaintext ``command``
seat/<color>/reply         no        referee  Box to the seat key, plaintext ``reply``
=========================  ========  =======  =============================================

Public payloads are compact UTF-8 JSON objects with ``"v": 1``. Private payloads are binary
envelopes made by :mod:`firmware_bridge.protocol.crypto`: all of the same length, with the topic, game
and sequence number inside the authenticated plaintext.

Sequence numbers: ``seq`` counts the rulings of one game (1, 2, 3, ...; 0 before the first).
A snapshot carries the ``seq`` of the last ruling it includes; an event message carries the
``seq`` of its ruling. A client that sees ``seq`` jump by more than one, or a new ``game``,
publishes ``hello`` with reason ``"gap"`` and the referee republishes every snapshot.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, cast

from engine.core.errors import ArbiterError
from firmware_bridge.protocol import pairing_contract, triumph_contract
from firmware_bridge.protocol.board_steps import plan_problem
from firmware_bridge.protocol.schema import (
    INT,
    OPT,
    OPT_INT,
    OPT_STR,
    STR,
    Check,
    NotJson,
    Types,
    check_problem,
    fields_problem,
    has_type,
    loads,
)
from firmware_bridge.protocol.schema import length as _length
from firmware_bridge.protocol.schema import matches as _matches
from firmware_bridge.protocol.schema import non_negative as _non_negative
from firmware_bridge.protocol.schema import one_of as _one_of
from firmware_bridge.protocol.vocabulary import Command, CommandPayload, Phase, ReplyPayload

VERSION = 1
ROOT = f"arbiter/v{VERSION}"
SEATS = ("red", "blue")
COMPUTER_LEVELS = ("easy", "normal", "strong")  # firmware_bridge.bot.LEVELS (a test checks)
QOS = 1
# Public payloads larger than this are refused before parsing: no legitimate one comes close.
MAX_PUBLIC_PAYLOAD = 64 * 1024
BOARD_NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
SQUARE_NAME = re.compile(r"^[a-z][1-9][0-9]?$")
MOVE_TEXT = re.compile(r"^[a-z][1-9][0-9]?-[a-z][1-9][0-9]?$")

COMMAND_TYPES = tuple(c.value for c in Command)  # the names: firmware_bridge.protocol.vocabulary
PHASES = tuple(p.value for p in Phase)

# Error codes of a reply; the message beside them is for people.
ERROR_CODES = (
    "malformed",        # not a valid payload of the contract
    "too-large",        # over the size limit
    "unauthenticated",  # the envelope does not open with the seat's key
    "replayed",         # the counter is not newer than the last command of that seat
    "not-paired",       # the seat has no tablet
    "wrong-phase",      # e.g. a move before the game started
    "not-your-turn",
    "illegal",          # the engine refused it (movement, two-squares, more-squares, ...)
    "invalid-setup",
    "no-offer",         # accept/decline without a pending draw or takeback offer
    "board-input",      # moves come from the physical board here
    "refused",          # pairing refused (seat taken, wrong code, ...)
    "invalid-option",   # a game option the variant does not have (moves_per_turn for classic)
    "storage-full",     # the referee's journal cannot be written: nothing was ruled
    "storage-read-only",
    "storage",
    "invalid-replay",   # a game file that cannot be replayed, a ply out of range, no replay on
)
# A game file sent with replay_load: also bounded by what fits one command envelope.
MAX_REPLAY_TEXT = 200_000


class ContractError(ArbiterError, ValueError):
    """A payload or topic that breaks the contract; ``code`` is one of ERROR_CODES."""

    code = "malformed"


def check_board_name(board: str) -> str:
    """Return ``board`` if it is usable as one topic level, else raise ContractError."""
    if not BOARD_NAME.match(board):
        raise ContractError(f"board name {board!r} must be 1-32 letters, digits, '-' or '_'")
    return board


def check_seat(seat: str) -> str:
    """Return ``seat`` if it names a seat ("red" or "blue"), else raise ContractError."""
    if seat not in SEATS:
        raise ContractError(f"seat must be one of {SEATS}, not {seat!r}")
    return seat


@dataclass(frozen=True)
class Topics:
    """Every topic of one board."""

    board: str

    def __post_init__(self) -> None:
        check_board_name(self.board)

    @property
    def base(self) -> str:
        """The prefix of every topic of this board."""
        return f"{ROOT}/{self.board}"

    @property
    def info(self) -> str:
        """Retained referee info (public key, variant)."""
        return f"{self.base}/info"

    @property
    def state(self) -> str:
        """Retained public snapshot."""
        return f"{self.base}/state"

    @property
    def events(self) -> str:
        """Public event stream."""
        return f"{self.base}/events"

    @property
    def errors(self) -> str:
        """Errors about messages that could not be attributed to a seat."""
        return f"{self.base}/errors"

    @property
    def hello(self) -> str:
        """Clients announce themselves here; the referee republishes every snapshot."""
        return f"{self.base}/hello"

    @property
    def pair_request(self) -> str:
        """Tablets ask for a seat here."""
        return f"{self.base}/pair/request"

    def pair_reply(self, client_id: str) -> str:
        """The referee answers one tablet's pairing here."""
        return f"{self.base}/pair/{client_id}"

    def pair_code(self, client_id: str) -> str:
        """A tablet sends the fallback numeric code here."""
        return f"{self.base}/pair/{client_id}/code"

    def presence(self, client_id: str) -> str:
        """Retained online/offline of one client (``referee`` for the referee)."""
        return f"{self.base}/presence/{client_id}"

    def seat_state(self, seat: str) -> str:
        """Retained encrypted snapshot for one seat."""
        return self._seat_topic(seat, "state")

    def seat_events(self, seat: str) -> str:
        """Encrypted event stream for one seat."""
        return self._seat_topic(seat, "events")

    def seat_command(self, seat: str) -> str:
        """Encrypted commands from one seat's tablet."""
        return self._seat_topic(seat, "cmd")

    def seat_reply(self, seat: str) -> str:
        """Encrypted replies to one seat's commands."""
        return self._seat_topic(seat, "reply")

    def _seat_topic(self, seat: str, leaf: str) -> str:
        return f"{self.base}/seat/{check_seat(seat)}/{leaf}"

    def public_topics(self) -> tuple[str, ...]:
        """The topics a mosquitto bridge may carry to the hall broker."""
        return (self.info, self.state, self.events, f"{self.base}/presence/referee")


def parse_topic(topic: str) -> tuple[str, str, str | None]:
    """Split a contract topic into (board, kind, seat-or-client); raise ContractError if foreign.

    kind is one of: info, state, events, errors, hello, presence, pair_request, pair_reply,
    pair_code, seat_state, seat_events, seat_cmd, seat_reply.
    """
    parts = topic.split("/")
    if len(parts) < 4 or f"{parts[0]}/{parts[1]}" != ROOT:
        raise ContractError(f"topic {topic!r} is not under {ROOT}/")
    board, rest = parts[2], parts[3:]
    check_board_name(board)
    if len(rest) == 1 and rest[0] in ("info", "state", "events", "errors", "hello"):
        return board, rest[0], None
    if len(rest) == 2 and rest[0] == "presence":
        return board, "presence", rest[1]
    if len(rest) == 2 and rest[0] == "pair":
        return (board, "pair_request", None) if rest[1] == "request" else (board, "pair_reply", rest[1])
    if len(rest) == 3 and rest[0] == "pair" and rest[2] == "code":
        return board, "pair_code", rest[1]
    if len(rest) == 3 and rest[0] == "seat" and rest[1] in SEATS:
        kind = {"state": "seat_state", "events": "seat_events", "cmd": "seat_cmd", "reply": "seat_reply"}
        if rest[2] in kind:
            return board, kind[rest[2]], rest[1]
    raise ContractError(f"topic {topic!r} is not part of the contract")


# --- payload schemas (the schema language: schema.py) ------------------------------------------

def _setup_map(v: dict) -> str | None:
    if triumph_contract.is_triumph_setup(v):  # a Napoleon's Triumph side's set-up object
        return triumph_contract.setup_problem(v)
    if len(v) > 200:
        return "has too many squares"
    for square, kind in v.items():
        if not (isinstance(square, str) and SQUARE_NAME.match(square)):
            return f"has a bad square {square!r}"
        if not (isinstance(kind, str) and 0 < len(kind) <= 32):
            return f"has a bad piece kind at {square}"
    return None


def _with_plan(v: dict) -> str | None:
    """A board_check or volcano_markers: its ``plan``, where present, is a list of board steps."""
    problem = plan_problem(v["plan"]) if "plan" in v else None
    return f"plan {problem}" if problem else None


# Fields many payloads share, checked the same way everywhere.
VERSION_FIELD = (INT, True, _one_of(VERSION))
GAME_FIELD = (STR, True, _length(1, 64))
COMMAND_ID_FIELD = (STR, True, _length(1, 64))
SEQ_FIELD = (INT, True, _non_negative)
SEAT_FIELD = (STR, True, _one_of(*SEATS))
CLIENT_FIELD = (STR, True, _matches(CLIENT_ID, "client id"))

# The stamp of every message the referee signs or seals (freshness.py): required by clients.
STAMP_FIELDS: dict[str, tuple[Types, bool, Check | None]] = {
    "board": (STR, OPT, _matches(BOARD_NAME, "board name")),
    "run": (INT, OPT, _non_negative),
    "n": (INT, OPT, _non_negative),
    "game_no": (INT, OPT, _non_negative),
}

SCHEMAS: dict[str, dict[str, tuple[Types, bool, Check | None]]] = {
    "info": {
        "v": VERSION_FIELD,
        **STAMP_FIELDS,
        "board": (STR, True, _matches(BOARD_NAME, "board name")),
        "referee_key": (STR, True, _length(40, 60)),
        "variant": (STR, True, None),
        "name": (STR, OPT, _length(0, 80)),
        "software": (STR, OPT, None),
        "sign_key": (STR, OPT, _length(40, 60)),  # the key the referee signs public messages with
    },
    "state": {
        "v": VERSION_FIELD,
        "board": (STR, True, None),
        **{k: v for k, v in STAMP_FIELDS.items() if k != "board"},
        # Pending pairing requests, for the display: [{"seat", "name", "fingerprint", "method"}].
        "pairing": (list, OPT, None),
        "game": GAME_FIELD,
        "seq": SEQ_FIELD,
        "phase": (STR, True, _one_of(*PHASES)),
        "view": ((dict, type(None)), True, None),
        "seats": (dict, True, None),
        "clocks": ((dict, type(None)), OPT, None),
        "draw_offer": (OPT_STR, OPT, None),
        "takeback_offer": (OPT_STR, OPT, None),
        "board_check": ((dict, type(None)), OPT, _with_plan),
        "variant": (STR, OPT, None),
        "moves_per_turn": (INT, OPT, None),
        "volcanoes": (list, OPT, None),
        "volcano_markers": ((dict, type(None)), OPT, _with_plan),
        "replay": ((dict, type(None)), OPT, None),  # the replay on the board (docs/mqtt.md)
        # Something keeps the referee from ruling: {"code": "storage-full", "message": ...}.
        "problem": ((dict, type(None)), OPT, None),
        # The referee restarted after being away: {"type": "referee_back", "away_s": 12, "clocks": "paused"}.
        "referee_back": ((dict, type(None)), OPT, None),
        # The move to make on the board for the computer's seat (docs/mqtt.md), None otherwise.
        "computer_move": ((dict, type(None)), OPT, None),
        "computer": ((str, type(None)), OPT, _one_of(*SEATS, None)),  # the seat the computer plays
        "notebook": ((bool,), OPT, None),  # false: the referee forbids the players' notebook view
        # The file a finished game was kept as (records/ beside the journal; docs/records.md).
        "record": ((str, type(None)), OPT, None),
        # Napoleon's Triumph: the army each seat plays ({"red": "allied", "blue": "french"}).
        "sides": ((dict, type(None)), OPT, None),
        "at": ((int, float), OPT, None),
    },
    "events": {
        "v": VERSION_FIELD,
        **STAMP_FIELDS,
        "game": GAME_FIELD,
        "seq": SEQ_FIELD,
        "events": (list, True, None),
        "clocks": ((dict, type(None)), OPT, None),
        "at": ((int, float), OPT, None),
    },
    "error": {
        "v": VERSION_FIELD,
        **STAMP_FIELDS,
        "topic": (STR, True, None),
        "code": (STR, True, _one_of(*ERROR_CODES)),
        "message": (STR, True, None),
    },
    "presence": {
        "v": VERSION_FIELD,
        "client": CLIENT_FIELD,
        "role": (STR, True, _one_of("referee", "seat", "display", "overview")),
        "online": ((bool,), True, None),
        "sig": (STR, OPT, None),  # the referee's own presence is signed (protocol/signing.py)
        **{name: STAMP_FIELDS[name] for name in ("board", "run", "n")},  # and stamped (freshness.py)
    },
    "hello": {
        "v": VERSION_FIELD,
        "client": CLIENT_FIELD,
        "reason": (STR, True, _one_of("connect", "gap", "manual")),
        "game": (OPT_STR, OPT, None),
        "seq": (OPT_INT, OPT, None),
    },
    "seat_state": {
        "v": VERSION_FIELD,
        "seat": SEAT_FIELD,
        "game": GAME_FIELD,
        "seq": SEQ_FIELD,
        "phase": (STR, True, _one_of(*PHASES)),
        "view": ((dict, type(None)), True, None),
        "setup": ((dict, type(None)), OPT, None),
        "last_counter": (INT, OPT, None),
        # Another tablet asks for this seat while a game is played: {"fingerprint", "name"}.
        "pairing_request": ((dict, type(None)), OPT, None),
        # Napoleon's Triumph: what to do with the seat's own blocks, [{"seq", "steps"}, ...].
        "instructions": (list, OPT, None),
    },
    "seat_events": {
        "v": VERSION_FIELD,
        "seat": SEAT_FIELD,
        "game": GAME_FIELD,
        "seq": SEQ_FIELD,
        "events": (list, True, None),
    },
    "command": {
        "v": VERSION_FIELD,
        "id": COMMAND_ID_FIELD,
        "seat": SEAT_FIELD,
        "counter": (INT, True, _non_negative),
        "type": (STR, True, _one_of(*COMMAND_TYPES)),
        "args": (dict, True, None),
    },
    "reply": {
        "v": VERSION_FIELD,
        "id": COMMAND_ID_FIELD,
        "ok": ((bool,), True, None),
        "code": (OPT_STR, OPT, None),
        "message": (STR, OPT, None),
        "seq": (OPT_INT, OPT, None),
        "duplicate": ((bool,), OPT, None),
        "reason": (STR, OPT, None),  # an `illegal` move's sentence and what it speaks of (docs/mqtt.md)
        "data": ((dict,), OPT, None),
    },
}

# The arguments each command type takes (all required), then those it may take.
COMMAND_ARGS: dict[str, dict[str, tuple[tuple[type, ...], Check | None]]] = {
    Command.MOVE: {"move": (STR, _matches(MOVE_TEXT, "move like a4-a5"))},
    Command.SETUP: {"setup": ((dict,), _setup_map)},
    Command.RESIGN: {},
    Command.OFFER_DRAW: {},
    Command.ACCEPT_DRAW: {},
    Command.DECLINE_DRAW: {},
    Command.OFFER_TAKEBACK: {},
    Command.ACCEPT_TAKEBACK: {},
    Command.DECLINE_TAKEBACK: {},
    Command.NEW_GAME: {},
    Command.NT: {"action": ((dict,), triumph_contract.action_problem)},
    Command.REPLAY_LOAD: {"text": (STR, _length(1, MAX_REPLAY_TEXT))},
    Command.REPLAY_STEP: {"step": (STR, _one_of("forward", "back", "jump"))},
    Command.REPLAY_PLAY_ON: {},
    Command.REPLAY_STOP: {},
    Command.APPROVE_PAIRING: {"fingerprint": (STR, _length(1, 40))},
}
OPTIONAL_COMMAND_ARGS: dict[str, dict[str, tuple[tuple[type, ...], Check | None]]] = {
    # Espionage's one-move option for the next game; omitted: the current game's setting.
    # Who plays the next game: "the computer" at one seat, or "off" (two people); its strength
    # (firmware_bridge.bot.LEVELS, repeated here so the apps need not import the bot).
    Command.NEW_GAME: {"moves_per_turn": (INT, _one_of(1, 2)),
                       "computer": (STR, _one_of(*SEATS, "off")),
                       "level": (STR, _one_of(*COMPUTER_LEVELS))},
    Command.REPLAY_LOAD: {"name": (STR, _length(0, 120))},  # the file's name, shown to the players
    Command.REPLAY_STEP: {"ply": (INT, _non_negative)},  # where a jump goes
}


# What the referee sends may gain optional fields within v1: clients ignore fields they do not
# know. What the referee receives is checked strictly: an unknown field is refused.
SCHEMAS.update(pairing_contract.SCHEMAS)  # pairing version 2 (pairing_contract.py)
FROM_REFEREE = pairing_contract.FROM_REFEREE | frozenset({"info", "state", "events", "error", "seat_state",
                          "seat_events", "reply"})


def validate(kind: str, payload: Any) -> dict:
    """Check ``payload`` against the schema ``kind``; return it or raise ContractError."""
    problem = fields_problem(kind, SCHEMAS[kind], payload, strict=kind not in FROM_REFEREE)
    if problem:
        raise ContractError(problem)
    if kind == "command":
        _validate_command_args(payload["type"], payload["args"])
    return payload


def _validate_command_args(command_type: str, args: dict) -> None:
    required, optional = COMMAND_ARGS[command_type], OPTIONAL_COMMAND_ARGS.get(command_type, {})
    unknown = set(args) - set(required) - set(optional)
    if unknown:
        raise ContractError(f"{command_type} takes no arguments {sorted(unknown)}")
    for name, (types, check) in {**required, **optional}.items():
        if name not in args:
            if name in required:
                raise ContractError(f"{command_type} lacks argument {name!r}")
            continue
        if not has_type(args[name], types):
            raise ContractError(f"{command_type}.{name} has the wrong type")
        problem = check_problem(args[name], check)
        if problem:
            raise ContractError(f"{command_type}.{name} {problem}")


# The schema of the JSON payload on each public topic kind (see parse_topic).
PUBLIC_SCHEMAS = {"info": "info", "state": "state", "events": "events", "errors": "error",
                  "hello": "hello", "presence": "presence"}


def decode_public(topic: str, raw: bytes | bytearray) -> dict:
    """Decode the payload of any public topic by the schema its topic implies."""
    kind = parse_topic(topic)[1]
    if kind not in PUBLIC_SCHEMAS:
        raise ContractError(f"{topic} carries an encrypted payload, not public JSON")
    return decode(PUBLIC_SCHEMAS[kind], raw)


def encode(kind: str, payload: dict) -> bytes:
    """Validate and serialise a public payload as compact UTF-8 JSON."""
    validate(kind, payload)
    return json_text(payload)


def json_text(payload: dict) -> bytes:
    """A payload as compact UTF-8 JSON (what is signed and sent)."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def decode(kind: str, raw: bytes | bytearray, limit: int = MAX_PUBLIC_PAYLOAD) -> dict:
    """Parse and validate a public payload; raise ContractError with a clear message."""
    if len(raw) > limit:
        raise ContractError(f"{kind} payload of {len(raw)} bytes exceeds {limit}", "too-large")
    try:
        payload = loads(bytes(raw).decode("utf-8"))
    except (UnicodeDecodeError, NotJson) as error:
        raise ContractError(f"{kind} payload is not UTF-8 JSON: {error}") from None
    return validate(kind, payload)


def command(seat: str, command_id: str, counter: int, command_type: Command | str,
            **args: Any) -> CommandPayload:
    """Build a validated command plaintext (the type travels as its plain wire name)."""
    return cast(CommandPayload, validate("command", {
        "v": VERSION, "id": command_id, "seat": seat, "counter": counter,
        "type": str(command_type), "args": args}))


def reply(command_id: str, ok: bool, code: str | None = None, message: str = "",
          seq: int | None = None, duplicate: bool = False, reason: str = "",
          data: dict[str, Any] | None = None) -> ReplyPayload:
    """Build a validated reply plaintext (`reason`/`data`: a refused move's sentence, its data)."""
    payload: dict[str, Any] = {"v": VERSION, "id": command_id, "ok": ok, "code": code,
                               "message": message, "seq": seq}
    if duplicate:
        payload["duplicate"] = True
    if reason:
        payload["reason"], payload["data"] = reason, dict(data or {})
    return cast(ReplyPayload, validate("reply", payload))
