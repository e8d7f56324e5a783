"""The names of the MQTT contract, defined once, and the typed payloads of its commands and seats.

One name per command and per event from the tablet to the journal and back:

- :class:`Command`: what a tablet asks for (``command.type`` on ``seat/<color>/cmd``).
- :class:`EventType`: what the referee announces (``type`` of each entry in ``events`` and
  ``seat_events``): the session's own announcements and the engine's events as they travel.
- A ruling is journalled under the name of the event it announces (:data:`RULINGS`): a draw
  offer is the command ``offer_draw``, the ruling and event ``draw_offer``, the state field
  ``draw_offer``. :data:`OLD_RULING_NAMES` reads journals written before the names were one.
- :class:`JournalEntry`: the journal's entries that are not rulings.

The values are the wire names of docs/mqtt.md; a ``StrEnum`` member equals its value, so
``Command.OFFER_DRAW == "offer_draw"`` and JSON carries the plain string.
"""

from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict


class Command(StrEnum):
    """A command a seat's tablet sends."""

    MOVE = "move"
    SETUP = "setup"
    RESIGN = "resign"
    OFFER_DRAW = "offer_draw"
    ACCEPT_DRAW = "accept_draw"
    DECLINE_DRAW = "decline_draw"
    OFFER_TAKEBACK = "offer_takeback"
    ACCEPT_TAKEBACK = "accept_takeback"
    DECLINE_TAKEBACK = "decline_takeback"
    NEW_GAME = "new_game"
    # Napoleon's Triumph: one action of the records' vocabulary (docs/rules/triumph.md).
    NT = "nt"
    # Replaying a recorded game on the board (firmware_bridge/referee/replay_desk.py).
    REPLAY_LOAD = "replay_load"
    REPLAY_STEP = "replay_step"
    REPLAY_PLAY_ON = "replay_play_on"
    REPLAY_STOP = "replay_stop"
    # The seat's current tablet lets another tablet take its seat while a game is played.
    APPROVE_PAIRING = "approve_pairing"


class EventType(StrEnum):
    """The ``type`` of an event the referee announces (public and private event lists)."""

    # The session's own announcements.
    SETUP_READY = "setup_ready"  # a seat's setup was accepted (its squares stay private)
    GAME_START = "game_start"
    DRAW_OFFER = "draw_offer"
    DRAW_DECLINED = "draw_declined"
    TAKEBACK_OFFER = "takeback_offer"
    TAKEBACK_DECLINED = "takeback_declined"
    # The engine's events (engine/stratego/events.py), redacted per audience.
    MOVE = "move"
    BATTLE = "battle"
    CAPTURE = "capture"
    REVEAL = "reveal"
    REFUSAL = "refusal"  # a move from the board the rules refuse
    TURN = "turn"
    GAME_END = "game_end"
    TAKEBACK = "takeback"
    # Napoleon's Triumph: an action the engine accepted; its events are the NT engine's
    # (corps_move, threat, combat, replace, ...), redacted per audience.
    NT = "nt"


# The rulings the journal keeps, each under the event it announces (first).
RULINGS: frozenset[EventType] = frozenset({
    EventType.SETUP_READY, EventType.GAME_START, EventType.MOVE, EventType.REFUSAL,
    EventType.DRAW_OFFER, EventType.DRAW_DECLINED, EventType.TAKEBACK_OFFER,
    EventType.TAKEBACK_DECLINED, EventType.TAKEBACK, EventType.GAME_END, EventType.NT})

# Journals written before the ruling names were the event names: old kind -> the ruling now.
OLD_RULING_NAMES: dict[str, EventType] = {
    "setup": EventType.SETUP_READY, "start": EventType.GAME_START, "offer": EventType.DRAW_OFFER,
    "decline": EventType.DRAW_DECLINED, "takeback_decline": EventType.TAKEBACK_DECLINED,
    "end": EventType.GAME_END}


def ruling_kind(kind: str) -> EventType | None:
    """The ruling a journal entry kind names (old names too), or None for another entry."""
    if kind in OLD_RULING_NAMES:
        return OLD_RULING_NAMES[kind]
    try:
        ruled = EventType(kind)
    except ValueError:
        return None
    return ruled if ruled in RULINGS else None


class JournalEntry(StrEnum):
    """The journal's entries besides rulings."""

    GAME = "game"  # a new game: its variant, options, volcanoes and time control
    PAIR = "pair"  # a tablet's key was granted a seat
    REPLY = "reply"  # the answer to an authenticated command (kept for resent commands)


class Phase(StrEnum):
    """Where a game is: setups being submitted, being played, or over."""

    SETUP = "setup"
    PLAYING = "playing"
    OVER = "over"


class EndReason(StrEnum):
    """Why a ruling ended the game (``game_end`` rulings' ``reason``; not the engine's result text)."""

    RESIGN = "resign"
    DRAW = "draw"  # agreed
    CLOCK = "clock"  # a player's own clock ran out
    GAME_TIME = "game_time"  # the agreed total game time ran out


# --- typed payloads at the protocol boundary ---------------------------------------------------

Seat = Literal["red", "blue"]


class MoveArgs(TypedDict):
    """``move``: one move in square notation, e.g. ``"a4-a5"``."""

    move: str


class SetupArgs(TypedDict):
    """``setup``: the seat's pieces, square name -> piece kind (Stratego), or a Napoleon's Triumph
    side's set-up object ({"commanders", "units", "fixed_battery"})."""

    setup: dict[str, Any]


class NtArgs(TypedDict):
    """``nt``: one Napoleon's Triumph action without its side (the seat's side is added)."""

    action: dict[str, Any]


class NewGameArgs(TypedDict, total=False):
    """``new_game``: Espionage's one-move option, and the computer's seat ("off": two people) and level.

    Omitted: the current setting.
    """

    moves_per_turn: int
    computer: str
    level: str


class ReplayLoadArgs(TypedDict):
    """``replay_load``: a recorded game (JSON record, Gravon XML or GSN) and its file's name."""

    text: str
    name: NotRequired[str]


class ReplayStepArgs(TypedDict):
    """``replay_step``: forward, back, or a jump to ``ply``."""

    step: str
    ply: NotRequired[int]


class ApprovePairingArgs(TypedDict):
    """``approve_pairing``: the key fingerprint of the tablet that may take this seat."""

    fingerprint: str


class NoArgs(TypedDict):
    """The commands that take no arguments."""


# The arguments of each command (contract.COMMAND_ARGS checks the same names, with their formats).
_WITH_ARGUMENTS: dict[Command, type] = {
    Command.MOVE: MoveArgs, Command.SETUP: SetupArgs, Command.NEW_GAME: NewGameArgs, Command.NT: NtArgs,
    Command.APPROVE_PAIRING: ApprovePairingArgs,
    Command.REPLAY_LOAD: ReplayLoadArgs, Command.REPLAY_STEP: ReplayStepArgs}
COMMAND_ARGUMENTS: dict[Command, type] = {
    **_WITH_ARGUMENTS, **{command: NoArgs for command in Command if command not in _WITH_ARGUMENTS}}


class CommandPayload(TypedDict):
    """The plaintext of a command a tablet sends (``command`` schema)."""

    v: int
    id: str
    seat: Seat
    counter: int
    type: Command | str
    args: dict[str, Any]


class ReplyPayload(TypedDict):
    """The referee's answer to one command (``reply`` schema)."""

    v: int
    id: str
    ok: bool
    code: str | None
    message: str
    seq: int | None
    duplicate: NotRequired[bool]
    reason: NotRequired[str]  # a refused move: which sentence (engine.core.Refusal.reason)
    data: NotRequired[dict[str, Any]]  # and what it speaks of


class SeatSummary(TypedDict):
    """What the public state says about one seat."""

    paired: bool
    online: bool
    setup_ready: bool
    name: str
    key_fingerprint: str | None


class SeatState(TypedDict):
    """The retained private snapshot of one seat (``seat_state`` schema), encrypted to its tablet."""

    v: int
    seat: Seat | str
    game: str
    seq: int
    phase: Phase | str
    view: dict[str, Any] | None
    setup: dict[str, Any] | None
    last_counter: int
    # Napoleon's Triumph: what to do with the seat's own blocks, per ruling (newest last).
    instructions: NotRequired[list[dict[str, Any]]]
