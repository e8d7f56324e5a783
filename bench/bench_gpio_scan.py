"""GPIO scan rate of a switch matrix read through gpiozero on the mock pin factory.

Scans a 10x10 (and an 8x8) matrix wired as on the real board (rows driven, columns with
pull-ups, one diode per square) with a full classic position on it, for a few seconds, and
reports full scans per second and the time per scan (median, p99) against the 200 Hz the
recogniser is tuned for. The mock factory costs more per pin access than the Pi's native
pin factory, so the figure on a Pi 4 with lgpio is a different number: run this there too.

    python bench/bench_gpio_scan.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from hardware.firmware.matrix import MatrixSensor  # noqa: E402
from hardware.firmware.sim import activate  # noqa: E402
from hardware.gpio.matrix import GpioMatrix, MockSwitchMatrix  # noqa: E402
from hardware.profiles import load_profile  # noqa: E402


def measure(scan, seconds: float) -> tuple[int, list[float]]:
    """Run scan() repeatedly for `seconds`; returns (scans, per-scan times)."""
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        scan()
        times.append(time.perf_counter() - started)
    return len(times), times


def report(name: str, scans: int, times: list[float], seconds: float) -> None:
    """Print one result line."""
    rate = scans / seconds
    ordered = sorted(times)
    p99 = ordered[int(len(ordered) * 0.99)] * 1e6
    print(f"  {name:<44} {rate:8.0f} scans/s   per scan median {statistics.median(times) * 1e6:6.0f} us"
          f"   p99 {p99:6.0f} us   {rate / 200:5.1f}x the 200 Hz target")


def main(argv: list[str] | None = None) -> int:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    print("GPIO matrix scan rate, gpiozero MockFactory (CPython on this machine)")
    for name in ("10x10", "8x8"):
        profile = load_profile(name)
        # A full army on each side's setup rows: 4 rows of 10 per side on 10x10, 3 of 8 on 8x8.
        setup_rows = 4 if profile.height == 10 else 3
        closed_rows = set(range(setup_rows)) | set(range(profile.height - setup_rows, profile.height))
        factory = MockFactory()
        MockSwitchMatrix(factory, profile.gpio_rows, profile.gpio_cols, lambda r, c, rows=closed_rows: r in rows)
        matrix = GpioMatrix(profile.gpio_rows, profile.gpio_cols, pin_factory=factory)
        assert sum(matrix.read()) == len(closed_rows) * profile.width
        scans, times = measure(matrix.read, args.seconds)
        report(f"{name} through gpiozero devices", scans, times, args.seconds)
        matrix.close()

    # The same scan loop as the RP2040 firmware, on the stand-in machine.Pin, for comparison.
    activate()
    import machine

    closed_rows = set(range(4)) | set(range(6, 10))
    wiring = machine.SwitchMatrix(list(range(10)), list(range(10, 20)), lambda r, c: r in closed_rows)
    sensor = MatrixSensor([wiring.pin(i, machine.Pin.OUT, value=1) for i in range(10)],
                          [wiring.pin(10 + i, machine.Pin.IN, machine.Pin.PULL_UP) for i in range(10)])
    scans, times = measure(sensor.read, args.seconds)
    report("10x10 firmware scan loop, stand-in machine.Pin", scans, times, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
