"""Over random games of every variant (Espionage too), from both seats:

- the true kind of every enemy piece on the board keeps a probability above zero and stays in
  `possible` (the notebook never rules out the truth);
- the hard facts hold: a piece that moved is no bomb or flag, a piece that moved more than one
  square is a scout, a shown piece (in a battle, or to a spy's owner) has exactly its kind;
- each row sums to 1 and each kind's column to the number of that kind alive;
- every sampled world keeps the facts and the counts.
The referee's game is consulted for checking only; the notebooks see views and redacted events.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Color, Game, Square, get_variant, random_setup
from engine.stratego.notebook import human_setup
from engine.stratego.notebook.human_setups import SUPPORTED
from engine.stratego.variants import BARRAGE
from tests.engine.stratego.notebook.table import Table

VARIANTS = ["classic", "barrage", "duel", "compact", "strategy8", "espionage"]


HIDDEN = replace(BARRAGE, name="hidden-barrage", battle_reveals=False)  # battles show nothing


def start(variant_name: str, seed: int, human: bool) -> Table:
    variant = HIDDEN if variant_name == HIDDEN.name else get_variant(variant_name)
    rng = random.Random(seed)
    if human and variant.name in SUPPORTED:
        setups = {c: {Square.parse(s): k for s, k in human_setup(variant, c, rng).items()}
                  for c in Color}
    else:
        setups = {c: random_setup(variant, c, rng) for c in Color}
    return Table.start(Game.from_setup(variant, setups[Color.RED], setups[Color.BLUE], rng=rng))


def check(table: Table, far_movers: dict[int, bool], rng: random.Random) -> None:
    game = table.game
    kinds = game.variant.kinds
    for color, notebook in table.notebooks.items():
        beliefs = notebook.beliefs()
        on_board = {p.id for _, p in game.pieces() if p.color is color.other}
        assert set(beliefs) == on_board
        for piece_id, row in beliefs.items():
            truth = table.kind_of(piece_id)
            possible = notebook.possible(piece_id)
            assert row.get(truth, 0.0) > 0 and truth in possible
            assert set(row) == possible
            assert abs(sum(row.values()) - 1) < 1e-9
            if piece_id in game.moved:
                assert all(kinds[k].mobile for k in possible)  # no bomb, no flag
            if far_movers.get(piece_id):
                assert all(kinds[k].scout for k in possible)
            if game.knows(color, game.piece(piece_id)):
                assert possible == {truth}
        alive = notebook.remaining()
        world = notebook.sample(rng)
        assert set(world) == on_board
        for piece_id, kind in world.items():
            assert kind in notebook.possible(piece_id)
        if game.variant.battle_reveals:
            for kind, count in alive.items():
                assert abs(sum(row.get(kind, 0.0) for row in beliefs.values()) - count) < 1e-3
            assert sorted(world.values()) == sorted(k for k, n in alive.items() for _ in range(n))
        else:  # pieces captured unseen hold part of the counts
            for kind, count in alive.items():
                assert sum(row.get(kind, 0.0) for row in beliefs.values()) < count + 1e-3
                assert sum(1 for k in world.values() if k == kind) <= count


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**31), st.booleans(), st.integers(20, 260))
def test_the_notebook_never_rules_out_the_truth(variant_name, seed, human, plies):
    table = start(variant_name, seed, human)
    rng = random.Random(seed)
    far_movers: dict[int, bool] = {}
    check(table, far_movers, rng)
    for ply in range(plies):
        if table.game.result is not None:
            break
        move = rng.choice(table.game.legal_moves())
        mover = table.game.piece_at(move.origin)
        assert mover is not None
        if move.origin.distance(move.target) > 1:
            far_movers[mover.id] = True
        table.play(move.name)
        if ply % 15 == 0 or table.game.result is not None:
            check(table, far_movers, rng)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(20, 260))
def test_when_battles_show_nothing_the_outcomes_never_rule_out_the_truth(seed, plies):
    table = start(HIDDEN.name, seed, human=False)
    rng = random.Random(seed)
    far_movers: dict[int, bool] = {}
    for _ in range(plies):
        if table.game.result is not None:
            break
        move = rng.choice(table.game.legal_moves())
        mover = table.game.piece_at(move.origin)
        assert mover is not None
        far_movers[mover.id] = far_movers.get(mover.id, False) or move.origin.distance(move.target) > 1
        table.play(move.name)
        check(table, far_movers, rng)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), st.integers(0, 2**31), st.integers(1, 80), st.integers(1, 3))
def test_a_takeback_leaves_the_notebook_as_if_the_move_had_never_been_made(
        variant_name, seed, plies, takebacks):
    from engine import TakebackEvent

    table = start(variant_name, seed, human=False)
    rng = random.Random(seed)
    for _ in range(plies):
        if table.game.result is not None:
            break
        table.play(rng.choice(table.game.legal_moves()).name)
    for _ in range(min(takebacks, len(table.game.move_stack))):
        move = table.game.pop()
        table.deliver([TakebackEvent(move.name, table.game.ply)])
    replayed = Table.start(Game(table.game.variant, table.game.initial_pieces,
                                volcanoes=table.game.volcanoes))
    replayed.play(*(m.name for m in table.game.move_stack))
    for color in Color:
        assert table.notebooks[color].beliefs() == replayed.notebooks[color].beliefs()
        assert table.notebooks[color].to_dict() == replayed.notebooks[color].to_dict()
