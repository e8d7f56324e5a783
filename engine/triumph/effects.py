"""What the rules do to pieces and morale, the same for every rule: reveal, replace, eliminate,
lose morale. Each change is recorded as its event on the game being ruled."""

from __future__ import annotations

from typing import Any

from engine.triumph.events import (
    CommanderRemoved,
    Eliminated,
    GameEnded,
    MoraleChanged,
    Replaced,
    Revealed,
    ShownFace,
)
from engine.triumph.pieces import Unit, opponent
from engine.triumph.protocols import RulingGame

DEMORALISED = "demoralised"


def face_dict(unit: Unit) -> dict[str, Any]:
    """A unit's face as data."""
    return {"type": unit.face.type, "strength": unit.face.strength, "guard": unit.face.guard}


def reveal(game: RulingGame, unit_ids: list[str] | tuple[str, ...], why: str) -> None:
    """Show faces to both players (and the public) for the rest of this player turn."""
    shown = []
    for unit_id in unit_ids:
        unit = game.state.units[unit_id]
        game.state.turn.revealed.add(unit_id)
        shown.append(ShownFace(unit_id, unit.side, face_dict(unit)))
    if shown:
        game.emit(Revealed(why, tuple(shown)))


def lose_steps(game: RulingGame, unit_id: str, steps: int, why: str) -> int:
    """Replace a block by one `steps` strength lower (or eliminate it); the steps really lost.

    A first loss of an elite unit is charged by its caller (elite.commit) before this."""
    unit = game.state.units[unit_id]
    lost = 0
    while steps > lost and unit.at is not None:
        reduced = unit.face.reduced()
        before = str(unit.face)
        lost += 1
        if reduced is None:
            eliminate(game, unit, why)
        else:
            unit.face = reduced
            game.state.turn.revealed.add(unit_id)
            game.emit(Replaced(unit_id, unit.side, str(unit.at), before, str(reduced), why))
    return lost


def eliminate(game: RulingGame, unit: Unit, why: str) -> None:
    """Take a unit out of play; a commander whose corps is now empty leaves with it."""
    game.emit(Eliminated(unit.id, unit.side, str(unit.at), face_dict(unit), why))
    name, unit.at, unit.commander = unit.commander, None, None
    if name is not None and not game.state.corps(name):
        commander = game.state.commanders[name]
        game.emit(CommanderRemoved(name, commander.side, str(commander.at)))
        commander.at = None


def lose_morale(game: RulingGame, side: str, amount: int, floor: int = 0) -> None:
    """Lower a side's morale (not below `floor`); at 0 the other side wins at once."""
    if amount <= 0:
        return
    state = game.state
    before = state.morale[side]
    after = max(min(before, floor), before - amount)
    state.morale[side] = after
    game.emit(MoraleChanged(side, before, after))
    if after <= 0 and state.result is None:
        state.result = (opponent(side), DEMORALISED)
        game.emit(GameEnded(opponent(side), DEMORALISED))
