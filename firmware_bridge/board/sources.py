"""Sensor sources: the serial scanner, the Pi's GPIO matrix and the simulated board, one interface.

A board profile names its source ("serial", "gpio", "simulated"); ``open_source`` finds the
factory under that name in ``SOURCES`` and imports its module only then (as gpiozero chooses a
pin factory by name), so a referee reading a board over serial never loads gpiozero or the
simulator. Every source produces Readings (firmware_bridge.board.snapshots) for the stabiliser:

    source = open_source(profile)             # or SerialSource / GpioSource / SimulatedSource
    source.start()
    for reading in source.readings(timeout=0.005):   # what arrived; waits up to timeout
        ...
    source.show_leds(colour_codes)            # guidance LEDs, where the board has them
    source.status, source.status_text         # "connected", "disconnected", ... for the referee
    source.stop()

SimulatedSource (firmware_bridge.board.sim_source) can also run on a VirtualClock: step(dt) scans the simulated board through the
real firmware logic and codec in memory (no threads, no pty), which is how the robustness bench
plays thousands of games in minutes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from engine.core.errors import ArbiterError
from firmware_bridge.board.serial_link import LinkStatus, SerialLink
from firmware_bridge.board.snapshots import Reading
from firmware_bridge.board.threaded_source import drain
from hardware.profiles import BoardProfile


class SensorSource(Protocol):
    """What the referee needs from any sensor grid."""

    @property
    def status(self) -> str:
        """Where the source stands: "connected", "disconnected", "stopped", ..."""

    @property
    def status_text(self) -> str:
        """The status in words, for people ("board unplugged ...; retrying")."""

    def start(self) -> None:
        """Begin producing readings."""

    def stop(self) -> None:
        """Stop and release the hardware."""

    def readings(self, timeout: float = 0.0) -> list[Reading]:
        """Readings that arrived since the last call, waiting up to timeout for the first."""

    def show_leds(self, colours: list[int]) -> None:
        """Light the guidance LEDs (one colour code per square); ignored without LEDs."""


class SerialSource:
    """A scanner microcontroller on a serial port (reconnects by itself)."""

    def __init__(self, port: str, baudrate: int = 115200, retry_s: float = 0.5) -> None:
        self.link = SerialLink(port, baudrate, retry_s=retry_s)

    @property
    def status(self) -> str:
        return str(self.link.status)

    @property
    def status_text(self) -> str:
        return self.link.status_text

    def start(self) -> None:
        self.link.start()

    def stop(self) -> None:
        self.link.stop()

    def readings(self, timeout: float = 0.0) -> list[Reading]:
        return drain(self.link.readings, timeout)

    def show_leds(self, colours: list[int]) -> None:
        self.link.set_leds(colours)

    def connected(self) -> bool:
        """True while snapshots flow."""
        return self.link.status == LinkStatus.CONNECTED


class SourceError(ArbiterError):
    """A board profile names a sensor source this referee does not know."""

    code = "unknown-source"


def serial_source(profile: BoardProfile, **options: Any) -> SerialSource:
    """The serial scanner a profile names (its port and baud rate)."""
    return SerialSource(profile.serial_port, profile.baudrate, **options)


# A source's name (a profile's sensor.source) -> "module:factory", the factory called with the
# profile and the caller's options. The module is imported only when the source is opened.
SOURCES: dict[str, str] = {
    "serial": "firmware_bridge.board.sources:serial_source",
    "gpio": "firmware_bridge.board.gpio_source:gpio_source",
    "simulated": "firmware_bridge.board.sim_source:simulated_source",
}


def source_factory(name: str) -> Callable[..., SensorSource]:
    """The factory registered under ``name`` (SourceError for a name nobody registered)."""
    try:
        module, _, factory = SOURCES[name].partition(":")
    except KeyError:
        raise SourceError(f"no sensor source is called {name!r} (known: {', '.join(SOURCES)})") from None
    made: Callable[..., SensorSource] = getattr(importlib.import_module(module), factory)
    return made


def open_source(profile: BoardProfile, **options: Any) -> SensorSource:
    """The sensor source a board profile names; options go to its factory (``board=`` for a
    simulated board, ``pin_factory=`` for the GPIO matrix)."""
    return source_factory(profile.source)(profile, **options)
