"""Not a test: the measurement behind the notebook figures in docs/bot.md.

How well do the beliefs predict the truth? Both seats keep a notebook through games between two
players (random movers, or a simple heuristic player that uses only its own view: it takes known
weaker pieces, keeps away from known stronger ones, walks forward). At fixed plies we record the
mean probability each notebook gives the true kind of the enemy pieces still unknown to it, with
the human prior, with a uniform one, and (the baseline) from the counts alone: a hidden piece is
each hidden kind by how many of that kind are hidden. And what observe(), beliefs() and sample()
cost.

    PYTHONPATH=. python -m tests.engine.stratego.notebook.quality [games] [variant ...]
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

from engine import (
    Color,
    Game,
    Move,
    Square,
    get_variant,
    player_view,
    redact_events,
    resolve_battle,
)
from engine.stratego.combat import Outcome
from engine.stratego.gravon import board_from_string
from engine.stratego.notebook import Notebook, SetupPrior, human_setup

PLIES = (0, 50, 150, 300)
GRAVON = Path(__file__).parent / "data" / "gravon_barrage_boards.txt"


def heuristic_move(game: Game, rng: random.Random) -> Move:
    """A plain player that sees only its own view."""
    view = player_view(game, game.to_move)
    known = {p.square: p.kind for p in view.pieces if p.color != game.to_move.value and p.kind}
    variant = game.variant
    forward = 1 if game.to_move is Color.RED else -1
    best, best_score = None, -1e9
    for move in game.legal_moves():
        piece = game.piece_at(move.origin)
        assert piece is not None
        score = rng.random()
        target = known.get(move.target.name)
        if game.piece_at(move.target) is not None:
            if target is None:
                score += 1.0 if (variant.kinds[piece.kind].rank or 0) <= 3 else -1.0
            else:
                outcome = resolve_battle(variant, piece.kind, target)
                score += {Outcome.ATTACKER: 10.0, Outcome.BOTH: 0.0, Outcome.DEFENDER: -10.0}[outcome]
                score += 100.0 if target == "flag" else 0.0
        for square, kind in known.items():
            where = Square.parse(square)
            if where.distance(move.target) == 1 and where != move.target:
                wins = resolve_battle(variant, piece.kind, kind) is Outcome.ATTACKER
                loses = resolve_battle(variant, kind, piece.kind) is Outcome.ATTACKER
                score += 3.0 if wins else -5.0 if loses else 0.0
            if where.distance(move.origin) == 1 and where.distance(move.target) > 1:
                score += 3.0 if resolve_battle(variant, kind, piece.kind) is Outcome.ATTACKER else 0.0
        score += 0.5 * forward * (move.target.rank - move.origin.rank)
        if score > best_score:
            best, best_score = move, score
    assert best is not None
    return best


def setups_for(variant_name: str, source: str, rng: random.Random, game_index: int) -> dict[Color, Any]:
    variant = get_variant(variant_name)
    if source == "gravon":
        lines = [ln for ln in GRAVON.read_text().splitlines() if ln and not ln.startswith("#")]
        board = board_from_string(lines[game_index % len(lines)].split()[1], variant)
        return {c: {s: k for s, (col, k) in board.items() if col is c} for c in Color}
    if source == "human":
        return {c: {Square.parse(s): k for s, k in human_setup(variant, c, rng).items()} for c in Color}
    from engine import random_setup
    return {c: random_setup(variant, c, rng) for c in Color}


def play(variant_name: str, source: str, player: str, seed: int,
         results: dict[tuple[str, int], list[float]], costs: dict[str, list[float]]) -> None:
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    setups = setups_for(variant_name, source, rng, seed)
    game = Game.from_setup(variant, setups[Color.RED], setups[Color.BLUE])
    books = {(c, name): Notebook(variant, c, prior)
             for c in Color
             for name, prior in (("human", None), ("uniform", SetupPrior.uniform(variant, c.other)))}
    for (color, _), book in books.items():
        book.observe(player_view(game, color).to_dict(), [])
    for ply in range(max(PLIES) + 1):
        if ply in PLIES:
            for (color, name), book in books.items():
                started = time.perf_counter()
                beliefs = book.beliefs()
                if name == "human":
                    costs["beliefs"].append(time.perf_counter() - started)
                    started = time.perf_counter()
                    for i in range(20):
                        book.sample(random.Random(i))
                    costs["sample"].append((time.perf_counter() - started) / 20)
                hidden = [i for i in beliefs if not game.knows(color, game.piece(i))]
                for piece_id in hidden:
                    results[(name, ply)].append(beliefs[piece_id].get(game.piece(piece_id).kind, 0.0))
                if name == "human":
                    # Counts only: each hidden piece is any hidden kind, by how many are left.
                    left = Counter(game.piece(i).kind for i in hidden)
                    for piece_id in hidden:
                        results[("counts", ply)].append(left[game.piece(piece_id).kind] / len(hidden))
        if game.result is not None or ply == max(PLIES):
            break
        move = heuristic_move(game, rng) if player == "heuristic" else rng.choice(game.legal_moves())
        events = game.push(move)
        for (color, name), book in books.items():
            started = time.perf_counter()
            book.observe(player_view(game, color).to_dict(), redact_events(game, events, color))
            if name == "human":
                costs["observe"].append(time.perf_counter() - started)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 6
    variants = argv[1:] or ["classic", "barrage"]
    for variant_name in variants:
        sources = ["human", "random"] + (["gravon"] if variant_name == "barrage" else [])
        for source in sources:
            for player in ("random", "heuristic"):
                results: dict[tuple[str, int], list[float]] = defaultdict(list)
                costs: dict[str, list[float]] = defaultdict(list)
                for seed in range(games):
                    play(variant_name, source, player, seed, results, costs)
                cells = []
                for ply in PLIES:
                    if results[("human", ply)]:
                        cells.append(f"ply {ply}: {mean(results[('human', ply)]):.3f}"
                                     f" (uniform prior {mean(results[('uniform', ply)]):.3f},"
                                     f" counts only {mean(results[('counts', ply)]):.3f},"
                                     f" n={len(results[('human', ply)])})")
                print(f"{variant_name:9} setups={source:6} players={player:9} " + "; ".join(cells))
                print(f"{'':9} observe {1000 * mean(costs['observe']):.2f} ms, beliefs "
                      f"{1000 * mean(costs['beliefs']):.2f} ms (max {1000 * max(costs['beliefs']):.1f}),"
                      f" sample {1000 * mean(costs['sample']):.3f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
