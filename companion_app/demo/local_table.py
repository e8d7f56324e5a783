"""An in-process table: the referee's real session and publisher behind links the app talks to.

For the app's tests, the benchmark and trying the app without a network. The session rules on
everything (setups, moves, refusals, offers, takebacks, the end) and journals it in a temporary
file, exactly as on the Pi; the referee's own publisher (firmware_bridge/referee/publishing.py)
sends what it sends for a ruling (the public and each seat's events, then the public and seat
snapshots), through an outbox that hands each message to the links that would receive it over
MQTT, through the app's own contract adapter.

What a real table adds around the session is stood in for here: `play` is a move made on the
physical board, `board_matches`/`board_check` are what its sensors report, `clocks` and
`key_fingerprints` what a timed referee and paired tablet keys would show.
"""

from __future__ import annotations

import random
import tempfile
import uuid
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion_app.net.contract_adapter import ContractTranslator, contract_command
from companion_app.net.link import Deliver, Link
from engine import Color, Game, Move, Square, Variant
from firmware_bridge.protocol import contract
from firmware_bridge.referee.games import TableOptions, open_table
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.publishing import Publisher
from firmware_bridge.referee.session import CommandError, Session


class LocalOutbox:
    """The publisher's way out to the links of one process: each message to whoever would get it."""

    def __init__(self, links: list[LocalLink]) -> None:
        self.links = links

    def public(self, kind: str, body: dict[str, Any], retain: bool = False) -> None:
        """A public message to every link (events only to those that hold no seat)."""
        contract.validate(kind, body)
        for link in list(self.links):
            if kind == "state":
                link.adapter.public_state(body)
            elif kind == "events" and not link.seat:
                link.adapter.events(body)

    def to_seat(self, seat: str, kind: str, body: Mapping[str, Any], retain: bool = False) -> None:
        """A seat's message to the links of that seat."""
        for link in [link for link in self.links if link.seat == seat]:
            if kind == "seat_state":
                link.adapter.seat_state(dict(body))
            elif kind == "seat_events":
                link.adapter.events(dict(body))
            elif kind == "reply":
                link.replies.append(dict(body))
                link.adapter.reply(dict(body))


class LocalTable:
    """One board's referee session in this process, and the board, clocks and keys around it."""

    def __init__(self, variant: str = "classic", board: str = "local", seed: int | None = None) -> None:
        self.board = board
        # The journal is a real one (WAL, one transaction per ruling), in a folder removed with
        # this table (tests make many tables and rarely close them).
        folder = tempfile.TemporaryDirectory(prefix="arbiter-local-table-")
        self.journal = Journal(Path(folder.name) / "journal.db")
        self._release = weakref.finalize(self, _release, self.journal, folder)
        opened = open_table(self.journal, TableOptions(variant, rng=random.Random(seed)))
        self.session = opened.table
        self._stratego = opened.board_game  # None: a game with no board (Napoleon's Triumph)
        self.links: list[LocalLink] = []
        self.board_matches = True  # what the sensors report while no board_check is set
        self.board_check: dict[str, Any] | None = None  # a board check the "sensors" report
        self.clocks: dict[str, Any] | None = None  # what a timed referee's clocks would show
        self.key_fingerprints: dict[str, str] = {}  # seat -> its tablet's key fingerprint
        self.publisher = Publisher(self.session, LocalOutbox(self.links), board,
                                   online=lambda: {link.seat for link in self.links if link.seat},
                                   state_parts=[self._stand_ins],
                                   clocks=lambda: self.clocks or self.session.clocks())
        self._counter = 0

    # -- the session's state, for tests ---------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The Stratego-family game the session rules (None in the setup phase)."""
        return self.stratego.game

    @property
    def stratego(self) -> Session:
        """The session of a Stratego-family game (what the board, setups and moves need)."""
        assert self._stratego is not None, "a Napoleon's Triumph table has no board"
        return self._stratego

    @property
    def variant(self) -> Variant:
        """The rules of the current game."""
        return self.stratego.variant

    @property
    def volcanoes(self) -> tuple[Square, ...]:
        """Espionage's volcanoes, drawn when the game was created."""
        return self.stratego.volcanoes

    @property
    def setups(self) -> dict[str, dict[str, str]]:
        """The setups the session accepted, by seat, as square names."""
        return {seat: {s.name: kind for s, kind in setup.items()}
                for seat, setup in self.stratego.setups.items()}

    @property
    def board_input(self) -> bool:
        """True: the session refuses moves from tablets, as with a sensing board."""
        return self._stratego is not None and self._stratego.board_input

    @board_input.setter
    def board_input(self, value: bool) -> None:
        self.stratego.use_board(value)

    def set_position(self, pieces: Mapping[Square, tuple[Color, str]], to_move: Color = Color.RED) -> None:
        """Play on from a study position (app tests of rules no setup reaches quickly): the
        session's own journalled start from a position, announced like any start. A game under
        way gives way to a new one with the same rules (variant, moves per turn, volcanoes)."""
        session = self.stratego
        if session.phase != "setup":
            session.new_game(session.variant.name, moves_per_turn=session.variant.moves_per_turn,
                             volcanoes=session.volcanoes)
        self.publisher.rulings([session.start_from_position(pieces, to_move)])

    # -- what the referee service does ------------------------------------------------------------
    def attach(self, link: LocalLink) -> None:
        """A tablet or display joined: its seat is granted (a tablet), then every snapshot."""
        self.links.append(link)
        link.adapter.info({"board": self.board, "variant": self.session.variant_name, "name": self.board})
        if link.seat:
            if link.seat not in self.session.seats:
                # No key exchange in one process: a key text that is no public key has no fingerprint.
                self.session.pair(link.seat, f"local-{link.seat}", f"local-{link.seat}", link.seat)
            link.adapter.pairing({"status": "granted", "seat": link.seat})
            if link.seat in self.key_fingerprints:
                link.deliver("my_fingerprint", {"fingerprint": self.key_fingerprints[link.seat]})
        self.publish()

    def detach(self, link: LocalLink) -> None:
        """A tablet or display left."""
        if link in self.links:
            self.links.remove(link)

    def command(self, seat: str, command_type: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """One seat's command in the contract's terms, as the referee takes it; returns the reply
        (also sent to the seat's links, as the referee sends it)."""
        self._counter += 1
        command_id = uuid.uuid4().hex
        game = self._stratego.game if self._stratego is not None else None
        before = game.occupied() if game is not None else frozenset()
        try:
            command = contract.command(seat, command_id, self._counter, command_type, **(args or {}))
            reply, rulings = self.session.execute(seat, command)
        except (contract.ContractError, CommandError) as error:  # refused as the referee refuses
            reply, rulings = contract.reply(command_id, False, error.code, str(error)), []
        if any(ruling.kind == "takeback" for ruling in rulings) and game is not None:
            # The physical board still shows the move taken back: its check says what to put right.
            after = self.stratego.game.occupied() if self.stratego.game else frozenset()
            self.board_check = {"matches": False, "clear": sorted(s.name for s in before - after),
                                "fill": sorted(s.name for s in after - before), "wrong": [],
                                "reason": "restore"}
        if command_type == "new_game" and reply["ok"]:
            self.board_check = None
        self.publisher.rulings(rulings)
        if command_type == "new_game" and reply["ok"]:
            self.publish()
        self.publisher.reply(seat, reply)
        return dict(reply)  # the app holds its own dict, as it does after the wire

    def play(self, text: str) -> dict[str, Any]:
        """A move made on the physical board: ruled, or refused and the refusal announced.

        Returns a reply-like answer for tests: ok, or the code and the engine's reason.
        """
        try:
            ruling = self.stratego.board_move(Move.parse(text))
        except CommandError as error:
            return {"ok": False, "code": error.code, "message": str(error)}
        if ruling.kind == "move":
            self.board_check = None  # the board now shows this move
        self.publisher.rulings([ruling])
        if ruling.kind == "refusal":
            event = ruling.seat_events[ruling.public_events[0]["color"]][0]
            return {"ok": False, "code": "illegal", "message": event["message"]}
        return {"ok": True}

    def publish(self) -> None:
        """Send every link its snapshots (the referee's retained messages)."""
        self.publisher.snapshots()

    def _stand_ins(self, state: dict[str, Any]) -> None:
        """What the sensors, a timed referee and paired tablet keys would add to the public state."""
        if self._stratego is not None:  # a game read from a board: what its sensors would report
            state["board_check"] = self.board_check or {"matches": self.board_matches, "clear": [], "fill": [],
                                                        "wrong": [], "reason": None}
        if self.clocks is not None:
            state["clocks"] = self.clocks
        for seat, fingerprint in self.key_fingerprints.items():
            state["seats"][seat]["key_fingerprint"] = fingerprint

    def public_state(self) -> dict[str, Any]:
        """The public snapshot, with what the board, the clocks and the keys stand in for."""
        return self.publisher.public_state()

    def seat_state(self, seat: str) -> dict[str, Any]:
        """One seat's private snapshot, as the session writes it."""
        return self.publisher.seat_state(seat)

    def phase(self) -> str:
        """The contract's phase: setup, playing or over."""
        return self.session.phase

    def close(self) -> None:
        """Close the journal and remove its folder (done anyway once the table is gone)."""
        self._release()


def _release(journal: Journal, folder: tempfile.TemporaryDirectory) -> None:
    journal.close()
    folder.cleanup()


class LocalLink(Link):
    """A tablet's (or the display's) link to a LocalTable in the same process."""

    def __init__(self, table: LocalTable, seat: str | None) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self.adapter = ContractTranslator(self.deliver, seat)
        self.replies: list[dict[str, Any]] = []

    def open(self, deliver: Deliver) -> None:
        """Join the table."""
        super().open(deliver)
        self.table.attach(self)

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """An app command, sent as the contract's command; its reply comes back like the referee's."""
        if self.seat is None:
            return
        if command == "resync":
            self.table.publish()
            return
        translated = contract_command(command, payload or {})
        if translated is None:
            return
        self.table.command(self.seat, *translated)  # its reply comes back through the outbox

    def close(self) -> None:
        """Leave the table."""
        self.table.detach(self)
        super().close()
