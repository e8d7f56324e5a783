"""Napoleon's Triumph engine speed: random legal games, and listing legal actions early and late.

Run: .venv/bin/python bench/bench_triumph.py [--games 5] [--seed 1] [--turns 16]

Part 1 plays random legal games from a full position (every unit of both armies on the map,
`engine.triumph.sample.crowded_position`): every decision, commands and attack choices alike, is
chosen at random among `legal_actions()`. It reports actions applied per second, counting what a
game loop does: listing the legal actions, choosing one, pushing it.
Part 2 measures the cost of `legal_actions()` in that crowded position twice: early (after one
cycle of a shuttle) and late (after many more player turns of the same shuttle, so the very same
position comes back with a much longer history). Three units of each side step onto an approach in
one turn and back into their reserve in their next turn. Equal costs mean listing does not grow
with the length of the game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.triumph.actions import EndTurn, UnitMove  # noqa: E402
from engine.triumph.game import TriumphGame  # noqa: E402
from engine.triumph.pieces import Position  # noqa: E402
from engine.triumph.sample import crowded_position  # noqa: E402

MAX_ACTIONS = 20_000  # a safety net: a random game ends after 20 player turns


def play_to_the_end(rng: random.Random) -> tuple[int, float, float, str, int]:
    """One random game: (actions applied, wall s, CPU s, how it ended, attacks fought)."""
    game = TriumphGame.from_position(crowded_position())
    start, start_cpu = time.perf_counter(), time.process_time()
    while game.result is None and len(game.actions) < MAX_ACTIONS:
        game.push(rng.choice(game.legal_actions()))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    ending = game.result["reason"] if game.result else "action limit"
    return len(game.actions), elapsed, cpu, ending, len(game.state.combats)


def shuttle_plan(game: TriumphGame) -> dict[str, list[tuple[str, Position, Position]]]:
    """Per side, three corps units (never a corps' last) with a free approach of their locale."""
    plan: dict[str, list[tuple[str, Position, Position]]] = {"french": [], "allied": []}
    used: set[str] = set()
    for unit in game.state.units.values():
        side = unit.side
        if len(plan[side]) == 3 or unit.at is None or unit.commander in used:
            continue
        toward = game.map.neighbours(unit.at.locale)[0]
        plan[side].append((unit.id, unit.at, Position(unit.at.locale, toward)))
        if unit.commander:
            used.add(unit.commander)
    return plan


def shuttle(game: TriumphGame, turns: int) -> None:
    """Play `turns` player turns: out to the approach in one turn, back in the side's next."""
    plan = shuttle_plan(game)
    for _ in range(turns):
        side = game.state.to_move
        out = game.state.turns_played % 4 < 2
        for unit_id, reserve, approach in plan[side]:
            game.push(UnitMove(side, unit_id, approach if out else reserve))
        game.push(EndTurn(side))


def listing_costs(games: list[TriumphGame], trials: int = 7, repeat: int = 10
                  ) -> list[tuple[float, int]]:
    """CPU milliseconds per `legal_actions()` call and the number listed, per game: the best of
    several trials taken in turns, so that a busy machine hurts every game alike."""
    best = [float("inf")] * len(games)
    counts = [0] * len(games)
    for _ in range(trials):
        for index, game in enumerate(games):
            start = time.process_time()
            for _ in range(repeat):
                counts[index] = len(game.legal_actions())
            best[index] = min(best[index], (time.process_time() - start) / repeat * 1e3)
    return list(zip(best, counts, strict=True))


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="random games to play to the end")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns", type=int, default=16,
                        help="player turns before the late listing (a multiple of 4, at most 16)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    print(f"Part 1: {args.games} random NT games from a full position to the end")
    results = [play_to_the_end(rng) for _ in range(args.games)]
    actions = sum(r[0] for r in results)
    seconds, cpu = sum(r[1] for r in results), sum(r[2] for r in results)
    endings: dict[str, int] = {}
    for result in results:
        endings[result[3]] = endings.get(result[3], 0) + 1
    print(f"  {'actions applied':<30}{actions:>10,}")
    print(f"  {'attacks fought':<30}{sum(r[4] for r in results):>10,}")
    print(f"  {'endings':<30}" + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    print(f"  {'seconds (wall / CPU)':<30}{seconds:>10.2f} / {cpu:.2f}")
    print(f"  {'actions per second (wall)':<30}{actions / seconds:>10.1f}")
    print(f"  {'actions per CPU second':<30}{actions / cpu:>10.1f}")

    print("Part 2: legal_actions() in the full position, early and late in a game")
    early = TriumphGame.from_position(crowded_position())
    shuttle(early, 4)
    late = TriumphGame.from_position(crowded_position())
    shuttle(late, min(16, max(8, args.turns - args.turns % 4)))
    assert repr(early.state.units) == repr(late.state.units), "the shuttle must come back"
    (early_ms, early_count), (late_ms, late_count) = listing_costs([early, late])
    print(f"  {'':<30}{'early':>10}{'late':>10}")
    print(f"  {'actions before the listing':<30}{len(early.actions):>10}{len(late.actions):>10}")
    print(f"  {'legal actions listed':<30}{early_count:>10}{late_count:>10}")
    print(f"  {'CPU ms per legal_actions()':<30}{early_ms:>10.2f}{late_ms:>10.2f}")
    print(f"  {'late / early':<30}{late_ms / early_ms:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
