"""The board side of a referee: what a game played on the sensor board adds around its session.

The sensor feed (readings -> stable boards), the watcher (stable boards -> moves, against the
position the session's last ruling left), the replay desk (a recorded game on the board), the
computer seat (its move shown as guidance) and the LEDs. Only a Stratego-family session is
handed to it (games.py); a game with no board has no board side at all.

Its inputs are explicit: the session, the referee's lock (every entry point below is called
with it held, except the computer's answer, which takes it), and what to call when it has
something to say: ``announce`` rulings, ``refresh`` the snapshots, and the storage watch.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from engine import Move, Square
from firmware_bridge.board.guidance import as_plan, in_board_order, setup_steps
from firmware_bridge.board.recognition import IllegalAttempt, MoveMade
from firmware_bridge.board.snapshots import Stabiliser, StableBoard
from firmware_bridge.board.sources import SensorSource
from firmware_bridge.bot.recall_shelf import RecallShelf
from firmware_bridge.protocol.vocabulary import ReplyPayload
from firmware_bridge.referee import computer_choice
from firmware_bridge.referee.board_input import BoardWatcher, SensorFeed
from firmware_bridge.referee.computer_seat import CLIENT as COMPUTER_CLIENT
from firmware_bridge.referee.computer_seat import ComputerSeat, Player, computer_leds
from firmware_bridge.referee.game_options import volcano_markers
from firmware_bridge.referee.journal import JournalError
from firmware_bridge.referee.replay_desk import ReplayDesk
from firmware_bridge.referee.rulings import Ruling
from firmware_bridge.referee.session import Session
from firmware_bridge.referee.session_core import CommandError
from firmware_bridge.referee.storage import StorageWatch

log = logging.getLogger("firmware_bridge.referee.service")  # the service's log, as before the split


def sorted_squares(names: Iterable[str]) -> list[str]:
    """Square names in board order (rank, then file), as players read them."""
    return [s.name for s in in_board_order(map(Square.parse, names))]


class BoardSide:
    """The sensor board, the replay desk and the computer seat around one Stratego-family session."""

    def __init__(self, session: Session, lock: threading.RLock, announce: Callable[[list[Ruling]], None],
                 refresh: Callable[[], None], storage: StorageWatch, online: dict[str, str],
                 volcano_markers_sensed: bool | None = None, computer: str | None = None,
                 computer_level: str = "normal", recall: RecallShelf | None = None) -> None:
        self.session, self.lock = session, lock
        self.recall = recall  # what the computer saw of its opponents' setups (None: this run's only)
        self.announce, self.refresh, self.storage = announce, refresh, storage
        self.online = online  # the referee's presence list: the computer's client is in it while it plays
        self.volcano_markers_sensed = volcano_markers_sensed  # the board profile's setting
        self.default_computer, self.default_level = computer, computer_level
        self.occupancy: frozenset[str] | None = None  # latest stable board, None without a board
        self.watcher = BoardWatcher(self.rule_board_move, volcano_markers_sensed)
        self.replay = ReplayDesk(session, volcano_markers_sensed)
        self.feed: SensorFeed | None = None
        self.computer: ComputerSeat | None = None
        self.last_board_ruling: tuple[Any, float] | None = None
        self._last_check: dict | None = None
        self._check_now: dict | None = None  # the board check of the snapshots being published
        self._check_published: dict | None = None  # the board check of the last public snapshot
        self.follow_computer_choice()

    # -- the computer -----------------------------------------------------------------------
    def follow_computer_choice(self, make_player: Callable[..., Player] | None = None,
                               chosen_by_tablet: bool = False) -> list[tuple[str, Any]]:
        """Seat the computer the current game names (computer_choice.py), unless it sits there already.

        "off" leaves the seat paired to the computer's client until a tablet pairs it.
        make_player: another player than the bot's (tests), seated even where the computer sits.
        When a tablet has just chosen the computer, a tablet holding that seat hands it over:
        returns (seat, that tablet's seat record) to be told, else nothing.
        """
        seat, level = computer_choice.chosen(self.session.computer_entry, self.default_computer,
                                             self.default_level)
        if self.computer and (self.computer.seat, self.computer.level) == (seat, level) and not make_player:
            return []
        if self.computer:
            self.computer.close()
        self.computer = ComputerSeat(self.session, seat, level, make_player=make_player, lock=self.lock,
                                     on_move=self._computer_moved, recall=self.recall) if seat else None
        handed_over: list[tuple[str, Any]] = []
        if self.computer:
            holder = self.session.seats.get(self.computer.seat)
            if chosen_by_tablet and holder is not None and holder.client != COMPUTER_CLIENT:
                self.computer.take_seat(from_tablet=True)
                handed_over.append((self.computer.seat, holder))
            self.online[COMPUTER_CLIENT] = "seat"
        else:
            self.online.pop(COMPUTER_CLIENT, None)
        return handed_over

    def follow(self, rulings: list[Ruling]) -> list[Ruling]:
        """The computer hears the rulings; returns what its own commands made (setup, answers)."""
        return self.computer.follow(rulings) if self.computer else []

    def _computer_moved(self, made: list[Ruling]) -> None:
        """The computer chose (on its own thread, now under the lock): announce or guide."""
        if made:
            self.storage.works()
            self.announce(made)
        else:
            self._publish_if_board_changed(force=True)

    def close(self) -> None:
        """Stop reading the sensors and the computer's thinking."""
        if self.feed:
            self.feed.stop()
        if self.computer:
            self.computer.close()

    # -- commands ---------------------------------------------------------------------------
    def handles(self, command: dict) -> bool:
        """Whether the replay desk answers this command (replay commands; setups and moves in a replay)."""
        return self.replay.handles(command)

    def execute(self, seat: str, command: dict) -> tuple[ReplyPayload, list[Ruling]]:
        """A replay command, ruled by the desk through the session."""
        return self.replay.execute(seat, command)

    def after_command(self, command: dict, reply: ReplyPayload, replayed: bool) -> None:
        """After a new game or a replay command was ruled and announced: the board is checked again."""
        if reply["ok"] and (command["type"] == "new_game" or replayed):
            self._last_check = self.board_check()
            self.refresh()
            self.show_leds()

    # -- the sensors ------------------------------------------------------------------------
    def attach(self, source: SensorSource, on_stable: Callable[[StableBoard], None],
               stabiliser: Stabiliser | None = None, volcano_markers_sensed: bool | None = None,
               started: bool = False) -> None:
        """Read moves from a sensor source from now on: each stable board goes to ``on_stable``
        (the referee: pairing, then ``read``); started: start reading at once."""
        if volcano_markers_sensed is not None:
            self.volcano_markers_sensed = volcano_markers_sensed
            self.watcher.volcano_markers_sensed = volcano_markers_sensed
            self.replay.volcano_markers_sensed = volcano_markers_sensed
        self.session.use_board()
        self.feed = SensorFeed(source, on_stable, self.poll, stabiliser, on_resume=self.resumed)
        if started:
            self.feed.start()

    def start(self) -> None:
        """Start reading the sensors, if a source is attached."""
        if self.feed:
            self.feed.start()

    def read(self, stable: StableBoard) -> frozenset[str]:
        """Take in a new stable board (the lock held); returns the occupied squares. Moves are
        read from it by ``recognise`` (the referee lets pairing see the board in between)."""
        self.occupancy = frozenset(s.name for s in stable.occupied())
        return self.occupancy

    def recognise(self, stable: StableBoard) -> None:
        """Read moves (or the replay's progress) from the stable board just taken in."""
        self.watcher.feed(stable, self.session.position)
        try:
            self.replay.feed(stable)
        except JournalError as error:  # the replay stays where it was recorded
            self.storage.failed(error)
        self._publish_if_board_changed()

    def poll(self, now: float) -> None:
        """Called every few ms by the sensor feed: rulings that wait on time."""
        with self.lock:
            # Most polls change nothing: only then is the (costly) board check recomputed.
            changed = self.watcher.poll(now, self.session.position)
            try:
                changed |= self.replay.poll(now)
            except JournalError as error:  # the replay stays where it was recorded
                self.storage.failed(error)
                changed = True
            if changed:
                self._publish_if_board_changed()

    def resumed(self) -> None:
        """The sensors are back after the link dropped: the board is re-read before play goes on."""
        with self.lock:
            self.watcher.resume()
            self._publish_if_board_changed()

    def rule_board_move(self, observation: MoveMade | IllegalAttempt) -> None:
        """The recogniser saw a move (legal or not): rule it, announce it, guide the board."""
        refusal = self.computer.refusal(observation.move) if self.computer else None
        try:
            ruling = self.session.board_move(observation.move, refusal)
        except CommandError as error:
            log.info("ignored a board move %s: %s", observation.move, error)
            self.watcher.refused(observation.move)
            return
        except JournalError as error:
            # Not ruled, so not kept: the board is guided back and the move made again later.
            self.watcher.refused(observation.move)
            self.storage.failed(error)
            return
        self.storage.works()
        self.last_board_ruling = (observation, time.monotonic())
        if ruling.kind == "move":
            self.watcher.ruled(self.session.position)  # first: the snapshot published next has the new board check
        else:
            self.watcher.refused(observation.move)
        self.announce([ruling])
        self._last_check = self._check_published  # the snapshots just sent carried it
        self.show_leds()

    def play(self, move: Move) -> Ruling:
        """Rule a move as if the board had shown it (the terminal game and tests use this)."""
        ruling = self.session.board_move(move)
        self.announce([ruling])
        return ruling

    # -- what the board is told -------------------------------------------------------------
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
        sensed = self.volcano_markers_sensed
        if sensed:
            expected |= volcanoes
        elif sensed is None:  # unknown: a volcano square is checked once the game starts
            occupancy -= volcanoes
        clear, fill = occupancy - expected, expected - occupancy
        steps = setup_steps(map(Square.parse, clear), map(Square.parse, fill), map(Square.parse, volcanoes))
        return {"matches": expected == occupancy, "clear": sorted_squares(clear), "fill": sorted_squares(fill),
                "wrong": [], "reason": "setup", "reading": False, "plan": as_plan(steps)}

    @property
    def last_board_check(self) -> dict | None:
        """The board check as last published (cheap to read)."""
        return self._last_check

    def _publish_if_board_changed(self, force: bool = False) -> None:
        check = self.board_check()
        if force or check != self._last_check:
            self._last_check = check
            self._publishing(check, self.refresh)
            self.show_leds()

    def _publishing(self, check: dict | None, publish: Callable[[], None]) -> None:
        """Publish with ``check`` just computed (the lock held, nothing changed since) as the
        state's board check: working it out again for the snapshot would cost as much once more."""
        self._check_now = check
        try:
            publish()
        finally:
            self._check_now = None

    def show_leds(self) -> None:
        """Light the board's LEDs with the guidance, the replay's next step or the computer's move."""
        if self.feed is None:
            return
        game, variant = self.session.game, self.session.variant
        try:
            self.feed.source.show_leds(self.replay.leds(variant.width, variant.height)
                                       or computer_leds(self.computer, self.watcher, variant)
                                       or self.watcher.leds(variant.width, variant.height,
                                                            game.last_move if game else None))
        except Exception:  # LEDs are a help, never a reason to stop refereeing
            log.debug("could not show LEDs", exc_info=True)

    def state_part(self, state: dict[str, Any]) -> None:
        """The board's part of the public state: check, volcano markers, replay, the computer."""
        check = self._check_now if self._check_now is not None else self.board_check()
        state["board_check"] = self._check_published = check
        state["volcano_markers"] = volcano_markers(self.session.volcanoes, self.volcano_markers_sensed)
        state["replay"] = self.replay.public()
        computer = self.computer
        state["computer_move"] = computer.public() if computer else None
        state["computer"] = computer.seat if computer and computer.active else None

    # -- pairing by a piece on a square -------------------------------------------------------
    def empty_squares(self) -> list[str] | None:
        """The empty playable squares the sensors read (None: no board read yet)."""
        if self.occupancy is None:
            return None
        game = self.session.game
        variant = self.session.variant
        blocked = game.blocked if game else variant.lakes | frozenset(self.session.volcanoes)
        return sorted(s.name for s in variant.squares() if s.name not in self.occupancy and s not in blocked)

    def expected_squares(self) -> frozenset[str]:
        """The squares the game says hold a piece now (any other piece is a stray)."""
        return self.session.expected_occupancy()

    def middle_squares(self) -> set[str]:
        """The squares between the two setups."""
        variant = self.session.variant
        rows = set(variant.middle_rows())
        return {s.name for s in variant.squares() if s.rank in rows}

    def on_board(self, occupied: Iterable[Square | str]) -> StableBoard:
        """A stable board with exactly these squares occupied (tests and tools)."""
        variant = self.session.variant
        squares = [Square.parse(s) if isinstance(s, str) else s for s in occupied]
        return StableBoard.from_squares(squares, variant.width, variant.height, time.monotonic())
