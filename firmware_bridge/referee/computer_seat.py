"""The computer at one seat of the real board: fed what that seat's tablet gets, shown as board guidance.

The computer holds its seat like a tablet: it is paired (with a key nobody reads), submits its
setup as a seat command through the session, and reads only ``session.seat_state(seat)`` (its
view) and ``ruling.seat_events[seat]`` (its redacted events). It never holds a ``Game``. When it
is its turn it picks a move; the referee shows that move as board guidance (``computer_move`` in
the public state, a ``move`` step in the board check plan, the LEDs) and a person carries it out
on the board. Only that move is accepted for the computer's pieces: any other is refused with a
reason and guided back (``refusal``).

The computer thinks on a thread of its own, off the referee's lock and off the sensor thread,
so a long think never delays a ruling, a clock or a heartbeat. What it heard is handed to that
thread with the ruling it was heard at; its answer comes back under the referee's lock and is
dropped if a ruling came in between (a takeback, a new game, an offer, a move on the board):
that ruling has asked it again. Without a board its move is then ruled through the session like
any seat's command and ``on_move`` announces it; with a board ``on_move`` shows it as guidance.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine import Move
from firmware_bridge.board.guidance import Step, led_colours
from firmware_bridge.bot import LEVELS, ComputerPlayer
from firmware_bridge.bot.recall_shelf import RecallShelf
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.board_steps import BoardStep, StepAction
from firmware_bridge.protocol.vocabulary import Phase

log = logging.getLogger(__name__)
CLIENT = "computer"  # the client id the computer's seat is paired to
REFUSAL_RULE = "computer-move"  # the rule named when a computer piece is moved the wrong way


class Player(Protocol):
    """What the computer seat needs of a player (firmware_bridge.bot.ComputerPlayer)."""

    def choose_setup(self) -> dict[str, str]: ...  # noqa: D102

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None: ...  # noqa: D102


def check_computer(seat: str | None, level: str) -> None:
    """Raise ValueError for a computer seat or level the referee cannot run."""
    if seat is not None and seat not in contract.SEATS:
        raise ValueError(f"the computer plays red or blue, not {seat!r}")
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r} (known: {', '.join(LEVELS)})")


@dataclass(frozen=True)
class _Question:
    """What the player is asked: what it heard since the last question, at which ruling."""

    player: Player
    view: dict[str, Any]
    events: list[dict[str, Any]]
    asked_at: tuple[str, int]  # (game, seq) of the ruling it was asked at


class ComputerSeat:
    """One seat played by the computer; the referee calls ``follow`` after every ruling."""

    def __init__(self, session, seat: str, level: str = "normal", seed: int | None = None,
                 make_player: Callable[[str, str, str, int | None], Player] | None = None,
                 lock: threading.RLock | None = None,
                 on_move: Callable[[list], None] | None = None,
                 recall: RecallShelf | None = None) -> None:
        check_computer(seat, level)
        self.recall = recall  # what the computer saw of each opponent's setups (None: this process's)
        self.session = session  # read only through seat_state, execute and pair (see module doc)
        self.seat, self.level, self.seed = seat, level, seed
        self.make_player = make_player or self._computer_player
        self.lock = lock or threading.RLock()  # the referee's: held while an answer is applied
        self.on_move = on_move or (lambda made: None)  # the rulings its move made ([]: guidance)
        self.player: Player | None = None
        self.game_id = ""
        self.events: list[dict[str, Any]] = []  # seat events not yet handed to the player
        self.move: Move | None = None  # the move it wants made on the board, while it is its turn
        self.move_ply = -1
        self.dropped = 0  # answers that came too late (a ruling came in between)
        self._ids = itertools.count(1)
        self._asked_at: tuple[str, int] | None = None  # the question whose answer is awaited
        self._questions: queue.Queue[_Question | None] = queue.Queue()
        self._open = 0  # questions asked and not yet answered (or dropped)
        self._idle = threading.Condition()
        self._thread: threading.Thread | None = None

    # -- the seat ---------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        """True while the computer holds its seat (a tablet paired to it takes the seat over)."""
        record = self.session.seats.get(self.seat)
        return record is None or record.client == CLIENT

    def take_seat(self, from_tablet: bool = False) -> None:
        """Pair the seat to the computer, unless it already holds it or (not `from_tablet`) a tablet does."""
        record = self.session.seats.get(self.seat)
        if record is None or (from_tablet and record.client != CLIENT):
            key = crypto.key_to_text(crypto.PrivateKey.generate().public_key)
            self.session.pair(self.seat, key, CLIENT, "computer")

    def follow(self, rulings: list) -> list:
        """Read the seat's events of ``rulings``; answer offers, submit a setup or pick a move when due.

        Returns the rulings the computer's own commands made (setup, answers), to be announced.
        """
        if not self.active:
            self.move = None
            return []
        self.take_seat()  # before a tablet asks for it
        if self.session.game_id != self.game_id:
            self._new_game()
        made = []
        for ruling in rulings:
            self._hear(ruling)
        phase = self.session.phase
        if phase == Phase.SETUP and self.seat not in self.session.setups:
            made = self._submit_setup()
        elif phase == Phase.PLAYING:
            made = self._answer_offers()
            self._think(self.session.seat_state(self.seat)["view"])
        elif phase == Phase.OVER and self.events:
            # It hears how the game ended (the last battle, a resignation): what it saw of the
            # opponent's setup is kept for their next game (`ComputerPlayer` answers no move).
            self._think(self.session.seat_state(self.seat)["view"])
        else:
            self.move = None
        return made

    def _command(self, kind: str, args: dict[str, Any]) -> tuple[dict, list]:
        """Execute one of the seat's commands through the session, as its tablet would send it."""
        record = self.session.seats[self.seat]
        command = {"v": 1, "id": f"computer-{kind}-{next(self._ids)}", "seat": self.seat,
                   "counter": record.last_counter + 1, "type": kind, "args": args}
        reply, rulings = self.session.execute(self.seat, contract.validate("command", command))
        if not reply["ok"]:
            log.warning("the computer's %s was refused: %s", kind, reply.get("message"))
        for ruling in rulings:
            self._hear(ruling)
        return dict(reply), rulings

    def _answer_offers(self) -> list:
        """A person's offers: a draw is declined (the computer plays on), a takeback granted."""
        other = "blue" if self.seat == "red" else "red"
        made = []
        if self.session.draw_offer == other:
            made += self._command("decline_draw", {})[1]
        if self.session.takeback_offer == other:
            made += self._command("accept_takeback", {})[1]
        return made

    def _new_game(self) -> None:
        self.game_id = self.session.game_id
        close = getattr(self.player, "close", None)
        if close is not None:
            close()  # a game left unfinished: what it showed of the opponent's setup is kept too
        self.player = self.make_player(self.session.variant.name, self.seat, self.level, self.seed)
        self.events, self.move, self.move_ply = [], None, -1

    def _computer_player(self, variant_name: str, seat: str, level: str, seed: int | None) -> Player:
        """The bot, remembering the person it plays (`_opponent`) on the referee's shelf."""
        return ComputerPlayer(variant_name, seat, level, seed, opponent=self._opponent(), shelf=self.recall)

    def _opponent(self) -> str:
        """Who the computer plays: the name the other seat's tablet paired with, else the table."""
        record = self.session.seats.get("blue" if self.seat == "red" else "red")
        name = record.name.strip() if record is not None and record.client != CLIENT else ""
        return f"tablet:{name}" if name else "table"

    def _hear(self, ruling) -> None:
        if ruling.game != self.game_id:
            return
        for event in ruling.seat_events[self.seat]:
            self.events.append(event)
            if (event.get("type") == "refusal" and self.move is not None
                    and event.get("move") == str(self.move) and event.get("rule") != REFUSAL_RULE):
                self.move = None  # the rules refused its own move: it chooses again

    def _submit_setup(self) -> list:
        assert self.player is not None
        return self._command("setup", {"setup": self.player.choose_setup()})[1]

    # -- thinking, on its own thread --------------------------------------------------------
    def _think(self, view: dict[str, Any] | None) -> None:
        """Ask the player (on its thread) about what it heard, when there is anything to ask."""
        assert self.player is not None
        if view is None:
            return
        ours = view.get("to_move") == self.seat and view.get("result") is None
        if ours and self.move is not None and self.move_ply == view.get("ply"):
            return  # its move stands until it is made (or refused by the rules)
        if not ours and not self.events:
            self.move = None
            return
        events, self.events = self.events, []
        self.move = None  # until the answer comes
        self._asked_at = (self.session.game_id, self.session.seq)
        with self._idle:
            self._open += 1
        if self._thread is None:
            self._thread = threading.Thread(target=self._think_loop, name=f"computer-{self.seat}", daemon=True)
            self._thread.start()
        self._questions.put(_Question(self.player, view, events, self._asked_at))

    def _think_loop(self) -> None:
        while (question := self._questions.get()) is not None:
            try:
                answer = question.player.on_update(question.view, question.events)
            except Exception:  # a bug in a player must not stop the referee: it just does not move
                log.exception("the computer (%s) failed to think", self.seat)
                answer = None
            try:
                with self.lock:
                    self._answered(question, answer)
            except Exception:
                log.exception("the computer's (%s) answer could not be applied", self.seat)
            finally:
                with self._idle:
                    self._open -= 1
                    self._idle.notify_all()

    def _answered(self, question: _Question, answer: str | None) -> None:
        """The player's answer, under the referee's lock: kept only if nothing was ruled meanwhile."""
        now = (self.session.game_id, self.session.seq)
        if question.asked_at != self._asked_at or question.asked_at != now:
            self.dropped += 1  # stale: the ruling in between asked again
            return
        self._asked_at = None
        ours = question.view.get("to_move") == self.seat and question.view.get("result") is None
        self.move = Move.parse(answer) if ours and answer else None
        self.move_ply = int(question.view.get("ply", -1))
        if self.move is None:
            return
        log.info("the computer (%s) moves %s", self.seat, answer)
        if self.session.board_input:
            self.on_move([])  # shown as guidance: a person makes it on the board
        else:
            self.on_move(self._submit_move())  # no board: ruled at once, like a tablet's move

    def _submit_move(self) -> list:
        """Send the chosen move as the seat's move command (a referee without a board)."""
        assert self.move is not None
        move, self.move = self.move, None
        reply, rulings = self._command("move", {"move": str(move)})
        if reply["ok"]:
            return rulings
        # A tablet hears a refused move in the reply: the player hears it as a refusal and is
        # asked again.
        view = self.session.seat_state(self.seat)["view"]
        self.events.append({"type": "refusal", "color": self.seat, "move": str(move),
                            "rule": reply.get("code") or "refused", "message": reply.get("message", ""),
                            "ply": view["ply"]})
        self._think(view)
        return []

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until every question asked has been answered (or dropped); False on timeout.
        Never call it holding the referee's lock: an answer needs it."""
        with self._idle:
            return self._idle.wait_for(lambda: self._open == 0, timeout)

    def close(self) -> None:
        """Stop thinking: a question under way is finished, its answer dropped."""
        self._asked_at = None
        if self._thread is not None:
            self._questions.put(None)

    # -- what the referee shows and checks --------------------------------------------------
    def public(self) -> dict[str, Any] | None:
        """The ``computer_move`` of the public state: the move to make for the computer, or None."""
        if self.move is None or not self.active:
            return None
        return {"seat": self.seat, "move": str(self.move), "square": self.move.origin.name,
                "to": self.move.target.name, "level": self.level}

    def step(self) -> BoardStep | None:
        """The board step of the computer's move, for the board check plan."""
        if self.move is None or not self.active:
            return None
        return {"action": "move", "square": self.move.origin.name, "to": self.move.target.name,
                "color": self.seat}

    def refusal(self, move: Move) -> tuple[str, str] | None:
        """(rule, message) when ``move`` seen on the board moves a computer piece other than asked."""
        if not self.active or self.session.phase != Phase.PLAYING:
            return None
        view = self.session.seat_state(self.seat)["view"]
        if view is None or view.get("to_move") != self.seat:
            return None  # not its turn: the rules say what is wrong, if anything
        origin = move.origin.name
        if not any(p["square"] == origin and p["color"] == self.seat for p in view["pieces"]):
            return None
        if self.move is None:
            return REFUSAL_RULE, "the computer has not chosen its move yet: put the piece back"
        if move == self.move:
            return None
        return REFUSAL_RULE, (f"the computer moves {self.seat} {self.move.origin.name} to "
                              f"{self.move.target.name}, not {move}: put the piece back")


def computer_leds(computer: ComputerSeat | None, watcher, variant) -> list[int] | None:
    """LED colours for the computer's move (None: nothing to show, or the board needs fixing first)."""
    if computer is None or computer.move is None or not computer.active or watcher.guidance is not None:
        return None
    step = Step(StepAction.MOVE, computer.move.origin, computer.move.target)
    return led_colours(variant.width, variant.height, [step])
