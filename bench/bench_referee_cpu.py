"""The referee's CPU per ruling, alone: no broker, no tablets, no other process.

One board's real Referee (journal, session, publisher, outbox, signing and sealing) reads plain
moves from stable boards (lift, then place: the recogniser's path, board check included) and
publishes into a transport that only counts messages and bytes. Per move it measures the
thread's CPU time of the lift (the board check changes: snapshots go out) and of the place (the
ruling, whole path, and the session's part in it: engine + journal write), and
per `hello` the CPU of a full republish (info, presence, every snapshot). The journal is a real
file with its fsync, so the wall time is shown too but only the CPU is compared.

Old against new: `--against before-signing=2507e99` runs the same game (same setups, same
moves by seed) against that revision's code and ours in turn, `--rounds` times.
Usage: python bench/bench_referee_cpu.py [--rulings 300] [--hellos 100] [--against [LABEL=]REV ...]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from interleave import (
    Version,
    code_root,
    distribution,
    interleave,
    load_average,
    run_child,
    versions,
)

code_root()

from bench_end_to_end import VARIANT, prepare_board  # noqa: E402

import firmware_bridge  # noqa: E402


class CountingLink:
    """Stands in for the MQTT link's publish: counts messages and bytes, sends nothing."""

    def __init__(self) -> None:
        self.messages = 0
        self.bytes = 0

    def publish(self, topic: str, payload: bytes, retain: bool = False, qos: int = 1) -> None:
        """Count one message."""
        self.messages += 1
        self.bytes += len(topic) + len(payload)


def measure(rulings: int, hellos: int, seed: int) -> dict:
    """Rule ``rulings`` plain board moves and answer ``hellos`` hellos; CPU and bytes of each."""
    from firmware_bridge.referee.service import Referee, RefereeSettings

    directory = Path(tempfile.mkdtemp(prefix="arbiter-cpu-"))
    board_name = "cpu-board"
    credentials = prepare_board(directory, board_name, seed)
    referee = Referee(RefereeSettings(board_name, directory / f"{board_name}.db", "mqtt://127.0.0.1:1",
                                      variant=VARIANT))
    counting = CountingLink()
    referee.link.publish = counting.publish  # type: ignore[method-assign]
    for seat in credentials.values():
        referee.online[seat["client_id"]] = "seat"  # both tablets online, as at a table
    session = getattr(referee, "stratego", referee.session)
    if hasattr(session, "use_board"):
        session.use_board()
    else:
        session.board_input = True
    session_cpu: list[float] = []
    board_move = session.board_move

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        started = time.thread_time()
        ruling = board_move(*args, **kwargs)
        session_cpu.append(time.thread_time() - started)
        return ruling

    session.board_move = timed
    occupied = {s.name for s in session.game.occupied()}
    referee.on_board(occupied)  # the board is read once before play
    rng = random.Random(seed)
    per_ruling: dict[str, list[float]] = {"move_cpu_us": [], "lift_cpu_us": [], "cpu_us": [],
                                          "session_cpu_us": [], "publish_cpu_us": [], "wall_us": [],
                                          "bytes": [], "messages": []}
    recognizer = referee.watcher.recognizer
    while len(per_ruling["cpu_us"]) < rulings and session.game.result is None:
        game = session.game
        moves = [m for m in game.legal_moves() if game.piece_at(m.target) is None
                 and not recognizer.is_scout_move(m)]
        if not moves:
            break
        move = rng.choice(moves)
        seq, sent, messages = session.seq, counting.bytes, counting.messages
        lift = time.thread_time()
        occupied.discard(move.origin.name)
        referee.on_board(occupied)  # lifted: the board check changes
        lift = time.thread_time() - lift
        occupied.add(move.target.name)
        cpu, wall = time.thread_time(), time.perf_counter()
        referee.on_board(occupied)  # placed: recognised, ruled, published
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
        if session.seq != seq + 1:
            raise RuntimeError(f"the move {move} was not ruled (seq {session.seq})")
        per_ruling["move_cpu_us"].append((lift + cpu) * 1e6)
        per_ruling["lift_cpu_us"].append(lift * 1e6)
        per_ruling["cpu_us"].append(cpu * 1e6)
        per_ruling["session_cpu_us"].append(session_cpu[-1] * 1e6)
        per_ruling["publish_cpu_us"].append((cpu - session_cpu[-1]) * 1e6)
        per_ruling["wall_us"].append(wall * 1e6)
        per_ruling["bytes"].append(counting.bytes - sent)
        per_ruling["messages"].append(counting.messages - messages)
    per_hello: dict[str, list[float]] = {"cpu_us": [], "bytes": [], "messages": []}
    for _ in range(hellos):
        sent, messages = counting.bytes, counting.messages
        cpu = time.thread_time()
        referee.republish()
        per_hello["cpu_us"].append((time.thread_time() - cpu) * 1e6)
        per_hello["bytes"].append(counting.bytes - sent)
        per_hello["messages"].append(counting.messages - messages)
    referee.journal.close()
    shutil.rmtree(directory, ignore_errors=True)
    return {"code": str(Path(firmware_bridge.__file__).parents[1]), "ruling": per_ruling, "hello": per_hello}


def pooled(runs: list[dict], what: str, key: str) -> list[float]:
    """Every value of ``what``/``key`` over ``runs``."""
    return [v for run in runs for v in run[what][key]]


ROWS = [("ruling", "move_cpu_us", "CPU per move: lift + place (us)"),
        ("ruling", "lift_cpu_us", "  the lift: board check, snapshots (us)"),
        ("ruling", "cpu_us", "  the place: the ruling, whole path (us)"),
        ("ruling", "session_cpu_us", "    of which the session: engine + journal (us)"),
        ("ruling", "publish_cpu_us", "    the rest: recognition, snapshots, publishing (us)"),
        ("ruling", "wall_us", "wall per ruling (the place), fsync included (us)"),
        ("ruling", "bytes", "bytes published per move"),
        ("ruling", "messages", "messages per move"),
        ("hello", "cpu_us", "CPU per hello: full republish (us)"),
        ("hello", "bytes", "bytes per republish")]


def report(results: dict[str, list[dict]]) -> None:
    """Side by side: p50 / p90 / p99 of every row, per version, and the ratio of medians to ours."""
    labels = list(results)
    print("referee alone: rulings through session, publisher and outbox into a byte-counting link")
    print(f"{'':<52}" + "".join(f"{label:>30}" for label in labels) + "   p50 ratio to first")
    for what, key, caption in ROWS:
        cells, medians = [], []
        for label in labels:
            d = distribution(pooled(results[label], what, key))
            medians.append(d["p50"] or 0.0)
            cells.append(f"{d['p50']:.0f} / {d['p90']:.0f} / {d['p99']:.0f}")
        ratios = " ".join(f"{m / medians[0]:.2f}" if medians[0] else "-" for m in medians[1:])
        print(f"{caption:<52}" + "".join(f"{c:>30}" for c in cells) + f"   {ratios}")
    print("(p50 / p90 / p99; " + ", ".join(
        f"{label}: {len(pooled(results[label], 'ruling', 'cpu_us'))} rulings in {len(results[label])} runs"
        for label in labels) + ")")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=300)
    parser.add_argument("--hellos", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--against", action="append", default=[], metavar="[LABEL=]REV_OR_PATH")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one run's raw result as JSON")
    args = parser.parse_args()
    if args.json or not args.against:
        result = measure(args.rulings, args.hellos, args.seed)
        if args.json:
            print(json.dumps(result))
        else:
            report({"ours": [result]})
        return 0
    script = Path(__file__).resolve()
    print(f"# load average before: {load_average()}", file=sys.stderr)
    with versions(args.against) as found:
        def run(version: Version, round_number: int) -> dict:
            result = run_child(version, script, ["--rulings", str(args.rulings), "--hellos", str(args.hellos),
                                                 "--seed", str(args.seed), "--json"], timeout=900)
            if Path(result["code"]) != version.root:
                raise RuntimeError(f"{version.label}: ran the code in {result['code']}, not {version.root}")
            return result
        results = interleave(found, args.rounds, run)
    report(results)
    print(f"# load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
