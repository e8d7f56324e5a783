"""What each player, and the public, may know: own faces, revealed enemy faces, opaque handles."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from engine.triumph.menu import command_menu
from engine.triumph.protocols import ReadGame
from engine.triumph.state import AttackState


@dataclass(frozen=True)
class TriumphView:
    """One viewer's knowledge of the game ("french", "allied" or None for the public)."""

    viewer: str | None
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data for a tablet or the referee display."""
        return self.data


def handle(secret: str, turn: int, unit_id: str) -> str:
    """An opaque name for an enemy block, re-issued every player turn (1.16)."""
    digest = hashlib.sha256(f"{secret}|{turn}|{unit_id}".encode()).hexdigest()
    return "x" + digest[:10]


def visible_faces(game: ReadGame) -> set[str]:
    """Units whose faces every viewer may see now: revealed this turn, or remembered from an
    earlier turn while the block still stands alone in its position and corps."""
    state = game.state
    groups: dict[tuple[object, str, str | None], int] = {}
    for unit in state.units.values():
        if unit.at is not None:
            key = (unit.at, unit.side, unit.commander)
            groups[key] = groups.get(key, 0) + 1
    alone = {u for u in state.known if state.units[u].at is not None and groups[
        (state.units[u].at, state.units[u].side, state.units[u].commander)] == 1}
    public = {state.fixed_battery} if state.fixed_battery else set()
    return state.turn.revealed | alone | public


def view(game: ReadGame, viewer: str | None) -> TriumphView:
    """The view of `viewer` (a side) or of the public (None)."""
    state = game.state
    shown = visible_faces(game)

    def name(unit_id: str) -> str:
        if viewer is not None and state.units[unit_id].side == viewer:
            return unit_id
        return handle(game.handle_secret, state.turns_played, unit_id)

    units = []
    for unit in state.units.values():
        if unit.at is None:
            continue
        entry: dict[str, Any] = {"id": name(unit.id), "side": unit.side, "at": str(unit.at),
                                 "commander": unit.commander}
        if unit.side == viewer or unit.id in shown:
            entry["face"] = {"type": unit.face.type, "strength": unit.face.strength,
                             "guard": unit.face.guard}
        units.append(entry)
    units.sort(key=lambda e: (e["side"], e["at"], e["id"]))
    commanders = [{"name": c.name, "side": c.side, "at": str(c.at) if c.at else None,
                   "units": len(state.corps(c.name))} for c in state.commanders.values()]
    awaiting = game.awaiting()
    data: dict[str, Any] = {
        "game": "napoleons-triumph", "viewer": viewer, "round": state.round,
        "to_move": state.to_move, "morale": dict(state.morale),
        "commands": {"corps": state.turn.corps_commands,
                     "independent": state.turn.independent_commands,
                     "commanded": sorted(state.turn.commanded)},
        "closed": sorted(f"{a}>{b}" for a, b in state.turn.closed),
        "stormed": sorted(state.turn.stormed),
        "commanders": commanders, "units": units,
        "awaiting": {"side": awaiting[0], "decision": awaiting[1]} if awaiting else None,
        "attack": _attack_panel(state.attack, name) if state.attack else None,
        "result": game.result,
    }
    if awaiting and viewer == awaiting[0]:
        enemy = {u.id: name(u.id) for u in state.units.values() if u.side != viewer}
        if awaiting[1] == "command":  # the compact menu: the full list would not fit a view
            data["options"] = renamed(command_menu(game), enemy)
        else:
            data["options"] = [renamed(a.to_dict(), enemy) for a in game.legal_actions()]
    return TriumphView(viewer, data)


def renamed(value: Any, names: dict[str, str]) -> Any:
    """`value` (JSON data) with every string in `names` replaced, in keys and values alike."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value


def _attack_panel(attack: AttackState, name: Any) -> dict[str, Any]:
    def names(ids: list[str]) -> list[str]:
        return [name(u) for u in ids]

    return {"attacker": attack.attacker, "attack_locale": attack.attack_locale,
            "defence_locale": attack.defence_locale, "step": attack.step,
            "blocked": attack.blocked, "defenders": names(attack.defenders),
            "defence_leaders": names(attack.defence_leaders),
            "attackers": names(attack.attackers), "attack_leaders": names(attack.attack_leaders),
            "counter_attackers": names(attack.counter), "initial": attack.initial,
            "final": attack.final, "winner": attack.winner}
