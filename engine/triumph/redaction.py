"""The events of one ruling as a viewer may see them: enemy unit ids become that turn's handles.

Every event the engine emits names units by their real ids; a real id of an enemy block would let
the opponent follow it after the end-of-turn forgetting (1.16), and a tablet may choose ids that
spell faces. So each field that holds unit ids is renamed for the viewer ("french", "allied") or
the public (None: every unit id), and the event is written in its wire form (`to_dict`). Faces in
events are only those the rules make public when the event happens (reveals, replacements,
eliminations), so nothing else is taken out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from engine.triumph.events import Event, Regrouped, Retreated, ShownFace
from engine.triumph.protocols import ReadGame
from engine.triumph.views import handle

Rename = Callable[[str], str]

# the fields of any event that hold one unit id, a tuple of unit ids, or a dict keyed by unit id
ONE_UNIT = frozenset({"unit", "guard"})
UNIT_LISTS = frozenset({"units", "leaders", "engaged"})
KEYED_BY_UNIT = frozenset({"allocation"})


def redact_events(game: ReadGame, events: list[Event], viewer: str | None
                  ) -> list[dict[str, Any]]:
    """The events of one ruling for `viewer` ("french", "allied" or None for the public), read
    against the game after the ruling, in their wire form: enemy (public: all) unit ids
    replaced by the handles of the turn."""
    units = game.state.units
    turn = game.state.turns_played

    def rename(unit_id: str) -> str:
        unit = units.get(unit_id)
        if unit is None or (viewer is not None and unit.side == viewer):
            return unit_id
        return handle(game.handle_secret, turn, unit_id)

    return [redact_event(event, rename).to_dict() for event in events]


def redact_event(event: Event, rename: Rename) -> Event:
    """One event with its unit ids passed through `rename`."""
    changes: dict[str, Any] = {}
    for field in fields(event):
        value = getattr(event, field.name)
        if value is None:
            continue
        if field.name in ONE_UNIT and isinstance(value, str):
            changes[field.name] = rename(value)
        elif field.name in UNIT_LISTS and isinstance(value, tuple):
            changes[field.name] = tuple(_renamed_item(item, rename) for item in value)
        elif field.name in KEYED_BY_UNIT or (isinstance(event, Retreated) and field.name == "to"):
            changes[field.name] = {rename(u): v for u, v in value.items()}
        elif isinstance(event, Regrouped) and field.name == "keep":  # commander -> unit kept
            changes[field.name] = {name: rename(u) for name, u in value.items()}
    return replace(event, **changes) if changes else event


def _renamed_item(item: Any, rename: Rename) -> Any:
    if isinstance(item, ShownFace):
        return replace(item, unit=rename(item.unit))
    return rename(item) if isinstance(item, str) else item
