"""Engine speed: random classic games to the end, and the cost of a move early and late in a game.

Run: .venv/bin/python bench/bench_engine.py [--games 20] [--seed 1] [--profile]

Part 1 plays random legal games of `classic` (repetition rules on) to the end and reports legal
moves applied per second, counting everything a game loop does: listing the legal moves,
choosing one, applying it.
Part 2 plays 50 random quiet moves (no attacks: all 80 pieces stay), then lengthens a copy of
that game to about move 5000 by shuffling pieces back and forth so that the very same position
comes back, and measures in both what one move costs: `check`, `push` (which checks again),
`pop`, and `legal_moves()`. Same position, so equal costs mean the cost does not grow with the
length of the game.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Color, Game, Move, get_variant, random_setup  # noqa: E402

MAX_PLIES = 20_000  # a safety net: random classic games end long before this


def new_game(rng: random.Random) -> Game:
    variant = get_variant("classic")
    return Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng))


def play_to_the_end(rng: random.Random) -> tuple[int, float, float, str]:
    """One random game: (moves applied, wall seconds, CPU seconds, how it ended)."""
    game = new_game(rng)
    choice = rng.choice
    start, start_cpu = time.perf_counter(), time.process_time()
    while game.result is None and game.ply < MAX_PLIES:
        game.push(choice(game.legal_moves()))
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    ending = game.result.reason if game.result else "move limit"
    return game.ply, elapsed, cpu, ending


def quiet_game(rng: random.Random, plies: int) -> Game:
    """A game of `plies` random quiet moves: never an attack, so every piece stays on the board."""
    game = new_game(rng)
    while game.ply < plies:
        quiet = [m for m in game.legal_moves() if game.piece_at(m.target) is None]
        game.push(rng.choice(quiet))
    return game


def shuttles(game: Game) -> dict[Color, list[Move]]:
    """Two quiet moves per side, by four different pieces, on eight different squares."""
    used: set = set()
    chosen: dict[Color, list[Move]] = {Color.RED: [], Color.BLUE: []}
    for color in (Color.RED, Color.BLUE):
        for square, piece in game.pieces():
            if piece.color is not color or len(chosen[color]) == 2:
                continue
            if not game.variant.kinds[piece.kind].mobile or square in used:
                continue
            for target in game.geometry.neighbours[game.geometry.index(square)]:
                target_square = game.geometry.squares[target]
                if game.piece_at(target_square) is None and target_square not in used:
                    chosen[color].append(Move(square, target_square))
                    used |= {square, target_square}
                    break
    return chosen


def lengthen(game: Game, until: int) -> None:
    """Shuffle back and forth until move `until`: every 8 moves the position comes back exactly.

    Each side alternates two pieces, two moves each, so the two-squares rule never bites.
    """
    plan = shuttles(game)
    red, blue = plan[Color.RED], plan[Color.BLUE]
    cycle = []
    for red_move, blue_move in zip(red, blue, strict=True):
        cycle += [red_move, blue_move, Move(red_move.target, red_move.origin),
                  Move(blue_move.target, blue_move.origin)]
    if game.to_move is Color.BLUE:
        raise ValueError("lengthen starts with Red to move")
    while game.ply + len(cycle) <= until:
        for move in cycle:
            game.push(move)
    while game.ply + 4 <= until:  # one piece per side out and back: the position comes back too
        for move in cycle[:4]:
            game.push(move)


def per_call(function, repeat: int) -> float:
    """Microseconds per call over `repeat` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat * 1e6


def move_costs(game: Game, rounds: int = 50) -> dict[str, float]:
    """Microseconds for check, push, pop (each averaged over every legal move) and legal_moves."""
    moves: list[Move] = game.legal_moves()

    def check_all() -> None:
        for move in moves:
            game.check(move)

    def push_pop_all() -> None:
        for move in moves:
            game.push(move)
            game.pop()

    def pop_all() -> float:
        total = 0.0
        for move in moves:
            game.push(move)
            start = time.perf_counter()
            game.pop()
            total += time.perf_counter() - start
        return total / len(moves) * 1e6

    check = per_call(check_all, rounds) / len(moves)
    push_pop = per_call(push_pop_all, rounds) / len(moves)
    pop = min(pop_all() for _ in range(rounds))
    return {
        "legal moves": len(moves),
        "check": check,
        "push": push_pop - pop,
        "pop": pop,
        "check+push": check + push_pop - pop,
        "legal_moves()": per_call(game.legal_moves, rounds),
    }


def compare_costs(games: list[Game], trials: int = 7) -> list[dict[str, float]]:
    """The best of several trials per game, taken in turns so a busy machine hurts both alike."""
    best: list[dict[str, float]] = [{} for _ in games]
    for _ in range(trials):
        for index, game in enumerate(games):
            for key, value in move_costs(game).items():
                best[index][key] = min(best[index].get(key, value), value)
    return best


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games to play to the end")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long", type=int, default=5000, help="the late move to measure at")
    parser.add_argument("--profile", action="store_true", help="cProfile the random games")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    print(f"Part 1: {args.games} random classic games to the end (two-squares and more-squares rules on)")
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    results = [play_to_the_end(rng) for _ in range(args.games)]
    if profiler:
        profiler.disable()
    plies = [p for p, _, _, _ in results]
    seconds = sum(s for _, s, _, _ in results)
    cpu = sum(c for _, _, c, _ in results)
    endings: dict[str, int] = {}
    for _, _, _, ending in results:
        endings[ending] = endings.get(ending, 0) + 1
    print(f"  {'moves applied':<28}{sum(plies):>12,}")
    print(f"  {'game length (min/median/max)':<28}{min(plies):>6} / {sorted(plies)[len(plies) // 2]}"
          f" / {max(plies)}")
    print(f"  {'endings':<28}" + ", ".join(f"{k} {v}" for k, v in sorted(endings.items())))
    print(f"  {'seconds (wall / CPU)':<28}{seconds:>12.2f} / {cpu:.2f}")
    print(f"  {'legal moves applied per s':<28}{sum(plies) / seconds:>12,.0f}"
          "   (wall clock; legal_moves() + choice + push per move)")
    print(f"  {'... per CPU second':<28}{sum(plies) / cpu:>12,.0f}"
          "   (what the engine does when it has the core to itself)")

    # 52, not 50: a position comes back only after a multiple of 4 moves, and 5000 - 52 is one.
    early_game = quiet_game(random.Random(args.seed), 52)
    late_game = quiet_game(random.Random(args.seed), 52)
    lengthen(late_game, args.long)
    same = sorted(m.name for m in early_game.legal_moves()) == sorted(
        m.name for m in late_game.legal_moves()) and early_game.hash == late_game.hash
    print(f"\nPart 2: cost per move in the same position at move {early_game.ply} and at move "
          f"{late_game.ply}\n  (reached again by shuffling; same position and legal moves: {same})")
    early, late = compare_costs([early_game, late_game])
    print(f"  {'':<18}{f'move {early_game.ply}':>12}{f'move {late_game.ply}':>14}{'ratio':>9}")
    for key in early:
        unit = "" if key == "legal moves" else " (us)"
        ratio = late[key] / early[key] if early[key] else float("nan")
        print(f"  {key + unit:<18}{early[key]:>12.1f}{late[key]:>14.1f}{ratio:>9.2f}")
    print("  (check, push, pop: per move, averaged over every legal move; legal_moves(): per call)")

    if profiler:
        print("\nWhere the time goes (random games, cumulative):")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
