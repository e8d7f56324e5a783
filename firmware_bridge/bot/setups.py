"""The computer player's setup: a human-like one from the notebook's library, with no piece that
moves walled in for good by its own bombs and flag."""

from __future__ import annotations

import random

from engine.stratego.notebook import human_setup
from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

# The setup library walls a movable piece in with bombs and the flag in about one classic setup
# in ten (a Miner on the back row between two bombs, a third in front of it): a piece that can
# never move, and, once it is our last, a game lost for want of a legal move. A few more draws
# find a setup without one.
SETUP_TRIES = 20


def walled_in(variant: Variant, setup: dict[str, str]) -> list[str]:
    """The squares of `setup`'s movable pieces that can never move, whatever the others do:
    their own bombs, flag, lakes and the edge enclose them and the movable pieces beside them."""
    kinds = variant.kinds
    placed = {Square.parse(name): kind for name, kind in setup.items()}
    free: set[Square] = set()
    frontier = [square for square in variant.squares()
                if square not in variant.lakes and square not in placed]
    free.update(frontier)
    while frontier:  # from every empty square, through pieces that may step aside
        square = frontier.pop()
        for step_file, step_rank in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            near = Square(square.file + step_file, square.rank + step_rank)
            if near not in free and near in placed and kinds[placed[near]].mobile:
                free.add(near)
                frontier.append(near)
    return sorted(square.name for square, kind in placed.items()
                  if kinds[kind].mobile and square not in free)


def bot_setup(variant: Variant, color: Color, rng: random.Random) -> dict[str, str]:
    """A human-like setup (square name -> kind) from the notebook's setup library, with no
    piece that moves walled in for good by our own bombs and flag."""
    setup = dict(human_setup(variant, color, rng))
    for _ in range(SETUP_TRIES):
        if not walled_in(variant, setup):
            break
        setup = dict(human_setup(variant, color, rng))
    return setup
