"""A stand-in for the referee's Napoleon's Triumph side, for the tablet tests: a real
`TriumphGame` ruling the tablets' `setup` and `nt` commands and publishing each seat's
`seat_state` in the table contract's shapes (docs/app.md, "Napoleon's Triumph on the tablet").

The real referee is firmware_bridge's; this one keeps only what the tablet reads.
"""

from __future__ import annotations

import copy
from typing import Any

from companion_app.model.triumph_table import SIDE_OF_SEAT
from companion_app.net.contract_adapter import ContractTranslator, contract_command
from companion_app.net.link import Link
from engine.errors import ArbiterError
from engine.results import IllegalMove
from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.instructions import instructions_for
from engine.triumph.mapdata import load_austerlitz
from engine.triumph.menu import command_menu
from engine.triumph.setup import check_setup
from engine.triumph.views import handle

SECRET = "tablet-tests"


def seat_state(game: TriumphGame | None, seat: str, *, phase: str = "playing",
               setup: dict[str, Any] | None = None, instructions: list[dict[str, Any]] | None = None,
               seq: int = 0) -> dict[str, Any]:
    """One seat's `seat_state` as the contract gives it."""
    view = None
    if game is not None:
        view = copy.deepcopy(game.view(SIDE_OF_SEAT[seat]).to_dict())
        pending = view.get("awaiting")
        if pending and pending["decision"] == "command" and "options" in view:
            view["options"] = command_menu(game)  # the compact menu replaces the long list
    return {"v": 1, "seat": seat, "game": "nt-test", "seq": seq, "phase": phase,
            "last_counter": seq, "view": view, "setup": setup,
            "instructions": list(instructions or [])}


def _real_ids(game: TriumphGame, value: Any) -> Any:
    names = {handle(game.handle_secret, game.state.turns_played, u): u for u in game.state.units}
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_real_ids(game, v) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _real_ids(game, v) for k, v in value.items()}
    return value


class StandInTable:
    """Two seats, their set-ups and the game; every ruling republishes both seat states."""

    def __init__(self) -> None:
        self.links: list[StandInLink] = []
        self.setups: dict[str, dict[str, Any]] = {}
        self.game: TriumphGame | None = None
        self.instructions: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
        self.seq = 0
        self.received: list[tuple[str, str, dict[str, Any]]] = []

    def start(self, french: dict[str, Any], allied: dict[str, Any]) -> TriumphGame:
        """Begin play from two set-ups (both accepted)."""
        self.setups = {"blue": french, "red": allied}
        self.game = TriumphGame.from_setups(french, allied, handle_secret=SECRET)
        return self.game

    def publish(self) -> None:
        """Every seat's snapshot to its links."""
        self.seq += 1
        for link in self.links:
            if link.seat is None:
                continue
            phase = "playing" if self.game is not None else "setup"
            link.adapter.seat_state(seat_state(self.game, link.seat, phase=phase,
                                               setup=self.setups.get(link.seat),
                                               instructions=self.instructions[link.seat],
                                               seq=self.seq))

    def command(self, seat: str, kind: str, args: dict[str, Any]) -> dict[str, Any]:
        """Rule one command; the contract's reply."""
        self.received.append((seat, kind, copy.deepcopy(args)))
        side = SIDE_OF_SEAT[seat]
        if kind == "setup":
            try:
                check_setup(side, args.get("setup"), load_austerlitz())
            except ArbiterError as error:
                return {"ok": False, "code": "invalid-setup", "message": error.message}
            self.setups[seat] = args["setup"]
            if len(self.setups) == 2:
                self.start(self.setups["blue"], self.setups["red"])
            self.publish()
            return {"ok": True}
        if kind == "nt" and self.game is not None:
            data = dict(_real_ids(self.game, args.get("action") or {}), side=side)
            try:
                self.play(action_from_dict(data))
            except IllegalMove as refused:
                return {"ok": False, "code": "illegal",
                        "message": f"{refused.refusal.rule}: {refused.refusal.message}"}
            except ArbiterError as error:
                return {"ok": False, "code": "malformed", "message": error.message}
            return {"ok": True}
        return {"ok": False, "code": "wrong-phase", "message": "not now"}

    def play(self, action: Any) -> list[dict[str, Any]]:
        """Push one engine action, add each seat's instructions, republish; its events."""
        assert self.game is not None
        events = self.game.push(action)
        self.seq += 1
        for seat in ("red", "blue"):
            steps = instructions_for(self.game, events, SIDE_OF_SEAT[seat])
            if steps:
                self.instructions[seat].append({"seq": self.seq, "steps": steps})
        self.publish()
        return events


class StandInLink(Link):
    """A tablet's link to the stand-in table (commands go through the real contract adapter)."""

    def __init__(self, table: StandInTable, seat: str) -> None:
        super().__init__()
        self.table, self.seat = table, seat
        self.adapter = ContractTranslator(self.deliver, seat)

    def open(self, deliver: Any) -> None:
        """Join: the board info, the seat, then the current snapshot."""
        super().open(deliver)
        self.table.links.append(self)
        self.adapter.info({"variant": "napoleons-triumph", "board": "austerlitz", "name": "Austerlitz"})
        self.adapter.pairing({"status": "granted", "seat": self.seat})
        self.table.publish()

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """An app command through the contract's translation; the reply goes back the same way."""
        translated = contract_command(command, payload or {})
        if translated is not None:
            self.adapter.reply(self.table.command(self.seat, *translated))


def to_allied_threat(table: StandInTable) -> None:
    """Liechtenstein's corps marches from 123 into 94 (by road), both sides end their turns, and
    at 8:00 the Allies threaten St. Hilaire's corps in 93 from 94; the French then decide."""
    game = table.game
    table.play(next(a for a in game.legal_actions() if a.type == "corps_move"
                    and getattr(a, "commander", "") == "Liechtenstein" and str(a.to) == "R94"))
    for data in ({"side": "allied", "type": "end_turn"}, {"side": "french", "type": "end_turn"},
                 {"side": "allied", "type": "threat", "from": 94, "into": 93}):
        table.play(action_from_dict(data))
    assert game.awaiting() == ("french", "response")


def finish_attack(table: StandInTable) -> None:
    """Both sides answer the rest of the attack: the attacker presses and leads, the defender
    names a leader and does not counter-attack; the first legal answer elsewhere."""
    game = table.game
    while game.state.attack is not None:
        actions = game.legal_actions()
        step = game.awaiting()[1]
        if step == "feint_or_press":
            choice = next((a for a in actions if a.type == "press"), actions[0])
        elif step in ("defence_leaders", "attack"):
            choice = next((a for a in actions if len(getattr(a, "units", getattr(a, "leaders", ()))) == 1),
                          actions[0])
        else:
            choice = actions[0]
        table.play(choice)
