"""Recall: the setups one opponent showed in earlier games, and how far this game repeats one.

People reuse their setups (the Gravon archive's players bring the same ones back month after
month) and most programs play one setup, or its mirror image. A player who has met an opponent
before remembers what stood where. A `Recollection` keeps what a seat saw of the enemy's setup
at the end of each game (a kind shown on the square it started on, or a first move there: no
bomb or flag), merging the games that agree into one setup; during the next game the notebook
weighs each remembered setup, and its mirror image, against a new one by how well each foresaw
what the enemy shows, and reads the squares not yet shown off the result. Nothing here is more
than the seat saw itself in its own views.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.stratego.notebook.facts import NotebookError
from engine.stratego.notebook.library import MOVED
from engine.stratego.variants import Variant

# A square of a remembered setup holds the same kind again with this chance (a player changes a
# few pieces between games); otherwise it is drawn as in a new setup.
KEEP = 0.9
# Before anything is shown: the chance the opponent sets up one of the remembered setups again
# (shared by them, by how often each was seen, each half as itself and half mirrored).
REPEAT = 0.5
# Two games' sightings are one setup when they agree on this many shown kinds and disagree on none.
SAME_SETUP = 8
# Remembered setups kept per opponent (the least seen, then the oldest, are forgotten first).
LIMIT = 32
TO_JSON_MOVED = "moved"

Sighting = tuple[str | None, ...]  # by owner index: a kind, MOVED, or None (nothing seen there)


@dataclass
class Recollection:
    """Setups of one opponent in one variant, as a seat saw them (owner's coordinates)."""

    variant: Variant
    setups: list[Sighting] = field(default_factory=list)
    games: list[int] = field(default_factory=list)  # games each setup was seen in

    def __post_init__(self) -> None:
        self._immobile = frozenset(k for k, kind in self.variant.kinds.items() if not kind.mobile)
        self._size = self.variant.setup_rows * self.variant.width

    def remember(self, sighting: Sighting) -> None:
        """Add one game's sighting: merged into the remembered setup it matches (as it is or
        mirrored), else kept as a new one."""
        if len(sighting) != self._size:
            raise NotebookError(f"a sighting has {self._size} squares, not {len(sighting)}", "recall-input")
        if not any(kind is not None for kind in sighting):
            return
        for number, setup in enumerate(self.setups):
            for candidate in (sighting, self.mirror(sighting)):
                if self._same(setup, candidate):
                    self.setups[number] = tuple(_merged(a, b) for a, b in zip(setup, candidate, strict=True))
                    self.games[number] += 1
                    return
        self.setups.append(tuple(sighting))
        self.games.append(1)
        while len(self.setups) > LIMIT:
            forgotten = min(range(len(self.setups)), key=self.games.__getitem__)
            del self.setups[forgotten], self.games[forgotten]

    def mirror(self, sighting: Sighting) -> Sighting:
        """The same setup mirrored left to right."""
        width = self.variant.width
        return tuple(sighting[index - index % width + width - 1 - index % width]
                     for index in range(len(sighting)))

    def candidates(self) -> list[tuple[Sighting, float]]:
        """Every remembered setup and its mirror image with its prior chance (REPEAT shared by
        how often each was seen)."""
        total = sum(self.games)
        found: list[tuple[Sighting, float]] = []
        for setup, games in zip(self.setups, self.games, strict=True):
            share = REPEAT * games / total / 2
            found += [(setup, share), (self.mirror(setup), share)]
        return found

    def reading(self, shown: Iterable[tuple[int, str]],
                base: Callable[[int], Mapping[str, float]]) -> list[tuple[Sighting, float]]:
        """The remembered setups (and mirrors) with their posterior chance given this game's
        (index, kind or MOVED) observations; what is left to 1 is a new setup. `base(index)` is
        a new setup's kind chances at an index."""
        shown = list(shown)
        candidates = self.candidates()
        if not candidates:
            return []
        fresh_log = math.log(1.0 - REPEAT)
        logs = [math.log(chance) for _, chance in candidates]
        for index, seen in shown:
            chances = base(index)
            fresh = self._chance(chances, None, seen)
            fresh_log += math.log(fresh)
            for number, (setup, _) in enumerate(candidates):
                logs[number] += math.log(self._chance(chances, setup[index], seen))
        top = max(fresh_log, *logs)
        weights = [math.exp(value - top) for value in logs]
        total = math.exp(fresh_log - top) + sum(weights)
        return [(setup, weight / total) for (setup, _), weight in zip(candidates, weights, strict=True)]

    def kind_chances(self, remembered: str | None, chances: Mapping[str, float]) -> dict[str, float]:
        """A square's kinds under a remembered setup that had `remembered` there, a new setup
        having `chances` there."""
        if remembered is None:
            return dict(chances)
        if remembered == MOVED:
            mobile = {kind: chance for kind, chance in chances.items() if kind not in self._immobile}
            total = sum(mobile.values()) or 1.0
            return {kind: chance / total for kind, chance in mobile.items()}
        kept = {kind: (1.0 - KEEP) * chance for kind, chance in chances.items()}
        kept[remembered] = kept.get(remembered, 0.0) + KEEP
        return kept

    def _chance(self, chances: Mapping[str, float], remembered: str | None, seen: str) -> float:
        """How likely what was seen at a square is, under a remembered kind there (or a new setup)."""
        here = self.kind_chances(remembered, chances)
        if seen == MOVED:
            value = sum(chance for kind, chance in here.items() if kind not in self._immobile)
        else:
            value = here.get(seen, 0.0)
        return max(value, 1e-9)

    def _same(self, setup: Sighting, other: Sighting) -> bool:
        """Whether two sightings can be one setup: no square disagrees, enough kinds agree."""
        agreed = 0
        for one, two in zip(setup, other, strict=True):
            if one is None or two is None:
                continue
            if MOVED in (one, two):
                if (two if one == MOVED else one) in self._immobile:
                    return False
                continue
            if one != two:
                return False
            agreed += 1
        return agreed >= SAME_SETUP

    # -- as data ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """As JSON-able data: rows of squares by owner index (a kind, "moved" or null)."""
        return {"variant": self.variant.name, "setups": [
            {"games": games, "squares": [TO_JSON_MOVED if kind == MOVED else kind for kind in setup]}
            for setup, games in zip(self.setups, self.games, strict=True)]}

    @classmethod
    def from_dict(cls, variant: Variant, data: Any) -> Recollection:
        """Read `to_dict`'s data back; anything malformed raises NotebookError."""
        if not isinstance(data, dict) or data.get("variant") != variant.name:
            raise NotebookError(f"a recollection must be a dict of variant {variant.name!r}", "recall-input")
        recollection = cls(variant)
        setups = data.get("setups")
        if not isinstance(setups, list):
            raise NotebookError("a recollection's setups must be a list", "recall-input")
        for entry in setups:
            squares = entry.get("squares") if isinstance(entry, dict) else None
            games = entry.get("games") if isinstance(entry, dict) else None
            if (not isinstance(squares, list) or len(squares) != recollection._size
                    or not isinstance(games, int) or isinstance(games, bool) or games < 1):
                raise NotebookError(f"a remembered setup must have {recollection._size} squares "
                                    "and a count of games", "recall-input")
            sighting: list[str | None] = []
            for kind in squares:
                if kind is not None and kind != TO_JSON_MOVED and kind not in variant.army:
                    raise NotebookError(f"no kind {kind!r} in {variant.name}", "recall-input")
                sighting.append(MOVED if kind == TO_JSON_MOVED else kind)
            recollection.setups.append(tuple(sighting))
            recollection.games.append(games)
        del recollection.setups[LIMIT:], recollection.games[LIMIT:]
        return recollection


def _merged(one: str | None, two: str | None) -> str | None:
    """A square of two agreeing sightings: the kind if either showed it."""
    if one is None or one == MOVED:
        return two if two is not None else one
    return one
