"""End-to-end latency: last sensor change of a move -> both tablets hold the new decrypted view.

Through the whole referee path (simulated sensor grid -> scanner firmware logic and codec ->
stabiliser -> recogniser -> engine -> journal fsync -> encryption -> real mosquitto -> the
tablets' SeatClient decrypting its snapshot), with the referee and the tablets in separate
processes as on a real table. Cases: one board, and 100 boards played at once on this machine.

Moves are plain moves onto empty squares; scout moves are left out, since
the recogniser deliberately waits `scout_hold_s` for it to stop (that wait is a rule, not a
cost). Usage: python bench/bench_end_to_end.py [--boards 1,100] [--seconds 40]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Color, get_variant, random_setup  # noqa: E402
from firmware_bridge.protocol import crypto  # noqa: E402
from firmware_bridge.referee.broker import Mosquitto  # noqa: E402
from firmware_bridge.referee.journal import Journal  # noqa: E402
from firmware_bridge.referee.session import Session  # noqa: E402

VARIANT = "classic"
THINK = (0.8, 1.6)  # seconds between moves on each board when many boards play at once


def prepare_board(directory: Path, board: str, seed: int) -> dict:
    """A journal with the referee key, both seats paired and both setups in; tablet credentials."""
    journal = Journal(directory / f"{board}.db")
    referee_key = crypto.PrivateKey.generate()
    journal.set_meta_once("referee_key", crypto.key_to_text(referee_key))
    session = Session(journal, VARIANT)
    rng = random.Random(seed)
    credentials = {}
    for counter, seat in enumerate(("red", "blue"), start=1):
        key = crypto.PrivateKey.generate()
        client_id = f"{board}-{seat}"
        session.pair(seat, crypto.key_to_text(key.public_key), client_id)
        setup = random_setup(get_variant(VARIANT), Color(seat), rng)
        reply, _ = session.execute(seat, {"v": 1, "id": f"setup-{seat}", "seat": seat, "counter": counter,
                                          "type": "setup", "args": {"setup": {s.name: k for s, k in setup.items()}}})
        assert reply["ok"], reply
        credentials[seat] = {"client_id": client_id, "key": crypto.key_to_text(key), "seat": seat,
                             "referee_key": crypto.key_to_text(referee_key.public_key), "counter": 10,
                             "board": board}
    journal.close()
    return credentials


# --- the referee side: boards, hands, referees ---------------------------------------------

def referee_worker(url: str, directory: str, boards: list[str], seconds: float, own_threads: bool,
                   out: mp.Queue, think: tuple[float, float] = THINK) -> None:
    """Run referees for `boards`, play plain moves by hand on their simulated boards."""
    global THINK
    THINK = think
    from firmware_bridge.board.sim_source import SimulatedSource
    from firmware_bridge.board.snapshots import Stabiliser
    from firmware_bridge.referee.service import Referee, RefereeSettings
    from hardware.sim.board import SimulatedBoard

    tables = []
    for board_name in boards:
        referee = Referee(RefereeSettings(board_name, Path(directory) / f"{board_name}.db", url,
                                          variant=VARIANT))
        board = SimulatedBoard(10, 10)
        board.set_position(list(referee.session.game.occupied()))
        source = SimulatedSource(board, scan_hz=200)
        if own_threads:  # one board: exactly the production path, its own sensor thread
            referee.attach_board(source)
        else:  # many boards in one process: one loop scans them all (a Pi has one board)
            referee.stratego.use_board()
        referee.start()
        tables.append({"name": board_name, "referee": referee, "board": board, "source": source,
                       "stabiliser": Stabiliser(debounce_samples=1, quiet_s=0.02),
                       "rng": random.Random(board_name), "next": time.monotonic() + 1.0,
                       "think": (0.15, 0.35) if own_threads else THINK,
                       "waiting": None})
    stop = threading.Event()
    if not own_threads:
        threading.Thread(target=scan_loop, args=(tables, stop), daemon=True).start()
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = time.monotonic()
        for table in tables:
            hand(table, now, samples)
        time.sleep(0.002)
    stop.set()
    for table in tables:
        table["referee"].stop()
    out.put(("referee", samples))


def scan_loop(tables: list[dict], stop: threading.Event) -> None:
    """Every 5 ms: scan each simulated board and run its referee's pipeline (as SensorFeed does)."""
    while not stop.is_set():
        now = time.monotonic()
        for table in tables:
            referee, stabiliser = table["referee"], table["stabiliser"]
            table["source"].step(now)
            for reading in table["source"].readings():
                stable = stabiliser.feed(reading)
                if stable is not None:
                    referee.on_stable(stable)
            stable = stabiliser.poll(now)
            if stable is not None:
                referee.on_stable(stable)
            referee.poll_board(now)
        time.sleep(max(0.0, 0.005 - (time.monotonic() - now)))


def hand(table: dict, now: float, samples: list) -> None:
    """One board's player: lift, place, wait for the ruling, think, next move."""
    referee, board = table["referee"], table["board"]
    session = referee.session
    if table["waiting"] is not None:
        seq = table["waiting"]
        if session.seq >= seq:
            ruled_at = referee.last_board_ruling[1] if referee.last_board_ruling else now
            # The piece went down when the hand put it there, even if a loaded machine
            # scanned the simulated firmware late: that delay counts against the referee.
            samples.append((table["name"], seq, table["placed_at"], ruled_at))
            table["waiting"] = None
            table["next"] = now + table["rng"].uniform(*table["think"])
        return
    if now < table["next"] or session.game is None or session.game.result is not None:
        return
    check = referee.last_board_check
    recognizer = referee.watcher.recognizer
    if not check or not check.get("reading") or recognizer is None or board.pending():
        return
    game = session.game
    moves = [m for m in game.legal_moves() if game.piece_at(m.target) is None
             and not recognizer.is_scout_move(m)]
    if not moves:
        return
    move = table["rng"].choice(moves)
    table["waiting"] = session.seq + 1
    board.lift(move.origin)
    delay = table["rng"].uniform(0.08, 0.2)
    table["placed_at"] = time.monotonic() + delay
    board.after(delay, lambda: board.place(move.target))


# --- the tablets ---------------------------------------------------------------------------

def client_worker(url: str, directory: str, boards: list[str], seconds: float, out: mp.Queue) -> None:
    """Both tablets of each board: record when each decrypted snapshot arrives."""
    from firmware_bridge.protocol.client import SeatClient

    arrivals = []
    lock = threading.Lock()
    clients = []
    for board in boards:
        for seat in ("red", "blue"):
            client = SeatClient(url, board, credentials_path=str(Path(directory) / f"{board}-{seat}.json"))

            def on_state(state, b=board, s=seat):
                with lock:
                    arrivals.append((b, s, state["seq"], time.monotonic()))

            client.on_state = on_state
            client.start(wait=None)
            clients.append(client)
    time.sleep(seconds)
    for client in clients:
        client.stop()
    out.put(("clients", arrivals))


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def cpu_load(before: tuple[float, float]) -> float:
    """Share of all cores busy since `before` (0..1)."""
    after = cpu_times()
    return round((after[0] - before[0]) / max(1.0, after[1] - before[1]), 2)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run_case(url: str, boards: int, seconds: float, think: tuple[float, float] = THINK) -> dict:
    """Prepare `boards` boards, run referees and tablets, return the latency distribution."""
    directory = Path(tempfile.mkdtemp(prefix="arbiter-bench-"))
    tag = f"{boards}-{int(think[0] * 10)}"
    names = [f"bench{tag}-{i:03d}" for i in range(boards)]
    for i, name in enumerate(names):
        for seat, credentials in prepare_board(directory, name, i).items():
            (directory / f"{name}-{seat}.json").write_text(json.dumps(credentials))
    groups = 1 if boards == 1 else 2
    context = mp.get_context("spawn")
    out = context.Queue()
    chunks = [names[i::groups] for i in range(groups)]
    workers = [context.Process(target=client_worker, args=(url, str(directory), chunk, seconds + 6, out))
               for chunk in chunks]
    for worker in workers:
        worker.start()
    time.sleep(2.0 if boards > 1 else 1.0)  # tablets connected and resynced first
    workers += [context.Process(target=referee_worker,
                                args=(url, str(directory), chunk, seconds, boards == 1, out, think))
                for chunk in chunks]
    cpu_before = cpu_times()
    for worker in workers[groups:]:
        worker.start()
    samples, arrivals = [], []
    for _ in workers:
        kind, data = out.get(timeout=seconds + 120)
        (samples if kind == "referee" else arrivals).extend(data)
    for worker in workers:
        worker.join(30)
    first_arrival: dict[tuple, dict[str, float]] = {}
    for board, seat, seq, at in arrivals:
        first_arrival.setdefault((board, seq), {}).setdefault(seat, at)
    latencies, sensing, delivery = [], [], []
    missing = 0
    busy = cpu_load(cpu_before)
    for board, seq, changed, ruled in samples:
        seen = first_arrival.get((board, seq), {})
        if len(seen) < 2:
            missing += 1
            continue
        latencies.append((max(seen.values()) - changed) * 1000)
        sensing.append((ruled - changed) * 1000)
        delivery.append((max(seen.values()) - ruled) * 1000)
    return {"boards": boards, "think_s": list(think) if boards > 1 else [0.15, 0.35],
            "moves": len(latencies), "missing": missing, "cpu_busy": busy,
            "sensing_p50_ms": statistics.median(sensing) if sensing else None,
            "delivery_p50_ms": statistics.median(delivery) if delivery else None,
            "delivery_p99_ms": percentile(delivery, 99) if delivery else None,
            "p50_ms": statistics.median(latencies) if latencies else None,
            "p90_ms": percentile(latencies, 90) if latencies else None,
            "p99_ms": percentile(latencies, 99) if latencies else None,
            "max_ms": max(latencies) if latencies else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="1,100")
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--paces", default="0.8-1.6,3-6",
                        help="think times (s) between moves per board, for the many-board runs")
    args = parser.parse_args()
    results = []
    paces = [tuple(float(x) for x in pace.split("-")) for pace in args.paces.split(",")]
    with Mosquitto() as broker:
        for count in (int(n) for n in args.boards.split(",")):
            for pace in (paces if count > 1 else paces[:1]):
                results.append(run_case(broker.url, count, args.seconds, pace))
    print("end-to-end: last sensor change -> both tablets hold the decrypted view (real mosquitto)")
    print(f"{'boards':>6} {'think s':>8} {'moves':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8} {'lost':>5} {'cpu':>5}")
    for r in results:
        think = "-".join(f"{t:g}" for t in r["think_s"])
        print(f"{r['boards']:>6} {think:>8} {r['moves']:>6} {r['p50_ms']:>8.1f} {r['p90_ms']:>8.1f} "
              f"{r['p99_ms']:>8.1f} {r['max_ms']:>8.1f} {r['missing']:>5} {r['cpu_busy']:>5.0%}")
    print("split: sensing = last change -> ruling (firmware debounce + 20 ms stillness);"
          " delivery = ruling -> both tablets (journal fsync, encryption, broker, decryption)")
    for r in results:
        print(f"{r['boards']:>6} boards: sensing p50 {r['sensing_p50_ms']:.1f} ms, delivery p50 "
              f"{r['delivery_p50_ms']:.1f} ms, delivery p99 {r['delivery_p99_ms']:.1f} ms")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
