"""Helpers for the Napoleon's Triumph table tests: set-ups whose ids spell faces, the game as the
journal says it stood at each ruling, and what a viewer may know then."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.standard import standard_setup
from engine.triumph.views import handle, visible_faces
from firmware_bridge.protocol.triumph_contract import SIDE_OF_SEAT
from firmware_bridge.protocol.vocabulary import EventType, JournalEntry, ruling_kind
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.triumph_session import namespaced

SIDES = SIDE_OF_SEAT  # seat -> the army it plays


def telling_setup(side: str) -> dict[str, Any]:
    """The standard set-up with unit ids that spell each face ("I3g-07"): a leak of an id would
    be a leak of a face, so the privacy tests see it."""
    setup = standard_setup(side)
    renamed: dict[str, str] = {}
    for number, unit in enumerate(setup["units"]):
        new = f"{unit['type'][0].upper()}{unit['strength']}{'g' if unit.get('guard') else ''}-{number:02d}"
        renamed[unit["id"]] = new
        unit["id"] = new
    if setup.get("fixed_battery"):
        setup["fixed_battery"] = renamed[setup["fixed_battery"]]
    return setup


@dataclass
class Moment:
    """What the game was right after one ruling: handles of the turn and the faces anyone may see."""

    turns_played: int
    visible: frozenset[str]
    faces: dict[str, dict[str, Any]]
    sides: dict[str, str]


def moments(journal_path) -> tuple[dict[int, Moment], str]:
    """The game after every ruling of the journal's last game (by seq), and its handle secret."""
    journal = Journal(journal_path)
    try:
        current = journal.last_game()
        found: dict[int, Moment] = {}
        setups: dict[str, dict] = {}
        secret, seq, game = "", 0, None
        for entry in journal.entries(current):
            if entry.kind == JournalEntry.GAME:
                secret = entry.payload["handle_secret"]
                continue
            kind = ruling_kind(entry.kind)
            if kind is None:
                continue
            seq += 1
            if kind is EventType.SETUP_READY:
                setups[entry.payload["seat"]] = entry.payload["setup"]
            elif kind is EventType.GAME_START:
                game = TriumphGame.from_setups(namespaced(setups["blue"], "F."),
                                               namespaced(setups["red"], "A."), handle_secret=secret)
            elif kind is EventType.NT:
                game.push(action_from_dict(entry.payload["action"]))
            elif kind is EventType.TAKEBACK:
                game.pop()
            if game is not None:
                state = game.state
                found[seq] = Moment(state.turns_played, frozenset(visible_faces(game)),
                                    {u.id: {"type": u.face.type, "strength": u.face.strength,
                                            "guard": u.face.guard} for u in state.units.values()},
                                    {u.id: u.side for u in state.units.values()})
        return found, secret
    finally:
        journal.close()


def strings(value: Any) -> set[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set(value) | (set().union(*(strings(v) for v in value.values())) if value else set())
    return set()


def view_problems(view: dict, viewer: str | None, moment: Moment, secret: str) -> list[str]:
    """Faces or ids in a view that its viewer may not know at that moment."""
    problems = []
    names = {handle(secret, moment.turns_played, uid): uid for uid in moment.sides}
    for unit in view.get("units", ()):
        if viewer is not None and unit["side"] == viewer:
            continue
        real = names.get(unit["id"])
        if real is None:
            problems.append(f"{viewer} sees an enemy block named {unit['id']!r}, not a handle of the turn")
            continue
        if "face" in unit and real not in moment.visible:
            problems.append(f"{viewer} sees the unrevealed face of {real} at {unit['at']}")
        if "face" in unit and unit["face"] != moment.faces[real]:
            problems.append(f"{viewer} sees a wrong face for {real}")
    return problems
