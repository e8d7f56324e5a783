"""Worlds: every sample keeps the hard facts and the counts, never fails, and follows the beliefs."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Color
from engine.stratego.notebook.fitting import close_allowed, find_world, fit, sample_world
from tests.engine.stratego.notebook.test_beliefs import random_table


@st.composite
def puzzles(draw):
    """A few pieces, a few kinds, random hard facts, counts that add up to the pieces."""
    kinds = draw(st.integers(1, 4))
    pieces = draw(st.integers(1, 6))
    cuts = sorted(draw(st.lists(st.integers(0, pieces), min_size=kinds - 1, max_size=kinds - 1)))
    counts = [b - a for a, b in zip([0, *cuts], [*cuts, pieces], strict=True)]
    allowed = [sorted(draw(st.sets(st.integers(0, kinds - 1), min_size=1))) for _ in range(pieces)]
    return allowed, counts


def worlds(allowed, counts):
    """Every complete assignment, by brute force."""
    for world in itertools.product(*allowed):
        if all(world.count(k) == n for k, n in enumerate(counts)):
            yield world


@settings(max_examples=300, deadline=None)
@given(puzzles())
def test_a_kind_stays_possible_exactly_when_some_world_gives_it(puzzle):
    allowed, counts = puzzle
    every = list(worlds(allowed, counts))
    closed = close_allowed(allowed, counts)
    if not every:
        assert closed is None and find_world(allowed, counts) is None
        return
    assert closed is not None
    for piece in range(len(allowed)):
        assert set(closed[piece]) == {world[piece] for world in every}


@settings(max_examples=300, deadline=None)
@given(puzzles(), st.integers(0, 2**32))
def test_a_sample_never_fails_when_a_world_exists(puzzle, seed):
    allowed, counts = puzzle
    if not any(True for _ in worlds(allowed, counts)):
        return
    closed = close_allowed(allowed, counts)
    assert closed is not None
    # Deliberately misleading beliefs (uniform over what the facts allow, counts ignored): the
    # draw must still complete by repair.
    beliefs = [[1.0 if k in row else 0.0 for k in range(len(counts))] for row in allowed]
    world = sample_world(beliefs, allowed, counts, random.Random(seed))
    assert all(world[p] in allowed[p] for p in range(len(allowed)))
    assert Counter(world) == Counter({k: n for k, n in enumerate(counts) if n})


def test_fitting_keeps_zeros_and_meets_both_margins():
    rows = fit([[1.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 3.0]], [1, 1, 1])
    assert rows[0][2] == rows[2][0] == 0.0
    for row in rows:
        assert abs(sum(row) - 1) < 1e-9
    for k in range(3):
        assert abs(sum(row[k] for row in rows) - 1) < 1e-4


def test_samples_of_a_real_game_keep_the_facts_and_follow_the_beliefs():
    table = random_table("classic", seed=3)
    rng = random.Random(3)
    for _ in range(120):
        table.play(rng.choice(table.game.legal_moves()).name)
    notebook = table.notebooks[Color.RED]
    beliefs = notebook.beliefs()
    alive = {k: n for k, n in notebook.remaining().items() if n}
    seen: Counter[tuple[int, str]] = Counter()
    draws = 2000
    for seed in range(draws):
        world = notebook.sample(random.Random(seed))
        assert set(world) == set(beliefs)
        assert Counter(world.values()) == alive
        for piece, kind in world.items():
            assert kind in notebook.possible(piece)
            seen[piece, kind] += 1
    for piece, row in beliefs.items():
        for kind, chance in row.items():
            assert abs(seen[piece, kind] / draws - chance) < 0.06  # measured worst: 0.03
