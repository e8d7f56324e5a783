"""What a player must do with his own blocks on the real board after one ruling (3.3).

The engine rules; the players move the wooden blocks. After every ruling each side is told, for
its OWN blocks only, what to move, replace, take off or show: reductions are replacements
("one Inf-3 of Lannes at 63 becomes an Inf-2"), and identical blocks of one group are
interchangeable, so a step names faces and positions, never a block. Nothing is said about the
enemy's blocks: the opponent moves those himself.

The steps are read from the events of the ruling, played over the pieces as they stood before
it (positions of retreating, feinting and storming blocks are not in their events).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.triumph.events import (
    Advanced,
    Attached,
    CommanderRemoved,
    CorpsMoved,
    Eliminated,
    Event,
    Feinted,
    Moved,
    Reinforced,
    Replaced,
    Retreated,
    Revealed,
    Stormed,
)
from engine.triumph.pieces import Face, Position
from engine.triumph.protocols import ReadGame
from engine.triumph.state import TriumphState

Step = dict[str, Any]
TYPES = {"Inf": "infantry", "Cav": "cavalry", "Art": "artillery"}


def face_data(face: Face) -> dict[str, Any]:
    """A face as the contract writes it."""
    return {"type": face.type, "strength": face.strength, "guard": face.guard}


def parse_face(text: str) -> Face:
    """Read a face as events write it ("Inf-3", "Gd-Inf-3")."""
    parts = text.split("-")
    guard = parts[0] == "Gd"
    if guard:
        parts = parts[1:]
    return Face(TYPES[parts[0]], int(parts[1]), guard)


@dataclass
class Table:
    """One side's blocks and flags as the ruling goes on: where, in which corps, which face."""

    at: dict[str, Position | None]
    corps: dict[str, str | None]
    faces: dict[str, Face]
    flags: dict[str, Position | None]

    @classmethod
    def of(cls, state: TriumphState, side: str) -> Table:
        """The side's pieces in `state`."""
        mine = [u for u in state.units.values() if u.side == side]
        return cls({u.id: u.at for u in mine}, {u.id: u.commander for u in mine},
                   {u.id: u.face for u in mine},
                   {c.name: c.at for c in state.commanders.values() if c.side == side})


def state_before(game: ReadGame, events: list[Event]) -> TriumphState | None:
    """The state before the ruling that made `events`, while it is the game's last ruling."""
    last = game.before_last()
    if last is None or last[1] != events:
        return None
    return last[0]


def instructions_for(game: ReadGame, events: list[Event], side: str,
                     before: TriumphState | None = None) -> list[Step]:
    """The steps `side` carries out on its own blocks after the ruling that made `events`
    (`game` as it stands after it; `before`, the state before it, found if not given)."""
    before = before or state_before(game, events)
    table = Table.of(before or game.state, side)
    steps: list[Step] = []
    for event in events:
        if isinstance(event, Revealed):
            steps += _show(table, [shown.unit for shown in event.units if shown.side == side])
        elif event.acting_side == side:
            steps += _own_event(game, table, event)
    return steps


def _own_event(game: ReadGame, table: Table, event: Event) -> list[Step]:
    if isinstance(event, Moved):
        return _command(table, event)
    if isinstance(event, Reinforced):
        to = Position.parse(event.to)
        for unit_id in event.units:
            table.at[unit_id] = to
        table.flags[event.commander] = to
        return [{"step": "enter", "commander": event.commander,
                 "faces": _faces(table, list(event.units)), "entry": event.entry, "to": str(to)}]
    if isinstance(event, Attached):
        table.corps[event.unit] = event.commander
        return [{"step": "attach", "commander": event.commander,
                 "face": face_data(table.faces[event.unit]), "at": _text(table.at[event.unit])}]
    if isinstance(event, Replaced):
        after = parse_face(event.after)
        step = {"step": "replace", "commander": table.corps[event.unit], "at": event.at,
                "before": face_data(table.faces[event.unit]), "after": face_data(after)}
        table.faces[event.unit] = after
        return [step]
    if isinstance(event, Eliminated):
        table.at[event.unit] = None
        return [{"step": "remove", "commander": table.corps[event.unit], "at": event.at,
                 "face": dict(event.face)}]
    if isinstance(event, CommanderRemoved):
        table.flags[event.commander] = None
        return [{"step": "remove_flag", "commander": event.commander, "at": event.at}]
    if isinstance(event, Retreated):
        return _carry(game, table, {u: Position(n) for u, n in event.to.items()})
    if isinstance(event, Stormed):
        return _carry(game, table, {u: Position(event.locale) for u in event.units})
    if isinstance(event, Advanced):
        return _carry(game, table, {u: Position.parse(event.to) for u in event.units})
    if isinstance(event, Feinted):
        # Feinting blocks end where the feint leaves them: on the approach, or, riding by road,
        # in the attack locale's reserve or on its approach.
        units = game.state.units
        return _carry(game, table, {u: at for u in event.units if (at := units[u].at) is not None})
    return []


def _command(table: Table, event: Moved) -> list[Step]:
    """A Corps Move carries the flag; Detach and Unit Moves leave it (the blocks detach)."""
    units, name = list(event.units), event.commander
    start, to = Position.parse(event.start), Position.parse(event.to)
    origin = name if name is not None else table.corps[units[0]]
    flag = isinstance(event, CorpsMoved)
    step = {"step": "move", "commander": origin, "flag": flag, "faces": _faces(table, units),
            "from": str(start), "to": str(to)}
    for unit_id in units:
        table.at[unit_id] = to
        if not flag:
            table.corps[unit_id] = None
    if flag and name is not None:
        table.flags[name] = to
        for unit_id, corps in table.corps.items():
            if corps == name and unit_id not in units:
                table.corps[unit_id] = None  # left behind: detached where it stands
    return [step]


def _carry(game: ReadGame, table: Table, moves: dict[str, Position]) -> list[Step]:
    """Blocks moved by an attack's outcome, grouped by corps, start and end; a commander's flag
    goes with a group when it stood at the start and stands at the end after the ruling."""
    groups: dict[tuple[str | None, str, str], list[str]] = {}
    for unit_id, end in moves.items():
        begin = table.at.get(unit_id)
        if begin is None or begin == end:
            continue
        groups.setdefault((table.corps[unit_id], str(begin), str(end)), []).append(unit_id)
    steps = []
    for (name, start, to), units in groups.items():
        final = game.state.commanders[name].at if name is not None else None
        flag = name is not None and str(table.flags.get(name)) == start and str(final) == to
        steps.append({"step": "move", "commander": name, "flag": flag,
                      "faces": _faces(table, units), "from": start, "to": to})
        for unit_id in units:
            table.at[unit_id] = Position.parse(to)
            if not flag:
                table.corps[unit_id] = None
        if flag and name is not None:
            table.flags[name] = Position.parse(to)
    return steps


def _show(table: Table, units: list[str]) -> list[Step]:
    """Show faces to the opponent, one step per position."""
    where: dict[str | None, list[str]] = {}
    for unit_id in units:
        where.setdefault(_text(table.at.get(unit_id)), []).append(unit_id)
    return [{"step": "show", "at": at, "faces": _faces(table, ids)} for at, ids in where.items()]


def _faces(table: Table, units: list[str]) -> list[dict[str, Any]]:
    return [face_data(table.faces[u]) for u in units]


def _text(position: Position | None) -> str | None:
    return str(position) if position is not None else None
