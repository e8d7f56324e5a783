"""Run a bench against other checkouts of Arbiter, alternating with ours, in one run.

A fair old-versus-new figure on a shared machine needs both versions measured under the same
load, so a bench case runs as a child process per version and the versions take turns, round
after round (the order rotates each round, so neither always goes first). A version is named
by a git revision of this repository (exported with ``git archive`` into a temporary folder
under /tmp, removed afterwards: old code is never committed) or by the path of a checkout.
The child process learns which code to import from ARBITER_BENCH_CODE (see code_root()).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
CODE_ENV = "ARBITER_BENCH_CODE"


def code_root() -> Path:
    """The checkout whose code this process benches (ours unless ARBITER_BENCH_CODE names another),
    put first on sys.path; call before importing engine or firmware_bridge."""
    root = Path(os.environ.get(CODE_ENV) or REPOSITORY).resolve()
    if str(root) not in sys.path[:1]:
        sys.path.insert(0, str(root))
    return root


@dataclass(frozen=True)
class Version:
    """One version of the code under test: a label for the tables and the folder it lives in."""

    label: str
    root: Path


def _describe(revision: str) -> str:
    """`abc1234 subject` of a revision, for the tables' captions."""
    out = subprocess.run(["git", "-C", str(REPOSITORY), "log", "-1", "--format=%h %s", revision],
                         capture_output=True, text=True, check=True).stdout.strip()
    return out[:72]


@contextmanager
def versions(specs: list[str], ours: str = "ours") -> Iterator[list[Version]]:
    """Ours first, then each spec (a checkout's path or a git revision, exported under /tmp)."""
    made: list[Path] = []
    found = [Version(ours, REPOSITORY)]
    try:
        for spec in specs:
            label, _, where = spec.rpartition("=")  # "before-signing=2507e99" names a version
            if Path(where).is_dir():
                found.append(Version(label or Path(where).name, Path(where).resolve()))
                continue
            folder = Path(tempfile.mkdtemp(prefix=f"arbiter-{where.replace('/', '_')}-"))
            made.append(folder)
            archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", where],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
            print(f"# {label or where}: {_describe(where)} (exported to {folder})", file=sys.stderr)
            found.append(Version(label or where, folder))
        yield found
    finally:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)


def run_child(version: Version, script: Path, args: list[str], timeout: float) -> dict:
    """Run ``script args`` against ``version``'s code; its last stdout line is a JSON result."""
    env = dict(os.environ, **{CODE_ENV: str(version.root)})
    done = subprocess.run([sys.executable, str(script), *args], env=env, capture_output=True,
                          text=True, timeout=timeout)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{version.label}: {script.name} {' '.join(args)} failed "
                           f"({done.returncode}):\n{done.stderr[-3000:]}")
    result: dict = json.loads(lines[-1])
    return result


def interleave(versions: list[Version], rounds: int,
               run: Callable[[Version, int], dict]) -> dict[str, list[dict]]:
    """``run(version, round)`` for every version, round after round, the order rotated each round."""
    results: dict[str, list[dict]] = {v.label: [] for v in versions}
    for round_number in range(rounds):
        shift = round_number % len(versions)
        for version in versions[shift:] + versions[:shift]:
            results[version.label].append(run(version, round_number))
    return results


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``; 0.0 when there are none. Every bench
    reports its distributions with this one definition."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def distribution(values: list[float]) -> dict[str, float | int | None]:
    """n, p50, p90, p99 and max of ``values`` (None when there are none)."""
    if not values:
        return {"n": 0, "p50": None, "p90": None, "p99": None, "max": None}
    return {"n": len(values), "p50": percentile(values, 50), "p90": percentile(values, 90),
            "p99": percentile(values, 99), "max": max(values)}


def load_average() -> str:
    """The machine's load averages (1, 5, 15 min), to say how loaded it was."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
