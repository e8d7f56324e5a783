"""Priors per starting square: how likely each kind is to start on a square of the enemy zone."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from engine.stratego.notebook import gravon_classic
from engine.stratego.notebook.human_setups import SUPPORTED, human_setup
from engine.stratego.notebook.library import owner_index
from engine.stratego.pieces import Color
from engine.stratego.variants import Variant

DEFAULT_SAMPLES = 800  # human-like setups behind a default prior
# Share of the prior spread by army shares: real players vary more than any table of habits,
# and no kind may ever be impossible a priori.
MIXING = 0.2
# Classic setups counted from the Gravon archive (tens of thousands of real ones) need less:
# on held-out archive setups 0.05 foresaw the true kinds best (docs/bot.md).
COUNTED_MIXING = 0.05


@dataclass(frozen=True)
class SetupPrior:
    """For each square of one side's zone: kind -> probability that the piece starting there is it."""

    variant: str
    color: Color
    squares: Mapping[str, Mapping[str, float]]
    fallback: Mapping[str, float]  # for a piece whose starting square is unknown

    def at(self, square: str | None) -> Mapping[str, float]:
        """The prior of the piece that started on `square` (None: unknown start)."""
        if square is None:
            return self.fallback
        return self.squares.get(square, self.fallback)

    @classmethod
    def uniform(cls, variant: Variant, color: Color) -> SetupPrior:
        """Every square alike: each kind by its share of the army."""
        shares = _army_shares(variant)
        return cls(variant.name, Color(color), {s.name: shares for s in variant.zone(color)}, shares)

    @classmethod
    def from_samples(cls, variant: Variant, color: Color,
                     setups: Iterable[Mapping[str, str]], mixing: float = MIXING) -> SetupPrior:
        """Count kinds per square over setups (square name -> kind), mixed with army shares."""
        shares = _army_shares(variant)
        counts: dict[str, dict[str, float]] = {s.name: {} for s in variant.zone(color)}
        for setup in setups:
            for square, kind in setup.items():
                if square in counts and kind in shares:
                    counts[square][kind] = counts[square].get(kind, 0.0) + 1.0
        squares: dict[str, dict[str, float]] = {}
        for square, seen in counts.items():
            total = sum(seen.values())
            squares[square] = {
                kind: (1 - mixing) * (seen.get(kind, 0.0) / total if total else share)
                + mixing * share
                for kind, share in shares.items()
            }
        return cls(variant.name, Color(color), squares, shares)

    @classmethod
    def human(cls, variant: Variant, color: Color, samples: int = DEFAULT_SAMPLES,
              seed: int = 13) -> SetupPrior:
        """The prior from people's setups: counted from the Gravon archive for classic, else from
        human-like setups (uniform for variants without them)."""
        if variant.name == "classic":
            return _counted_prior(variant, Color(color))
        if variant.name not in SUPPORTED:
            return cls.uniform(variant, color)
        return _human_prior(variant, Color(color), samples, seed)


def _army_shares(variant: Variant) -> dict[str, float]:
    size = variant.army_size()
    return {kind: count / size for kind, count in variant.army.items()}


@lru_cache(maxsize=32)
def _human_prior(variant: Variant, color: Color, samples: int, seed: int) -> SetupPrior:
    # Cached: building it costs ~1 s for the classic army and every notebook of a variant
    # shares it (the prior is immutable).
    rng = random.Random(seed)
    setups = [human_setup(variant, color, rng) for _ in range(samples)]
    return SetupPrior.from_samples(variant, color, setups)


@lru_cache(maxsize=4)
def _counted_prior(variant: Variant, color: Color) -> SetupPrior:
    # The archive's counts are in the owner's coordinates; a square and its mirror image share
    # their counts (people set up both ways round, and some programs mirror at random).
    shares = _army_shares(variant)
    zone = variant.zone(color)
    squares: dict[str, dict[str, float]] = {}
    for square in zone:
        index = owner_index(variant, color, square)
        assert index is not None  # a square of the zone
        mirror = index - index % variant.width + variant.width - 1 - index % variant.width
        seen = {kind: float(counts[index] + counts[mirror]) for kind, counts in gravon_classic.COUNTS.items()}
        total = sum(seen.values())
        squares[square.name] = {
            kind: (1 - COUNTED_MIXING) * seen.get(kind, 0.0) / total + COUNTED_MIXING * share
            for kind, share in shares.items()
        }
    return SetupPrior(variant.name, color, squares, shares)
