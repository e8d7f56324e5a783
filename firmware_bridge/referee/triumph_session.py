"""A game of Napoleon's Triumph as the referee rules it: set-ups, actions, takebacks, the end.

The same journal, seats, command counters and ruling transaction as Stratego (session_core.py);
what differs is the game: two private set-ups (``setup`` commands), then actions entered on the
tablets (``nt`` commands) that the engine (engine/triumph) rules. No sensors: a grid cannot count
blocks in a locale, so the referee is the truth and tells each player what to do with his own
blocks after every ruling (``instructions`` in the seat's state).

Seat red plays the Allies, seat blue the French (protocol/triumph_contract.py). Enemy blocks
reach a tablet only under the opaque handles of the turn; an action naming one is translated back
here before the engine sees it.

Journal entries (names: firmware_bridge.protocol.vocabulary):
  game   {variant: "napoleons-triumph", scenario, time_control, handle_secret}   seq 0
  setup_ready {seat, setup}                  ruling   a side's private set-up was accepted
  game_start {}                              ruling   both set-ups in: 7:00 AM, the Allies act
  nt     {seat, action}                      ruling   an action the engine accepted (real ids)
  draw_offer / draw_declined / takeback_offer / takeback_declined {seat}
  takeback {seat, action}                    ruling   the last action taken back (both agreed)
  game_end {reason, seat}                    ruling   resignation, agreed draw, time (the engine
                                                      holds it: TriumphGame pushes a declared end)
Every ruling's payload also holds ``clock``, the clock checkpoint after it.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from engine.triumph.actions import DeclareEnd, action_from_dict
from engine.triumph.errors import TriumphError
from engine.triumph.events import Event, TakenBack
from engine.triumph.game import TriumphGame
from engine.triumph.instructions import instructions_for
from engine.triumph.mapdata import load_austerlitz
from engine.triumph.records import record_of
from engine.triumph.redaction import redact_events
from engine.triumph.setup import check_setup
from engine.triumph.views import handle, renamed
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.triumph_contract import (
    SEAT_OF_SIDE,
    SIDE_OF_SEAT,
    VARIANT,
    is_triumph_setup,
)
from firmware_bridge.protocol.vocabulary import (
    Command,
    CommandPayload,
    EndReason,
    EventType,
    JournalEntry,
    Phase,
    SeatState,
)
from firmware_bridge.referee.clocks import GameClock, TimeControl
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.rulings import Item, Ruling, session_announcement
from firmware_bridge.referee.session_core import NEW_GAME, OFFER_RULINGS, CommandError, SessionCore

log = logging.getLogger(__name__)
SCENARIO = "2dec"
# What may be taken back by agreement: commands that showed the opponent nothing (3.4).
TAKEBACK_TYPES = frozenset({"corps_move", "detach_move", "unit_move", "attach", "end_turn"})
REVEALING_EVENTS = frozenset({"reveal", "replace", "eliminate", "combat"})
ENVELOPE_MARGIN = 200  # bytes left for the envelope's header and the pairing request
KEPT_INSTRUCTIONS = 6  # rulings whose instructions a seat's state still lists (the tablet keeps its own)
DECISIONS = {"command": "give commands or end the turn", "response": "defend or retreat",
             "feint_or_press": "feint or press the attack", "defence_leaders": "name the defence leaders",
             "attack": "attack with leaders", "counter_attack": "counter-attack or not",
             "odd_loss": "choose the odd loss", "assign_losses": "assign the losses",
             "retreat": "retreat", "occupy": "occupy", "regroup": "regroup", "advance": "advance"}


@dataclass
class _Before:
    """The session before a batch of rulings, to put back if the journal fails."""

    seq: int
    setups: dict[str, dict[str, Any]]
    game: TriumphGame | None
    draw_offer: str | None
    takeback_offer: str | None
    instructions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    revealing: list[bool] = field(default_factory=list)
    action_seqs: list[int] = field(default_factory=list)


class TriumphSession(SessionCore):
    """The referee's game of Napoleon's Triumph (2 December), rebuilt from and written to the journal."""

    def __init__(self, journal: Journal, time_control: TimeControl | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        super().__init__(journal, time_control, now)
        self.map = load_austerlitz()
        self._replay()

    # -- state ------------------------------------------------------------------------------
    @property
    def variant_name(self) -> str:
        """The game's name on the wire."""
        return VARIANT

    def _reset(self, game_id: str, payload: dict) -> None:
        self.game_id = game_id
        self.handle_secret = payload["handle_secret"]
        self.time_control = TimeControl.from_dict(payload.get("time_control"))
        self.clock = GameClock(self.time_control)
        self.setups: dict[str, dict[str, Any]] = {}
        self.game: TriumphGame | None = None
        self.instructions: dict[str, list[dict[str, Any]]] = {seat: [] for seat in contract.SEATS}
        self.revealing: list[bool] = []  # per action of the game: did it show the opponent anything
        self.action_seqs: list[int] = []  # per action of the game: the ruling that made it
        self.seq = 0
        self.draw_offer = None
        self.takeback_offer = None

    @property
    def phase(self) -> Phase:
        """setup, playing or over."""
        if self.game is None:
            return Phase.SETUP
        return Phase.OVER if self.result is not None else Phase.PLAYING

    @property
    def result(self) -> dict[str, Any] | None:
        """How the game ended ({"winner", "reason", "why"}), or None while it goes on: by the
        rules, or declared (resignation, agreed end, time), which the game holds as well."""
        return self.game.result if self.game else None

    def ready_seats(self) -> set[str]:
        """The seats whose set-up was accepted."""
        return set(self.setups)

    def new_game(self, time_control: TimeControl | None = None) -> None:
        """Journal and begin a new game in the set-up phase (seats stay paired)."""
        control = time_control or self.default_time_control
        payload = {"variant": VARIANT, "scenario": SCENARIO, "time_control": control.to_dict(),
                   # Handles of enemy blocks are derived from it: the tablets never learn it.
                   "handle_secret": secrets.token_hex(16)}
        game_id = uuid.uuid4().hex[:16]
        self.journal.append(game_id, JournalEntry.GAME.value, payload)
        self._reset(game_id, payload)

    def new_game_from(self, args: dict) -> None:
        """Begin the new game a seat's ``new_game`` command asks for."""
        self.new_game()

    # -- applying rulings (live and in the replay) ------------------------------------------
    def _apply(self, kind: EventType, payload: dict) -> list[Any]:
        events: list[Event] = []
        if kind is EventType.SETUP_READY:
            self.setups[payload["seat"]] = payload["setup"]
        elif kind is EventType.GAME_START:
            self.game = TriumphGame.from_setups(namespaced(self.setups["blue"], "F."),
                                                namespaced(self.setups["red"], "A."),
                                                handle_secret=self.handle_secret)
        elif kind is EventType.NT:
            assert self.game is not None
            events = self.game.push(action_from_dict(payload["action"]))
            self.revealing.append(any(e.type in REVEALING_EVENTS for e in events))
            self.action_seqs.append(self.seq + 1)
            self.draw_offer = self.takeback_offer = None
            self._instruct(events)
        elif kind is EventType.TAKEBACK:
            assert self.game is not None
            taken = self.game.pop()
            self.revealing.pop()
            self._instruct_takeback(self.action_seqs.pop())
            events = [TakenBack(taken.side, taken.type)]
            self.draw_offer = self.takeback_offer = None
        elif kind in OFFER_RULINGS:
            self._apply_offer(kind, payload)
        elif kind is EventType.GAME_END:
            assert self.game is not None
            events = self.game.push(self._declared_end(payload["reason"], payload.get("seat")))
            self.draw_offer = None
        self.seq += 1  # numbered once applied: an action the engine refuses has raised before this
        return events

    def _declared_end(self, reason: str, seat: str | None) -> DeclareEnd:
        """The end the players or the clock declared, as the engine records it: the side that
        resigned or ran out of time; for an agreed end the side that made it final, for the
        game time the side the game waited for."""
        assert self.game is not None
        side = SIDE_OF_SEAT.get(seat or "") or (self.game.awaiting() or (self.game.state.to_move,))[0]
        return DeclareEnd(side, _END_REASONS[EndReason(reason)])

    def _instruct(self, events: list[Event]) -> None:
        """Keep what each player must now do with his own blocks (the ruling's number is self.seq + 1)."""
        assert self.game is not None
        for seat, side in SIDE_OF_SEAT.items():
            steps = instructions_for(self.game, events, side)
            if steps:
                kept = self.instructions[seat]
                kept.append({"seq": self.seq + 1, "steps": steps})
                del kept[:-KEPT_INSTRUCTIONS]

    def _instruct_takeback(self, ruled_at: int) -> None:
        """A takeback undoes the last action's block moves: each player is told to put them back."""
        for seat in contract.SEATS:
            kept = self.instructions[seat]
            last = kept[-1] if kept else None
            if last is None or last["seq"] != ruled_at:
                continue  # that action moved none of this seat's blocks
            back = [{**step, "from": step["to"], "to": step["from"]} for step in last["steps"]
                    if step.get("step") == "move"]
            kept.pop()
            if back:
                kept.append({"seq": self.seq + 1, "steps": back, "takeback": True})

    # -- the journal transaction's hooks ----------------------------------------------------
    def _snapshot(self) -> _Before:
        # the lists of instructions are rebuilt, never their entries changed: copies of the lists do
        return _Before(self.seq, dict(self.setups), self.game, self.draw_offer, self.takeback_offer,
                       {seat: list(kept) for seat, kept in self.instructions.items()},
                       list(self.revealing), list(self.action_seqs))

    def _put_back(self, snapshot: Any, undos: list[Callable[[], object]]) -> None:
        before = cast(_Before, snapshot)
        self.seq, self.setups, self.game = before.seq, before.setups, before.game
        self.draw_offer, self.takeback_offer = before.draw_offer, before.takeback_offer
        self.instructions, self.revealing = before.instructions, before.revealing
        self.action_seqs = before.action_seqs
        for undo in reversed(undos):
            undo()

    def _undo_for(self, kind: EventType) -> Callable[[], object] | None:
        game = self.game
        if game is None:
            return None
        if kind in (EventType.NT, EventType.GAME_END):
            return game.pop
        if kind is EventType.TAKEBACK:
            last = game.actions[-1] if game.actions else None
            return lambda: game.push(last) if last else None
        return None

    def _running_after(self, kind: EventType, events: list[Any]) -> tuple[str | None, bool] | None:
        """The clock of the side the game waits for runs (a defender answering a threat too)."""
        if kind not in (EventType.NT, EventType.GAME_START, EventType.TAKEBACK, EventType.GAME_END):
            return None
        waiting = self.game.awaiting() if self.game is not None and self.result is None else None
        if waiting is None:
            return None, False
        turn_ended = any(event.type == "end-turn" for event in events)
        return SEAT_OF_SIDE[waiting[0]], turn_ended

    def _announce(self, kind: EventType, payload: dict, events: list[Any], seq: int) -> Ruling:
        game = self.game
        if kind in (EventType.NT, EventType.TAKEBACK, EventType.GAME_END) and game is not None:
            return Ruling(self.game_id, seq, kind, redact_events(game, events, None),
                          {seat: redact_events(game, events, side) for seat, side in SIDE_OF_SEAT.items()})
        return session_announcement(self.game_id, seq, kind, payload, VARIANT)

    # -- seat commands ----------------------------------------------------------------------
    def _plan(self, seat: str, command: CommandPayload | dict) -> tuple[Any, str]:
        """Decide what a command does, without changing anything; raise CommandError to refuse."""
        kind, args, phase = command["type"], command["args"], self.phase
        side = SIDE_OF_SEAT[seat]
        if kind == Command.SETUP:
            return self._plan_setup(seat, args["setup"]), "set-up accepted"
        if kind == Command.NEW_GAME:
            if phase == Phase.PLAYING:
                raise CommandError("wrong-phase", "the game is still running: resign or agree a draw first")
            if set(args) - {"computer"} or args.get("computer", "off") != "off":
                raise CommandError("invalid-option", "Napoleon's Triumph has no game options here "
                                                     "and no computer player yet")
            return NEW_GAME, "new game"
        if kind not in (Command.NT, Command.RESIGN, Command.OFFER_DRAW, Command.ACCEPT_DRAW,
                        Command.DECLINE_DRAW, Command.OFFER_TAKEBACK, Command.ACCEPT_TAKEBACK,
                        Command.DECLINE_TAKEBACK):
            raise CommandError("wrong-phase", f"{kind} is not part of Napoleon's Triumph")
        if phase != Phase.PLAYING:
            raise CommandError("wrong-phase", f"no game is being played (phase {phase})")
        assert self.game is not None
        if kind == Command.NT:
            waiting = self.game.awaiting()
            if waiting is None or waiting[0] != side:
                whose = waiting[0] if waiting else "nobody"
                decision = DECISIONS.get(waiting[1], waiting[1]) if waiting else ""
                raise CommandError("not-your-turn", f"the game waits for the {whose} player: {decision}")
            action = self._real_ids({**args["action"], "side": side})
            try:
                action_from_dict(action)
            except TriumphError as error:
                raise CommandError("illegal", f"{error.code}: {error.message}") from None
            return [(EventType.NT, {"seat": seat, "action": action})], f"{action['type']} accepted"
        if kind == Command.RESIGN:
            return [(EventType.GAME_END, {"reason": EndReason.RESIGN.value, "seat": seat})], "resigned"
        return self._plan_offer(seat, kind, "blue" if seat == "red" else "red")

    def _plan_setup(self, seat: str, setup: dict) -> list[Item]:
        """A side's set-up, checked alone and, when the other side's is in, together with it."""
        if self.phase != Phase.SETUP:
            raise CommandError("wrong-phase", "set-ups are submitted before the game starts")
        if not is_triumph_setup(setup):
            raise CommandError("invalid-setup", "a Napoleon's Triumph set-up has commanders and units")
        side = SIDE_OF_SEAT[seat]
        try:
            check_setup(side, setup, self.map)
        except TriumphError as error:
            raise setup_refused(error) from None
        items: list[Item] = [(EventType.SETUP_READY, {"seat": seat, "setup": setup})]
        other = "blue" if seat == "red" else "red"
        if other in self.setups:
            both = {seat: setup, other: self.setups[other]}
            try:  # the two armies together: no locale of both sides, capacities
                TriumphGame.from_setups(namespaced(both["blue"], "F."), namespaced(both["red"], "A."))
            except TriumphError as error:
                raise setup_refused(error) from None
            items.append((EventType.GAME_START, {}))
        return items

    def _real_ids(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action with every enemy handle of this turn replaced by the unit's id."""
        assert self.game is not None
        state = self.game.state
        side = action["side"]
        ids = {handle(self.handle_secret, state.turns_played, unit.id): unit.id
               for unit in state.units.values() if unit.side != side}
        return cast(dict[str, Any], renamed(action, ids))

    def _takeback_item(self, seat: str) -> Item:
        """The takeback of the last action, if it showed the opponent nothing."""
        assert self.game is not None
        if not self.game.actions:
            raise CommandError("illegal", "nt-undo: there is no action to take back")
        last = self.game.actions[-1]
        if last.type not in TAKEBACK_TYPES or self.revealing[-1]:
            raise CommandError("illegal", f"nt-undo: a {last.type} cannot be taken back: it showed "
                                          "the opponent what cannot be unseen")
        return (EventType.TAKEBACK, {"seat": seat, "action": last.to_dict()})

    # -- what is published ------------------------------------------------------------------
    def _view(self, side: str | None) -> dict[str, Any] | None:
        if self.game is None:
            return None
        return dict(self.game.view(side).to_dict())

    def public_state(self, board: str, online: set[str]) -> dict:
        """The retained public snapshot: positions and counts, never an unrevealed face."""
        return contract.validate("state", {
            "v": 1, "board": board, "game": self.game_id, "seq": self.seq, "phase": self.phase.value,
            "view": self._view(None), "seats": self.seats_summary(online),
            "clocks": self.clock.to_dict(self.now()), "draw_offer": self.draw_offer,
            "takeback_offer": self.takeback_offer, "board_check": None, "variant": VARIANT,
            "sides": dict(SIDE_OF_SEAT), "at": time.time()})

    def seat_state(self, seat: str) -> SeatState:
        """The retained private snapshot of one seat (to be encrypted to that seat)."""
        record = self.seats.get(seat)
        state: dict[str, Any] = {
            "v": 1, "seat": seat, "game": self.game_id, "seq": self.seq, "phase": self.phase.value,
            # The set-up only while it is the thing to show: in play the view holds every own block.
            "view": self._view(SIDE_OF_SEAT[seat]),
            "setup": self.setups.get(seat) if self.game is None else None,
            "instructions": list(self.instructions.get(seat, [])),
            "last_counter": record.last_counter if record else 0}
        return cast(SeatState, contract.validate("seat_state", fitted(state)))


    def record(self) -> dict[str, Any] | None:
        """The battle so far as a Napoleon's Triumph record (None before both set-ups are in)."""
        return record_of(self.game) if self.game is not None else None


def fitted(state: dict[str, Any], limit: int = crypto.PADDED_SIZE - ENVELOPE_MARGIN) -> dict[str, Any]:
    """A seat state that fits the sealed envelope. The largest measured (3.7 of 4 KiB, a command
    menu late in a battle) fits as it is; should one ever not, the older instructions go first
    (the tablet keeps its own list), then the menu's road moves (plain moves stay offered)."""
    while len(state["instructions"]) > 1 and _packed(state) > limit:
        state["instructions"] = state["instructions"][1:]
    view = state.get("view") or {}
    if _packed(state) > limit and (view.get("awaiting") or {}).get("decision") == "command":
        log.warning("the %s command menu is too large for the envelope: road moves left out", state["seat"])
        menu = [{**entry, "to": [d for d in entry["to"] if isinstance(d, str)]} if "to" in entry else entry
                for entry in view.get("options") or []]
        state["view"] = {**view, "options": [e for e in menu if e.get("to", True)]}
    return state


def _packed(body: dict[str, Any]) -> int:
    """About what the body takes in a sealed envelope (compressed JSON, as crypto packs it)."""
    return len(zlib.compress(json.dumps(body, separators=(",", ":")).encode(), 6))


def setup_refused(error: TriumphError) -> CommandError:
    """The engine's objection to a set-up as the referee's refusal, its reason and data kept for
    the tablet to word in its language."""
    return CommandError("invalid-setup", error.message, getattr(error, "reason", ""),
                        getattr(error, "data", None))


def namespaced(setup: dict[str, Any], prefix: str) -> dict[str, Any]:
    """A set-up with every unit id prefixed by its side's letter: two tablets choose their ids
    alone, and the same id on both sides must not stop the game from starting."""
    units = [{**unit, "id": f"{prefix}{unit['id']}"} if isinstance(unit, dict) else unit
             for unit in setup.get("units", ())]
    battery = setup.get("fixed_battery")
    return {**setup, "units": units,
            **({"fixed_battery": f"{prefix}{battery}"} if isinstance(battery, str) else {})}


# the journal's end reasons (the contract's) -> the engine's declared ends
_END_REASONS = {EndReason.RESIGN: "resignation", EndReason.CLOCK: "time",
                EndReason.GAME_TIME: "game-time", EndReason.DRAW: "agreed"}
