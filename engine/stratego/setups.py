"""Setups: validation with precise messages, random legal setups and named setups."""

from __future__ import annotations

import random
from collections import Counter

from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

Setup = dict[Square, str]

# Named setups, written from the owner's side: back row first, files from the owner's left.
# One character per square as in `PieceKind.symbol`; "." leaves a square empty.
NAMED_SETUPS: dict[str, dict[str, tuple[str, ...]]] = {
    "classic": {
        "corner-fortress": ("BFB3342543", "3B6257B346", "627SX98526", "2B28472B52"),
        "shoreline-bombs": ("3BFB254433", "B3B6725346", "627SX98526", "22B847B522"),
    },
    "compact": {
        "corner-fortress": ("BFB34365B3", "3B726B8425", "267SX98722"),
    },
    "strategy8": {
        "corner-fortress": ("BFB3536B", "3B627526", "27S98522"),
    },
    "barrage": {
        "hidden-flag": (".F.....3..", ".B........", "...SX.....", "2...9...2."),
    },
    "duel": {
        "hidden-flag": (".FB....3..", ".B....3...", "...SX.....", "2...9...2."),
    },
    "espionage": {
        "mined-headquarters": ("MHM2S1P3S1", "PM4S25P312", "S1425M3P1S"),
        "spy-screen": ("2PMHM1P3M2", "13S45M4S21", "S1P53S2PS1"),
    },
}


def named_setups(variant: Variant) -> tuple[str, ...]:
    """The names of the well-known setups shipped for a variant."""
    return tuple(NAMED_SETUPS.get(variant.name, {}))


def setup_from_rows(variant: Variant, color: Color, rows: tuple[str, ...] | list[str]) -> Setup:
    """Turn rows of symbols (owner's view, back row first) into a setup on the board."""
    by_symbol = {kind.symbol: name for name, kind in variant.kinds.items()}
    setup: Setup = {}
    for row_index, row in enumerate(rows):
        for file_index, symbol in enumerate(row):
            if symbol == ".":
                continue
            if symbol not in by_symbol:
                raise ValueError(f"unknown piece symbol {symbol!r} in row {row_index + 1}")
            square = Square(file_index, row_index)
            if color is Color.BLUE:  # Blue sits opposite: the board turned half a circle
                square = Square(variant.width - 1 - file_index, variant.height - 1 - row_index)
            setup[square] = by_symbol[symbol]
    return setup


def named_setup(variant: Variant, color: Color, name: str) -> Setup:
    """A named setup placed for `color`."""
    try:
        rows = NAMED_SETUPS[variant.name][name]
    except KeyError:
        known = ", ".join(named_setups(variant)) or "none"
        raise ValueError(f"no setup {name!r} for {variant.name} (known: {known})") from None
    return setup_from_rows(variant, color, rows)


def validate_setup(variant: Variant, color: Color, setup: Setup) -> list[str]:
    """Everything wrong with a setup, as sentences a player understands; [] when valid."""
    side = color.value.capitalize()
    errors: list[str] = []
    zone = set(variant.zone(color))
    for square in sorted(setup):
        if not variant.on_board(square):
            errors.append(f"{square} is not on the board")
        elif square in variant.lakes:
            errors.append(f"{square} is a lake")
        elif square not in zone:
            errors.append(f"{square} is outside {side}'s zone")
    counts = Counter(setup.values())
    for kind in sorted(set(counts) - set(variant.army)):
        errors.append(f"{side} has a {kind}, which {variant.name} does not use")
    for kind, needed in variant.army.items():
        have = counts.get(kind, 0)
        if have != needed:
            errors.append(f"{side} has {have} {_plural(kind, have)}, needs {needed}")
    if variant.full_setup:
        empty = sorted(zone - set(setup))
        if empty:
            listed = " ".join(str(s) for s in empty[:6]) + (" ..." if len(empty) > 6 else "")
            errors.append(f"{side}'s zone must be full; empty: {listed}")
    return errors


def _plural(kind: str, count: int) -> str:
    name = kind.capitalize()
    return name if count == 1 else name + "s"


def random_setup(variant: Variant, color: Color, rng: random.Random | None = None) -> Setup:
    """A random legal setup for `color` (a random subset of the zone when it need not be full)."""
    rng = rng or random.Random()
    pieces = [kind for kind, count in variant.army.items() for _ in range(count)]
    squares = rng.sample(variant.zone(color), len(pieces))
    return dict(zip(squares, pieces, strict=True))
