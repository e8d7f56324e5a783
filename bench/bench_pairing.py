"""Pairing time and message sizes, this tree against another (e.g. the one before SPAKE2), interleaved.

    python bench/bench_pairing.py --other /tmp/before --rounds 6 --per-round 10

Each round runs one worker process per tree, in turn (old, new, old, new, ...), so both share the
machine's load alike. A worker starts the embedded broker and a referee without a board, then
pairs fresh tablets by code, one after the other, alternating the seats: the time of a pairing is
from ``pair()`` until the tablet holds the seat (the code is typed as soon as the console shows
it). The last round's worker also pairs a display where the tree can, plays the setups and one move,
and reports the sizes of the messages each topic kind carried. Prints p50/p90/p99 per tree and
the size of each message kind in both. Loopback only; bounded by rounds and pairings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from interleave import percentile

HERE = Path(__file__).resolve().parents[1]


def worker(pairings: int, sizes: bool) -> dict:
    """Run in a tree's own process: pair ``pairings`` tablets; optionally measure message sizes."""
    import random
    from collections import defaultdict

    from firmware_bridge.protocol import contract
    from firmware_bridge.protocol.client import DisplayClient, SeatClient
    from firmware_bridge.protocol.mqtt_link import MqttLink
    from firmware_bridge.referee.broker import EmbeddedBroker, free_port
    from firmware_bridge.referee.service import Referee, RefereeSettings

    broker = EmbeddedBroker("127.0.0.1", free_port())
    broker.start()
    folder = tempfile.mkdtemp()
    referee = Referee(RefereeSettings("bench", Path(folder) / "journal.db", broker.url, variant="barrage"))
    codes: dict[str, str] = {}
    referee.on_pairing_code = lambda seat, code: codes.__setitem__(seat, code)
    assert referee.start()
    seen: dict[str, list[int]] = defaultdict(list)
    spy = MqttLink(broker.url, "bench-spy")
    spy.subscribe("arbiter/v1/bench/#", lambda topic, payload: seen[contract.parse_topic(topic)[1]].append(len(payload)))
    assert spy.start()

    def pair(client, seat: str) -> float:
        codes.pop(seat, None)
        began = time.perf_counter()
        if seat == "display":
            client.pair()
        else:
            client.pair(seat)
        assert client.wait(lambda c: (c.last_pairing or {}).get("status") == "challenge", 20)
        while seat not in codes:
            time.sleep(0.001)
        client.send_code(codes[seat])
        assert client.wait(lambda c: c.paired, 20), client.last_pairing
        return time.perf_counter() - began

    times = []
    tablets = []
    for i in range(pairings):
        tablet = SeatClient(broker.url, "bench", name=f"tablet {i}")
        assert tablet.start()
        tablets.append(tablet)
        times.append(pair(tablet, ("red", "blue")[i % 2]))
    result: dict = {"times": times}
    if sizes:
        red, blue = tablets[-2:] if tablets[-1].seat == "blue" else tablets[-1:-3:-1]
        display = DisplayClient(broker.url, "bench")
        assert display.start()
        if hasattr(display, "pair"):
            pair(display, "display")
        pairing = {kind: list(lengths) for kind, lengths in seen.items() if kind.startswith("pair")}
        seen.clear()
        from engine import Color, get_variant, random_setup

        for client, color in ((red, "red"), (blue, "blue")):
            setup = random_setup(get_variant("barrage"), Color(color), random.Random(1))
            command = client.setup({square.name: kind for square, kind in setup.items()})
            assert client.wait(lambda c, i=command: i in c.replies, 20)
        game = referee.session.game
        mover = red if game.to_move.value == "red" else blue
        command = mover.move(str(game.legal_moves()[0]))
        assert mover.wait(lambda c, i=command: i in c.replies, 20)
        display.hello("manual")
        assert display.wait(lambda c: c.state is not None and c.state["seq"] == referee.session.seq, 20)
        time.sleep(0.3)  # the spy's copies of the last messages (sizes only; no timing is read)
        result["sizes"] = {kind: statistics.median(lengths) for kind, lengths in {**seen, **pairing}.items()}
        display.stop()
    for tablet in tablets:
        tablet.stop()
    spy.stop()
    referee.stop()
    broker.stop()
    return result


def run_tree(tree: Path, pairings: int, sizes: bool) -> dict:
    """One worker in ``tree``'s own interpreter process (its code first on the path)."""
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(pairings),
                          *(["--sizes"] if sizes else [])],
                         cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=600)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--other", type=Path, help="the tree to compare with (a checkout of another commit)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--per-round", type=int, default=10)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        print(json.dumps(worker(args.worker, args.sizes)))
        return
    trees = {"this": HERE}
    if args.other:
        trees = {"other": args.other.resolve(), "this": HERE}
    times: dict[str, list[float]] = {name: [] for name in trees}
    sizes: dict[str, dict] = {}
    for round_no in range(args.rounds):
        last = round_no == args.rounds - 1
        for name, tree in trees.items():
            result = run_tree(tree, args.per_round, last)
            times[name] += result["times"]
            if last:
                sizes[name] = result["sizes"]
    for name, values in times.items():
        ms = [v * 1000 for v in values]
        print(f"{name:6} pairings {len(ms):3}  p50 {percentile(ms, 50):7.1f} ms  "
              f"p90 {percentile(ms, 90):7.1f} ms  p99 {percentile(ms, 99):7.1f} ms  max {max(ms):7.1f} ms")
    kinds = sorted(set().union(*(s.keys() for s in sizes.values())))
    print("median bytes per message kind: " + ", ".join(trees))
    for kind in kinds:
        row = [sizes[name].get(kind) for name in trees]
        print(f"  {kind:13} " + "  ".join(f"{v:7.0f}" if v is not None else "      -" for v in row))


if __name__ == "__main__":
    main()
