"""Napoleon's Triumph records: reading, writing and the verdict of `arbiter check`."""

from __future__ import annotations

import copy
from typing import Any

from engine.core.errors import RecordError
from engine.core.refusals import IllegalMove
from engine.triumph.actions import Action, action_from_dict
from engine.triumph.errors import TriumphError
from engine.triumph.game import TriumphGame

GAME_NAME = "napoleons-triumph"
SCENARIOS = ("2dec",)


def read_record(data: Any) -> tuple[dict[str, Any], list[Action]]:
    """The starting position and the actions of a record; RecordError when it cannot be read."""
    if not isinstance(data, dict) or data.get("game") != GAME_NAME:
        raise RecordError(f"not a {GAME_NAME} record")
    scenario = data.get("scenario", "2dec")
    if scenario not in SCENARIOS:
        raise RecordError(f"scenario {scenario!r} is not supported (only 2dec)")
    if "position" not in data and "setup" not in data:
        raise RecordError("the record needs a position or a setup")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("actions must be a list")
    try:
        return data.get("position", {}), [action_from_dict(item) for item in actions]
    except TriumphError as error:
        raise RecordError(error.message) from None


def game_from_record(data: Any) -> tuple[TriumphGame, list[Action]]:
    """A game at the record's starting position, and the actions to replay."""
    position, actions = read_record(data)
    try:
        if "setup" in data:
            setup = data["setup"]
            if not isinstance(setup, dict):
                raise RecordError("setup must be an object with french and allied")
            return TriumphGame.from_setups(setup.get("french"), setup.get("allied")), actions
        return TriumphGame.from_position(position), actions
    except TriumphError as error:
        raise RecordError(f"invalid position: {error.message}") from None


def record_of(game: TriumphGame) -> dict[str, Any]:
    """The battle so far (or finished) as a record that `arbiter check` replays to the same
    state and result: how it began (both set-ups, or a position) and every action pushed, a
    declared end (resignation, agreed end, time) included. An action that changed nothing
    is left out: the engine writes no answer where it asked nothing (3.5, a defence of
    blockers that a replayed record carried)."""
    return {"game": GAME_NAME, "scenario": "2dec", **copy.deepcopy(game.start),
            "actions": [action.to_dict() for action, events in game.rulings() if events]}


def check_triumph_record(data: Any) -> dict[str, Any]:
    """Replay an NT record and give the verdict of `arbiter check` (RecordError if invalid)."""
    game, actions = game_from_record(data)
    illegal = None
    for index, action in enumerate(actions):
        try:
            game.push(action)
        except IllegalMove as refused:
            illegal = {"index": index, "action": action.to_dict(),
                       "rule": refused.refusal.rule, "message": refused.refusal.message}
            break
    state = game.state
    attack = state.attack
    awaiting = None
    if attack is not None and state.result is None:
        side, decision = game.awaiting() or (None, None)
        awaiting = {"side": side, "decision": decision}
    return {
        "applied": len(game.actions),
        "illegal": illegal,
        "units": {u.id: ({"eliminated": True} if u.eliminated else
                         {"strength": u.face.strength, "at": str(u.at) if u.at else None})
                  for u in state.units.values()},
        "commanders": {c.name: ({"at": str(c.at) if c.at else None}
                                if c.at is not None or c.off_map else {"eliminated": True})
                       for c in state.commanders.values()},
        "morale": dict(state.morale),
        "round": state.round,
        "to_move": state.to_move,
        "awaiting": awaiting,
        "combats": [dict(c) for c in state.combats],
        "result": game.result,
    }
