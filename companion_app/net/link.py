"""The tablet's connection to its referee, as a thin interface the screens talk to.

The screens never see MQTT: they send commands through `Link.send` and receive
`(kind, payload)` messages (see table.py for the kinds) on the Kivy thread. A network
adapter receives on its own thread and must hand messages over with `to_ui_thread`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

Deliver = Callable[[str, dict[str, Any]], None]

COMMANDS = ("pair", "setup", "draw_offer", "draw_answer", "resign", "takeback_request",
            "takeback_answer", "resync", "replay_load", "replay_step", "replay_play_on", "replay_stop")


class Link:
    """Base class: a connection that delivers messages and accepts commands."""

    def __init__(self) -> None:
        self._deliver: Deliver | None = None

    def open(self, deliver: Deliver) -> None:
        """Start delivering messages to `deliver` (always called on the UI thread)."""
        self._deliver = deliver

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """Send a command to the referee."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop; no more messages are delivered."""
        self._deliver = None

    def deliver(self, kind: str, payload: dict[str, Any]) -> None:
        """Hand a message to the app (only from the UI thread)."""
        if self._deliver is not None:
            self._deliver(kind, payload)


def to_ui_thread(deliver: Deliver) -> Deliver:
    """Wrap `deliver` so a network thread can call it: the call runs on Kivy's next frame.

    The arrival time is stamped here, on the network thread, so the app can measure the time
    from a view arriving to it being on screen.
    """
    from kivy.clock import Clock

    def from_network(kind: str, payload: dict[str, Any]) -> None:
        arrived = time.perf_counter()
        Clock.schedule_once(lambda _dt: deliver_stamped(deliver, kind, payload, arrived), 0)

    return from_network


def deliver_stamped(deliver: Deliver, kind: str, payload: dict[str, Any], arrived: float) -> None:
    """Deliver with an arrival stamp for views (the app reads it for its latency figures)."""
    if kind == "view":
        payload = dict(payload, _arrived=arrived)
    elif isinstance(payload, dict) and isinstance(payload.get("view"), dict):
        # A snapshot carrying a view (the contract's seat and public states).
        payload = dict(payload, view=dict(payload["view"], _arrived=arrived))
    deliver(kind, payload)
