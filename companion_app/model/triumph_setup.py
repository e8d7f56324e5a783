"""A Napoleon's Triumph set-up being arranged on the tablet, from the side's standard set-up.

The player moves units between corps or (French) detaches one to a position; the draft is the
engine's set-up object (engine/triumph/setup.py format) and is checked by the engine's own
rules before it is sent.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core.errors import ArbiterError
from engine.triumph.mapdata import load_austerlitz
from engine.triumph.setup import check_setup
from engine.triumph.standard import standard_setup


class TriumphSetupDraft:
    """One side's set-up object, changed unit by unit."""

    def __init__(self, side: str, setup: dict[str, Any] | None = None) -> None:
        self.side = side
        self.setup = copy.deepcopy(setup) if setup is not None else standard_setup(side)

    @property
    def units(self) -> list[dict[str, Any]]:
        """The army's units (set-up entries)."""
        units: list[dict[str, Any]] = self.setup["units"]
        return units

    def commanders(self) -> list[str]:
        """The side's commanders in the set-up's order."""
        return list(self.setup["commanders"])

    def where(self, commander: str) -> str | None:
        """A commander's set-up position (None: a reinforcement off the map)."""
        at = self.setup["commanders"].get(commander)
        return str(at) if at is not None else None

    def corps(self) -> list[tuple[str | None, list[dict[str, Any]]]]:
        """Units by commander, then the detachments (None)."""
        groups: list[tuple[str | None, list[dict[str, Any]]]] = [
            (name, [u for u in self.units if u.get("commander") == name])
            for name in self.commanders()]
        detached = [u for u in self.units if u.get("commander") is None]
        if detached:
            groups.append((None, detached))
        return groups

    def unit(self, unit_id: str) -> dict[str, Any]:
        """One unit's entry; KeyError if there is none."""
        for unit in self.units:
            if unit["id"] == unit_id:
                return unit
        raise KeyError(unit_id)

    def move_to_corps(self, unit_id: str, commander: str) -> None:
        """Put a unit into a commander's corps, where that commander stands."""
        if commander not in self.setup["commanders"]:
            raise KeyError(commander)
        unit = self.unit(unit_id)
        unit.pop("from", None)
        unit["commander"] = commander
        unit["at"] = self.where(commander)
        if self.setup.get("fixed_battery") == unit_id:
            self.setup["fixed_battery"] = None

    def detach(self, unit_id: str, position: str) -> None:
        """Stand a unit detached at `position` (the French only; the rules say how far)."""
        unit = self.unit(unit_id)
        origin = unit.get("commander") or unit.get("from")
        unit.pop("commander", None)
        unit["from"] = origin
        unit["at"] = position

    def set_battery(self, unit_id: str) -> None:
        """Name the French fixed battery (a detached artillery unit blocking an approach)."""
        self.unit(unit_id)
        self.setup["fixed_battery"] = unit_id

    def problem(self) -> str | None:
        """The engine's objection to this set-up (its message), or None when it is valid."""
        objection = self.objection()
        return None if objection is None else objection["message"]

    def objection(self) -> dict[str, Any] | None:
        """The engine's objection as a refusal ({"rule", "message", "reason", "data"}) for the
        tablet to say in its language, or None when the set-up is valid."""
        try:
            check_setup(self.side, self.setup, load_austerlitz())
        except ArbiterError as error:
            return {"rule": error.code, "message": error.message,
                    "reason": getattr(error, "reason", ""), "data": getattr(error, "data", {})}
        return None

    def to_setup(self) -> dict[str, Any]:
        """The set-up object to send."""
        return copy.deepcopy(self.setup)
