"""One board's game as the referee rules it: engine, journal, clocks, seats and seat commands.

No network here. The session is the one writer of the game. A ruling is applied in memory
(a move: one ``Game.push``, which checks it once and returns the events; a move the rules refuse
raises and changes nothing), the clock is handed over from the events the engine returned, the
ruling is written to the journal (committed), and only then given back to the caller to announce.
If the journal refuses the write, the in-memory change is undone, so nothing unjournalled is
kept or announced. The journal alone rebuilds a Session after a crash, with the same ``_apply``.
Rulings are numbered per game (``seq`` 1, 2, ...); the messages of a ruling carry its number.

Journal entries (names: firmware_bridge.protocol.vocabulary). A ruling is kept under the event it
announces; journals of older versions used the names in brackets and still replay:
  game   {variant, moves_per_turn, volcanoes, time_control}
                                                      a new game (setup phase), seq 0
  setup_ready {seat, setup}        [setup]   ruling   a seat's hidden setup was accepted
  game_start {red, blue}           [start]   ruling   both setups in: the game begins
  game_start {record, ply, to_move}          ruling   a replayed game goes on as a game here
  move   {move, seat}                        ruling   a move the engine accepted
  refusal {move, seat, rule, message}        ruling   a move from the board the rules refuse
  draw_offer / draw_declined {seat} [offer / decline] ruling  draw offer and its refusal
  takeback_offer / takeback_declined {seat} [takeback_decline]
                                             ruling   asking to take the last move back
  takeback {seat, move}                      ruling   the last move taken back (both agreed)
  game_end {reason, seat}          [end]     ruling   resignation, agreed draw, time
  pair   {seat, key, client, name}                    a tablet's key was granted a seat
  reply  {seat, counter, id, reply}                   the answer to an authenticated command
Every ruling's payload also holds ``clock``, the clock checkpoint after it.
"""

from __future__ import annotations

import copy
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from engine import (
    Color,
    Event,
    Game,
    IllegalMove,
    Move,
    Square,
    TakebackEvent,
    place_volcanoes,
    validate_setup,
)
from engine.errors import ArbiterError
from firmware_bridge.board.position import ExpectedPosition
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
from firmware_bridge.referee import computer_choice
from firmware_bridge.referee.clocks import GameClock, TimeControl
from firmware_bridge.referee.game_options import game_variant, volcano_markers
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.replay_mode import game_from_play_on
from firmware_bridge.referee.rulings import Item, Ruling, announce, clock_handover
from firmware_bridge.referee.seats import Seat, seats_summary

TAKEBACK_COMMANDS = frozenset({Command.OFFER_TAKEBACK, Command.ACCEPT_TAKEBACK, Command.DECLINE_TAKEBACK})


class CommandError(ArbiterError):
    """A command the referee refuses; ``code`` is a contract error code."""

    code = "refused"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


@dataclass
class _Before:
    """The session as it was before a batch of rulings, to put back if the journal fails."""

    seq: int
    setups: dict[str, dict[Square, str]]
    game: Game | None
    draw_offer: str | None
    takeback_offer: str | None
    undo: list[Callable[[], object]] = field(default_factory=list)  # the game's own undos


class Session:
    """The referee's game state, rebuilt from and written to the journal."""

    def __init__(self, journal: Journal, variant: str = "classic",
                 time_control: TimeControl | None = None, board_input: bool = False,
                 rng: random.Random | None = None, now: Callable[[], float] = time.monotonic,
                 moves_per_turn: int | None = None) -> None:
        self.journal = journal
        self.default_variant = variant
        game_variant(variant, moves_per_turn)  # a bad option fails here, not at the first game
        self.default_moves_per_turn = moves_per_turn
        self.default_time_control = time_control or TimeControl()
        self.board_input = board_input
        self.rng = rng or random.SystemRandom()
        self.now = now
        self.seats: dict[str, Seat] = {}
        self.game_id = ""
        self.computer_entry: dict[str, str] = {}  # the game entry's computer choice (computer_choice.py)
        self._position: ExpectedPosition | None = None
        self._position_at: tuple[str, int, int] | None = None
        self._replay()

    # -- state ------------------------------------------------------------------------------
    def _reset(self, game_id: str, payload: dict) -> None:
        self.game_id = game_id
        # A journal written before the option existed has no moves_per_turn: the variant's own.
        self.variant = game_variant(payload["variant"], payload.get("moves_per_turn"))
        self.volcanoes = tuple(Square.parse(s) for s in payload.get("volcanoes", ()))
        self.time_control = TimeControl.from_dict(payload.get("time_control"))
        self.clock = GameClock(self.time_control)
        self.setups: dict[str, dict[Square, str]] = {}
        self.game: Game | None = None
        self.seq = 0
        self.draw_offer: str | None = None
        self.takeback_offer: str | None = None
        self.computer_entry = {k: payload[k] for k in ("computer", "computer_level") if k in payload}

    @property
    def phase(self) -> Phase:
        """setup, playing or over."""
        if self.game is None:
            return Phase.SETUP
        return Phase.OVER if self.game.result is not None else Phase.PLAYING

    @property
    def position(self) -> ExpectedPosition | None:
        """What the physical board must show now, for the board reader (None before play starts).

        Taken from the game once per ruling; the same object until the next ruling.
        """
        if self.game is None:
            return None
        at = (self.game_id, self.seq, id(self.game))
        if self._position_at != at:
            self._position = ExpectedPosition.of(self.game, self.game_id)
            self._position_at = at
        return self._position

    def _replay(self) -> None:
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

    def _apply(self, kind: EventType, payload: dict) -> list[Event]:
        """Apply one ruling to the in-memory state; return the engine's events.

        The live path and the replay both come here. A move is pushed once: the engine checks
        it and raises IllegalMove, changing nothing, when the rules refuse it.
        """
        events: list[Event] = []
        if kind is EventType.MOVE:
            assert self.game is not None
            events = self.game.push(Move.parse(payload["move"]))
            self.draw_offer = self.takeback_offer = None
        elif kind is EventType.SETUP_READY:
            self.setups[payload["seat"]] = {Square.parse(s): k for s, k in payload["setup"].items()}
        elif kind is EventType.GAME_START and "record" in payload:
            self.game = game_from_play_on(payload)  # a replayed game played on (replay_desk.py)
        elif kind is EventType.GAME_START:
            self.game = Game.from_setup(self.variant, self.setups["red"], self.setups["blue"],
                                        volcanoes=self.volcanoes)
        elif kind is EventType.DRAW_OFFER:
            self.draw_offer = payload["seat"]
        elif kind is EventType.DRAW_DECLINED:
            self.draw_offer = None
        elif kind is EventType.TAKEBACK_OFFER:
            self.takeback_offer = payload["seat"]
        elif kind is EventType.TAKEBACK_DECLINED:
            self.takeback_offer = None
        elif kind is EventType.TAKEBACK:
            assert self.game is not None
            move = self.game.pop()
            events = [TakebackEvent(str(move), self.game.ply)]
            self.takeback_offer = self.draw_offer = None
        elif kind is EventType.GAME_END:
            assert self.game is not None
            events = self._end(payload["reason"], payload.get("seat"))
            self.draw_offer = None
        self.seq += 1  # numbered once applied: a move the engine refuses has raised before this
        return events

    def _end(self, reason: str, seat: str | None) -> list[Event]:
        assert self.game is not None
        if reason == EndReason.DRAW:
            return self.game.agree_draw()
        if reason == EndReason.GAME_TIME:
            return self.game.game_time_expired()
        assert seat is not None  # a resignation or a fallen flag is someone's
        if reason == EndReason.RESIGN:
            return self.game.resign(Color(seat))
        return self.game.clock_fallen(Color(seat))

    def _apply_pair(self, payload: dict) -> None:
        self.seats[payload["seat"]] = Seat(payload["key"], payload["client"], payload.get("name", ""))

    # -- rulings ----------------------------------------------------------------------------
    def _rule(self, items: list[Item], reply_for: tuple[str, int, str] | None = None,
              ok_message: str = "") -> tuple[list[Ruling], ReplyPayload | None]:
        """Apply rulings in memory, journal them (with the reply to the command that caused
        them) in one transaction, and only then return them to be announced.

        Raises IllegalMove (nothing changed, nothing journalled) when the rules refuse a move;
        if the journal fails, the in-memory changes are undone and the error goes up.
        """
        now = self.now()
        clock = copy.deepcopy(self.clock)
        before = _Before(self.seq, dict(self.setups), self.game, self.draw_offer, self.takeback_offer)
        staged: list[tuple[str, dict]] = []
        applied: list[tuple[EventType, dict, list[Event], int]] = []
        reply = None
        try:
            for kind, payload in items:
                undo = self._undo_for(kind)
                events = self._apply(kind, payload)
                if undo is not None:
                    before.undo.append(undo)
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
            self._put_back(before)
            raise
        # Committed: from here on the rulings exist, whatever happens to this process.
        self.clock = clock
        if reply_for and reply:
            self.seats[reply_for[0]].remember(reply_for[1], dict(reply))
        return [announce(self.game_id, seq, kind, payload, events, self.game, self.variant.name)
                for kind, payload, events, seq in applied], reply

    def _undo_for(self, kind: EventType) -> Callable[[], object] | None:
        """How to take back what applying ``kind`` does to the game, should the journal fail."""
        game = self.game
        if game is None:
            return None
        if kind is EventType.MOVE:
            return game.pop
        if kind is EventType.TAKEBACK:
            last = game.last_move
            return lambda: game.push(last) if last else None
        if kind is EventType.GAME_END:
            # A declared end cannot be popped; the game before it is kept aside (once a game).
            kept = copy.deepcopy(game)
            return lambda: setattr(self, "game", kept)
        return None

    def _put_back(self, before: _Before) -> None:
        self.seq, self.setups, self.game = before.seq, before.setups, before.game
        self.draw_offer, self.takeback_offer = before.draw_offer, before.takeback_offer
        for undo in reversed(before.undo):
            undo()
        self._position_at = None

    def _hand_over(self, clock: GameClock, kind: EventType, events: list[Event], now: float) -> None:
        """Pass the clock on as the ruling just applied says: from the engine's events for a move."""
        if kind is EventType.MOVE:
            running, turn_ended = clock_handover(events)
        elif kind is EventType.GAME_START:
            assert self.game is not None
            running, turn_ended = self.game.to_move.value, False
        elif kind is EventType.TAKEBACK:
            # The clock goes back to the player whose move was taken back.
            assert self.game is not None
            running, turn_ended = self.game.to_move.value, False
        elif kind is EventType.GAME_END:
            running, turn_ended = None, False
        else:
            return  # offers, setups, refusals: the clocks run on as they were
        if running is None:
            clock.stop(now)
        elif clock.running is None:
            clock.start(running, now)
        elif clock.running != running or turn_ended:
            # The mover's turn ended; it may be the mover's again if the opponent passed.
            clock.turn_passed(running, now)

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

    def new_game(self, variant: str | None = None, time_control: TimeControl | None = None,
                 moves_per_turn: int | None = None,
                 volcanoes: tuple[Square, ...] | None = None, computer: str | None = None,
                 computer_level: str | None = None) -> None:
        """Journal and begin a new game in the setup phase (seats stay paired).

        moves_per_turn: 1 for Espionage's one-move option; None for the referee's default.
        The journal's game entry holds the variant's moves per turn and the volcanoes drawn, so a
        replay after a crash rebuilds exactly this game. computer ("red", "blue", "off") and
        computer_level: who plays it, kept in the entry too (None: as in the game before).
        """
        name = variant or self.default_variant
        control = time_control or self.default_time_control
        if moves_per_turn is None and name == self.default_variant:
            moves_per_turn = self.default_moves_per_turn
        rules = game_variant(name, moves_per_turn)
        if volcanoes is None:  # a replayed game brings its own (replay_desk.py)
            volcanoes = place_volcanoes(rules, self.rng)
        payload = {"variant": name, "moves_per_turn": rules.moves_per_turn,
                   "volcanoes": [s.name for s in volcanoes], "time_control": control.to_dict(),
                   **computer_choice.game_entry(self.computer_entry, computer, computer_level)}
        game_id = uuid.uuid4().hex[:16]
        self.journal.append(game_id, JournalEntry.GAME.value, payload)
        self._reset(game_id, payload)

    def pair(self, seat: str, key: str, client: str, name: str = "") -> None:
        """Grant ``seat`` to a tablet key (journaled); an earlier tablet of that seat loses it."""
        payload = {"seat": seat, "key": key, "client": client, "name": name}
        self.journal.append(self.game_id, JournalEntry.PAIR.value, payload)
        self._apply_pair(payload)

    def board_move(self, move: Move, refusal: tuple[str, str] | None = None) -> Ruling:
        """A move seen on the physical board: ruled (one push), or refused with the reason.

        refusal: (rule, message) when the referee itself refuses the move (a computer piece moved
        other than the computer asked, see computer_seat.py); the rules are then not asked.
        """
        if self.game is None or self.game.result is not None:
            raise CommandError("wrong-phase", "no game is being played")
        piece = self.game.piece_at(move.origin)
        # A refusal names whoever touched the piece; a move is always the side to move's.
        seat = piece.color.value if piece else self.game.to_move.value
        if refusal is None:
            try:
                return self._rule([(EventType.MOVE, {"move": str(move), "seat": seat})])[0][0]
            except IllegalMove as illegal:
                refusal = (illegal.refusal.rule, illegal.refusal.message)
        return self._rule([(EventType.REFUSAL, {"move": str(move), "seat": seat, "rule": refusal[0],
                                                "message": refusal[1]})])[0][0]

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
            if items == Command.NEW_GAME:
                self.new_game(moves_per_turn=command["args"].get(
                    "moves_per_turn",
                    self.variant.moves_per_turn if self.variant.name == self.default_variant else None),
                    computer=command["args"].get("computer"), computer_level=command["args"].get("level"))
                return self._answer(record, seat, counter, contract.reply(command_id, True, message=message,
                                                                          seq=0)), []
            try:
                rulings, reply = self._rule(items, (seat, counter, command_id), message)
            except IllegalMove as illegal:  # the push refused it: nothing changed
                raise CommandError("illegal", f"{illegal.refusal.rule}: {illegal.refusal.message}") from None
        except CommandError as error:
            refused = contract.reply(command_id, False, error.code, str(error), seq=self.seq)
            return self._answer(record, seat, counter, refused), []
        assert reply is not None
        return reply, rulings

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

    def _plan(self, seat: str, command: CommandPayload | dict) -> tuple[Any, str]:
        """Decide what a command does, without changing anything; raise CommandError to refuse.

        A move is not checked here: applying it is its one check.
        """
        kind, args, phase = command["type"], command["args"], self.phase
        other = Color(seat).other.value
        if kind == Command.SETUP:
            if phase != Phase.SETUP:
                raise CommandError("wrong-phase", "setups are submitted before the game starts")
            try:
                setup = {Square.parse(s): k for s, k in args["setup"].items()}
            except ValueError as error:
                raise CommandError("invalid-setup", str(error)) from None
            errors = validate_setup(self.variant, Color(seat), setup)
            if errors:
                raise CommandError("invalid-setup", "; ".join(errors))
            items: list[Item] = [(EventType.SETUP_READY,
                                  {"seat": seat, "setup": {s.name: k for s, k in setup.items()}})]
            if other in self.setups:
                items.append((EventType.GAME_START, {}))
            return items, "setup accepted"
        if kind == Command.NEW_GAME:
            if phase == Phase.PLAYING:
                raise CommandError("wrong-phase", "the game is still running: resign or agree a draw first")
            option = args.get("moves_per_turn")
            try:
                game_variant(self.default_variant, option)
            except ValueError as error:
                raise CommandError("invalid-option", str(error)) from None
            refused = computer_choice.refusal(self.seats, seat, args.get("computer"))
            if refused:
                raise CommandError("invalid-option", refused)
            return Command.NEW_GAME, "new game" if option is None else f"new game, moves per turn: {option}"
        if phase != Phase.PLAYING:
            raise CommandError("wrong-phase", f"no game is being played (phase {phase})")
        assert self.game is not None
        if kind == Command.MOVE:
            if self.board_input:
                raise CommandError("board-input", "moves are made on the board here")
            if self.game.to_move.value != seat:
                raise CommandError("not-your-turn", f"it is {self.game.to_move.value}'s turn")
            return [(EventType.MOVE, {"move": str(Move.parse(args["move"])), "seat": seat})], "move accepted"
        if kind == Command.RESIGN:
            return [(EventType.GAME_END, {"reason": EndReason.RESIGN.value, "seat": seat})], "resigned"
        if kind in TAKEBACK_COMMANDS:
            return self._plan_takeback(seat, kind, other)
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

    def _plan_takeback(self, seat: str, kind: str, other: str) -> tuple[list[Item], str]:
        assert self.game is not None
        taken_back: list[Item] = [(EventType.TAKEBACK, {"seat": seat, "move": str(self.game.last_move)})]
        if kind == Command.OFFER_TAKEBACK:
            if not self.game.move_stack:
                raise CommandError("illegal", "there is no move to take back")
            if self.takeback_offer == other:  # both ask: agreed
                return taken_back, "move taken back"
            if self.takeback_offer == seat:
                raise CommandError("no-offer", "your takeback request is already pending")
            return [(EventType.TAKEBACK_OFFER, {"seat": seat})], "takeback requested"
        if self.takeback_offer != other:
            raise CommandError("no-offer", "your opponent has not asked to take a move back")
        if kind == Command.ACCEPT_TAKEBACK:
            return taken_back, "move taken back"
        return [(EventType.TAKEBACK_DECLINED, {"seat": seat})], "takeback declined"

    # -- what is published ------------------------------------------------------------------
    def seats_summary(self, online: set[str]) -> dict[str, SeatSummary]:
        """Public facts about the seats (see seats.seats_summary)."""
        return seats_summary(self.seats, set(self.setups), online)

    def public_state(self, board: str, online: set[str], board_check: dict | None = None,
                     markers_sensed: bool | None = None) -> dict:
        """The retained public snapshot: never a rank the public may not know.

        The game's rules are in it from the setup phase on (the view only exists once play
        starts): variant, moves per turn, and the volcanoes with what to tell the players.
        """
        return contract.validate("state", {
            "v": 1, "board": board, "game": self.game_id, "seq": self.seq, "phase": self.phase.value,
            "view": self.game.view(None).to_dict() if self.game else None,
            "seats": self.seats_summary(online), "clocks": self.clock.to_dict(self.now()),
            "draw_offer": self.draw_offer, "takeback_offer": self.takeback_offer,
            "board_check": board_check, "variant": self.variant.name,
            "moves_per_turn": self.variant.moves_per_turn,
            "volcanoes": [s.name for s in self.volcanoes],
            "volcano_markers": volcano_markers(self.volcanoes, markers_sensed), "at": time.time()})

    def seat_state(self, seat: str) -> SeatState:
        """The retained private snapshot of one seat (to be encrypted to that seat)."""
        own = self.setups.get(seat)
        record = self.seats.get(seat)
        return cast(SeatState, contract.validate("seat_state", {
            "v": 1, "seat": seat, "game": self.game_id, "seq": self.seq, "phase": self.phase.value,
            "view": self.game.view(Color(seat)).to_dict() if self.game else None,
            "setup": {s.name: k for s, k in own.items()} if own else None,
            "last_counter": record.last_counter if record else 0}))

    def expected_occupancy(self) -> frozenset[str]:
        """Squares that should hold a piece now: the game's, or the submitted setups'."""
        if self.game is not None:
            return frozenset(s.name for s in self.game.occupied())
        return frozenset(s.name for setup in self.setups.values() for s in setup)
