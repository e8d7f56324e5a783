"""Move recognition: settle-to-ruling latency and robustness under faults.

1. Latency, in real time: the simulated board is scanned at 200 Hz by the real firmware code,
   its frames cross a real pseudo-terminal into pyserial, then stabiliser and recogniser rule.
   Measured from the last physical change of a move (the piece put down) to the ruling.
2. Robustness, in simulated time: thousands of games played by simulated hands with every
   fault injected (bounce, glitches, pieces between squares, slid scouts, nudged neighbours,
   dropped and corrupted frames), on occupancy and identifying sensors. Counts moves ruled
   correctly, phantom moves (ruled but not made) and missed moves (made but never ruled).

    python bench/bench_recognition.py [--moves 150] [--games 2000] [--plies 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interleave import percentile  # noqa: E402

from firmware_bridge.board.recognition import BoardMatches, BoardWatch, MoveMade  # noqa: E402
from firmware_bridge.board.sim_table import Table, Tally  # noqa: E402
from firmware_bridge.board.sources import SerialSource  # noqa: E402
from hardware.sim.command import board_for  # noqa: E402
from hardware.sim.hands import ALL_FAULTS, NO_FAULTS, Hands  # noqa: E402
from hardware.sim.pty_server import PtySerialServer  # noqa: E402

VARIANTS = ("classic", "barrage", "duel", "compact", "strategy8", "espionage")


def describe(name: str, values: list[float]) -> str:
    """One line: count, median, p99, max in milliseconds."""
    if not values:
        return f"  {name:<22} (none)"
    ms = [v * 1000 for v in values]
    return (f"  {name:<22} n={len(ms):<6} median {statistics.median(ms):6.1f} ms   "
            f"p99 {percentile(ms, 99):6.1f} ms   max {max(ms):6.1f} ms")


def pump(watch: BoardWatch, source: SerialSource, seconds: float, stop) -> list[tuple[float, object]]:
    """Feed readings for up to `seconds`; returns (time, observation) pairs."""
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        observations = []
        for reading in source.readings(timeout=0.002):
            observations += watch.feed(reading)
        observations += watch.poll(time.monotonic())
        now = time.monotonic()
        seen += [(now, o) for o in observations]
        if observations and stop(observations):
            break
    return seen


def latency_over_pty(moves: int, seed: int) -> dict[str, list[float]]:
    """Real-time latency over a pty at 200 Hz; returns latencies by kind of move."""
    rng = random.Random(seed)
    results: dict[str, list[float]] = {"ordinary move": [], "attack": [], "scout move (held)": []}
    played = 0
    while played < moves:
        board, game = board_for(rng.choice(VARIANTS[:5]), False, rng.randrange(10**6))
        with PtySerialServer(board, scan_hz=200) as server:
            source = SerialSource(server.device, retry_s=0.05)
            source.start()
            source.link.wait_connected(5)
            watch = BoardWatch(game)
            hands = Hands(board, rng, NO_FAULTS)
            pump(watch, source, 2.0, lambda obs: isinstance(obs[-1], BoardMatches))
            for _ in range(40):
                legal = game.legal_moves()
                if game.result is not None or not legal or played >= moves:
                    break
                attacks = [m for m in legal if game.piece_at(m.target) is not None]
                move = rng.choice(attacks) if attacks and rng.random() < 0.3 else rng.choice(legal)
                attack = game.piece_at(move.target) is not None
                scout = watch.recognizer.is_scout_move(move) and not attack
                hands.play(game, move)
                seen = pump(watch, source, 5.0, lambda obs: any(isinstance(o, MoveMade) for o in obs))
                rulings = [(t, o) for t, o in seen if isinstance(o, MoveMade)]
                if not rulings or rulings[0][1].move != move:
                    print(f"  !! {move}: ruled {rulings[0][1].move if rulings else 'nothing'}")
                    break
                ruled_at = rulings[0][0]
                kind = "attack" if attack else "scout move (held)" if scout else "ordinary move"
                results[kind].append(ruled_at - board.last_change)
                while board.pending():
                    time.sleep(0.005)
                events = game.push(move)
                confirmed = watch.sync()
                hands.after_ruling(move, events, attack, lambda piece_id: 100 + piece_id)
                if board.pending() or not confirmed or not isinstance(confirmed[-1], BoardMatches):
                    pump(watch, source, 3.0,
                         lambda obs, board=board: isinstance(obs[-1], BoardMatches) and not board.pending())
                played += 1
            source.stop()
    return results


def robustness(games: int, plies: int, seed: int) -> tuple[Tally, Tally, float]:
    """Fault-injected games in simulated time, occupancy and identifying sensors."""
    occupancy, identifying = Tally(), Tally()
    started = time.perf_counter()
    for n in range(games):
        variant = VARIANTS[n % len(VARIANTS)]
        if n % 4 == 3:
            identifying.add(Table(variant, seed + n, ALL_FAULTS, identifying=True).play_game(plies))
        else:
            occupancy.add(Table(variant, seed + n, ALL_FAULTS).play_game(plies))
    return occupancy, identifying, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=150, help="moves for the real-time latency run")
    parser.add_argument("--games", type=int, default=2000, help="fault-injected games in simulated time")
    parser.add_argument("--plies", type=int, default=30, help="moves per simulated game at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    print(f"Settle-to-ruling latency, real time, 200 Hz scan, serial protocol over a pty ({args.moves} moves)")
    print("  pipeline: 3-scan firmware debounce, 20 ms board quiet period, scouts held 350 ms")
    latencies = latency_over_pty(args.moves, args.seed)
    for name, values in latencies.items():
        print(describe(name, values))
    ordinary = latencies["ordinary move"] + latencies["attack"]
    if ordinary:
        print(f"  ordinary moves and attacks: p99 {percentile(ordinary, 99) * 1000:.1f} ms "
              f"(aim < 50 ms; {200 / (percentile(ordinary, 99) * 1000):.1f}x faster than a 200 ms chess board)")

    print(f"\nRobustness: {args.games} games of up to {args.plies} moves, every fault on, simulated time")
    occupancy, identifying, seconds = robustness(args.games, args.plies, args.seed)
    for name, tally in (("occupancy sensors", occupancy), ("identifying sensors", identifying)):
        total = tally.correct + tally.phantom + tally.missed
        print(f"  {name:<20} moves {total:>6}  correct {tally.correct:>6}  phantom {tally.phantom}  "
              f"missed {tally.missed}  false alarms {tally.false_alarms}")
        for note in tally.notes[:5]:
            print(f"    {note}")
    both = Tally()
    both.add(occupancy)
    both.add(identifying)
    print("  simulated-time latency under faults:")
    print(describe("ordinary move", both.latencies))
    print(describe("attack", both.attack_latencies))
    print(describe("scout move (held)", both.scout_latencies))
    moves = both.correct + both.phantom + both.missed
    print(f"  {seconds:.0f} s of computing, {seconds / max(moves, 1) * 1000:.2f} ms per simulated move")
    return 1 if both.phantom or both.missed else 0


if __name__ == "__main__":
    sys.exit(main())
