"""What every game's referee session shares: the journal replay, the seats and their command
counters, the journalled ruling transaction and the clocks.

A game (Stratego in session.py, Napoleon's Triumph in triumph_session.py) adds its own rulings:
how one is applied in memory (``_apply``), taken back if the journal fails (``_snapshot``,
``_put_back``, ``_undo_for``), who is on the clock after it (``_running_after``), what it
announces (``_announce``), and what a seat's command asks for (``_plan``). The order is the same
for every game: apply in memory, journal (committed), only then announce. If the journal refuses
the write the in-memory change is undone, so nothing unjournalled is kept or announced.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, cast

from engine.core.errors import ArbiterError
from engine.core.refusals import IllegalMove
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.vocabulary import (
    Command,
    CommandPayload,
    EndReason,
    EventType,
    JournalEntry,
    Phase,
    ReplyPayload,
    SeatState,
    SeatSummary,
    ruling_kind,
)
from firmware_bridge.referee.clocks import GameClock, TimeControl
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.rulings import Item, Ruling
from firmware_bridge.referee.seats import Seat, seats_summary

NEW_GAME = "new_game"  # what `_plan` returns for a new game (it is no ruling)
OFFER_RULINGS = frozenset({EventType.DRAW_OFFER, EventType.DRAW_DECLINED, EventType.TAKEBACK_OFFER,
                           EventType.TAKEBACK_DECLINED})
TAKEBACK_COMMANDS = frozenset({Command.OFFER_TAKEBACK, Command.ACCEPT_TAKEBACK, Command.DECLINE_TAKEBACK})


class CommandError(ArbiterError):
    """A command the referee refuses; ``code`` is a contract error code."""

    code = "refused"

    def __init__(self, code: str, message: str, reason: str = "", data: dict | None = None) -> None:
        super().__init__(message, code=code)
        self.reason, self.data = reason, dict(data or {})  # a refusal's sentence, for every language


class SessionCore(ABC):
    """The journal-backed part of a referee session that does not depend on the game.

    A game's session derives from it and implements the abstract hooks below (a session that
    misses one fails at construction); together they make it a ``table.GameTable``.
    """

    game_id: str
    seq: int
    clock: GameClock
    time_control: TimeControl

    def __init__(self, journal: Journal, time_control: TimeControl | None,
                 now: Callable[[], float]) -> None:
        self.journal = journal
        self.default_time_control = time_control or TimeControl()
        self.now = now
        self.seats: dict[str, Seat] = {}
        self.game_id = ""
        self.seq = 0
        self.computer_entry: dict[str, str] = {}  # the game entry's computer choice, if any
        self.draw_offer: str | None = None  # the seat whose draw offer is pending
        self.takeback_offer: str | None = None  # the seat whose takeback request is pending

    # -- what a game adds -------------------------------------------------------------------
    @property
    @abstractmethod
    def variant_name(self) -> str:
        """The game's name on the wire."""

    @property
    @abstractmethod
    def phase(self) -> Phase:
        """setup, playing or over."""

    @abstractmethod
    def _reset(self, game_id: str, payload: dict) -> None:
        """Start the game a journal ``game`` entry describes (seq 0, clocks set)."""

    @abstractmethod
    def _apply(self, kind: EventType, payload: dict) -> list[Any]:
        """Apply one ruling in memory (live and in the replay); return the engine's events."""

    @abstractmethod
    def _snapshot(self) -> Any:
        """What to put back should the journal refuse a batch of rulings."""

    @abstractmethod
    def _put_back(self, snapshot: Any, undos: list[Callable[[], object]]) -> None:
        """Put the snapshot back and undo the game's own changes, last first."""

    def _undo_for(self, kind: EventType) -> Callable[[], object] | None:
        """How to take back what applying ``kind`` does to the game (None: the snapshot does)."""
        return None

    def _running_after(self, kind: EventType, events: list[Any]) -> tuple[str | None, bool] | None:
        """Whose clock runs after the ruling and whether a turn ended; None: unchanged."""
        return None

    @abstractmethod
    def _announce(self, kind: EventType, payload: dict, events: list[Any], seq: int) -> Ruling:
        """The ruling as the public and each seat hear it."""

    @abstractmethod
    def _plan(self, seat: str, command: CommandPayload | dict) -> tuple[Any, str]:
        """The rulings a command asks for and the reply's message, or (NEW_GAME, message)."""

    @abstractmethod
    def _takeback_item(self, seat: str) -> Item:
        """The ruling that takes the last action back, or CommandError when it may not be."""

    @abstractmethod
    def new_game_from(self, args: dict) -> None:
        """Begin the new game a seat's ``new_game`` command asks for."""

    @abstractmethod
    def new_game(self) -> None:
        """Journal and begin a new game with the referee's settings."""

    @abstractmethod
    def public_state(self, board: str, online: set[str]) -> dict:
        """The game's part of the retained public snapshot (never a hidden fact)."""

    @abstractmethod
    def seat_state(self, seat: str) -> SeatState:
        """The retained private snapshot of one seat (to be sealed to that seat)."""

    # -- the journal ------------------------------------------------------------------------
    def _replay(self) -> None:
        """Rebuild the session from the journal: seats, replies, and the current game's rulings."""
        checkpoint = None
        # Only the current game's rulings are applied; earlier games only matter for the
        # seats and command counters they leave behind.
        current = self.journal.last_game()
        for entry in self.journal.entries():
            if entry.kind == JournalEntry.GAME and entry.game != current:
                continue
            ruled = ruling_kind(entry.kind)
            if entry.kind == JournalEntry.GAME:
                self._reset(entry.game, entry.payload)
                checkpoint = None
            elif entry.kind == JournalEntry.PAIR:
                self._apply_pair(entry.payload)
            elif entry.kind == JournalEntry.REPLY:
                seat = self.seats.get(entry.payload["seat"])
                if seat and seat.key == entry.payload.get("key", seat.key):
                    seat.remember(entry.payload["counter"], entry.payload["reply"])
            elif ruled is not None and entry.game == current == self.game_id:
                self._apply(ruled, entry.payload)
                checkpoint = entry.payload.get("clock", checkpoint)
        if not self.game_id:
            self.new_game()
            return
        now = self.now()
        if checkpoint:
            self.clock = GameClock.restore(self.time_control, checkpoint, now)
        if self.phase != Phase.PLAYING:
            self.clock.running = None

    def _apply_pair(self, payload: dict) -> None:
        self.seats[payload["seat"]] = Seat(payload["key"], payload["client"], payload.get("name", ""))

    def answer(self, seat: str, command: CommandPayload | dict, reply: ReplyPayload) -> None:
        """Journal the reply to a command ruled outside the game (a pairing approval), so the
        seat's counter advances durably and a resend is answered alike, never carried out twice."""
        self._journal_with_reply([], (seat, command, reply))

    def _journal_with_reply(self, items: list[tuple[str, dict]],
                            answered: tuple[str, CommandPayload | dict, ReplyPayload] | None) -> None:
        """Journal entries and the reply to the command that caused them in one transaction;
        the seat remembers the reply once it is committed."""
        if answered is not None:
            seat, command, reply = answered
            items = [*items, (JournalEntry.REPLY.value, {
                "seat": seat, "counter": command["counter"], "id": command["id"], "reply": reply,
                "key": self.seats[seat].key})]
        self.journal.append_all(self.game_id, items)
        if answered is not None:
            seat, command, reply = answered
            self.seats[seat].remember(command["counter"], dict(reply))

    def pair(self, seat: str, key: str, client: str, name: str = "") -> None:
        """Grant ``seat`` to a tablet key (journaled); an earlier tablet of that seat loses it."""
        payload = {"seat": seat, "key": key, "client": client, "name": name}
        self.journal.append(self.game_id, JournalEntry.PAIR.value, payload)
        self._apply_pair(payload)

    # -- rulings ----------------------------------------------------------------------------
    def _rule(self, items: list[Item], reply_for: tuple[str, int, str] | None = None,
              ok_message: str = "") -> tuple[list[Ruling], ReplyPayload | None]:
        """Apply rulings in memory, journal them (with the reply to the command that caused
        them) in one transaction, and only then return them to be announced.

        Raises IllegalMove (nothing changed, nothing journalled) when the rules refuse an action;
        if the journal fails, the in-memory changes are undone and the error goes up.
        """
        now = self.now()
        clock = copy.deepcopy(self.clock)
        before = self._snapshot()
        undos: list[Callable[[], object]] = []
        staged: list[tuple[str, dict]] = []
        applied: list[tuple[EventType, dict, list[Any], int]] = []
        reply = None
        try:
            for kind, payload in items:
                undo = self._undo_for(kind)
                events = self._apply(kind, payload)
                if undo is not None:
                    undos.append(undo)
                self._hand_over(clock, kind, events, now)
                payload = {**payload, "clock": clock.checkpoint(now)}
                staged.append((kind.value, payload))
                applied.append((kind, payload, events, self.seq))
            if reply_for:
                seat, counter, command_id = reply_for
                reply = contract.reply(command_id, True, message=ok_message, seq=self.seq)
                staged.append((JournalEntry.REPLY.value, {
                    "seat": seat, "counter": counter, "id": command_id, "reply": reply,
                    "key": self.seats[seat].key}))
            self.journal.append_all(self.game_id, staged)
        except BaseException:
            self._put_back(before, undos)
            raise
        # Committed: from here on the rulings exist, whatever happens to this process.
        self.clock = clock
        if reply_for and reply:
            self.seats[reply_for[0]].remember(reply_for[1], dict(reply))
        return [self._announce(kind, payload, events, seq)
                for kind, payload, events, seq in applied], reply

    def _hand_over(self, clock: GameClock, kind: EventType, events: list[Any], now: float) -> None:
        """Pass the clock on as the ruling just applied says."""
        after = self._running_after(kind, events)
        if after is None:
            return  # offers, setups, refusals: the clocks run on as they were
        running, turn_ended = after
        if running is None:
            clock.stop(now)
        elif clock.running is None:
            clock.start(running, now)
        elif clock.running != running or turn_ended:
            # The mover's turn ended; it may be the mover's again if the opponent passed.
            clock.turn_passed(running, now)

    def clocks(self) -> dict | None:
        """The clocks as the public hears them now."""
        return self.clock.to_dict(self.now())

    def clock_checkpoint(self) -> dict:
        """The clocks as charged up to now, for the heartbeat (firmware_bridge.referee.downtime)."""
        return copy.deepcopy(self.clock).checkpoint(self.now())

    def carry_on_clock(self, beat: dict) -> bool:
        """Go on from the clocks of the referee's last heartbeat, if it was at this very ruling:
        the time it ran after the ruling is charged, the time it was down is not. True if taken."""
        checkpoint = beat.get("clock")
        if (self.phase != Phase.PLAYING or beat.get("game") != self.game_id or beat.get("seq") != self.seq
                or not isinstance(checkpoint, dict)):
            return False
        try:
            self.clock = GameClock.restore(self.time_control, checkpoint, self.now())
        except (KeyError, TypeError):
            return False  # a heartbeat of another version: the journal's checkpoint stays
        return True

    def tick(self) -> Ruling | None:
        """End the game if a clock ran out."""
        if self.phase != Phase.PLAYING:
            return None
        expired = self.clock.expired(self.now())
        if not expired:
            return None
        what, seat = expired
        payload = ({"reason": EndReason.CLOCK.value, "seat": seat} if what == "player"
                   else {"reason": EndReason.GAME_TIME.value})
        return self._rule([(EventType.GAME_END, payload)])[0][0]

    # -- seat commands ----------------------------------------------------------------------
    def execute(self, seat: str, command: CommandPayload | dict) -> tuple[ReplyPayload, list[Ruling]]:
        """Apply an authenticated, validated command exactly once; return (reply, rulings).

        A resent command (same counter and id) gets its first reply again, marked duplicate;
        an older counter is refused as replayed. Refusals are journaled too, so the counter
        advances durably and a refused command can never be replayed later.
        """
        record, owed = self.fresh(seat, command)
        if owed is not None:
            return owed, []
        counter, command_id = command["counter"], command["id"]
        try:
            items, message = self._plan(seat, command)
            if items == NEW_GAME:
                self.new_game_from(command["args"])
                return self._answer(record, seat, counter, contract.reply(command_id, True, message=message,
                                                                          seq=0)), []
            try:
                rulings, reply = self._rule(items, (seat, counter, command_id), message)
            except IllegalMove as illegal:  # the engine refused it: nothing changed
                refusal = illegal.refusal
                raise CommandError("illegal", f"{refusal.rule}: {refusal.message}", refusal.reason,
                                   dict(refusal.data)) from None
        except CommandError as error:
            refused = contract.reply(command_id, False, error.code, str(error), seq=self.seq,
                                     reason=error.reason, data=error.data)
            return self._answer(record, seat, counter, refused), []
        assert reply is not None
        return reply, rulings

    def _apply_offer(self, kind: EventType, payload: dict) -> None:
        """A draw offer or takeback request made or declined (both games alike)."""
        if kind is EventType.DRAW_OFFER:
            self.draw_offer = payload["seat"]
        elif kind is EventType.DRAW_DECLINED:
            self.draw_offer = None
        elif kind is EventType.TAKEBACK_OFFER:
            self.takeback_offer = payload["seat"]
        elif kind is EventType.TAKEBACK_DECLINED:
            self.takeback_offer = None

    def _plan_offer(self, seat: str, kind: str, other: str) -> tuple[list[Item], str]:
        """A draw offer or takeback request, or the answer to the opponent's: both asking agree."""
        if kind in TAKEBACK_COMMANDS:
            if kind == Command.OFFER_TAKEBACK:
                taken_back = [self._takeback_item(seat)]
                if self.takeback_offer == other:  # both ask: agreed
                    return taken_back, "move taken back"
                if self.takeback_offer == seat:
                    raise CommandError("no-offer", "your takeback request is already pending")
                return [(EventType.TAKEBACK_OFFER, {"seat": seat})], "takeback requested"
            if self.takeback_offer != other:
                raise CommandError("no-offer", "your opponent has not asked to take a move back")
            if kind == Command.ACCEPT_TAKEBACK:
                return [self._takeback_item(seat)], "move taken back"
            return [(EventType.TAKEBACK_DECLINED, {"seat": seat})], "takeback declined"
        agreed: list[Item] = [(EventType.GAME_END, {"reason": EndReason.DRAW.value, "seat": seat})]
        if kind == Command.OFFER_DRAW:
            if self.draw_offer == other:  # both want it: that is an agreement
                return agreed, "draw agreed"
            if self.draw_offer == seat:
                raise CommandError("no-offer", "your draw offer is already pending")
            return [(EventType.DRAW_OFFER, {"seat": seat})], "draw offered"
        if self.draw_offer != other:
            raise CommandError("no-offer", "there is no draw offer from your opponent")
        if kind == Command.ACCEPT_DRAW:
            return agreed, "draw agreed"
        return [(EventType.DRAW_DECLINED, {"seat": seat})], "draw declined"

    def fresh(self, seat: str, command: CommandPayload | dict) -> tuple[Seat, ReplyPayload | None]:
        """The seat's record, and the answer already owed when ``command`` is not new: its first
        reply again for a resend (marked duplicate), a refusal for an older counter."""
        record = self.seats.get(seat)
        if record is None:
            raise CommandError("not-paired", f"no tablet holds the {seat} seat")
        counter, command_id = command["counter"], command["id"]
        if counter > record.last_counter:
            return record, None
        cached = record.replies.get(counter)
        if cached and cached["id"] == command_id:
            return record, cast(ReplyPayload, {**cached, "duplicate": True})
        return record, contract.reply(command_id, False, "replayed",
                                      f"counter {counter} is not newer than {record.last_counter}")

    def _answer(self, record: Seat, seat: str, counter: int, reply: ReplyPayload) -> ReplyPayload:
        """Journal the reply to a command that made no ruling (refused, or a new game)."""
        self.journal.append(self.game_id, JournalEntry.REPLY.value, {
            "seat": seat, "counter": counter, "id": reply["id"], "reply": reply, "key": record.key})
        record.remember(counter, dict(reply))
        return reply

    def ready_seats(self) -> set[str]:
        """The seats whose set-up the referee has accepted."""
        raise NotImplementedError

    def seats_summary(self, online: set[str]) -> dict[str, SeatSummary]:
        """Public facts about the seats (see seats.seats_summary)."""
        return seats_summary(self.seats, self.ready_seats(), online)
