"""End-to-end latency: last sensor change of a move -> both tablets hold the new decrypted view.

Through the whole referee path (simulated sensor grid -> scanner firmware logic and codec ->
stabiliser -> recogniser -> engine -> journal fsync -> encryption -> real mosquitto -> the
tablets' SeatClient decrypting its snapshot), with the referee and the tablets in separate
processes as on a real table. Cases: one board, and 100 boards played at once on this machine.

Each move's latency is split three ways, every part timed for that move's own sequence number:
sensing (the piece put down -> the recogniser hands the move to the session: firmware debounce
and the 20 ms stillness), ruling (the session: engine and journal fsync) and delivery (the
ruling committed -> both tablets hold it: snapshots built, signed, sealed, the broker, the
tablets' decryption). A split that comes out negative or does not add up is refused, not printed.

Moves are plain moves onto empty squares; scout moves are left out, since the recogniser
deliberately waits `scout_hold_s` for it to stop (that wait is a rule, not a cost).

Old against new, in one run (bench/interleave.py): `--against before-signing=2507e99 --rounds 3`
runs every case against that revision's code and ours in turn, a fresh mosquitto for each run,
and prints both distributions side by side.
Usage: python bench/bench_end_to_end.py [--boards 1,100] [--paces 3-6] [--seconds 45]
                                        [--against [LABEL=]REV_OR_PATH ...] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import shutil
import sys
import tempfile
import threading
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

CODE = code_root()

import firmware_bridge  # noqa: E402
from engine import Color, get_variant, random_setup  # noqa: E402
from firmware_bridge.protocol import crypto  # noqa: E402
from firmware_bridge.referee.journal import Journal  # noqa: E402
from firmware_bridge.referee.session import Session  # noqa: E402

try:
    from firmware_bridge.protocol.signing import PublicSigner
except ImportError:  # a version from before the referee signed its public messages
    PublicSigner = None  # type: ignore[assignment,misc]

VARIANT = "classic"
THINK = (0.8, 1.6)  # seconds between moves on each board when many boards play at once
ONE_BOARD_THINK = (0.15, 0.35)
PARTS = ("sensing", "ruling", "delivery")


def prepare_board(directory: Path, board: str, seed: int) -> dict:
    """A journal with the referee key, both seats paired and both setups in; tablet credentials."""
    journal = Journal(directory / f"{board}.db")
    referee_key = crypto.PrivateKey.generate()
    journal.set_meta_once("referee_key", crypto.key_to_text(referee_key))
    sign_key = None
    if PublicSigner is not None:  # the tablets hold the referee's signing key, as pairing left it
        signer = PublicSigner.generate()
        journal.set_meta_once("referee_signing_key", signer.seed_text)
        sign_key = signer.verify_key
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
                             "board": board, **({"sign_key": sign_key} if sign_key else {})}
    journal.close()
    return credentials


# --- the referee side: boards, hands, referees ---------------------------------------------

def timed_rulings(session: Session) -> dict[int, tuple[float, float]]:
    """Time every board move the session rules, keyed by the seq it got: seq -> (handed, committed).

    Keyed by seq, so a hand reads the times of its own move only, never the previous one's."""
    ruled: dict[int, tuple[float, float]] = {}
    board_move = session.board_move

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        handed = time.monotonic()
        ruling = board_move(*args, **kwargs)
        ruled[ruling.seq] = (handed, time.monotonic())
        return ruling

    session.board_move = timed  # type: ignore[method-assign]
    return ruled


def referee_worker(url: str, directory: str, boards: list[str], seconds: float, own_threads: bool,
                   out: mp.Queue, think: tuple[float, float] = THINK) -> None:
    """Run referees for `boards`, play plain moves by hand on their simulated boards."""
    from firmware_bridge.board.sim_source import SimulatedSource
    from firmware_bridge.board.snapshots import Stabiliser
    from firmware_bridge.referee.service import Referee, RefereeSettings
    from hardware.sim.board import SimulatedBoard

    tables = []
    for board_name in boards:
        referee = Referee(RefereeSettings(board_name, Path(directory) / f"{board_name}.db", url,
                                          variant=VARIANT))
        session = getattr(referee, "stratego", referee.session)  # before the house: referee.session
        board = SimulatedBoard(10, 10)
        board.set_position(list(session.game.occupied()))
        source = SimulatedSource(board, scan_hz=200)
        if own_threads:  # one board: exactly the production path, its own sensor thread
            referee.attach_board(source)
        elif hasattr(session, "use_board"):  # many boards in one process: one loop scans them all
            session.use_board()
        else:
            session.board_input = True
        ruled = timed_rulings(session)
        referee.start()
        tables.append({"name": board_name, "referee": referee, "session": session, "board": board,
                       "source": source, "stabiliser": Stabiliser(debounce_samples=1, quiet_s=0.02),
                       "rng": random.Random(board_name), "next": time.monotonic() + 1.0,
                       "think": ONE_BOARD_THINK if own_threads else think, "ruled": ruled,
                       "waiting": None})
    stop = threading.Event()
    if not own_threads:
        threading.Thread(target=scan_loop, args=(tables, stop), daemon=True).start()
    samples: list[tuple] = []
    cpu_started = time.process_time()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        now = time.monotonic()
        for table in tables:
            hand(table, now, samples)
        time.sleep(0.002)
    cpu_s = time.process_time() - cpu_started
    stop.set()
    unruled = sum(1 for table in tables if table["waiting"] is not None)
    for table in tables:
        table["referee"].stop()
    out.put(("referee", {"samples": samples, "cpu_s": cpu_s, "unruled": unruled}))


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
    referee, board, session = table["referee"], table["board"], table["session"]
    if table["waiting"] is not None:
        seq = table["waiting"]
        times = table["ruled"].get(seq)
        if times is not None:
            # The piece went down when the hand put it there, even if a loaded machine
            # scanned the simulated firmware late: that delay counts against the referee.
            samples.append((table["name"], seq, table["placed_at"], *times))
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
    cpu_started = time.process_time()
    time.sleep(seconds)
    cpu_s = time.process_time() - cpu_started
    for client in clients:
        client.stop()
    out.put(("clients", {"arrivals": arrivals, "cpu_s": cpu_s}))


def cpu_times() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine, from /proc/stat."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def cpu_load(before: tuple[float, float]) -> float:
    """Share of all cores busy since `before` (0..1)."""
    after = cpu_times()
    return round((after[0] - before[0]) / max(1.0, after[1] - before[1]), 2)


class ImpossibleSplit(RuntimeError):
    """A move whose split into sensing, ruling and delivery cannot be right: never printed."""


def split_move(placed: float, handed: float, committed: float, both_hold: float) -> dict[str, float]:
    """One move's latency and its parts in ms; ImpossibleSplit if a part is negative."""
    parts = {"sensing": (handed - placed) * 1000, "ruling": (committed - handed) * 1000,
             "delivery": (both_hold - committed) * 1000, "latency": (both_hold - placed) * 1000}
    if min(parts.values()) < 0:
        raise ImpossibleSplit(f"a negative part: {parts}")
    return parts


def run_case(url: str, boards: int, seconds: float, think: tuple[float, float] = THINK,
             tag: str = "") -> dict:
    """Prepare `boards` boards, run referees and tablets, return every move's split and the CPU."""
    directory = Path(tempfile.mkdtemp(prefix="arbiter-bench-"))
    tag = tag or f"{boards}-{int(think[0] * 10)}"
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
    referee_cpu_s = tablets_cpu_s = 0.0
    unruled = 0
    for _ in workers:
        kind, data = out.get(timeout=seconds + 120)
        if kind == "referee":
            samples += data["samples"]
            referee_cpu_s += data["cpu_s"]
            unruled += data["unruled"]
        else:
            arrivals += data["arrivals"]
            tablets_cpu_s += data["cpu_s"]
    busy = cpu_load(cpu_before)
    for worker in workers:
        worker.join(30)
    shutil.rmtree(directory, ignore_errors=True)  # the journals and credentials of this run
    first_arrival: dict[tuple, dict[str, float]] = {}
    for board, seat, seq, at in arrivals:
        first_arrival.setdefault((board, seq), {}).setdefault(seat, at)
    moves: list[dict[str, float]] = []
    missing = 0
    for board, seq, placed, handed, committed in samples:
        seen = first_arrival.get((board, seq), {})
        if len(seen) < 2:
            missing += 1
            continue
        try:
            moves.append(split_move(placed, handed, committed, max(seen.values())))
        except ImpossibleSplit as error:
            raise ImpossibleSplit(f"board {board} seq {seq}: {error}") from None
    return {"code": str(Path(firmware_bridge.__file__).parents[1]), "boards": boards, "think_s": list(think) if boards > 1 else list(ONE_BOARD_THINK),
            "seconds": seconds, "missing": missing, "unruled": unruled, "cpu_busy": busy,
            "referee_cpu_s": round(referee_cpu_s, 3), "tablets_cpu_s": round(tablets_cpu_s, 3),
            **{part: [round(m[part], 3) for m in moves] for part in (*PARTS, "latency")}}


def summary(runs: list[dict]) -> dict:
    """Pooled distributions of one case's runs (one version), with the spread of p99 over runs."""
    pooled = {part: [v for run in runs for v in run[part]] for part in (*PARTS, "latency")}
    moves = len(pooled["latency"])
    per_run = [distribution(run["latency"]) for run in runs if run["latency"]]
    return {"moves": moves, "runs": len(runs), "latency": distribution(pooled["latency"]),
            "p50_runs": [d["p50"] for d in per_run], "p99_runs": [d["p99"] for d in per_run], **{part: distribution(pooled[part]) for part in PARTS},
            "missing": sum(run["missing"] for run in runs), "unruled": sum(run["unruled"] for run in runs),
            "cpu_busy": [run["cpu_busy"] for run in runs],
            "referee_cpu_ms_per_move": 1000 * sum(run["referee_cpu_s"] for run in runs) / max(1, moves),
            "tablets_cpu_ms_per_move": 1000 * sum(run["tablets_cpu_s"] for run in runs) / max(1, moves)}


def print_table(case: str, summaries: dict[str, dict]) -> None:
    """One case, one row per version: latency distribution, its parts, CPU."""
    print(f"\n{case}")
    print(f"{'version':<16} {'moves':>6} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} "
          f"{'p50 of runs':>12} {'p99 of runs':>12} {'lost':>4} {'cpu':>9} {'ref ms/mv':>9} {'tab ms/mv':>9}")
    for label, s in summaries.items():
        lat = s["latency"]
        if not lat["n"]:
            print(f"{label:<16} no move measured")
            continue
        p50s, p99s = (f"{min(s[k]):.0f}-{max(s[k]):.0f}" for k in ("p50_runs", "p99_runs"))
        busy = "-".join(f"{b:.0%}" for b in sorted({min(s["cpu_busy"]), max(s["cpu_busy"])}))
        print(f"{label:<16} {s['moves']:>6} {lat['p50']:>7.1f} {lat['p90']:>7.1f} {lat['p99']:>7.1f} "
              f"{lat['max']:>7.1f} {p50s:>12} {p99s:>12} {s['missing'] + s['unruled']:>4} {busy:>9} "
              f"{s['referee_cpu_ms_per_move']:>9.2f} {s['tablets_cpu_ms_per_move']:>9.2f}")
    print(f"{'  split p50/p99':<16} " + "   ".join(f"{part}" for part in PARTS))
    for label, s in summaries.items():
        if s["latency"]["n"]:
            print(f"{label:<16} " + "   ".join(f"{s[part]['p50']:.1f}/{s[part]['p99']:.1f}" for part in PARTS))


CAPTION = ("end-to-end: last sensor change -> both tablets hold the decrypted view (real mosquitto)\n"
           "sensing = piece down -> move handed to the session (firmware debounce + 20 ms stillness); "
           "ruling = engine + journal fsync;\ndelivery = committed -> both tablets (snapshots, signing, "
           "sealing, broker, decryption); lost = ruled moves a tablet never saw + moves never ruled;\n"
           "cpu = whole machine busy; ref/tab ms/mv = CPU of the referee (and simulated scanners) / "
           "tablet processes per measured move")


def cases(args: argparse.Namespace) -> list[tuple[int, tuple[float, float]]]:
    """(boards, think) of every case the arguments ask for."""
    paces = [(float(a), float(b)) for a, b in (pace.split("-") for pace in args.paces.split(","))]
    found = []
    for count in (int(n) for n in args.boards.split(",")):
        found += [(count, pace) for pace in (paces if count > 1 else paces[:1])]
    return found


def case_name(boards: int, think: tuple[float, float]) -> str:
    """How a case is captioned."""
    pace = "-".join(f"{t:g}" for t in (think if boards > 1 else ONE_BOARD_THINK))
    return f"{boards} board{'s' if boards > 1 else ''}, think {pace} s"


def compare(args: argparse.Namespace) -> int:
    """Every case against every version, interleaved; a fresh broker for each run."""
    from firmware_bridge.referee.broker import Mosquitto

    script = Path(__file__).resolve()
    print(f"# load average before: {load_average()}", file=sys.stderr)
    with versions(args.against) as found:
        tables = {}
        for boards, think in cases(args):
            def run(version: Version, round_number: int, boards: int = boards,
                    think: tuple[float, float] = think) -> dict:
                tag = f"{boards}r{round_number}{found.index(version)}"
                with Mosquitto() as broker:
                    result = run_child(version, script, [
                        "--boards", str(boards), "--paces", "-".join(map(str, think)),
                        "--seconds", str(args.seconds), "--broker", broker.url, "--tag", tag, "--json"],
                        timeout=args.seconds * 4 + 300)
                if Path(result["code"]) != version.root:
                    raise RuntimeError(f"{version.label}: ran the code in {result['code']}, not {version.root}")
                print(f"# {case_name(boards, think)}, round {round_number + 1}, {version.label}: "
                      f"{len(result['latency'])} moves, load {load_average()}", file=sys.stderr)
                return result
            runs = interleave(found, args.rounds, run)
            tables[case_name(boards, think)] = {label: summary(r) for label, r in runs.items()}
    print(CAPTION)
    for case, summaries in tables.items():
        print_table(case, summaries)
    print(f"\n# load average after: {load_average()}")
    print(json.dumps(tables))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="1,100")
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--paces", default="0.8-1.6,3-6",
                        help="think times (s) between moves per board, for the many-board runs")
    parser.add_argument("--against", action="append", default=[], metavar="[LABEL=]REV_OR_PATH",
                        help="also run every case against this git revision or checkout, interleaved")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each version")
    parser.add_argument("--broker", help="an mqtt:// URL to use instead of starting mosquitto")
    parser.add_argument("--tag", default="", help="board names' tag (unique per run on one broker)")
    parser.add_argument("--json", action="store_true", help="print one case's raw result as JSON")
    args = parser.parse_args()
    if args.against:
        return compare(args)
    if args.json:
        ((boards, think),) = cases(args)
        print(json.dumps(run_case(args.broker, boards, args.seconds, think, args.tag)))
        return 0
    from firmware_bridge.referee.broker import Mosquitto

    with Mosquitto() as broker:
        tables = {case_name(boards, think): {"ours": summary([run_case(broker.url, boards, args.seconds, think)])}
                  for boards, think in cases(args)}
    print(CAPTION)
    for case, summaries in tables.items():
        print_table(case, summaries)
    print(json.dumps(tables))
    return 0


if __name__ == "__main__":
    sys.exit(main())
