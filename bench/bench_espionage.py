"""Espionage in numbers: random games to the end, engine speed, and how the rules play out.

Run: .venv/bin/python bench/bench_espionage.py [--games 200] [--seed 1] [--one-move]

Reports legal moves applied per CPU second (listing the legal moves, choosing one, applying it),
how the games ended, how long they were, how often a turn had one move only or a player passed,
and how many enemy pieces the spies recognised per game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Color, Game, espionage_variant, random_setup  # noqa: E402

MAX_PLIES = 5000


def main(argv: list[str] | None = None) -> int:
    """Play the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one-move", action="store_true", help="the one-move-per-turn option")
    args = parser.parse_args(argv)
    variant = espionage_variant(moves_per_turn=1 if args.one_move else 2)
    rng = random.Random(args.seed)
    endings: Counter[str] = Counter()
    lengths, reveals = [], []
    moves = turns = short_turns = passes = 0
    seconds = 0.0
    for _ in range(args.games):
        game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                               random_setup(variant, Color.BLUE, rng), rng=rng)
        revealed = 0
        in_turn = 0
        start = time.process_time()
        while game.result is None and game.ply < MAX_PLIES:
            events = game.push(rng.choice(game.legal_moves()))
            in_turn += 1
            turn_events = [e for e in events if e.type == "turn"]
            revealed += sum(e.type == "reveal" for e in events)
            if turn_events:
                turns += 1
                short_turns += in_turn < variant.moves_per_turn
                passes += len(turn_events) - 1
                in_turn = 0
        seconds += time.process_time() - start
        moves += game.ply
        lengths.append(game.ply)
        reveals.append(revealed)
        endings[game.result.reason if game.result else "unfinished"] += 1
    print(f"espionage, {variant.moves_per_turn} move(s) a turn, {args.games} random games")
    print(f"  speed: {moves / seconds:,.0f} legal moves applied per CPU second ({moves} moves)")
    print(f"  plies per game: median {statistics.median(lengths):.0f}, max {max(lengths)}")
    print(f"  endings: {dict(endings)}")
    print(f"  turns with fewer moves than allowed: {short_turns / max(turns, 1):.2%}; passes: {passes}")
    print(f"  enemy pieces recognised by spies per game: median {statistics.median(reveals):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
