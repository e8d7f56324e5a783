"""The computer at one seat of the real board: fed what that seat's tablet gets, shown as board guidance.

The computer holds its seat like a tablet: it is paired (with a key nobody reads), submits its
setup as a seat command through the session, and reads only ``session.seat_state(seat)`` (its
view) and ``ruling.seat_events[seat]`` (its redacted events). It never holds a ``Game``. When it
is its turn it picks a move; the referee shows that move as board guidance (``computer_move`` in
the public state, a ``move`` step in the board check plan, the LEDs) and a person carries it out
on the board. Only that move is accepted for the computer's pieces: any other is refused with a
reason and guided back (``refusal``).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any, Protocol

from engine import Move
from firmware_bridge.board.guidance import Step, led_colours
from firmware_bridge.bot import LEVELS, ComputerPlayer
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


class ComputerSeat:
    """One seat played by the computer; the referee calls ``follow`` after every ruling."""

    def __init__(self, session, seat: str, level: str = "normal", seed: int | None = None,
                 make_player: Callable[[str, str, str, int | None], Player] | None = None) -> None:
        check_computer(seat, level)
        self.session = session  # read only through seat_state, execute and pair (see module doc)
        self.seat, self.level, self.seed = seat, level, seed
        self.make_player = make_player or ComputerPlayer
        self.player: Player | None = None
        self.game_id = ""
        self.events: list[dict[str, Any]] = []  # seat events not yet handed to the player
        self.move: Move | None = None  # the move it wants made on the board, while it is its turn
        self.move_ply = -1
        self._ids = itertools.count(1)

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
            if self.move is not None and not self.session.board_input:
                made += self._submit_move()  # no board: the computer's move is ruled at once
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
        self.player = self.make_player(self.session.variant.name, self.seat, self.level, self.seed)
        self.events, self.move, self.move_ply = [], None, -1

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

    def _submit_move(self, tries: int = 3) -> list:
        """Send the chosen move as the seat's move command (a referee without a board)."""
        for _ in range(tries):
            assert self.move is not None
            reply, rulings = self._command("move", {"move": str(self.move)})
            view = self.session.seat_state(self.seat)["view"]
            if reply["ok"]:
                self.move = None
                self._think(view)  # its own move heard at once
                return rulings
            # A tablet hears a refused move in the reply: the player hears it as a refusal.
            self.events.append({"type": "refusal", "color": self.seat, "move": str(self.move),
                                "rule": reply.get("code") or "refused", "message": reply.get("message", ""),
                                "ply": view["ply"]})
            self.move = None
            self._think(view)
            if self.move is None:
                break
        return []

    def _think(self, view: dict[str, Any] | None) -> None:
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
        answer = self.player.on_update(view, events)
        self.move = Move.parse(answer) if ours and answer else None
        self.move_ply = int(view.get("ply", -1))
        if ours and answer:
            log.info("the computer (%s) moves %s", self.seat, answer)

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
