"""Recovery: from restarting a SIGKILLed referee to every client holding the republished state.

For journals of growing size (rulings of long games), the referee process is killed with
SIGKILL and started again; we time from the start of the new process until both tablets
(decrypted) and the display hold the republished snapshot, through real mosquitto. The
referee's own figure (process start -> snapshots published, from its log) is shown beside it.
Usage: python bench/bench_recovery.py [--sizes 0,300,3000] [--restarts 5]

The kill soak (--kills 500): one journal (the first size), SIGKILLed again and again at a random
moment up to --kill-window seconds after the clients got the previous restart's state (so some
kills land while the referee is still starting), each restart timed the same way; prints the
distribution (p50/p90/p99/max) of the recovery times.
Usage: python bench/bench_recovery.py --sizes 300 --kills 500
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_end_to_end import VARIANT, prepare_board  # noqa: E402
from interleave import percentile  # noqa: E402

from engine import Color, get_variant, random_setup  # noqa: E402
from firmware_bridge.protocol.client import DisplayClient, SeatClient  # noqa: E402
from firmware_bridge.referee.broker import Mosquitto  # noqa: E402
from firmware_bridge.referee.journal import Journal  # noqa: E402
from firmware_bridge.referee.session import Session  # noqa: E402
from tests.firmware_bridge.referee_process import RefereeProcess, write_config  # noqa: E402


def grow_journal(path: Path, rulings: int, seed: int) -> int:
    """Play random games through the session until the journal holds `rulings` more rulings."""
    journal = Journal(path)
    journal._db.execute("PRAGMA synchronous=OFF")  # preparing only: the bench times the replay
    session = Session(journal, VARIANT)
    rng = random.Random(seed)
    counter = 1000
    start = session.seq
    done = 0
    while done < rulings:
        if session.phase == "over":
            counter += 1
            session.execute("red", {"v": 1, "id": f"n{counter}", "seat": "red", "counter": counter,
                                    "type": "new_game", "args": {}})
            for seat in ("red", "blue"):
                counter += 1
                setup = random_setup(get_variant(VARIANT), Color(seat), rng)
                session.execute(seat, {"v": 1, "id": f"s{counter}", "seat": seat, "counter": counter,
                                       "type": "setup", "args": {"setup": {s.name: k for s, k in setup.items()}}})
            start, done = session.seq, done + 2
            continue
        seat = session.game.to_move.value
        counter += 1
        move = str(rng.choice(session.game.legal_moves()))
        session.execute(seat, {"v": 1, "id": f"m{counter}", "seat": seat, "counter": counter,
                               "type": "move", "args": {"move": move}})
        done += 1
    entries = len(journal)
    journal.close()
    del start
    return entries


def watch_first_state(clients: list) -> tuple[dict[int, float], threading.Lock]:
    """When each client first held a state since the dict was last cleared (under the lock)."""
    first_seen: dict[int, float] = {}
    lock = threading.Lock()
    for index, client in enumerate(clients):
        def seen(_state, i=index):
            with lock:
                first_seen.setdefault(i, time.monotonic())
        client.on_state = seen
    return first_seen, lock


def measure(config: Path, clients: list, restarts: int) -> tuple[list[float], list[float]]:
    """Kill and restart the referee `restarts` times; (client-side, referee-side) seconds."""
    totals, own = [], []
    first_seen, lock = watch_first_state(clients)
    process = RefereeProcess(config).start()
    assert wait(lambda: any('referee ready' in line for line in process.lines), 60)
    for _ in range(restarts):
        process.kill()
        time.sleep(0.3)  # the broker has told everyone the referee is gone
        with lock:
            first_seen.clear()
        started = time.monotonic()
        process = RefereeProcess(config).start()
        assert wait(lambda: len(first_seen) == len(clients), 60), "a client never got the state"
        totals.append(max(first_seen.values()) - started)
        assert wait(lambda p=process: any('referee ready' in line for line in p.lines), 10)
        ready = next(json.loads(line) for line in process.lines if "referee ready" in line)
        own.append(ready["seconds"])
    process.stop()
    return totals, own


def kill_soak(config: Path, clients: list, kills: int, window: float, seed: int = 14) -> list[float]:
    """SIGKILL the referee `kills` times at random moments; seconds from each restart to all clients."""
    rng = random.Random(seed)
    first_seen, lock = watch_first_state(clients)
    process = RefereeProcess(config).start()
    assert wait(lambda: len(first_seen) == len(clients), 60), "no client got the first state"
    totals = []
    for kill in range(kills):
        time.sleep(rng.uniform(0.0, window))  # a random moment: starting, republishing or idle
        process.kill()
        with lock:
            first_seen.clear()
        started = time.monotonic()
        process = RefereeProcess(config).start()
        assert wait(lambda: len(first_seen) == len(clients), 60), f"kill {kill}: a client never got the state"
        totals.append(max(first_seen.values()) - started)
    process.stop()
    return totals


def percentiles(values: list[float]) -> dict[str, float]:
    """p50/p90/p99/max of `values` (nearest rank)."""
    return {"p50": percentile(values, 50), "p90": percentile(values, 90),
            "p99": percentile(values, 99), "max": max(values)}


def wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.002)
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0,300,3000", help="rulings in the journal")
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--kills", type=int, default=0, help="the kill soak: this many SIGKILLs")
    parser.add_argument("--kill-window", type=float, default=0.3, help="seconds: kills land at random within")
    args = parser.parse_args()
    rows = []
    sizes = [int(s) for s in args.sizes.split(",")]
    with Mosquitto() as broker:
        for size in sizes[:1] if args.kills else sizes:
            directory = Path(tempfile.mkdtemp(prefix="arbiter-recovery-"))
            board = f"recovery{size}"
            credentials = prepare_board(directory, board, size)
            entries = grow_journal(directory / f"{board}.db", size, size)
            config = write_config(directory / "referee.toml", board, broker.url, directory / f"{board}.db", VARIANT)
            clients = []
            for seat, data in credentials.items():
                (directory / f"{seat}.json").write_text(json.dumps(data))
                clients.append(SeatClient(broker.url, board, credentials_path=str(directory / f"{seat}.json")))
            clients.append(DisplayClient(broker.url, board))
            for client in clients:
                client.start()
            if args.kills:
                totals = kill_soak(config, clients, args.kills, args.kill_window)
                for client in clients:
                    client.stop()
                figures = percentiles(totals)
                print(f"kill soak: {len(totals)} SIGKILLs survived, journal of {size} rulings "
                      f"({entries} entries); restart -> both tablets and the display hold the state:")
                print("  " + "  ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in figures.items()))
                print(json.dumps({"kills": len(totals), "rulings": size, **figures}))
                return 0
            totals, own = measure(config, clients, args.restarts)
            for client in clients:
                client.stop()
            rows.append({"rulings": size, "journal_entries": entries,
                         "restart_to_clients_median_s": statistics.median(totals),
                         "restart_to_clients_max_s": max(totals),
                         "referee_republished_median_s": statistics.median(own)})
    print("recovery: SIGKILL, restart -> both tablets and the display hold the republished state")
    print(f"{'rulings':>8} {'entries':>8} {'median s':>9} {'max s':>7} {'referee s':>10}")
    for r in rows:
        print(f"{r['rulings']:>8} {r['journal_entries']:>8} {r['restart_to_clients_median_s']:>9.3f} "
              f"{r['restart_to_clients_max_s']:>7.3f} {r['referee_republished_median_s']:>10.3f}")
    print("(median s includes starting Python and importing the referee; 'referee s' is from its"
          " module import to the snapshots published, journal replay included)")
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
