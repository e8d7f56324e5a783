"""A stand-in for the referee's Napoleon's Triumph side, for the tablet tests: a real
`TriumphGame` ruling the tablets' `setup` and `nt` commands and publishing each seat's
`seat_state` in the table contract's shapes (docs/app.md, "Napoleon's Triumph on the tablet").

The real referee is firmware_bridge's; this one keeps only what the tablet reads.
"""

from __future__ import annotations

import copy
from typing import Any

from companion_app.model.triumph_table import SEAT_OF_SIDE, SIDE_OF_SEAT
from companion_app.net.contract_adapter import ContractTranslator, contract_command
from companion_app.net.link import Link
from engine.errors import ArbiterError
from engine.results import IllegalMove
from engine.triumph.actions import (
    Attach,
    CorpsMove,
    DetachMove,
    EndTurn,
    Threat,
    UnitMove,
    action_from_dict,
)
from engine.triumph.game import TriumphGame
from engine.triumph.mapdata import load_austerlitz
from engine.triumph.setup import check_setup
from engine.triumph.views import handle

SECRET = "tablet-tests"


def _dest(action: Any) -> Any:
    to = str(action.to)
    return {"to": to, "road": list(action.road)} if action.road else to


def fallback_menu(game: TriumphGame) -> list[dict[str, Any]]:
    """The command menu in the contract's shape, grouped from the engine's legal actions (used
    only while engine/triumph/menu.py is not there)."""
    entries: dict[tuple[Any, ...], dict[str, Any]] = {}
    state = game.state
    for action in game.legal_actions():
        if isinstance(action, EndTurn):
            entries[("end",)] = {"type": "end_turn"}
        elif isinstance(action, CorpsMove):
            key = ("corps", action.commander, action.units, action.entry)
            entry = entries.setdefault(key, {"type": "corps_move", "commander": action.commander,
                                             "units": list(action.units), "to": []})
            if action.entry:
                entry["entry"] = action.entry
            entry["to"].append(_dest(action))
        elif isinstance(action, DetachMove):
            units = [u.id for u in state.corps(action.commander) if u.id not in state.turn.moved]
            entry = entries.setdefault(("detach", action.commander), {
                "type": "detach_move", "commander": action.commander, "units": units, "to": []})
            entry["to"].append(_dest(action))
        elif isinstance(action, Attach):
            entry = entries.setdefault(("attach", action.commander), {
                "type": "attach", "commander": action.commander, "units": []})
            entry["units"].append(action.unit)
        elif isinstance(action, Threat):
            entry = {"type": "threat", "from": action.from_, "into": action.into}
            entries[("threat", action.from_, action.into)] = entry
    by_unit: dict[str, list[Any]] = {}
    for action in game.legal_actions():
        if isinstance(action, UnitMove):
            by_unit.setdefault(action.unit, []).append(_dest(action))
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for unit, dests in by_unit.items():
        key = (str(state.units[unit].at), repr(dests))
        groups.setdefault(key, {"type": "unit_move", "units": [], "to": dests})["units"].append(unit)
    order = ("corps_move", "detach_move", "attach", "threat")
    found = sorted((e for k, e in entries.items() if k[0] != "end"), key=lambda e: order.index(e["type"]))
    return found + list(groups.values()) + [{"type": "end_turn"}]


def command_menu(game: TriumphGame) -> list[dict[str, Any]]:
    """The menu of the decision `command`: engine/triumph/menu.py's when present."""
    try:
        from engine.triumph import menu  # type: ignore[attr-defined]
    except ImportError:
        return fallback_menu(game)
    build = getattr(menu, "command_menu", None) or getattr(menu, "menu", None)
    return build(game) if build is not None else fallback_menu(game)


def seat_state(game: TriumphGame | None, seat: str, *, phase: str = "playing",
               setup: dict[str, Any] | None = None, instructions: list[dict[str, Any]] | None = None,
               seq: int = 0) -> dict[str, Any]:
    """One seat's `seat_state` as the contract gives it."""
    view = None
    if game is not None:
        view = copy.deepcopy(game.view(SIDE_OF_SEAT[seat]).to_dict())
        pending = view.get("awaiting")
        if pending and pending["decision"] == "command" and "options" in view:
            view["options"] = command_menu(game)
    return {"v": 1, "seat": seat, "game": "nt-test", "seq": seq, "phase": phase,
            "last_counter": seq, "view": view, "setup": setup,
            "instructions": list(instructions or [])}


def _face(text: str) -> dict[str, Any]:
    """The engine's short face "Gd-Inf-3" as a face dict."""
    *kind, strength = text.split("-")
    names = {"Inf": "infantry", "Cav": "cavalry", "Art": "artillery"}
    return {"type": names[kind[-1]], "strength": int(strength), "guard": kind[0] == "Gd"}


def fallback_steps(game: TriumphGame, events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """Instruction steps for `side`'s own blocks from one ruling's events (used only while
    engine/triumph/instructions.py is not there; moves by command, losses, reveals)."""
    units = game.state.units
    steps: list[dict[str, Any]] = []
    shown: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        kind = event["type"]
        if kind == "reveal":
            for item in event["units"]:
                if item["side"] == side:
                    shown.setdefault(str(units[item["unit"]].at), []).append(item["face"])
        if event.get("side") != side:
            continue
        if kind in ("corps_move", "detach_move", "unit_move"):
            faces = [_face(str(units[u].face)) for u in event["units"]]
            steps.append({"step": "move", "commander": event.get("commander"),
                          "flag": kind == "corps_move", "faces": faces, "from": event["start"],
                          "to": event["to"]})
        elif kind == "replace":
            steps.append({"step": "replace", "commander": units[event["unit"]].commander,
                          "at": event["at"], "before": _face(event["before"]),
                          "after": _face(event["after"])})
        elif kind == "eliminate":
            steps.append({"step": "remove", "commander": None, "at": event["at"],
                          "face": event["face"]})
        elif kind == "commander-removed":
            steps.append({"step": "remove_flag", "commander": event["commander"], "at": event["at"]})
    steps += [{"step": "show", "at": at, "faces": faces} for at, faces in shown.items()]
    return steps


def instruction_steps(game: TriumphGame, events: list[dict[str, Any]], side: str) -> list[dict[str, Any]]:
    """The steps of engine/triumph/instructions.py when present, else the fallback's."""
    try:
        from engine.triumph import instructions  # type: ignore[attr-defined]
    except ImportError:
        return fallback_steps(game, events, side)
    build = getattr(instructions, "instructions", None) or getattr(instructions, "steps_for", None)
    return list(build(game, events, side)) if build is not None else fallback_steps(game, events, side)


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
            steps = instruction_steps(self.game, events, SIDE_OF_SEAT[seat])
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


def seat_of(side: str) -> str:
    """The seat that plays a side."""
    return SEAT_OF_SIDE[side]
