"""The orders of battle, commanders and constants of Napoleon's Triumph, read from data."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class CommanderInfo:
    """A commander as the orders of battle give it: side, least corps size, set-up locale."""

    name: str
    side: str
    least_units: int
    setup: int | None


@dataclass(frozen=True)
class Constants:
    """The numbers the rules use: limits, morale, time track and road reach."""

    corps_max_units: int
    starting_morale: dict[str, int]
    independent_commands: dict[str, int]
    corps_commands: dict[str, int | None]
    first_hour: int
    last_hour: int
    local_reach: int
    main_reach: int


def raw_order_of_battle() -> dict[str, Any]:
    """The orders-of-battle file as stored."""
    text = resources.files("engine.triumph").joinpath("data/order_of_battle.json").read_text(
        "utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def constants() -> Constants:
    """The constants of section 1.3, loaded once."""
    raw = raw_order_of_battle()["constants"]
    return Constants(raw["corps_max_units"], dict(raw["starting_morale"]),
                     dict(raw["independent_commands"]), dict(raw["corps_commands"]),
                     raw["first_hour"], raw["last_hour"], raw["road_reach"]["local"],
                     raw["road_reach"]["main"])


@cache
def commanders() -> dict[str, CommanderInfo]:
    """Every commander by name."""
    return {c["name"]: CommanderInfo(c["name"], c["side"], c["least_units"], c["setup"])
            for c in raw_order_of_battle()["commanders"]}
