"""Two configurations of our bot against one opponent in one run, game by game on the same seeds.

A change to the bot is measured against the bot without it under the same load and on the same
seeds: game n is played by the level as it stands and by the level with one of its switches
(`Level` fields in firmware_bridge/bot/levels.py, e.g. `informed`, `deep`) flipped, one after the
other (the order alternates), so our setups are the same in both. The opponents are found as
`bench_bot_opponents.py` finds them (ARBITER_OPPONENTS, PYTHON2). PeternLewis seeds its own
random numbers from the clock, so its games still differ between the two; Vixen's do not.

Reported per configuration: won-drawn-lost with the Wilson 95% interval, the one-sided Fisher
exact p that the flipped configuration wins more often than the level as it stands (and the
other way round), our flag taken, pieces lost and taken, and the think time per move.

Run: nice -n 15 .venv/bin/python bench/bench_bot_ab.py --opponent peternlewis --rules none
         --games 40 --seed 1 --flip informed [--level normal] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_opponents import (  # noqa: E402
    bench_game,
    find_opponent,
    flipped,
    losses,
    one_opponent_parser,
)
from interleave import percentile  # noqa: E402

from firmware_bridge.bot import levels  # noqa: E402
from firmware_bridge.bot.match import wilson  # noqa: E402


def fisher_one_sided(wins: int, games: int, other_wins: int, other_games: int) -> float:
    """P of at least `wins` wins in the first row by chance alone (hypergeometric tail)."""
    total, won = games + other_games, wins + other_wins

    def chance(k: int) -> float:
        return math.comb(games, k) * math.comb(other_games, won - k) / math.comb(total, won)

    return sum(chance(k) for k in range(wins, min(games, won) + 1))


def play(level: levels.Level, spec: str, rules: str, number: int, seed: int,
         max_plies: int) -> dict[str, Any]:
    """One game of our bot at `level` (colours alternate with the game number)."""
    levels.LEVELS[level.name] = level
    game = bench_game(f"bot:{level.name}", spec, number, seed, rules, max_plies)
    color = game.color.value
    return {"game": number, "who": game.who, "reason": game.result.reason,
            "plies": game.result.plies, "think": game.result.think_seconds[color],
            "losses": dict(losses(game.battles, color))}


def summary(label: str, games: list[dict[str, Any]], against: tuple[int, int] | None) -> str:
    """One markdown row."""
    count = len(games)
    won = sum(g["who"] == "bot" for g in games)
    drawn = sum(g["who"] == "nobody" for g in games)
    low, high = wilson(won, count)
    think = [t for g in games for t in g["think"]]
    lost = sum(g["losses"].get("pieces lost", 0) for g in games)
    taken = sum(g["losses"].get("enemy pieces taken", 0) for g in games)
    flag = sum(g["who"] == "opponent" and g["reason"] == "flag-captured" for g in games)
    p = "-" if against is None else f"{fisher_one_sided(won, count, *against):.2f}"
    return (f"| {label} | {count} | {won}-{drawn}-{count - won - drawn} | {won / count:.0%} "
            f"({low:.0%}-{high:.0%}) | {p} | {flag} | {lost} / {taken} | "
            f"{percentile(think, 50):.3f} / {percentile(think, 99):.3f} s |")


def play_interleaved(args: argparse.Namespace, labels: list[str],
                     play_one: Callable[[str, int], dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Game by game, each configuration (`play_one(label, number)`) in turn, the order
    alternating; every game printed and, with `--json`, appended to that file."""
    played: dict[str, list[dict[str, Any]]] = {label: [] for label in labels}
    for number in range(args.games):
        for label in labels if number % 2 == 0 else labels[::-1]:
            game = play_one(label, number)
            played[label].append(game)
            print(f"  {label}, game {number + 1}: {game['who']} wins, {game['reason']}, "
                  f"{game['plies']} plies", flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps(dict(game, config=label, opponent=args.opponent,
                                              rules=args.rules)) + "\n")
    return played


def report(args: argparse.Namespace, played: dict[str, list[dict[str, Any]]], started: float) -> None:
    """The markdown table of two configurations, each row's p against the other, and the endings."""
    first, second = list(played)
    tally = {label: (sum(g["who"] == "bot" for g in games), len(games)) for label, games in played.items()}
    print(f"bot:{args.level} against {args.opponent}, rules {args.rules}, seed {args.seed}, "
          f"{time.perf_counter() - started:.0f} s; p: one-sided Fisher, this row better than the other")
    print("| bot:" + args.level + " | games | won-drawn-lost | win rate (Wilson 95%) | p | our flag taken "
          "| our pieces lost / theirs taken | think p50 / p99 |")
    print("|---|---|---|---|---|---|---|---|")
    print(summary(first, played[first], tally[second]))
    print(summary(second, played[second], tally[first]))
    print("endings:", {label: dict(Counter(f"{g['who']}: {g['reason']}" for g in games))
                       for label, games in played.items()})


def main() -> int:
    """Play both configurations game by game and print the table."""
    parser = one_opponent_parser(__doc__.splitlines()[0])
    parser.add_argument("--flip", default="informed",
                        help="the Level switch to flip (several, comma-separated, flip together)")
    parser.add_argument("--json", default=None, help="append each game's figures to this file")
    args = parser.parse_args()
    spec = find_opponent(args.opponent)
    if spec is None:
        return 0  # a missing program is skipped (said above), so `make bench` goes on
    stands = levels.LEVELS[args.level]
    other, label = flipped(stands, args.flip)
    labels = {"as it stands": stands, label: other}
    started = time.perf_counter()
    played = play_interleaved(args, list(labels), lambda label, number: play(
        labels[label], spec, args.rules, number, args.seed, args.max_plies))
    levels.LEVELS[args.level] = stands
    report(args, played, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
