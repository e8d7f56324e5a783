"""The events of one ruling as a viewer may see them: enemy unit ids become that turn's handles.

Every event the engine emits names units by their real ids; a real id of an enemy block would let
the opponent follow it after the end-of-turn forgetting (1.16), and a tablet may choose ids that
spell faces. So each field that holds unit ids is renamed for the viewer ("french", "allied") or
the public (None: every unit id). Faces in events are only those the rules make public when the
event happens (reveals, replacements, eliminations); anything the rules keep with the owner (a
side's pending choices, defence leaders named before they are revealed) is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.triumph.views import handle

if TYPE_CHECKING:
    from engine.triumph.game import TriumphGame

Rename = Callable[[str], str]

# event type -> fields that hold one unit id, a list of unit ids, or a dict keyed by unit id
ONE_UNIT = {"unit", "guard"}
UNIT_LISTS = {"units", "leaders", "engaged"}
KEYED_BY_UNIT = {"allocation"}
# fields private to the event's own side (1.16): dropped for anybody else
PRIVATE_FIELDS: dict[str, set[str]] = {
    # a defence that names its leaders early keeps them hidden until step 4 (TT's device)
    "defend": {"leaders"},
}
KNOWN_TYPES = {
    "corps_move", "detach_move", "unit_move", "reinforcement", "attach", "end-turn",
    "game-end", "threat", "reveal", "defend", "retreat", "feint", "press", "defence-leaders",
    "attack", "elite-commitment", "guard-attack-failed", "counter-attack", "combat",
    "odd-loss", "assign-losses", "storm", "regroup", "advance", "attack-end", "replace",
    "eliminate", "commander-removed", "morale",
}


def redact_events(game: TriumphGame, events: list[dict[str, Any]], viewer: str | None
                  ) -> list[dict[str, Any]]:
    """The events of one ruling for `viewer` ("french", "allied" or None for the public), read
    against the game after the ruling: enemy (public: all) unit ids replaced by handles."""
    units = game.state.units
    turn = game.state.turns_played

    def rename(unit_id: str) -> str:
        unit = units.get(unit_id)
        if unit is None or (viewer is not None and unit.side == viewer):
            return unit_id
        return handle(game.handle_secret, turn, unit_id)

    return [redact_event(event, viewer, rename, set(units)) for event in events]


def redact_event(event: dict[str, Any], viewer: str | None, rename: Rename,
                 unit_ids: set[str]) -> dict[str, Any]:
    """One event for `viewer`, unit ids passed through `rename`."""
    kind = event.get("type")
    own = viewer is not None and event.get("side") == viewer
    if kind not in KNOWN_TYPES:
        # an event this module does not know yet: rename every string that is a unit id
        return {k: _rename_everywhere(v, rename, unit_ids) for k, v in event.items()}
    hidden = set() if own else PRIVATE_FIELDS.get(str(kind), set())
    result: dict[str, Any] = {}
    for key, value in event.items():
        if key in hidden:
            continue
        result[key] = _field(str(kind), key, value, rename)
    return result


def _field(kind: str, key: str, value: Any, rename: Rename) -> Any:
    if value is None:
        return None
    if key in ONE_UNIT and isinstance(value, str):
        return rename(value)
    if key in UNIT_LISTS and isinstance(value, list):
        if kind == "reveal":  # [{"unit", "side", "face"}]
            return [{**item, "unit": rename(item["unit"])} for item in value]
        return [rename(u) for u in value]
    if key in KEYED_BY_UNIT or (kind == "retreat" and key == "to"):
        return {rename(u): v for u, v in value.items()}
    if kind == "regroup" and key == "keep":  # commander -> the unit he keeps
        return {name: rename(u) for name, u in value.items()}
    return value


def _rename_everywhere(value: Any, rename: Rename, unit_ids: set[str]) -> Any:
    if isinstance(value, str):
        return rename(value) if value in unit_ids else value
    if isinstance(value, list):
        return [_rename_everywhere(v, rename, unit_ids) for v in value]
    if isinstance(value, dict):
        return {(rename(k) if k in unit_ids else k): _rename_everywhere(v, rename, unit_ids)
                for k, v in value.items()}
    return value
