"""The referee service: stable boards -> moves -> engine -> journal -> MQTT, commands back.

Order of a ruling: the session writes it to the journal (committed), then this module publishes
its events and the new snapshots. Publishing never comes first, so a crash between the two
loses no ruling: the restarted referee replays the journal and republishes every snapshot.
Hidden ranks leave the engine only through ``game.view(color)`` and ``redact_events(..., color)``,
encrypted to that seat's key.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from engine import Move, Square
from firmware_bridge.board.guidance import as_plan, in_board_order, setup_steps
from firmware_bridge.board.recognition import IllegalAttempt, MoveMade
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee import computer_choice
from firmware_bridge.referee.board_input import BoardWatcher, SensorFeed
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.computer_seat import CLIENT as COMPUTER_CLIENT
from firmware_bridge.referee.computer_seat import ComputerSeat, computer_leds
from firmware_bridge.referee.downtime import Heartbeat
from firmware_bridge.referee.journal import Journal, JournalError
from firmware_bridge.referee.pairing import PairingDesk, SeatHandover
from firmware_bridge.referee.pairing_service import PairingService
from firmware_bridge.referee.publishing import Publisher
from firmware_bridge.referee.refusals import RefusalLog
from firmware_bridge.referee.replay_desk import ReplayDesk
from firmware_bridge.referee.session import CommandError, Ruling, Session
from firmware_bridge.referee.triumph_session import VARIANT as TRIUMPH
from firmware_bridge.referee.triumph_session import TriumphSession

log = logging.getLogger(__name__)
REPUBLISH_WINDOW = 0.05  # seconds: hellos within it share one republish


@dataclass
class RefereeSettings:
    """Everything the service needs to run one board."""

    board: str
    journal_path: str | Path
    broker_url: str
    variant: str = "classic"
    moves_per_turn: int | None = None  # 1: Espionage's one-move option; None: the variant's own
    time_control: TimeControl = field(default_factory=TimeControl)
    # Whether the sensors see a volcano marker (board profile); None: learned at setup.
    volcano_markers_sensed: bool | None = None
    board_input: bool = False  # True: moves come from the sensors, not from tablets
    name: str = ""
    # Broker accounts handed to a tablet at pairing (seat -> (username, password)), if any.
    seat_accounts: dict[str, tuple[str, str]] = field(default_factory=dict)
    tick_seconds: float = 0.1
    ca_file: str | None = None  # CA bundle for an mqtts:// broker (None: the system's)
    computer: str | None = None  # the seat the computer plays ("red"/"blue"), None: two people
    computer_level: str = "normal"  # firmware_bridge.bot.LEVELS
    notebook_allowed: bool = True  # False: tablets may not open the player's notebook (tournaments)


def sorted_squares(names) -> list[str]:
    """Square names in board order (rank, then file), as players read them."""
    return [s.name for s in in_board_order(map(Square.parse, names))]


class Referee(PairingService, Publisher):
    """One board's referee: owns the session, the MQTT link and the pairing desk."""

    def __init__(self, settings: RefereeSettings) -> None:
        self.settings = settings
        self.topics = contract.Topics(settings.board)
        self.journal = Journal(settings.journal_path)
        secret = self.journal.set_meta_once("referee_key", crypto.key_to_text(crypto.PrivateKey.generate()))
        self.key = crypto.private_key_from_text(secret)
        self.public_key = crypto.key_to_text(self.key.public_key)
        # A second key, for signatures: every public message is signed with it, so nobody on the
        # broker can forge a state, an event, the info or the referee's presence.
        seed = self.journal.set_meta_once("referee_signing_key", PublicSigner.generate().seed_text)
        self.signer = PublicSigner.from_text(seed)
        self.session: Session | TriumphSession
        if settings.variant == TRIUMPH:
            self.session = TriumphSession(self.journal, settings.time_control)
        else:
            self.session = Session(self.journal, settings.variant, settings.time_control,
                                   board_input=settings.board_input, moves_per_turn=settings.moves_per_turn)
        self.desk = PairingDesk()
        # Time while the referee was down: clocks paused, nothing charged; say how long (downtime.py).
        self.heartbeat = Heartbeat(settings.journal_path)
        beat = self.heartbeat.read()
        away_s = self.heartbeat.away_s(beat)
        self.back: dict | None = None
        if beat is not None and away_s is not None:
            self.session.carry_on_clock(beat)
            self.back = {"type": "referee_back", "away_s": away_s, "clocks": "paused"}
            log.warning("the referee was away %d s; clocks were paused", away_s)
        self.handover = SeatHandover()  # a held seat's new tablet, waiting for the holder's approval
        self.refusals = RefusalLog()  # junk from the broker: one log line per kind, then counts
        self.on_pairing_code: Callable[[str, str], None] | None = None  # (seat, code): show it
        self.occupancy: frozenset[str] | None = None  # latest stable board, None without a board
        self.online: dict[str, str] = {}  # client id -> role, from presence
        self.watcher = BoardWatcher(self._board_move, settings.volcano_markers_sensed)
        # A famous game replayed on the board; Napoleon's Triumph has none (its replay commands
        # never reach the desk, see _on_command), so the desk only ever sees an inactive journal.
        self.replay = ReplayDesk(cast(Session, self.session), settings.volcano_markers_sensed)
        self.computer: ComputerSeat | None = None  # computer_seat.py
        self._follow_computer_choice()
        self.feed: SensorFeed | None = None
        self._last_check: dict | None = None
        self.problem: dict[str, str] | None = None  # what keeps the referee from ruling (storage)
        self.last_board_ruling: tuple | None = None
        self._lock = threading.RLock()
        self._channels: dict[str, crypto.Channel] = {}
        self._stopping = threading.Event()
        self._ticker: threading.Thread | None = None
        self.started_at = 0.0
        self.republished_at = 0.0  # when the first full republish after start went out
        self._last_republish = 0.0
        self._republish_timer: threading.Timer | None = None
        self._recent: dict[str, deque[bytes]] = {}  # topic -> what we published there lately
        offline = self._presence(False)
        self.link = MqttLink(settings.broker_url, f"referee-{settings.board}",
                             will=(self.topics.presence("referee"), offline, True),
                             ca_file=settings.ca_file)
        self.link.subscribe(self.topics.hello, self._on_hello)
        self.link.subscribe(self.topics.pair_request, self._on_pair_request)
        self.link.subscribe(f"{self.topics.base}/pair/+/code", self._on_pair_code)
        self.link.subscribe(f"{self.topics.base}/seat/+/cmd", self._on_command)
        self.link.subscribe(f"{self.topics.base}/presence/+", self._on_presence)
        # Our own retained topics: a stranger's retained info or state is overwritten at once, so
        # a display that connects later pins the real key, not the stranger's (trust on first use).
        self.link.subscribe(self.topics.info, self._on_own_topic)
        self.link.subscribe(self.topics.state, self._on_own_topic)
        self.link.on_connected(self.republish)

    @property
    def stratego(self) -> Session:
        """The session as a Stratego-family game: what the board, replays and the computer need."""
        if not isinstance(self.session, Session):
            raise CommandError("wrong-phase", f"{self.session.variant.name} is not read from a board")
        return self.session

    # -- life cycle -------------------------------------------------------------------------
    def start(self, wait: float | None = 10.0) -> bool:
        """Connect, republish every snapshot, start the clock ticker."""
        self.started_at = time.monotonic()
        self._ticker = threading.Thread(target=self._tick_loop, name="referee-clock", daemon=True)
        self._ticker.start()
        if self.feed:
            self.feed.start()
        self.announce()  # a computer seat's setup or move, due since the journal's last ruling
        return self.link.start(wait)

    def stop(self) -> None:
        """Publish offline presence, disconnect, close the journal."""
        with self._lock:  # a republish under way (a hello, a reconnect) ends before the farewell
            self._stopping.set()
        if self.feed:
            self.feed.stop()
        if self._ticker:
            self._ticker.join(timeout=2)
        self.link.stop(farewell=(self.topics.presence("referee"), self._presence(False), True))
        self.journal.close()
        self.refusals.flush()

    def _tick_loop(self) -> None:
        while not self._stopping.wait(self.settings.tick_seconds):
            with self._lock:
                try:
                    ruling = self.session.tick()
                except JournalError as error:
                    self._storage_failed(error)
                    continue
                except Exception:
                    log.exception("clock tick failed")
                    continue
                if ruling:
                    self._publish_rulings([ruling])
                if self.heartbeat.due():
                    self.heartbeat.beat(self.session.game_id, self.session.seq, self.session.clock_checkpoint())

    # -- storage and errors -----------------------------------------------------------------
    def _storage_failed(self, error: JournalError) -> None:
        """The journal refused a write: say so once, to the log and in the public state."""
        problem = error.to_dict()
        if problem != self.problem:
            log.error("%s; nothing is ruled until the journal can be written again", error.message)
            self.problem = problem
            self._publish_snapshots()

    def _storage_works(self) -> None:
        """A ruling was journalled: a storage problem, if there was one, is over."""
        if self.problem is not None:
            log.warning("the journal can be written again; rulings go on")
            self.problem = None
            self._publish_snapshots()

    def _error(self, topic: str, code: str, message: str) -> None:
        if not self.refusals.note(topic, code, message):
            return  # a flood of one kind of junk gets a few answers a second, not one each
        self.link.publish(self.topics.errors, self._signed(
            self.topics.errors, "error", {"v": 1, "topic": topic, "code": code, "message": message[:300]}))

    # -- incoming ---------------------------------------------------------------------------
    def _on_hello(self, topic: str, raw: bytes) -> None:
        try:
            contract.decode("hello", raw)
        except contract.ContractError as error:
            self._error(topic, error.code, str(error))
            return
        self._schedule_republish()

    def _schedule_republish(self) -> None:
        # Many clients saying hello at once (or a flood) get one republish per short window.
        with self._lock:
            wait = self._last_republish + REPUBLISH_WINDOW - time.monotonic()
            if wait <= 0:
                self.republish()
            elif self._republish_timer is None:
                self._republish_timer = threading.Timer(wait, self._delayed_republish)
                self._republish_timer.daemon = True
                self._republish_timer.start()

    def _delayed_republish(self) -> None:
        with self._lock:
            self._republish_timer = None
            if not self._stopping.is_set():
                self.republish()

    def _on_presence(self, topic: str, raw: bytes) -> None:
        try:
            presence = contract.decode("presence", raw)
        except contract.ContractError as error:
            self.refusals.note(topic, error.code, str(error))  # counted, never answered
            return
        if presence["role"] != "seat":
            return
        with self._lock:
            before = dict(self.online)
            if presence["online"]:
                self.online[presence["client"]] = presence["role"]
            else:
                self.online.pop(presence["client"], None)
            if before != self.online:
                self._publish_snapshots()

    def _on_command(self, topic: str, raw: bytes) -> None:
        try:
            _, _, seat = contract.parse_topic(topic)
        except contract.ContractError as error:
            self._error(topic, "malformed", str(error))
            return
        assert seat is not None
        with self._lock:
            channel = self._channel(seat)
            if channel is None:
                self._error(topic, "not-paired", f"no tablet holds the {seat} seat")
                return
            if len(raw) != crypto.ENVELOPE_SIZE:
                code = "too-large" if len(raw) > crypto.ENVELOPE_SIZE else "malformed"
                self._error(topic, code, f"a command envelope has exactly {crypto.ENVELOPE_SIZE} bytes, not {len(raw)}")
                return
            try:
                header, body = channel.open(raw, expect={"topic": topic, "seat": seat})
            except crypto.CryptoError as error:
                self._error(topic, "unauthenticated", f"not a command of the {seat} seat: {error}")
                return
            reply_topic = self.topics.seat_reply(seat)
            try:
                command = contract.validate("command", body)
                if command["seat"] != seat or header.get("counter") != command["counter"]:
                    raise contract.ContractError("seat or counter differ between header and command")
            except contract.ContractError as error:
                given = body.get("id")
                command_id = given if isinstance(given, str) and 0 < len(given) <= 64 else "unknown"
                self._reply(seat, reply_topic, contract.reply(command_id, False, error.code, str(error)))
                return
            if command["type"] == "approve_pairing":
                self._approve_pairing(seat, command)
                return
            replayed = isinstance(self.session, Session) and self.replay.handles(command)
            executor = self.replay if replayed else self.session
            try:
                reply, rulings = executor.execute(seat, command)
            except CommandError as error:
                reply, rulings = contract.reply(command["id"], False, error.code, str(error)), []
            except JournalError as error:
                # Nothing was applied: the same command, resent once storage works, is ruled then.
                self._storage_failed(error)
                self._reply(seat, reply_topic, contract.reply(command["id"], False, error.code, error.message))
                return
            self._storage_works()
            if reply["ok"] and command["type"] == "new_game":
                self._follow_computer_choice(chosen=True)  # the computer, if any, takes its seat now
            self._publish_rulings(rulings)
            if reply["ok"] and (command["type"] == "new_game" or executor is self.replay):
                self._last_check = self.board_check()
                self._publish_snapshots()
                self._show_leds()
            self._reply(seat, reply_topic, reply)

    def _follow_computer_choice(self, chosen: bool = False) -> None:
        """Seat the computer the current game names (computer_choice.py), unless it sits there already.

        "off" leaves the seat paired to the computer's client until a tablet pairs it. When a
        tablet has just `chosen` the computer, a tablet holding that seat hands it over and is told.
        """
        seat, level = computer_choice.chosen(self.session.computer_entry, self.settings.computer,
                                             self.settings.computer_level)
        if self.computer and (self.computer.seat, self.computer.level) == (seat, level):
            return
        self.computer = ComputerSeat(self.session, seat, level) if seat else None
        if self.computer:
            holder = self.session.seats.get(self.computer.seat)
            if chosen and holder is not None and holder.client != COMPUTER_CLIENT:
                self.computer.take_seat(from_tablet=True)
                self._tell_seat_lost(holder, self.computer.seat, "computer")
            self.online[COMPUTER_CLIENT] = "seat"
        else:
            self.online.pop(COMPUTER_CLIENT, None)

    # -- the board --------------------------------------------------------------------------
    def attach_board(self, source, stabiliser=None, volcano_markers_sensed: bool | None = None) -> None:
        """Read moves from a sensor source (serial, GPIO or simulated) from now on.

        volcano_markers_sensed: the board profile's setting (None keeps the settings' value).
        """
        if volcano_markers_sensed is not None:
            self.settings.volcano_markers_sensed = volcano_markers_sensed
            self.watcher.volcano_markers_sensed = volcano_markers_sensed
        self.session.board_input = True
        self.feed = SensorFeed(source, self.on_stable, self.poll_board, stabiliser,
                               on_resume=self._board_resumed)
        if self.started_at:
            self.feed.start()

    def board_check(self) -> dict | None:
        """How the physical board differs from what the referee expects (None without a board)."""
        if self.occupancy is None:
            return None
        if self.replay.active:
            return self.replay.board_check()
        if self.session.game is not None:
            check = self.watcher.check()
            step = self.computer.step() if self.computer else None
            if step:  # after any fix of the board: the move the computer wants made
                check["plan"] = [*check["plan"], step]
            return check
        # Setup phase: the submitted setups say where pieces belong (other squares stay empty),
        # and volcano markers go on the volcanoes where the sensors see them.
        expected, occupancy = set(self.session.expected_occupancy()), set(self.occupancy)
        volcanoes = {s.name for s in self.session.volcanoes}
        sensed = self.settings.volcano_markers_sensed
        if sensed:
            expected |= volcanoes
        elif sensed is None:  # unknown: a volcano square is checked once the game starts
            occupancy -= volcanoes
        clear, fill = occupancy - expected, expected - occupancy
        steps = setup_steps(map(Square.parse, clear), map(Square.parse, fill), map(Square.parse, volcanoes))
        return {"matches": expected == occupancy, "clear": sorted_squares(clear), "fill": sorted_squares(fill),
                "wrong": [], "reason": "setup", "reading": False, "plan": as_plan(steps)}

    def on_stable(self, stable: StableBoard) -> None:
        """A new stable board from the sensors: pairing, then move recognition."""
        with self._lock:
            self.occupancy = frozenset(s.name for s in stable.occupied())
            for challenge in self.desk.placed(self.occupancy):
                self._grant(challenge)
            self.watcher.feed(stable, self.session.position)
            self.replay.feed(stable)
            self._publish_if_board_changed()

    def on_board(self, occupied) -> None:
        """Convenience for tests and tools: a stable board with exactly these squares occupied."""
        variant = self.session.variant
        squares = [Square.parse(s) if isinstance(s, str) else s for s in occupied]
        self.on_stable(StableBoard.from_squares(squares, variant.width, variant.height, time.monotonic()))

    def poll_board(self, now: float) -> None:
        """Called every few ms by the sensor feed: rulings that wait on time."""
        with self._lock:
            # Most polls change nothing: only then is the (costly) board check recomputed.
            if self.watcher.poll(now, self.session.position) | self.replay.poll(now):
                self._publish_if_board_changed()

    def _board_resumed(self) -> None:
        """The sensors are back after the link dropped: the board is re-read before play goes on."""
        with self._lock:
            self.watcher.resume()
            self._publish_if_board_changed()

    @property
    def last_board_check(self) -> dict | None:
        """The board check as last published (cheap to read)."""
        return self._last_check

    def _publish_if_board_changed(self) -> None:
        check = self.board_check()
        if check != self._last_check:
            self._last_check = check
            self._publish_snapshots()
            self._show_leds()

    def _show_leds(self) -> None:
        if self.feed is None:
            return
        game, variant = self.stratego.game, self.stratego.variant
        try:
            self.feed.source.show_leds(self.replay.leds(variant.width, variant.height)
                                       or computer_leds(self.computer, self.watcher, variant)
                                       or self.watcher.leds(variant.width, variant.height,
                                                            game.last_move if game else None))
        except Exception:  # LEDs are a help, never a reason to stop refereeing
            log.debug("could not show LEDs", exc_info=True)

    def _board_move(self, observation: MoveMade | IllegalAttempt) -> None:
        """The recogniser saw a move (legal or not): rule it, announce it, guide the board."""
        refusal = self.computer.refusal(observation.move) if self.computer else None
        try:
            ruling = self.stratego.board_move(observation.move, refusal)
        except CommandError as error:
            log.info("ignored a board move %s: %s", observation.move, error)
            self.watcher.refused(observation.move)
            return
        except JournalError as error:
            # Not ruled, so not kept: the board is guided back and the move made again later.
            self.watcher.refused(observation.move)
            self._storage_failed(error)
            return
        self._storage_works()
        self.last_board_ruling = (observation, time.monotonic())
        if ruling.kind == "move":
            self.watcher.ruled(self.session.position)  # first: the snapshot published next has the new board check
        else:
            self.watcher.refused(observation.move)
        self._publish_rulings([ruling])
        self._last_check = self.board_check()
        self._show_leds()

    def play(self, move: Move | str) -> Ruling:
        """Rule a move as if the board had shown it (the terminal game and tests use this)."""
        with self._lock:
            ruling = self.stratego.board_move(Move.parse(move) if isinstance(move, str) else move)
            self._publish_rulings([ruling])
            return ruling
