"""Computer player strength and speed: the bot against the random mover, the heuristic player
and its own lower level, classic rules, colours alternated, 1000-ply cap.

Run: .venv/bin/python bench/bench_bot_strength.py [--games 10] [--level normal] [--lower easy]
     [--opponents random,heuristic,lower] [--max-plies 1000] [--seed 1] [--worlds N]

Reports per opponent wins/draws/losses with Wilson 95% intervals, the bot's think time per move
(whole seat update: notebook and search; 50th/90th/99th percentile and maximum), the search
board's positions per second, and in the same run the rules engine's legal moves applied per
CPU second (random classic games). `--worlds` caps the worlds per move (a faster bot for a
bounded run). The full run (hundreds of games) takes long; choose --games for the time you have.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interleave import percentile  # noqa: E402

from engine import Color, Game, get_variant, random_setup  # noqa: E402
from firmware_bridge.bot.levels import LEVELS  # noqa: E402
from firmware_bridge.bot.match import Tally, make_player, play_game  # noqa: E402
from firmware_bridge.bot.player import ComputerPlayer  # noqa: E402
from firmware_bridge.bot.players import Player  # noqa: E402


def engine_moves_per_cpu_second(seconds: float, seed: int) -> float:
    """Random classic games with the rules engine: legal moves applied per CPU second."""
    rng = random.Random(seed)
    variant = get_variant("classic")
    moves, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                               random_setup(variant, Color.BLUE, rng))
        while game.result is None and game.ply < 3000:
            game.push(rng.choice(game.legal_moves()))
            moves += 1
    return moves / (time.process_time() - start)


# Published figures for the Raspberry Pi estimate (see docs/bot.md, "Strength and speed"):
PI4_NBODY_SECONDS = 158.3  # CPython, n-body 5,000,000 steps, Pi 4 at 1.5 GHz, performance governor
PI5_OVER_PI4 = 2737.49 / 1477.83  # sysbench cpu single-core events/s, Pi 5 vs Pi 4
NBODY_STEPS = 500_000


def nbody_cpu_seconds(steps: int) -> float:
    """CPU seconds of the classic n-body simulation (the Benchmarks Game's algorithm) here."""
    solar_mass = 4 * 3.14159265358979323 ** 2
    year = 365.24
    bodies = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], solar_mass),
        ([4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01],
         [1.66007664274403694e-03 * year, 7.69901118419740425e-03 * year, -6.90460016972063023e-05 * year],
         9.54791938424326609e-04 * solar_mass),
        ([8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01],
         [-2.76742510726862411e-03 * year, 4.99852801234917238e-03 * year, 2.30417297573763929e-05 * year],
         2.85885980666130812e-04 * solar_mass),
        ([1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01],
         [2.96460137564761618e-03 * year, 2.37847173959480950e-03 * year, -2.96589568540237556e-05 * year],
         4.36624404335156298e-05 * solar_mass),
        ([1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01],
         [2.68067772490389322e-03 * year, 1.62824170038242295e-03 * year, -9.51592254519715870e-05 * year],
         5.15138902046611451e-05 * solar_mass),
    ]
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies)) for j in range(i + 1, len(bodies))]
    dt = 0.01
    start = time.process_time()
    for _ in range(steps):
        for ((x1, y1, z1), v1, m1), ((x2, y2, z2), v2, m2) in pairs:
            dx, dy, dz = x1 - x2, y1 - y2, z1 - z2
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** (-1.5))
            b1m, b2m = m1 * mag, m2 * mag
            v1[0] -= dx * b2m
            v1[1] -= dy * b2m
            v1[2] -= dz * b2m
            v2[0] += dx * b1m
            v2[1] += dy * b1m
            v2[2] += dz * b1m
        for r, (vx, vy, vz), _m in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    return time.process_time() - start


def bot(level: str, color: Color, seed: int, worlds: int | None) -> ComputerPlayer:
    player = ComputerPlayer("classic", color, level, seed)
    if worlds is not None:
        player.level = replace(player.level, max_worlds=min(worlds, player.level.max_worlds))
    return player


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games per opponent")
    parser.add_argument("--level", default="normal", choices=sorted(LEVELS))
    parser.add_argument("--lower", default="easy", choices=sorted(LEVELS))
    parser.add_argument("--opponents", default="random,heuristic,lower")
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worlds", type=int, default=None, help="cap on worlds per move")
    args = parser.parse_args()
    think: list[float] = []
    positions, search_seconds = 0, 0.0
    print(f"bot:{args.level} (classic, {args.max_plies}-ply cap, {args.games} games per opponent)")
    for opponent in args.opponents.split(","):
        tally = Tally()
        started = time.perf_counter()
        for number in range(args.games):
            seed = args.seed * 10_000 + number
            bot_is_red = number % 2 == 0
            color = Color.RED if bot_is_red else Color.BLUE
            me = bot(args.level, color, seed, args.worlds)
            other: Player
            if opponent == "lower":
                other = bot(args.lower, color.other, seed + 1, None)
            else:
                other = make_player(opponent, "classic", color.other, seed + 1)
            red, blue = (me, other) if bot_is_red else (other, me)
            result = play_game(red, blue, "classic", args.max_plies, seed)
            tally.add(result, bot_is_red)
            think.extend(result.think_seconds[color.value])
            positions += me.total_positions
            search_seconds += me.total_search_seconds
        name = f"bot:{args.lower}" if opponent == "lower" else opponent
        plies = sorted(tally.plies)
        print(f"  {tally.summary('bot:' + args.level, name)}")
        print(f"    endings {tally.reasons}; median {plies[len(plies) // 2]} plies; "
              f"{time.perf_counter() - started:.0f} s")
    print(f"think time per move (s): p50 {percentile(think, 50):.3f}  p90 {percentile(think, 90):.3f}"
          f"  p99 {percentile(think, 99):.3f}  max {max(think):.3f}  ({len(think)} moves)")
    print(f"search board: {positions / search_seconds:,.0f} positions per second "
          f"({positions:,} positions in {search_seconds:.1f} s of search)")
    print(f"rules engine: {engine_moves_per_cpu_second(5.0, args.seed):,.0f} legal moves applied "
          f"per CPU second (random classic games)")
    here = nbody_cpu_seconds(NBODY_STEPS) * 5_000_000 / NBODY_STEPS
    factor = PI4_NBODY_SECONDS / here / PI5_OVER_PI4
    print(f"Raspberry Pi 5 estimate: n-body 5M steps {here:.1f} s here vs {PI4_NBODY_SECONDS} s on a "
          f"Pi 4, Pi 5 = Pi 4 x {PI5_OVER_PI4:.2f}: a Pi 5 is ~{factor:.1f}x slower than this machine; "
          f"think p50 {percentile(think, 50) * factor:.2f} s, p99 {percentile(think, 99) * factor:.2f} s, "
          f"max {max(think) * factor:.2f} s there (the deadline caps the search at "
          f"{LEVELS[args.level].think_seconds} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
