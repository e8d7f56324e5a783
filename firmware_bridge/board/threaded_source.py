"""What the GPIO and simulated sources share: a reading queue, a status and a scan thread."""

from __future__ import annotations

import queue
import threading

from firmware_bridge.board.snapshots import Reading


def drain(q: queue.Queue[Reading], timeout: float) -> list[Reading]:
    """Readings waiting in ``q``, waiting up to timeout for the first."""
    try:
        out = [q.get(timeout=timeout) if timeout > 0 else q.get_nowait()]
    except queue.Empty:
        return []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


class ThreadedSource:
    """What the GPIO and simulated sources share: a reading queue, a status and a scan thread."""

    def __init__(self, queue_size: int = 0) -> None:
        self.queue: queue.Queue[Reading] = queue.Queue(maxsize=queue_size)
        self.status = "stopped"
        self.status_text = "not started"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _start_thread(self, name: str) -> bool:
        """Start ``_run`` on a thread unless one runs; True if it was started now."""
        if self._thread is not None:
            return False
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        return True

    def _run(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        """Stop the scan thread and wait for it (at most 2 s)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self.status, self.status_text = "stopped", "stopped"

    def readings(self, timeout: float = 0.0) -> list[Reading]:
        """Readings that arrived since the last call, waiting up to timeout for the first."""
        return drain(self.queue, timeout)
