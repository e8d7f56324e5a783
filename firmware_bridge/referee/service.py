"""The referee service: stable boards -> moves -> engine -> journal -> MQTT, commands back.

The referee wires a few objects, each with explicit inputs:
  the game table     the session of the game (games.py): the one writer of the game, the seats
                     and the journal; nothing else changes them
  the publisher      publishing.py over an outbox: mqtt_outbox.py signs and seals for the broker
  pairing            pairing_service.py: requests, codes, grants and the seat handover
  the board side     board_side.py: sensor feed, watcher, replay desk, computer seat, LEDs (only
                     for a game read from a board)
  the clock ticker   clock_ticker.py: fallen flags and the heartbeat
and routes the broker's messages to them under one lock.

Order of a ruling: the session writes it to the journal (committed), then the publisher sends
its events and the new snapshots. Publishing never comes first, so a crash between the two
loses no ruling: the restarted referee replays the journal and republishes every snapshot.
Hidden ranks leave the engine only through the session's views and redacted events, sealed to
that seat's key.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import Move, Square
from firmware_bridge.board.snapshots import Stabiliser, StableBoard
from firmware_bridge.board.sources import SensorSource
from firmware_bridge.bot.recall_shelf import RecallShelf
from firmware_bridge.protocol import contract, crypto, signing
from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.protocol.vocabulary import Command
from firmware_bridge.referee.board_input import BoardWatcher, SensorFeed
from firmware_bridge.referee.board_side import BoardSide
from firmware_bridge.referee.clock_ticker import ClockTicker
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.computer_seat import ComputerSeat
from firmware_bridge.referee.downtime import Heartbeat, heartbeat_path
from firmware_bridge.referee.game_records import RecordShelf
from firmware_bridge.referee.games import TableOptions, open_table
from firmware_bridge.referee.journal import Journal, JournalError
from firmware_bridge.referee.liveness import ALIVE_WINDOW, Liveness
from firmware_bridge.referee.mqtt_outbox import MqttOutbox
from firmware_bridge.referee.pairing import PairingDesk, SeatHandover
from firmware_bridge.referee.pairing_service import PairingService
from firmware_bridge.referee.publishing import Follower, Publisher, StatePart
from firmware_bridge.referee.refusals import RefusalLog
from firmware_bridge.referee.replay_desk import ReplayDesk
from firmware_bridge.referee.rulings import Ruling
from firmware_bridge.referee.session import Session
from firmware_bridge.referee.session_core import CommandError
from firmware_bridge.referee.storage import StorageWatch

log = logging.getLogger(__name__)
REPUBLISH_WINDOW = 0.05  # seconds: hellos within it share one republish
SOFTWARE = "arbiter-referee/1"


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
    alive_window: float = ALIVE_WINDOW  # seconds without a sealed heartbeat before a seat is offline


class Referee:
    """One board's referee: wires the game table, the publisher, pairing, the board side and the clock."""

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
        opened = open_table(self.journal, TableOptions(
            settings.variant, settings.time_control, settings.moves_per_turn, settings.board_input))
        self.session = opened.table
        self.lock = threading.RLock()
        self.stopping = threading.Event()
        self.online: dict[str, str] = {}  # client id -> role: tablets whose sealed heartbeat comes
        self.refusals = RefusalLog()  # junk from the broker: one log line per kind, then counts
        # Time while the referee was down: clocks paused, nothing charged; say how long (downtime.py).
        self.heartbeat = Heartbeat(settings.journal_path)
        beat = self.heartbeat.read()
        away_s = self.heartbeat.away_s(beat)
        self.back: dict | None = None
        if beat is not None and away_s is not None:
            self.session.carry_on_clock(beat)
            self.back = {"type": "referee_back", "away_s": away_s, "clocks": "paused"}
            log.warning("the referee was away %d s; clocks were paused", away_s)
        self.storage = StorageWatch(self._snapshots)
        self.records = RecordShelf(self.session, settings.journal_path, settings.board)
        self.board: BoardSide | None = None
        if opened.board_game is not None:
            self.board = BoardSide(opened.board_game, self.lock, self._announce, self._snapshots,
                                   self.storage, self.online, settings.volcano_markers_sensed,
                                   settings.computer, settings.computer_level,
                                   RecallShelf(_recall_folder(settings.journal_path)))
        # This run of the referee: every message it stamps names it (protocol/freshness.py).
        self.run = self.journal.bump("run")
        self.link = MqttLink(settings.broker_url, f"referee-{settings.board}", ca_file=settings.ca_file,
                             will=lambda: (self.topics.presence("referee"), self.outbox.will(), True))
        self.outbox = MqttOutbox(self.link, self.topics, self.key, self.signer, self.session, self.run,
                                 self.journal.game_number)
        self.liveness = Liveness(self.session, self.online, self.run, self.lock, self._snapshots,
                                 settings.alive_window)
        self.pairing = PairingService(self.session, self.outbox, self.key, self.signer.verify_key,
                                      lambda: self.online, self._snapshots, self._error, self.board,
                                      settings.seat_accounts, self.journal)
        # While the computer plays a seat, a tablet asking for it is told so (pairing_service.py).
        self.pairing.computer_seat = lambda: (self.computer.seat if self.computer and self.computer.active
                                              else None)
        self.publisher = Publisher(self.session, self.outbox, settings.board, self._seats_online,
                                   state_parts=self._state_parts(), seat_parts=[self.pairing.pairing_request],
                                   followers=self._followers())
        self.ticker = ClockTicker(self.session, self.lock, self.heartbeat, self._announce, self.storage,
                                  settings.tick_seconds)
        self.started_at = 0.0
        self.republished_at = 0.0  # when the first full republish after start went out
        self._last_republish = 0.0
        self._republish_timer: threading.Timer | None = None
        self.link.subscribe(self.topics.hello, self._on_hello)
        self.link.subscribe(self.topics.pair_request, self._locked(self.pairing.on_ask))
        self.link.subscribe(f"{self.topics.base}/pair/+/code", self._locked(self.pairing.on_attempt))
        self.link.subscribe(f"{self.topics.base}/seat/+/cmd", self._on_command)
        # Our own retained topics: whatever arrives there beyond the broker's echo of what we
        # published (a forgery, an old message of ours replayed) gets the current one over it.
        for topic in (self.topics.info, self.topics.state, self.topics.presence("referee"),
                      f"{self.topics.base}/seat/+/state"):
            self.link.subscribe(topic, self._on_own_topic)
        self.link.on_connected(self.republish)

    # -- the wiring -------------------------------------------------------------------------
    def _state_parts(self) -> list[StatePart]:
        parts: list[StatePart] = [self._referee_part, self.storage.state_part, self.records.state_part,
                                  self.pairing.state_part]
        if self.board is not None:
            parts.insert(0, self.board.state_part)
        return parts

    def _followers(self) -> list[Follower]:
        followers: list[Follower] = [self.board.follow] if self.board is not None else []
        return [*followers, self.records.follow, self._played_on]

    def _referee_part(self, state: dict[str, Any]) -> None:
        state.setdefault("board_check", None)
        for key in ("replay", "computer_move", "computer"):
            state.setdefault(key, None)
        state["referee_back"] = self.back
        state["notebook"] = self.settings.notebook_allowed

    def _played_on(self, rulings: list[Ruling]) -> list[Ruling]:
        if rulings:
            self.back = None  # play went on: the note about the referee's absence has been seen
        return []

    def _seats_online(self) -> set[str]:
        return {seat for seat, record in self.session.seats.items() if record.client in self.online}

    def _locked(self, handler: Callable[[str, bytes], None]) -> Callable[[str, bytes], None]:
        def locked(topic: str, raw: bytes) -> None:
            with self.lock:
                handler(topic, raw)
        return locked

    def _announce(self, rulings: list[Ruling]) -> None:
        self.publisher.rulings(rulings)

    def _snapshots(self) -> None:
        # The board, storage, pairing or a seat's liveness changed something: a seat's unchanged
        # snapshot stays put (a new holder of the seat gets it all the same, publishing.py).
        self.publisher.snapshots(only_changed=True)

    # -- what tests, tools and the demo read ------------------------------------------------
    @property
    def stratego(self) -> Session:
        """The session as a Stratego-family game: what the board, replays and the computer need."""
        return self._board().session

    def _board(self) -> BoardSide:
        if self.board is None:
            raise CommandError("wrong-phase", f"{self.session.variant_name} is not read from a board")
        return self.board

    @property
    def computer(self) -> ComputerSeat | None:
        """The computer's seat, if the computer plays."""
        return self.board.computer if self.board else None

    @property
    def replay(self) -> ReplayDesk:
        """The replay desk of the board."""
        return self._board().replay

    @property
    def watcher(self) -> BoardWatcher:
        """The board watcher (move recognition)."""
        return self._board().watcher

    @property
    def feed(self) -> SensorFeed | None:
        """The sensor feed, once a source is attached."""
        return self.board.feed if self.board else None

    @property
    def occupancy(self) -> frozenset[str] | None:
        """The latest stable board (None without a board)."""
        return self.board.occupancy if self.board else None

    @property
    def last_board_ruling(self) -> tuple | None:
        """The last move seen on the board and when it was ruled."""
        return self.board.last_board_ruling if self.board else None

    @property
    def last_board_check(self) -> dict | None:
        """The board check as last published (cheap to read)."""
        return self.board.last_board_check if self.board else None

    @property
    def problem(self) -> dict[str, str] | None:
        """What keeps the referee from ruling (storage), or None."""
        return self.storage.problem

    @property
    def desk(self) -> PairingDesk:
        """Pending pairing challenges."""
        return self.pairing.desk

    @property
    def handover(self) -> SeatHandover:
        """A held seat's new tablet, waiting for approval."""
        return self.pairing.handover

    @property
    def on_pairing_code(self) -> Callable[[str, str], None] | None:
        """Called with (seat, code) when a pairing code is to be shown on the console."""
        return self.pairing.on_pairing_code

    @on_pairing_code.setter
    def on_pairing_code(self, show: Callable[[str, str], None] | None) -> None:
        self.pairing.on_pairing_code = show

    def board_check(self) -> dict | None:
        """How the physical board differs from what the referee expects (None without a board)."""
        return self.board.board_check() if self.board else None

    # -- life cycle -------------------------------------------------------------------------
    def start(self, wait: float | None = 10.0) -> bool:
        """Connect, republish every snapshot, start the clock ticker and the sensors."""
        self.started_at = time.monotonic()
        self.records.keep()  # a game that ended just before a crash is kept now
        self.ticker.start()
        self.liveness.start()
        if self.board:
            self.board.start()
        self.announce()  # a computer seat's setup or move, due since the journal's last ruling
        return self.link.start(wait)

    def stop(self) -> None:
        """Publish offline presence, disconnect, close the journal."""
        with self.lock:  # a republish under way (a hello, a reconnect) ends before the farewell
            self.stopping.set()
        if self.board:
            self.board.close()
        self.ticker.stop()
        self.liveness.stop()
        self.link.stop(farewell=(self.topics.presence("referee"), self.outbox.presence(False), True))
        self.journal.close()
        self.refusals.flush()

    # -- errors -----------------------------------------------------------------------------
    def _error(self, topic: str, code: str, message: str) -> None:
        if not self.refusals.note(topic, code, message):
            return  # a flood of one kind of junk gets a few answers a second, not one each
        self.outbox.public("error", {"v": 1, "topic": topic, "code": code, "message": message[:300]})

    # -- incoming ---------------------------------------------------------------------------
    def _on_hello(self, topic: str, raw: bytes) -> None:
        try:
            contract.decode("hello", raw)
        except contract.ContractError as error:
            self._error(topic, error.code, str(error))
            return
        self._schedule_republish()

    def _on_own_topic(self, topic: str, raw: bytes) -> None:
        if not self.outbox.stranger_copy(topic, raw):
            return  # the broker's echo of what we published
        # A stranger's message, or an old one of ours replayed (or retained from before a
        # restart): our current one goes over it, so nobody who connects later is shown it.
        try:
            signing.verify(self.signer.verify_key, topic, raw)
            code = "replayed"
        except signing.SignatureError:
            code = "forged" if "/seat/" not in topic else "replayed"
        self.refusals.note(topic, code, "a message on the referee's own topic that is not its current one")
        self._schedule_republish()

    def _schedule_republish(self) -> None:
        # Many clients saying hello at once (or a flood) get one republish per short window.
        with self.lock:
            wait = self._last_republish + REPUBLISH_WINDOW - time.monotonic()
            if wait <= 0:
                self.republish()
            elif self._republish_timer is None:
                self._republish_timer = threading.Timer(wait, self._delayed_republish)
                self._republish_timer.daemon = True
                self._republish_timer.start()

    def _delayed_republish(self) -> None:
        with self.lock:
            self._republish_timer = None
            if not self.stopping.is_set():
                self.republish()

    def republish(self) -> None:
        """Publish info, presence and every snapshot (on connect, on hello, after a restart)."""
        with self.lock:
            if self.stopping.is_set():
                return  # an "online" after the farewell would tell the tablets a lie
            self.outbox.public("info", {
                "v": 1, "board": self.settings.board, "referee_key": self.public_key,
                "variant": self.session.variant_name, "name": self.settings.name,
                "software": SOFTWARE, "sign_key": self.signer.verify_key}, retain=True)
            self.link.publish(self.topics.presence("referee"), self.outbox.presence(True), retain=True)
            self.publisher.snapshots()
            self._last_republish = time.monotonic()
            if not self.republished_at:
                self.republished_at = self._last_republish

    def _on_command(self, topic: str, raw: bytes) -> None:
        try:
            _, _, seat = contract.parse_topic(topic)
        except contract.ContractError as error:
            self._error(topic, "malformed", str(error))
            return
        assert seat is not None
        with self.lock:
            channel = self.outbox.channel(seat)
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
            if "alive" in header:  # the tablet's sealed heartbeat (liveness.py), no command
                refused = self.liveness.heard(seat, header, body)
                if refused:
                    self.refusals.note(topic, "replayed", refused)
                return
            try:
                command = contract.validate("command", body)
                if command["seat"] != seat or header.get("counter") != command["counter"]:
                    raise contract.ContractError("seat or counter differ between header and command")
            except contract.ContractError as error:
                given = body.get("id")
                command_id = given if isinstance(given, str) and 0 < len(given) <= 64 else "unknown"
                self.publisher.reply(seat, contract.reply(command_id, False, error.code, str(error)))
                return
            self._rule_command(seat, command)

    def _rule_command(self, seat: str, command: dict) -> None:
        """An authenticated command: to pairing, the board side (replays) or the game table."""
        if command["type"] == Command.APPROVE_PAIRING:
            try:
                self.pairing.approve(seat, command)
            except JournalError as error:
                self.storage.failed(error)
                self.publisher.reply(seat, contract.reply(command["id"], False, error.code, error.message))
            return
        replayed = self.board is not None and self.board.handles(command)
        try:
            if self.board is not None and replayed:
                reply, rulings = self.board.execute(seat, command)
            else:
                reply, rulings = self.session.execute(seat, command)
        except CommandError as error:
            reply, rulings = contract.reply(command["id"], False, error.code, str(error)), []
        except JournalError as error:
            # Nothing was applied: the same command, resent once storage works, is ruled then.
            self.storage.failed(error)
            self.publisher.reply(seat, contract.reply(command["id"], False, error.code, error.message))
            return
        self.storage.works()
        if self.board is not None and reply["ok"] and command["type"] == Command.NEW_GAME:
            for lost_seat, holder in self.board.follow_computer_choice(chosen_by_tablet=True):
                self.pairing.tell_seat_lost(holder, lost_seat, "computer")  # the computer took its seat
        self.publisher.rulings(rulings)
        if self.board is not None:
            self.board.after_command(command, reply, replayed)
        self.publisher.reply(seat, reply)

    # -- rulings made elsewhere -------------------------------------------------------------
    def announce(self, rulings: list[Ruling] | None = None) -> None:
        """Publish rulings made outside the service's own paths (tools, tests); the computer seat acts."""
        with self.lock:
            self.publisher.rulings(list(rulings or []))

    def confirm_pairing(self, seat: str) -> bool:
        """The referee's console confirms the tablet waiting for ``seat``; False if none waits."""
        with self.lock:
            return self.pairing.confirm(seat)

    # -- the board --------------------------------------------------------------------------
    def attach_board(self, source: SensorSource, stabiliser: Stabiliser | None = None,
                     volcano_markers_sensed: bool | None = None) -> None:
        """Read moves from a sensor source (serial, GPIO or simulated) from now on.

        volcano_markers_sensed: the board profile's setting (None keeps the settings' value).
        """
        self._board().attach(source, self.on_stable, stabiliser, volcano_markers_sensed,
                             started=bool(self.started_at))

    def on_stable(self, stable: StableBoard) -> None:
        """A new stable board from the sensors: pairing, then move recognition."""
        board = self._board()
        with self.lock:
            self.pairing.board_read(board.read(stable))
            board.recognise(stable)

    def on_board(self, occupied: Iterable[Square | str]) -> None:
        """Convenience for tests and tools: a stable board with exactly these squares occupied."""
        self.on_stable(self._board().on_board(occupied))

    def poll_board(self, now: float) -> None:
        """Called every few ms by the sensor feed: rulings that wait on time."""
        self._board().poll(now)

    def play(self, move: Move | str) -> Ruling:
        """Rule a move as if the board had shown it (the terminal game and tests use this)."""
        with self.lock:
            return self._board().play(Move.parse(move) if isinstance(move, str) else move)


def _recall_folder(journal_path: str | Path) -> Path | None:
    """Where the computer keeps what it saw of its opponents' setups: beside the journal (an
    in-memory journal keeps nothing on disk, and neither does the computer)."""
    if heartbeat_path(journal_path) is None:
        return None
    return Path(journal_path).resolve().parent / "recall"
