"""An in-process table: the engine behind the same contract payloads the referee publishes.

For tests, the benchmark and trying the app without a network: tablets get `LocalLink`s that
speak to one `LocalTable`; moves come from `LocalTable.play` (standing in for the physical
board). Payload shapes follow firmware_bridge.protocol.contract, so the app's adapter is exercised too.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from companion_app.net.contract_adapter import ContractTranslator
from companion_app.net.link import Link
from engine import (
    Color,
    Game,
    IllegalMove,
    Move,
    Square,
    get_variant,
    place_volcanoes,
    validate_setup,
)
from firmware_bridge.referee.game_options import volcano_markers


class LocalTable:
    """One board's referee in miniature: setups, moves, draw offers, takebacks, resignations."""

    def __init__(self, variant: str = "classic", board: str = "local", seed: int | None = None) -> None:
        self.variant = get_variant(variant)
        self.board = board
        self.rng = random.Random(seed)
        # As the referee does: volcanoes (Espionage) are placed when the game is created.
        self.volcanoes = place_volcanoes(self.variant, self.rng)
        self.game_id = uuid.uuid4().hex[:12]
        self.setups: dict[str, dict[str, str]] = {}
        self.game: Game | None = None
        self.seq = 0
        self.draw_offer: str | None = None
        self.takeback_offer: str | None = None
        self.links: list[LocalLink] = []
        self.board_matches = True
        self.board_input = False  # True: moves from tablets are refused, as with a sensing board
        self.board_check: dict[str, Any] | None = None  # what the "board" reports, if set
        self.clocks: dict[str, Any] | None = None
        self.key_fingerprints: dict[str, str] = {}  # seat -> its tablet's key (none: no keys here)

    # -- as the referee -----------------------------------------------------------------------
    def attach(self, link: LocalLink) -> None:
        """A tablet or display joined: send it every snapshot."""
        self.links.append(link)
        link.adapter.info({"board": self.board, "variant": self.variant.name, "name": self.board})
        if link.seat:
            link.adapter.pairing({"status": "granted", "seat": link.seat})
            if link.seat in self.key_fingerprints:
                link.deliver("my_fingerprint", {"fingerprint": self.key_fingerprints[link.seat]})
        self.publish()

    def command(self, seat: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Apply one seat's command; the reply follows the contract."""
        if name == "setup":
            return self._setup(seat, args.get("setup", {}))
        if name == "new_game":
            if self.game is not None and self.game.result is None:
                return {"ok": False, "code": "wrong-phase",
                        "message": "the game is still running: resign or agree a draw first"}
            self.game_id, self.setups, self.game, self.seq = uuid.uuid4().hex[:12], {}, None, 0
            self.volcanoes = place_volcanoes(self.variant, self.rng)
            self.publish()
            return {"ok": True}
        if self.game is None or self.game.result is not None:
            return {"ok": False, "code": "wrong-phase", "message": "no game is running"}
        if name == "resign":
            self._rule(self.game.resign(Color(seat)))
        elif name == "offer_draw":
            self.draw_offer = seat
            self.publish()
        elif name in ("accept_draw", "decline_draw"):
            if self.draw_offer in (None, seat):
                return {"ok": False, "code": "no-offer", "message": "there is no draw offer"}
            self.draw_offer = None
            if name == "accept_draw":
                self._rule(self.game.agree_draw())
            else:
                self.publish()
        elif name.endswith("_takeback"):
            return self._takeback(seat, name)
        elif name == "move":
            if self.board_input:
                return {"ok": False, "code": "board-input", "message": "moves come from the board"}
            try:
                move = Move.parse(args.get("move", ""))
            except ValueError:
                return {"ok": False, "code": "malformed", "message": "not a move"}
            if self.game.to_move.value != seat:
                return {"ok": False, "code": "not-your-turn", "message": "it is not your turn"}
            refusal = self.game.check(move)
            if refusal is not None:
                return {"ok": False, "code": "illegal", "message": f"{refusal.rule}: {refusal.message}",
                        "move": str(move)}
            return self.play(str(move), seat)
        else:
            return {"ok": False, "code": "malformed", "message": f"unknown command {name}"}
        return {"ok": True}

    def play(self, text: str, seat: str | None = None) -> dict[str, Any]:
        """A move made on the board; a refused move is reported to its player and changes nothing."""
        if self.game is None:
            return {"ok": False, "code": "wrong-phase", "message": "the game has not started"}
        move = Move.parse(text)
        piece = self.game.piece_at(move.origin)
        color = seat or (piece.color.value if piece else self.game.to_move.value)
        try:
            events = self.game.push(move)
        except IllegalMove as error:
            refusal = {"type": "refusal", "color": color, "move": text,
                       "rule": error.refusal.rule, "message": error.refusal.message,
                       "ply": self.game.ply}
            self.seq += 1
            for link in self.links:
                link.adapter.events({"events": [refusal]})
            return {"ok": False, "code": "illegal", "message": error.refusal.message}
        self.draw_offer = self.takeback_offer = None
        self.board_check = None  # the board now shows this move
        self._rule(events)
        return {"ok": True}

    def _takeback(self, seat: str, name: str) -> dict[str, Any]:
        """The takeback commands, as the referee rules them: the opponent agrees (or both ask)."""
        assert self.game is not None
        other = Color(seat).other.value
        if name == "offer_takeback":
            if not self.game.move_stack:
                return {"ok": False, "code": "illegal", "message": "there is no move to take back"}
            if self.takeback_offer == seat:
                return {"ok": False, "code": "no-offer",
                        "message": "your takeback request is already pending"}
            if self.takeback_offer != other:
                self.takeback_offer = seat
                self._announce({"type": "takeback_offer", "color": seat})
                return {"ok": True}
        elif self.takeback_offer != other:
            return {"ok": False, "code": "no-offer",
                    "message": "your opponent has not asked to take a move back"}
        elif name == "decline_takeback":
            self.takeback_offer = None
            self._announce({"type": "takeback_declined", "color": seat})
            return {"ok": True}
        before = self.game.occupied()
        move = self.game.pop()
        after = self.game.occupied()
        self.takeback_offer = self.draw_offer = None
        # The physical board still shows the move taken back: the board check guides the
        # players to put it right, as a sensing referee's would.
        self.board_check = {"matches": False, "clear": sorted(s.name for s in before - after),
                            "fill": sorted(s.name for s in after - before), "wrong": [],
                            "reason": "takeback"}
        self._announce({"type": "takeback", "move": str(move), "ply": self.game.ply})
        return {"ok": True}

    def _announce(self, event: dict[str, Any]) -> None:
        """One ruling with a single public event (offers, takebacks), then the snapshots."""
        self.seq += 1
        for link in list(self.links):
            link.adapter.events({"events": [event]})
        self.publish()

    def _setup(self, seat: str, setup: dict[str, str]) -> dict[str, Any]:
        squares = {Square.parse(sq): kind for sq, kind in setup.items()}
        errors = validate_setup(self.variant, Color(seat), squares)
        if errors:
            return {"ok": False, "code": "invalid-setup", "message": "; ".join(errors)}
        self.setups[seat] = dict(setup)
        if len(self.setups) == 2 and self.game is None:
            red = {Square.parse(s): k for s, k in self.setups["red"].items()}
            blue = {Square.parse(s): k for s, k in self.setups["blue"].items()}
            self.game = Game.from_setup(self.variant, red, blue, volcanoes=self.volcanoes)
        self.publish()
        return {"ok": True}

    def _rule(self, events: list[Any]) -> None:
        self.seq += 1
        self.publish()

    def publish(self) -> None:
        """Send every link its snapshot (the referee's retained messages)."""
        for link in list(self.links):
            link.adapter.public_state(self.public_state())
            if link.seat:
                link.adapter.seat_state(self.seat_state(link.seat))

    def phase(self) -> str:
        """The contract's phase."""
        if self.game is None:
            return "setup"
        return "over" if self.game.result is not None else "playing"

    def public_state(self) -> dict[str, Any]:
        """The public snapshot, as the contract's ``state`` payload."""
        seats = {c: {"paired": True, "online": any(link.seat == c for link in self.links),
                     "setup_ready": c in self.setups, "key_fingerprint": self.key_fingerprints.get(c)}
                 for c in ("red", "blue")}
        view = self.game.view(None).to_dict() if self.game else None
        check = self.board_check or {"matches": self.board_matches, "clear": [], "fill": [],
                                     "wrong": [], "reason": None}
        return {"v": 1, "board": self.board, "game": self.game_id, "seq": self.seq,
                "phase": self.phase(), "view": view, "seats": seats, "clocks": self.clocks,
                "draw_offer": self.draw_offer, "takeback_offer": self.takeback_offer,
                "volcanoes": [s.name for s in self.volcanoes],
                "volcano_markers": volcano_markers(self.volcanoes, None),
                "board_check": check}

    def seat_state(self, seat: str) -> dict[str, Any]:
        """One seat's private snapshot, as the contract's ``seat_state`` payload."""
        view = self.game.view(Color(seat)).to_dict() if self.game else None
        return {"v": 1, "seat": seat, "game": self.game_id, "seq": self.seq, "phase": self.phase(),
                "view": view, "setup": self.setups.get(seat)}


class LocalLink(Link):
    """A tablet's (or display's) link to a LocalTable in the same process."""

    def __init__(self, table: LocalTable, seat: str | None) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self.adapter = ContractTranslator(self.deliver, seat)
        self.replies: list[dict[str, Any]] = []

    def open(self, deliver) -> None:
        """Join the table."""
        super().open(deliver)
        self.table.attach(self)

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """App commands map onto the contract's command types."""
        if self.seat is None:
            return
        name = {"draw_offer": "offer_draw", "takeback_request": "offer_takeback"}.get(command, command)
        accept = bool((payload or {}).get("accept"))
        if command == "draw_answer":
            name = "accept_draw" if accept else "decline_draw"
        if command == "takeback_answer":
            name = "accept_takeback" if accept else "decline_takeback"
        reply = self.table.command(self.seat, name, dict(payload or {}))
        self.replies.append(reply)
        self.adapter.reply(reply)

    def close(self) -> None:
        """Leave the table."""
        if self in self.table.links:
            self.table.links.remove(self)
        super().close()
