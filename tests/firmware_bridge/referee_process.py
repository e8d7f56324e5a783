"""Run `arbiter referee` as a real child process, for the crash and recovery tests and benches."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

CODE = re.compile(r"pairing code for the (red|blue|display) seat: (\d+)")


def write_config(path: Path, board: str, broker_url: str, journal: Path, variant: str = "barrage",
                 extra: str = "") -> Path:
    """A referee config for a test: tablets input, no LAN announcement, json logs."""
    path.write_text(f"""
[board]
name = "{board}"
input = "tablets"

[game]
variant = "{variant}"
{extra}

[broker]
url = "{broker_url}"

[journal]
path = "{journal}"

[log]
format = "json"
level = "info"

[announce]
enabled = false
""")
    return path


class RefereeProcess:
    """`python -m firmware_bridge.cli.main referee --config ...` with its log lines collected."""

    def __init__(self, config: Path) -> None:
        self.config = config
        self.process: subprocess.Popen | None = None
        self.lines: list[str] = []
        self.codes: dict[str, str] = {}

    def start(self) -> RefereeProcess:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware_bridge.cli.main", "referee", "--config", str(self.config)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            cwd=Path(__file__).parents[2])
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        return self

    def _read(self, process: subprocess.Popen) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.lines.append(line)
            match = CODE.search(line)
            if match:
                self.codes[match.group(1)] = match.group(2)

    def pair_display(self, display, timeout: float = 20.0) -> None:
        """Pair a display by the code this referee logs for it (what its console shows)."""
        import time

        assert display.link.connected.wait(timeout)
        display.pair()
        deadline = time.monotonic() + timeout
        while "display" not in self.codes:
            assert time.monotonic() < deadline, "no pairing code for the display was logged"
            time.sleep(0.02)
        display.send_code(self.codes.pop("display"))
        assert display.wait(lambda c: c.paired, timeout), display.last_pairing

    def alive(self) -> bool:
        """True while the process runs."""
        return self.process is not None and self.process.poll() is None

    def signal_kill(self) -> None:
        """Send SIGKILL without waiting (from a timer thread)."""
        if self.alive():
            self.process.send_signal(signal.SIGKILL)

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush, as a power cut."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process:
            self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM and wait for a clean exit."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            return self.process.wait(10)
        return self.process.returncode if self.process else 0
