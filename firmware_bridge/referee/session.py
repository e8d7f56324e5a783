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
  game_start {position, to_move}             ruling   play from a study position (app tests, demos)
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

import random
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from engine import (
    Color,
    Event,
    Game,
    IllegalMove,
    Move,
    PlayerView,
    Square,
    TakebackEvent,
    place_volcanoes,
    validate_setup,
)
from engine.stratego.records import GameRecord
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
)
from firmware_bridge.referee import computer_choice
from firmware_bridge.referee.clocks import GameClock, TimeControl
from firmware_bridge.referee.game_options import game_variant, volcano_markers
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.replay_mode import game_from_play_on
from firmware_bridge.referee.rulings import Item, Ruling, announce, clock_handover
from firmware_bridge.referee.session_core import NEW_GAME, OFFER_RULINGS, CommandError, SessionCore


@dataclass
class _Before:
    """The session as it was before a batch of rulings, to put back if the journal fails."""

    seq: int
    setups: dict[str, dict[Square, str]]
    game: Game | None
    draw_offer: str | None
    takeback_offer: str | None


class Session(SessionCore):
    """A Stratego-family game as the referee rules it, rebuilt from and written to the journal."""

    def __init__(self, journal: Journal, variant: str = "classic",
                 time_control: TimeControl | None = None, board_input: bool = False,
                 rng: random.Random | None = None, now: Callable[[], float] = time.monotonic,
                 moves_per_turn: int | None = None) -> None:
        super().__init__(journal, time_control, now)
        self.default_variant = variant
        game_variant(variant, moves_per_turn)  # a bad option fails here, not at the first game
        self.default_moves_per_turn = moves_per_turn
        self.board_input = board_input
        self.rng = rng or random.SystemRandom()
        self._position: ExpectedPosition | None = None
        self._position_at: tuple[str, int, int] | None = None
        self._views: dict[Color | None, PlayerView] = {}  # viewer -> view, at _views_at
        self._views_at: tuple[str, int, int] | None = None
        self._replay()

    # -- state ------------------------------------------------------------------------------
    @property
    def variant_name(self) -> str:
        """The variant's name on the wire."""
        return self.variant.name

    def use_board(self, on: bool = True) -> None:
        """Whether moves come from the sensor board: while they do, tablets' moves are refused."""
        self.board_input = on

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
        self.draw_offer = None
        self.takeback_offer = None
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

    def _view(self, viewer: Color | None) -> dict[str, Any]:
        """The game's view for ``viewer``, as data of its own for one snapshot.

        A view changes only with a ruling, yet every snapshot (a lift, a presence, a hello)
        needs it: the engine builds each viewer's view once per ruling (PlayerView is frozen),
        and each snapshot gets a fresh ``to_dict()`` of it, ten times cheaper than building.
        """
        assert self.game is not None
        at = (self.game_id, self.seq, id(self.game))
        if self._views_at != at:
            self._views, self._views_at = {}, at
        view = self._views.get(viewer)
        if view is None:
            view = self._views[viewer] = self.game.view(viewer)
        return view.to_dict()

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
        elif kind is EventType.GAME_START and "position" in payload:
            self.setups = {seat: {} for seat in contract.SEATS}  # both seats are in, by the position
            self.game = Game.from_position(self.variant, {
                Square.parse(square): (Color(color), kind_) for square, (color, kind_) in payload["position"].items()},
                to_move=Color(payload["to_move"]), volcanoes=self.volcanoes)
        elif kind is EventType.GAME_START:
            self.game = Game.from_setup(self.variant, self.setups["red"], self.setups["blue"],
                                        volcanoes=self.volcanoes)
        elif kind in OFFER_RULINGS:
            self._apply_offer(kind, payload)
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

    # -- rulings ----------------------------------------------------------------------------
    def _snapshot(self) -> _Before:
        return _Before(self.seq, dict(self.setups), self.game, self.draw_offer, self.takeback_offer)

    def _announce(self, kind: EventType, payload: dict, events: list[Any], seq: int) -> Ruling:
        return announce(self.game_id, seq, kind, payload, events, self.game, self.variant.name)

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
            return game.pop_end  # a declared end is on the engine's undo stack like a move
        return None

    def _put_back(self, snapshot: Any, undos: list[Callable[[], object]]) -> None:
        before = cast(_Before, snapshot)
        self.seq, self.setups, self.game = before.seq, before.setups, before.game
        self.draw_offer, self.takeback_offer = before.draw_offer, before.takeback_offer
        for undo in reversed(undos):
            undo()
        self._position_at = self._views_at = None

    def _running_after(self, kind: EventType, events: list[Any]) -> tuple[str | None, bool] | None:
        """Whose clock runs after the ruling: from the engine's events for a move."""
        if kind is EventType.MOVE:
            return clock_handover(events)
        if kind in (EventType.GAME_START, EventType.TAKEBACK):
            # A takeback gives the clock back to the player whose move was taken back.
            assert self.game is not None
            return self.game.to_move.value, False
        if kind is EventType.GAME_END:
            return None, False
        return None  # offers, setups, refusals: the clocks run on as they were

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
                refused = illegal.refusal
                return self._rule([(EventType.REFUSAL, {
                    "move": str(move), "seat": seat, "rule": refused.rule, "message": refused.message,
                    "reason": refused.reason, "data": dict(refused.data)})])[0][0]
        return self._rule([(EventType.REFUSAL, {"move": str(move), "seat": seat, "rule": refusal[0],
                                                "message": refusal[1]})])[0][0]

    def start_from_position(self, pieces: Mapping[Square, tuple[Color, str]],
                            to_move: Color = Color.RED) -> Ruling:
        """Begin play from a study position instead of two setups (the app's tests and demos):
        a journalled ``game_start`` ruling like any other, so a restart rebuilds it."""
        if self.phase != Phase.SETUP:
            raise CommandError("wrong-phase", "a position is set up before the game starts")
        position = {square.name: [Color(color).value, kind] for square, (color, kind) in pieces.items()}
        return self._rule([(EventType.GAME_START, {"position": position, "to_move": Color(to_move).value})])[0][0]

    def play_on(self, payload: dict, reply_for: tuple[str, int, str] | None,
                message: str) -> tuple[list[Ruling], ReplyPayload | None]:
        """Go on as a normal game from a replayed record at a ply (replay_desk.py): a
        ``game_start`` ruling with the record, journalled with the reply that asked for it."""
        return self._rule([(EventType.GAME_START, payload)], reply_for, message)

    def entries(self) -> list[Any]:
        """The journal entries of the current game (the replay desk rebuilds its replay from them)."""
        return list(self.journal.entries(self.game_id))

    def note(self, kind: str, payload: dict,
             answered: tuple[str, CommandPayload | dict, ReplyPayload] | None = None) -> None:
        """Journal an entry of the current game that is no ruling (a replay's progress), with the
        reply to the command that caused it in the same transaction."""
        self._journal_with_reply([(kind, payload)], answered)

    # -- seat commands ----------------------------------------------------------------------
    def new_game_from(self, args: dict) -> None:
        """Begin the new game a seat's ``new_game`` command asks for (options as in new_game)."""
        same = self.variant.name == self.default_variant
        self.new_game(moves_per_turn=args.get("moves_per_turn", self.variant.moves_per_turn if same else None),
                      computer=args.get("computer"), computer_level=args.get("level"))

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
            return NEW_GAME, "new game" if option is None else f"new game, moves per turn: {option}"
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
        return self._plan_offer(seat, kind, other)

    def _takeback_item(self, seat: str) -> Item:
        """The takeback of the last move, or CommandError when there is none."""
        assert self.game is not None
        if not self.game.move_stack:
            raise CommandError("illegal", "there is no move to take back")
        return (EventType.TAKEBACK, {"seat": seat, "move": str(self.game.last_move)})

    # -- what is published ------------------------------------------------------------------
    def ready_seats(self) -> set[str]:
        """The seats whose setup was accepted."""
        return set(self.setups)

    def public_state(self, board: str, online: set[str]) -> dict:
        """The retained public snapshot: never a rank the public may not know.

        The game's rules are in it from the setup phase on (the view only exists once play
        starts): variant, moves per turn, and the volcanoes with what to tell the players (the
        board side says it again once it knows whether the sensors see a volcano marker).
        """
        return contract.validate("state", {
            "v": 1, "board": board, "game": self.game_id, "seq": self.seq, "phase": self.phase.value,
            "view": self._view(None) if self.game else None,
            "seats": self.seats_summary(online), "clocks": self.clock.to_dict(self.now()),
            "draw_offer": self.draw_offer, "takeback_offer": self.takeback_offer,
            "board_check": None, "variant": self.variant.name,
            "moves_per_turn": self.variant.moves_per_turn,
            "volcanoes": [s.name for s in self.volcanoes],
            "volcano_markers": volcano_markers(self.volcanoes, None), "at": time.time()})

    def seat_state(self, seat: str) -> SeatState:
        """The retained private snapshot of one seat (to be encrypted to that seat)."""
        own = self.setups.get(seat)
        record = self.seats.get(seat)
        return cast(SeatState, contract.validate("seat_state", {
            "v": 1, "seat": seat, "game": self.game_id, "seq": self.seq, "phase": self.phase.value,
            "view": self._view(Color(seat)) if self.game else None,
            "setup": {s.name: k for s, k in own.items()} if own else None,
            "last_counter": record.last_counter if record else 0}))

    def record(self) -> dict[str, Any] | None:
        """The game so far as our JSON record, a declared ending included (None before play)."""
        return GameRecord.from_game(self.game).to_dict() if self.game is not None else None

    def expected_occupancy(self) -> frozenset[str]:
        """Squares that should hold a piece now: the game's, or the submitted setups'."""
        if self.game is not None:
            return frozenset(s.name for s in self.game.occupied())
        return frozenset(s.name for setup in self.setups.values() for s in setup)
