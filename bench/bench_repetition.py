"""Is checking the repetition rules as cheap at move 5000 as at move 20, and inside a long chase?

Plays a long classic game of quiet random moves (no attacks, so it never ends) and times
`legal_moves()` - which asks the repetition rules about every candidate move - near move 20 and
near move 5000; then times `check` of a chasing move in a chase that has produced many positions.
Prints CPU-time ratios (the machine is shared); nothing here is asserted in a test.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Color, Game, Move, Square, get_variant, random_setup  # noqa: E402


def quiet_game(seed: int) -> Game:
    variant = get_variant("classic")
    rng = random.Random(seed)
    return Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))


def time_legal_moves(game: Game, repeats: int = 200) -> float:
    """Microseconds per candidate move checked by legal_moves() in the current position."""
    samples = []
    for _ in range(7):
        start = time.process_time()
        for _ in range(repeats):
            count = len(game.legal_moves())
        samples.append((time.process_time() - start) / repeats)
    candidates = max(count, 1)
    return statistics.median(samples) / candidates * 1e6


def costs_along_a_long_game(seed: int, checkpoints: tuple[int, ...]) -> dict[int, float]:
    rng = random.Random(seed)
    game = quiet_game(seed)
    costs = {}
    while game.ply < max(checkpoints):
        if game.ply in checkpoints:
            costs[game.ply] = time_legal_moves(game)
        quiet = [m for m in game.legal_moves() if game.piece_at(m.target) is None]
        game.push(rng.choice(quiet))
    costs[game.ply] = time_legal_moves(game)
    return costs


def chase_check_cost(extra_positions: int) -> float:
    """Microseconds per `check` of a refused chasing move, the chase remembering many positions."""
    pieces = {Square.parse("a2"): (Color.RED, "general"), Square.parse("j1"): (Color.RED, "flag"),
              Square.parse("b1"): (Color.BLUE, "major"), Square.parse("j10"): (Color.BLUE, "flag")}
    game = Game.from_position(get_variant("classic"), pieces)
    for move in ["a2-a1", "b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1"]:
        game.push(Move.parse(move))
    chase = game.repetition.chases[Color.RED]
    rng = random.Random(0)
    # Stand-ins for the positions of a very long chase: only the size of its memory matters here.
    chase.positions.update({rng.getrandbits(64): 1 for _ in range(extra_positions)})
    refused = Move.parse("a2-a1")
    assert game.check(refused).rule == "more-squares"
    samples = []
    for _ in range(7):
        start = time.process_time()
        for _ in range(20000):
            game.check(refused)
        samples.append((time.process_time() - start) / 20000)
    return statistics.median(samples) * 1e6


def main() -> None:
    checkpoints = (20, 50, 500, 5000)
    runs = [costs_along_a_long_game(seed, checkpoints) for seed in (1, 2, 3)]
    print("repetition rules: cost per candidate move in legal_moves() (microseconds)")
    for ply in checkpoints:
        values = [run[ply] for run in runs]
        print(f"  move {ply:>5}: median {statistics.median(values):.3f}  (runs: "
              + ", ".join(f"{v:.3f}" for v in values) + ")")
    ratio = statistics.median(r[5000] for r in runs) / statistics.median(r[20] for r in runs)
    print(f"  ratio move 5000 / move 20: {ratio:.2f}")
    small, large = chase_check_cost(0), chase_check_cost(100_000)
    print(f"check() of a refused chasing move: chase of 4 positions {small:.2f} us, "
          f"of 100 004 positions {large:.2f} us, ratio {large / small:.2f}")


if __name__ == "__main__":
    main()
