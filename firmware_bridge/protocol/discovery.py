"""Zeroconf: the referee announces ``_arbiter._tcp`` on the LAN so tablets find the board.

The service points at the MQTT broker the tablets should use; its TXT record holds the board
name, the contract version and the referee's public key (tablets still pin the key they
paired with; the announcement is only a convenience, never trusted for security).
"""

from __future__ import annotations

import logging
import socket
import time
from dataclasses import dataclass

from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceListener, Zeroconf

SERVICE_TYPE = "_arbiter._tcp.local."
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Announced:
    """A board found on the LAN."""

    board: str
    host: str
    port: int
    referee_key: str
    title: str

    @property
    def broker_url(self) -> str:
        """The mqtt:// URL of the board's broker."""
        return f"mqtt://{self.host}:{self.port}"


def local_address() -> str:
    """The address other machines on the LAN reach us at (best guess, no traffic sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: never routed, nothing is sent
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


class Announcer:
    """Registers the board's service while the referee runs."""

    def __init__(self, board: str, port: int, referee_key: str, title: str = "",
                 addresses: list[str] | None = None, interfaces: list[str] | None = None) -> None:
        self.addresses = addresses or [local_address()]
        self.info = ServiceInfo(
            SERVICE_TYPE, f"{board}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses], port=port,
            properties={"board": board, "v": "1", "key": referee_key, "title": title[:60]},
            server=f"arbiter-{board}.local.")
        self._interfaces = interfaces
        self.zeroconf: Zeroconf | None = None

    def start(self) -> None:
        """Announce."""
        kwargs = {"interfaces": self._interfaces} if self._interfaces else {}
        # mypy matches **kwargs against every parameter; it only ever holds `interfaces`
        self.zeroconf = Zeroconf(ip_version=IPVersion.V4Only, **kwargs)  # type: ignore[arg-type]
        self.zeroconf.register_service(self.info, allow_name_change=True)
        log.info("announced %s on %s", self.info.name, ", ".join(self.addresses))

    def stop(self) -> None:
        """Withdraw the announcement."""
        if self.zeroconf:
            self.zeroconf.unregister_service(self.info)
            self.zeroconf.close()
            self.zeroconf = None


class _Collector(ServiceListener):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.add(name)

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.add(name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.names.discard(name)


def discover(timeout: float = 3.0, interfaces: list[str] | None = None) -> list[Announced]:
    """Boards announced on the LAN within ``timeout`` seconds (for the tablet's board list)."""
    kwargs = {"interfaces": interfaces} if interfaces else {}
    zeroconf = Zeroconf(ip_version=IPVersion.V4Only, **kwargs)  # type: ignore[arg-type]  # as in start()
    collector = _Collector()
    browser = ServiceBrowser(zeroconf, SERVICE_TYPE, collector)
    found: list[Announced] = []
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not collector.names:
            time.sleep(0.05)
        time.sleep(0.2)  # let the other boards answer too
        for name in sorted(collector.names):
            info = zeroconf.get_service_info(SERVICE_TYPE, name, timeout=1000)
            if info is None or not info.parsed_addresses():
                continue
            props = {k.decode(): (v or b"").decode() for k, v in info.properties.items()}
            found.append(Announced(props.get("board", ""), info.parsed_addresses()[0], info.port or 1883,
                                   props.get("key", ""), props.get("title", "")))
    finally:
        browser.cancel()
        zeroconf.close()
    return found
