"""One board's game as the referee rules it: engine, journal, clocks, seats and seat commands.

No network here. Every ruling is written to the journal (committed) before the caller gets it
back to announce, and the journal alone rebuilds a Session after a crash. Rulings are numbered
per game (``seq`` 1, 2, ...); the public and private messages of a ruling carry its number.

Journal entry kinds:
  game   {variant, moves_per_turn, volcanoes, time_control}
                                                      a new game (setup phase), seq 0
  setup  {seat, setup}                     ruling     a seat's hidden setup was accepted
  start  {red, blue}                       ruling     both setups in: the game begins
  move   {move, seat}                      ruling     a move the engine accepted
  refusal {move, seat, rule, message}      ruling     a move from the board the rules refuse
  offer / decline {seat}                   ruling     draw offer and its refusal
  takeback_offer / takeback_decline {seat} ruling     asking to take the last move back
  takeback {seat, move}                    ruling     the last move taken back (both agreed)
  end    {reason, seat}                    ruling     resignation, agreed draw, time
  play_on {record, ply, to_move}           ruling     a replayed game goes on as a game here
  pair   {seat, key, client, name}                    a tablet's key was granted a seat
  reply  {seat, counter, id, reply}                   the answer to an authenticated command
Every ruling's payload also holds ``clock``, the clock checkpoint after it.
"""

from __future__ import annotations

import copy
import random
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import (
    Color,
    Game,
    Move,
    RefusalEvent,
    Square,
    TakebackEvent,
    place_volcanoes,
    redact_events,
    validate_setup,
)
from engine.errors import ArbiterError
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.referee.clocks import GameClock, TimeControl
from firmware_bridge.referee.game_options import game_variant, volcano_markers
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.replay_mode import game_from_play_on

RULINGS = ("setup", "start", "move", "refusal", "offer", "decline", "end",
           "takeback_offer", "takeback_decline", "takeback", "play_on")
REPLY_CACHE = 64  # replies kept per seat for resent commands
GENERIC_MOVEMENT_REFUSAL = "that piece cannot move there: put it back"


class CommandError(ArbiterError):
    """A command the referee refuses; ``code`` is a contract error code."""

    code = "refused"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


def key_fingerprint(key: str) -> str | None:
    """The fingerprint of a seat's key text, or None if it is not a public key."""
    try:
        return crypto.fingerprint(key)
    except crypto.CryptoError:
        return None


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


@dataclass
class Ruling:
    """What one ruling announces: its number and the events each audience may see."""

    game: str
    seq: int
    kind: str
    public_events: list[dict]
    seat_events: dict[str, list[dict]]


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

    @property
    def phase(self) -> str:
        """setup, playing or over."""
        if self.game is None:
            return "setup"
        return "over" if self.game.result is not None else "playing"

    def _replay(self) -> None:
        checkpoint = None
        # Only the current game's rulings are applied; earlier games only matter for the
        # seats and command counters they leave behind.
        current = self.journal.last_game()
        for entry in self.journal.entries():
            if entry.kind == "game" and entry.game != current:
                continue
            if entry.kind == "game":
                self._reset(entry.game, entry.payload)
                checkpoint = None
            elif entry.kind == "pair":
                self._apply_pair(entry.payload)
            elif entry.kind == "reply":
                seat = self.seats.get(entry.payload["seat"])
                if seat and seat.key == entry.payload.get("key", seat.key):
                    seat.remember(entry.payload["counter"], entry.payload["reply"])
            elif entry.kind in RULINGS and entry.game == current == self.game_id:
                self._apply(entry.kind, entry.payload)
                checkpoint = entry.payload.get("clock", checkpoint)
        if not self.game_id:
            self.new_game()
            return
        now = self.now()
        if checkpoint:
            self.clock = GameClock.restore(self.time_control, checkpoint, now)
        if self.phase != "playing":
            self.clock.running = None

    def _apply(self, kind: str, payload: dict) -> list:
        """Apply one ruling to the in-memory state; return the engine's events."""
        self.seq += 1
        events: list = []
        if kind == "setup":
            self.setups[payload["seat"]] = {Square.parse(s): k for s, k in payload["setup"].items()}
        elif kind == "start":
            self.game = Game.from_setup(self.variant, self.setups["red"], self.setups["blue"],
                                        volcanoes=self.volcanoes)
        elif kind == "play_on":  # a replayed game played on from its ply (replay_desk.py)
            self.game = game_from_play_on(payload)
        elif kind == "move":
            assert self.game is not None
            events = self.game.push(Move.parse(payload["move"]))
            self.draw_offer = self.takeback_offer = None
        elif kind == "offer":
            self.draw_offer = payload["seat"]
        elif kind == "decline":
            self.draw_offer = None
        elif kind == "takeback_offer":
            self.takeback_offer = payload["seat"]
        elif kind == "takeback_decline":
            self.takeback_offer = None
        elif kind == "takeback":
            assert self.game is not None
            move = self.game.pop()
            events = [TakebackEvent(str(move), self.game.ply)]
            self.takeback_offer = self.draw_offer = None
        elif kind == "end":
            assert self.game is not None
            reason, seat = payload["reason"], payload.get("seat")
            if reason == "resign":
                events = self.game.resign(Color(seat))
            elif reason == "draw":
                events = self.game.agree_draw()
            elif reason == "clock":
                events = self.game.clock_fallen(Color(seat))
            elif reason == "game_time":
                events = self.game.game_time_expired()
            self.draw_offer = None
        return events

    def _apply_pair(self, payload: dict) -> None:
        self.seats[payload["seat"]] = Seat(payload["key"], payload["client"], payload.get("name", ""))

    # -- rulings ----------------------------------------------------------------------------
    def _rule(self, items: list[tuple[str, dict]], reply_for: tuple[str, int, str] | None = None,
              ok_message: str = "") -> tuple[list[Ruling], dict | None]:
        """Journal rulings (and the reply to the command that caused them), then apply them."""
        now = self.now()
        clock = copy.deepcopy(self.clock)
        staged: list[tuple[str, dict]] = []
        for kind, payload in items:
            self._pass_clock(clock, *self._running_after(kind, payload), now)
            staged.append((kind, {**payload, "clock": clock.checkpoint(now)}))
        reply = None
        if reply_for:
            seat, counter, command_id = reply_for
            reply = contract.reply(command_id, True, message=ok_message, seq=self.seq + len(items))
            staged.append(("reply", {"seat": seat, "counter": counter, "id": command_id,
                                     "reply": reply, "key": self.seats[seat].key}))
        self.journal.append_all(self.game_id, staged)
        # Committed: from here on the rulings exist, whatever happens to this process.
        self.clock = clock
        rulings = [self._announce(kind, payload, self._apply(kind, payload)) for kind, payload in items]
        if reply_for and reply:
            self.seats[reply_for[0]].remember(reply_for[1], reply)
        return rulings, reply

    def _running_after(self, kind: str, payload: dict) -> tuple[str | None, bool]:
        """Whose clock runs once this ruling is applied (None: no clock runs), and whether a
        turn ended with it."""
        if kind == "start":
            return "red", False
        if kind == "play_on":
            return payload["to_move"], False
        if kind == "end":
            return None, False
        if kind == "takeback" and self.game is not None:
            # The clock goes back to the player whose move is taken back.
            move = self.game.pop()
            running = self.game.to_move.value
            self.game.push(move)
            return running, False
        if kind == "move" and self.game is not None:
            # Try the move on the engine and take it back: only the engine knows whether the
            # turn passes (Espionage: after the second move of a turn, or after the first when
            # no other piece can move; back to the mover when the opponent is blocked and passes)
            # or the game ends.
            turn = self.game.turn
            self.game.push(Move.parse(payload["move"]))
            running = None if self.game.result else self.game.to_move.value
            turn_ended = self.game.turn != turn
            self.game.pop()
            return running, turn_ended
        return self.clock.running, False

    @staticmethod
    def _pass_clock(clock: GameClock, running: str | None, turn_ended: bool, now: float) -> None:
        if running is None:
            clock.stop(now)
        elif clock.running is None:
            clock.start(running, now)
        elif clock.running != running or turn_ended:
            # The mover's turn ended; it may be the mover's again if the opponent passed.
            clock.turn_passed(running, now)

    def _announce(self, kind: str, payload: dict, events: list) -> Ruling:
        seat = payload.get("seat")
        if kind in ("move", "end", "takeback") and self.game is not None:
            public = redact_events(self.game, events, None)
            private = {s: redact_events(self.game, events, Color(s)) for s in contract.SEATS}
        else:
            simple = {"setup": {"type": "setup_ready", "color": seat},
                      "start": {"type": "game_start", "variant": self.variant.name},
                      "play_on": {"type": "game_start", "variant": self.variant.name},
                      "offer": {"type": "draw_offer", "color": seat},
                      "decline": {"type": "draw_declined", "color": seat},
                      "takeback_offer": {"type": "takeback_offer", "color": seat},
                      "takeback_decline": {"type": "takeback_declined", "color": seat}}
            if kind == "refusal":
                return Ruling(self.game_id, self.seq, kind, [self._refusal_for(payload, None)],
                              {s: [self._refusal_for(payload, s)] for s in contract.SEATS})
            event = simple[kind]
            public, private = [event], {s: [event] for s in contract.SEATS}
        return Ruling(self.game_id, self.seq, kind, public, private)

    def _refusal_for(self, payload: dict, viewer: str | None) -> dict:
        """A refused board move as ``viewer`` may hear it.

        The engine's movement reasons can name the piece ("the bomb on e2 cannot move"); whoever
        may not know that piece hears a reason that names none.
        """
        assert self.game is not None
        message = payload["message"]
        piece = self.game.piece_at(Move.parse(payload["move"]).origin)
        hidden = piece is not None and not self.game.knows(Color(viewer) if viewer else None, piece)
        if hidden and payload["rule"] == "movement":  # the other rules' reasons name no piece
            message = GENERIC_MOVEMENT_REFUSAL
        return RefusalEvent(payload["seat"], payload["move"], payload["rule"], message,
                            self.game.ply).to_dict()

    def new_game(self, variant: str | None = None, time_control: TimeControl | None = None,
                 moves_per_turn: int | None = None,
                 volcanoes: tuple[Square, ...] | None = None) -> None:
        """Journal and begin a new game in the setup phase (seats stay paired).

        moves_per_turn: 1 for Espionage's one-move option; None for the referee's default.
        The journal's game entry holds the variant's moves per turn and the volcanoes drawn, so a
        replay after a crash rebuilds exactly this game.
        """
        name = variant or self.default_variant
        control = time_control or self.default_time_control
        if moves_per_turn is None and name == self.default_variant:
            moves_per_turn = self.default_moves_per_turn
        rules = game_variant(name, moves_per_turn)
        if volcanoes is None:  # a replayed game brings its own (replay_desk.py)
            volcanoes = place_volcanoes(rules, self.rng)
        payload = {"variant": name, "moves_per_turn": rules.moves_per_turn,
                   "volcanoes": [s.name for s in volcanoes], "time_control": control.to_dict()}
        game_id = uuid.uuid4().hex[:16]
        self.journal.append(game_id, "game", payload)
        self._reset(game_id, payload)

    def pair(self, seat: str, key: str, client: str, name: str = "") -> None:
        """Grant ``seat`` to a tablet key (journaled); an earlier tablet of that seat loses it."""
        payload = {"seat": seat, "key": key, "client": client, "name": name}
        self.journal.append(self.game_id, "pair", payload)
        self._apply_pair(payload)

    def board_move(self, move: Move) -> Ruling:
        """A move recognised on the physical board: ruled, or refused with the reason."""
        if self.game is None or self.game.result is not None:
            raise CommandError("wrong-phase", "no game is being played")
        piece = self.game.piece_at(move.origin)
        # A refusal names whoever touched the piece; a move is always the side to move's.
        seat = piece.color.value if piece else self.game.to_move.value
        refusal = self.game.check(move)
        if refusal:
            item = ("refusal", {"move": str(move), "seat": seat, "rule": refusal.rule,
                                "message": refusal.message})
        else:
            item = ("move", {"move": str(move), "seat": seat})
        return self._rule([item])[0][0]

    def tick(self) -> Ruling | None:
        """End the game if a clock ran out."""
        if self.phase != "playing":
            return None
        expired = self.clock.expired(self.now())
        if not expired:
            return None
        what, seat = expired
        payload = {"reason": "clock", "seat": seat} if what == "player" else {"reason": "game_time"}
        return self._rule([("end", payload)])[0][0]

    # -- seat commands ----------------------------------------------------------------------
    def execute(self, seat: str, command: dict) -> tuple[dict, list[Ruling]]:
        """Apply an authenticated, validated command exactly once; return (reply, rulings).

        A resent command (same counter and id) gets its first reply again, marked duplicate;
        an older counter is refused as replayed. Refusals are journaled too, so the counter
        advances durably and a refused command can never be replayed later.
        """
        record = self.seats.get(seat)
        if record is None:
            raise CommandError("not-paired", f"no tablet holds the {seat} seat")
        counter, command_id = command["counter"], command["id"]
        if counter <= record.last_counter:
            cached = record.replies.get(counter)
            if cached and cached["id"] == command_id:
                return {**cached, "duplicate": True}, []
            return contract.reply(command_id, False, "replayed",
                                  f"counter {counter} is not newer than {record.last_counter}"), []
        try:
            items, message = self._plan(seat, command)
        except CommandError as error:
            reply = contract.reply(command_id, False, error.code, str(error), seq=self.seq)
            self.journal.append(self.game_id, "reply", {"seat": seat, "counter": counter,
                                                        "id": command_id, "reply": reply,
                                                        "key": record.key})
            record.remember(counter, reply)
            return reply, []
        if items == "new_game":
            self.new_game(moves_per_turn=command["args"].get("moves_per_turn", self.variant.moves_per_turn
                                                              if self.variant.name == self.default_variant
                                                              else None))
            reply = contract.reply(command_id, True, message=message, seq=0)
            self.journal.append(self.game_id, "reply", {"seat": seat, "counter": counter,
                                                        "id": command_id, "reply": reply,
                                                        "key": record.key})
            record.remember(counter, reply)
            return reply, []
        rulings, reply = self._rule(items, (seat, counter, command_id), message)
        assert reply is not None
        return reply, rulings

    def _plan(self, seat: str, command: dict) -> tuple[Any, str]:
        """Decide what a command does, without changing anything; raise CommandError to refuse."""
        kind, args, phase = command["type"], command["args"], self.phase
        other = Color(seat).other.value
        if kind == "setup":
            if phase != "setup":
                raise CommandError("wrong-phase", "setups are submitted before the game starts")
            try:
                setup = {Square.parse(s): k for s, k in args["setup"].items()}
            except ValueError as error:
                raise CommandError("invalid-setup", str(error)) from None
            errors = validate_setup(self.variant, Color(seat), setup)
            if errors:
                raise CommandError("invalid-setup", "; ".join(errors))
            items = [("setup", {"seat": seat, "setup": {s.name: k for s, k in setup.items()}})]
            if other in self.setups:
                items.append(("start", {}))
            return items, "setup accepted"
        if kind == "new_game":
            if phase == "playing":
                raise CommandError("wrong-phase", "the game is still running: resign or agree a draw first")
            option = command["args"].get("moves_per_turn")
            try:
                game_variant(self.default_variant, option)
            except ValueError as error:
                raise CommandError("invalid-option", str(error)) from None
            return "new_game", "new game" if option is None else f"new game, moves per turn: {option}"
        if phase != "playing":
            raise CommandError("wrong-phase", f"no game is being played (phase {phase})")
        assert self.game is not None
        if kind == "move":
            if self.board_input:
                raise CommandError("board-input", "moves are made on the board here")
            if self.game.to_move.value != seat:
                raise CommandError("not-your-turn", f"it is {self.game.to_move.value}'s turn")
            move = Move.parse(args["move"])
            refusal = self.game.check(move)
            if refusal:
                raise CommandError("illegal", f"{refusal.rule}: {refusal.message}")
            return [("move", {"move": str(move), "seat": seat})], "move accepted"
        if kind == "resign":
            return [("end", {"reason": "resign", "seat": seat})], "resigned"
        if kind.endswith("_takeback"):
            return self._plan_takeback(seat, kind, other)
        if kind == "offer_draw":
            if self.draw_offer == other:  # both want it: that is an agreement
                return [("end", {"reason": "draw", "seat": seat})], "draw agreed"
            if self.draw_offer == seat:
                raise CommandError("no-offer", "your draw offer is already pending")
            return [("offer", {"seat": seat})], "draw offered"
        if self.draw_offer != other:
            raise CommandError("no-offer", "there is no draw offer from your opponent")
        if kind == "accept_draw":
            return [("end", {"reason": "draw", "seat": seat})], "draw agreed"
        return [("decline", {"seat": seat})], "draw declined"

    def _plan_takeback(self, seat: str, kind: str, other: str) -> tuple[list, str]:
        assert self.game is not None
        if kind == "offer_takeback":
            if not self.game.move_stack:
                raise CommandError("illegal", "there is no move to take back")
            if self.takeback_offer == other:  # both ask: agreed
                return [("takeback", {"seat": seat, "move": str(self.game.last_move)})], "move taken back"
            if self.takeback_offer == seat:
                raise CommandError("no-offer", "your takeback request is already pending")
            return [("takeback_offer", {"seat": seat})], "takeback requested"
        if self.takeback_offer != other:
            raise CommandError("no-offer", "your opponent has not asked to take a move back")
        if kind == "accept_takeback":
            return [("takeback", {"seat": seat, "move": str(self.game.last_move)})], "move taken back"
        return [("takeback_decline", {"seat": seat})], "takeback declined"

    # -- what is published ------------------------------------------------------------------
    def seats_summary(self, online: set[str]) -> dict:
        """Public facts about the seats: paired, online, setup submitted, player name, key fingerprint.

        The fingerprint of the granted tablet key lets the family compare it with the number the
        tablet shows for its own key: a key swapped in during pairing gives a different one.
        """
        return {s: {"paired": s in self.seats, "online": s in online,
                    "setup_ready": s in self.setups,
                    "name": self.seats[s].name if s in self.seats else "",
                    "key_fingerprint": key_fingerprint(self.seats[s].key) if s in self.seats else None}
                for s in contract.SEATS}

    def public_state(self, board: str, online: set[str], board_check: dict | None = None,
                     markers_sensed: bool | None = None) -> dict:
        """The retained public snapshot: never a rank the public may not know.

        The game's rules are in it from the setup phase on (the view only exists once play
        starts): variant, moves per turn, and the volcanoes with what to tell the players.
        """
        return contract.validate("state", {
            "v": 1, "board": board, "game": self.game_id, "seq": self.seq, "phase": self.phase,
            "view": self.game.view(None).to_dict() if self.game else None,
            "seats": self.seats_summary(online), "clocks": self.clock.to_dict(self.now()),
            "draw_offer": self.draw_offer, "takeback_offer": self.takeback_offer,
            "board_check": board_check, "variant": self.variant.name,
            "moves_per_turn": self.variant.moves_per_turn,
            "volcanoes": [s.name for s in self.volcanoes],
            "volcano_markers": volcano_markers(self.volcanoes, markers_sensed), "at": time.time()})

    def seat_state(self, seat: str) -> dict:
        """The retained private snapshot of one seat (to be encrypted to that seat)."""
        own = self.setups.get(seat)
        record = self.seats.get(seat)
        return contract.validate("seat_state", {
            "v": 1, "seat": seat, "game": self.game_id, "seq": self.seq, "phase": self.phase,
            "view": self.game.view(Color(seat)).to_dict() if self.game else None,
            "setup": {s.name: k for s, k in own.items()} if own else None,
            "last_counter": record.last_counter if record else 0})

    def expected_occupancy(self) -> frozenset[str]:
        """Squares that should hold a piece now: the game's, or the submitted setups'."""
        if self.game is not None:
            return frozenset(s.name for s in self.game.occupied())
        return frozenset(s.name for setup in self.setups.values() for s in setup)
