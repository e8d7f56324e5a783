"""Ruling latency while a stranger floods the embedded broker with junk (issue 14).

The referee and the embedded amqtt broker run in this process, as ``make run`` has them; the
two tablets too. A stranger in another process publishes junk at a fixed rate (commands that fail
authentication, bad pairing requests, hellos with NaN, junk presence) on loopback. Meanwhile the
tablets play random legal moves; the latency of one ruling is the time from the tablet sending its
move to both tablets holding the new snapshot. Reported: p50/p99/max without and with the flood,
messages sent and refused.
Usage: python bench/bench_flood.py [--rate 1000] [--seconds 30] [--moves 60]
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.protocol import crypto  # noqa: E402
from firmware_bridge.protocol.mqtt_link import MqttLink  # noqa: E402
from firmware_bridge.referee.broker import EmbeddedBroker, free_port  # noqa: E402
from tests.firmware_bridge.helpers import start_table, submit_setups  # noqa: E402


def flood(url: str, board: str, rate: int, seconds: float, sent: mp.Value) -> None:
    """Publish junk at ``rate`` messages a second for ``seconds`` (a separate process)."""
    from firmware_bridge.protocol.contract import Topics

    topics = Topics(board)
    rng = random.Random(7)
    junk = [(topics.seat_command("red"), crypto.MAGIC + rng.randbytes(crypto.ENVELOPE_SIZE - 4)),
            (topics.pair_request, b"x" * 600), (topics.hello, b'{"v":NaN}'),
            (topics.presence("stranger"), b"[]"), (topics.seat_command("blue"), b"{" * 1000)]
    link = MqttLink(url, "flooder")
    link.start()
    start, count = time.monotonic(), 0
    while (elapsed := time.monotonic() - start) < seconds:
        while count < int(elapsed * rate):
            topic, payload = junk[count % len(junk)]
            link.publish(topic, payload)
            count += 1
        time.sleep(0.002)
    sent.value = count
    link.stop()


def ruling_latencies(table, rng: random.Random, moves: int, until: float | None = None) -> list[float]:
    """Seconds from a tablet's move to both tablets holding its ruling, for each move."""
    latencies = []
    while len(latencies) < moves and (until is None or time.monotonic() < until):
        game = table.referee.session.game
        if game.result is not None:
            break
        client = table.seat(game.to_move.value)
        seq = table.referee.session.seq + 1
        started = time.monotonic()
        client.move(str(rng.choice(game.legal_moves())))
        if not all(c.wait(lambda c, s=seq: c.seq >= s, 30) for c in (table.red, table.blue)):
            raise RuntimeError("a ruling never reached a tablet")
        latencies.append(time.monotonic() - started)
        time.sleep(rng.uniform(0.02, 0.08))  # a little thinking between moves
    return latencies


def summary(latencies: list[float]) -> dict:
    """p50/p99/max in milliseconds."""
    ordered = sorted(latencies)
    pick = lambda q: round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)  # noqa: E731
    return {"moves": len(ordered), "p50_ms": round(1000 * statistics.median(ordered), 1),
            "p99_ms": pick(0.99), "max_ms": round(1000 * ordered[-1], 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=60, help="moves measured without the flood")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    broker = EmbeddedBroker("127.0.0.1", free_port())
    broker.start()
    with tempfile.TemporaryDirectory() as directory:
        table = start_table(broker.url, Path(directory) / "journal.db", variant="classic")
        try:
            submit_setups(table, "classic", seed=3)
            rng = random.Random(11)
            quiet = ruling_latencies(table, rng, args.moves)
            spawn = mp.get_context("spawn")
            sent = spawn.Value("l", 0)
            refused_before = table.referee.refusals.count
            flooder = spawn.Process(
                target=flood, args=(broker.url, "b1", args.rate, args.seconds, sent))
            flooder.start()
            time.sleep(1.0)  # the flooder's interpreter starts and connects
            loud = ruling_latencies(table, rng, 10**6, until=time.monotonic() + args.seconds - 1.5)
            flooder.join()
            time.sleep(2.0)  # the broker hands the last junk on
            refused = table.referee.refusals.count - refused_before
            kinds = {f"{k} {c}": n for (k, c), n in table.referee.refusals.total.items()}
            report = {"rate": args.rate, "seconds": args.seconds, "junk_sent": sent.value,
                      "junk_refused": refused, "refused_by_kind": kinds,
                      "without_flood": summary(quiet), "during_flood": summary(loud),
                      "game_unchanged_by_junk": table.referee.session.phase == "playing"}
            print(json.dumps(report, indent=2))
        finally:
            table.close()
            broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
