"""Sides, unit faces, units, commanders and positions (a reserve or one blocked approach)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.triumph import readings
from engine.triumph.errors import TriumphError

FRENCH = "french"
ALLIED = "allied"
SIDES = (ALLIED, FRENCH)  # the Allies move first in every round
UNIT_TYPES = ("infantry", "cavalry", "artillery")
INFANTRY, CAVALRY, ARTILLERY = UNIT_TYPES


def opponent(side: str) -> str:
    """The other side."""
    return FRENCH if side == ALLIED else ALLIED


@dataclass(frozen=True, order=True)
class Position:
    """Where pieces stand: the reserve of `locale`, or blocking its approach toward `toward`."""

    locale: int
    toward: int | None = None

    @property
    def is_reserve(self) -> bool:
        """True for the reserve of a locale."""
        return self.toward is None

    def __str__(self) -> str:
        return f"R{self.locale}" if self.toward is None else f"{self.locale}>{self.toward}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read "R108" (reserve of 108) or "108>95" (108's approach on its border with 95)."""
        match = re.fullmatch(r"R(\d+)|(\d+)>(\d+)", text.strip()) if isinstance(text, str) else None
        if match is None:
            raise TriumphError(f"not a position: {text!r} (write R108 or 108>95)", "nt-record")
        if match.group(1):
            return cls(int(match.group(1)))
        return cls(int(match.group(2)), int(match.group(3)))


@dataclass(frozen=True)
class Face:
    """What a block shows its owner: type, strength 1-3 and the Guard mark (infantry only)."""

    type: str
    strength: int
    guard: bool = False

    def reduced(self) -> Face | None:
        """The block one strength lower (a Guard block becomes line infantry), or None if gone."""
        if self.strength <= 1:
            return None
        return Face(self.type, self.strength - 1,
                    self.guard and not readings.GUARD_BECOMES_LINE_AFTER_LOSS)

    def __str__(self) -> str:
        short = {"infantry": "Inf", "cavalry": "Cav", "artillery": "Art"}[self.type]
        return f"{'Gd-' if self.guard else ''}{short}-{self.strength}"


@dataclass
class Unit:
    """One block: its id, side, face, position (None off the map or once eliminated) and corps
    (None: detached)."""

    id: str
    side: str
    face: Face
    at: Position | None
    commander: str | None = None
    off_map: bool = False  # a reinforcement not yet entered

    @property
    def eliminated(self) -> bool:
        """True once the block has left play."""
        return self.at is None and not self.off_map


@dataclass
class Commander:
    """A metal flag: its name, side and position (None off the map or once removed from play)."""

    name: str
    side: str
    at: Position | None
    off_map: bool = False  # a reinforcement commander not yet entered
