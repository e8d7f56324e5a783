"""The network adapter: firmware_bridge.protocol.client's SeatClient/DisplayClient behind the app's Link.

paho calls back on its own thread; every callback here only hands its payload to Kivy's
clock (`to_ui_thread`), and the contract translation runs on the UI thread.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion_app.model.setup_model import app_home
from companion_app.net.contract_adapter import ContractTranslator, contract_command
from companion_app.net.link import Link, to_ui_thread
from engine.core.errors import ArbiterError


def split_address(address: str) -> tuple[str, str]:
    """"mqtt://host:1883/kitchen" -> ("mqtt://host:1883", "kitchen"); the board defaults to "board1"."""
    address = address.strip()
    if "://" not in address:
        address = "mqtt://" + address
    parts = urlsplit(address)
    board = parts.path.strip("/") or "board1"
    return f"{parts.scheme}://{parts.netloc}", board


class _NetworkLink(Link):
    """What seat and display links share: the UI-thread handoff and the connection light."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.broker, self.board = split_address(address)
        self.client: Any = None
        self.adapter: ContractTranslator | None = None
        self._poll = None
        self._ui: Any = None
        self._shown_status: str | None = None  # the referee's status last delivered

    def _to_ui(self, method: str):
        """A callback for the network thread that runs adapter.<method>(payload) on the UI thread."""
        assert self._ui is not None
        ui = self._ui
        return lambda payload: ui(method, payload)

    def _run(self, method: str, payload: dict[str, Any]) -> None:
        if self.adapter is not None and self._deliver is not None:
            getattr(self.adapter, method)(payload)

    def _send_code(self, payload: dict[str, Any], ui_method: str) -> None:
        """Answer the referee's code challenge with the typed code. One that is not six digits 0-9
        (an empty field too) is never sent: the pairing screen says so (`ui_method`)."""
        try:
            self.client.send_code(str(payload.get("code", "")))
        except ArbiterError:
            self._ui(ui_method, {"status": "refused", "method": "code", "bad_code": True})

    def _start_polling(self) -> None:
        from kivy.clock import Clock

        self._poll = Clock.schedule_interval(self._check_connection, 0.5)

    # Seat and display hear the referee only by the signing key their pairing pins; the hall
    # overview pins each board's key itself, and its light is its own broker link.
    pairs_with_referee = False

    def _referee_status(self) -> str:
        """"online" when our broker link is up and the referee's (verified) presence says online;
        "unpaired" while our link is up but no signing key of the referee is pinned yet: what it
        publishes is held unread until then (protocol/public_client.py), so only pairing can tell
        whether it is there; else "offline". Our own link and our own pin decide it: nothing
        published on the broker makes it "unpaired" or "online"."""
        link_up = self.client.link.connected.is_set()
        if not self.pairs_with_referee:
            return "online" if link_up else "offline"
        if link_up and self.client.pin.key is None:
            return "unpaired"
        return "online" if link_up and self.client.referee_online else "offline"

    def _check_connection(self, _dt: float) -> None:
        status = self._referee_status()
        if status != self._shown_status and self.adapter is not None:
            self._shown_status = status
            self.adapter.connection("referee", status)

    def close(self) -> None:
        """Stop the client and the polling."""
        if self._poll is not None:
            self._poll.cancel()
        if self.client is not None:
            self.client.stop()
        super().close()


class SeatLink(_NetworkLink):
    """A player's tablet over MQTT."""

    pairs_with_referee = True

    def __init__(self, address: str, seat: str, credentials_path: str | None = None) -> None:
        super().__init__(address)
        self.seat = seat
        self.credentials_path = credentials_path

    def open(self, deliver) -> None:
        """Connect, pair (unless this tablet already holds the seat) and start delivering."""
        from firmware_bridge.protocol.client import SeatClient

        super().open(deliver)
        self.adapter = ContractTranslator(deliver, self.seat)
        self._ui = to_ui_thread(self._run)
        path = self.credentials_path or str(app_home() / f"seat-{self.board}-{self.seat}.json")
        client = SeatClient(self.broker, self.board, credentials_path=path, name=self.seat)
        client.on_pairing = self._to_ui("pairing")
        client.on_state = self._to_ui("seat_state")
        client.on_events = self._to_ui("events")
        client.on_reply = self._to_ui("reply")
        client.on_public_state = self._to_ui("public_state")
        # After SeatClient's own handling (it learns the referee's key first), and only once the
        # referee's signature checked out.
        client.on_info = self._on_info
        self.client = client
        deliver("my_fingerprint", {"fingerprint": getattr(client, "fingerprint", None)})
        self._info_seen = False
        self._granted = False
        client.start(wait=None)
        # A stored seat counts once the referee's announcement verifies with the stored key.
        self._asked = not (client.paired and client.seat == self.seat)
        if self._asked:
            client.pair(self.seat)
        self._start_polling()

    def _check_connection(self, dt: float) -> None:
        super()._check_connection(dt)
        client = self.client
        if (self._info_seen and not self._granted and not self._asked and client.paired
                and self.adapter is not None):
            self._granted = True
            self.adapter.pairing({"status": "granted", "seat": self.seat})
        # A tablet paired with an earlier referee (its signing key changed: a new Pi, a wiped
        # journal) forgets the seat; it asks again, and the player sees the pairing screen.
        # A tablet replaced by another (seat_lost) does not ask again by itself: that would take
        # the seat back and forth.
        replaced = client.referee_replaced and not client.seat_lost
        if replaced:
            client.forget_seat()
            self._asked = False
        if not client.paired and not self._asked and not client.seat_lost:
            self._asked = True
            client.pair(self.seat)
            if self.adapter is not None:
                self.adapter.deliver("phase", {"phase": "pairing", "referee_new": replaced})

    @property
    def referee_online(self) -> bool:
        """What the seat client heard on the referee's presence topic (it owns that topic)."""
        return bool(self.client is not None and self.client.referee_online)

    def _on_info(self, info: dict[str, Any]) -> None:
        # Network thread: an info signed by the pinned key; this forwards the variant.
        self._info_seen = True
        self._ui("info", info)

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """Send an app command as the contract's command."""
        payload = payload or {}
        client = self.client
        if client is None:
            return
        if command == "pair":
            self._send_code(payload, "pairing")
        elif command == "resync":
            client.hello("manual")
        else:
            translated = contract_command(command, payload)
            if translated is not None:
                client.command(translated[0], **translated[1])


class DisplayLink(_NetworkLink):
    """The public referee display over MQTT."""

    pairs_with_referee = True

    def __init__(self, address: str, folder: str | None = None) -> None:
        super().__init__(address)
        # Where the referee's key from the last pairing is kept: the app's folder, or the folder of
        # the tablets' credentials (the demo's own, so a new demo's referee is paired anew).
        self._pin_path = Path(folder) if folder else app_home()
        self._pin_path /= f"display-{self.board}.json"
        self._info_sent = False  # the referee's info and key handed to the screen since pairing

    def open(self, deliver) -> None:
        """Connect and start delivering the public state and events."""
        from firmware_bridge.protocol.client import DisplayClient

        super().open(deliver)
        self.adapter = ContractTranslator(deliver, None)
        self._ui = to_ui_thread(self._run)
        client = DisplayClient(self.broker, self.board, sign_key=self._stored_key())
        client.on_state = self._to_ui("public_state")
        client.on_events = self._to_ui("events")
        client.on_pairing = self._to_ui("display_pairing")
        self.client = client
        client.start(wait=None)
        if not client.paired:  # the referee's console shows a code for this display
            client.pair()
        self._start_polling()

    def _stored_key(self) -> str | None:
        # The referee's signing key from this display's last pairing by code.
        try:
            key = json.loads(self._pin_path.read_text()).get("sign_key")
        except (OSError, ValueError, AttributeError):
            return None
        return key if isinstance(key, str) else None

    def _run(self, method: str, payload: dict[str, Any]) -> None:
        if method != "display_pairing":
            super()._run(method, payload)
            return
        if self.adapter is None or self._deliver is None:
            return
        if payload.get("status") == "granted":
            self._pin_path.parent.mkdir(parents=True, exist_ok=True)
            self._pin_path.write_text(json.dumps({"sign_key": self.client.pin.key}))
            self.adapter.deliver("phase", {"phase": "game"})
        else:
            self.adapter.pairing(payload)

    def _check_connection(self, dt: float) -> None:
        client = self.client
        # A display paired with an earlier referee (its signing key changed: a new Pi, a wiped
        # journal) forgets that key, here and in its file, and asks again: the console shows a
        # new code and the display its pairing screen. Until then what it hears stays unread.
        if client.referee_replaced:
            client.forget_referee()
            self._pin_path.unlink(missing_ok=True)
            self._info_sent = False  # the new referee's info and key, once paired
            client.pair()
            if self.adapter is not None:
                self.adapter.deliver("phase", {"phase": "pairing", "referee_new": True})
        super()._check_connection(dt)
        if self.client.info and self.adapter is not None and not self._info_sent:
            self._info_sent = True
            self.adapter.info(self.client.info)
            # The key the display pinned, for the family to compare with the referee's console.
            self.adapter.deliver("referee_fingerprint", {"fingerprint": self.client.pin.fingerprint})

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """The display sends nothing but its pairing code and resync requests."""
        if self.client is None:
            return
        payload = payload or {}
        if command == "pair":
            self._send_code(payload, "display_pairing")
        elif command == "resync":
            self.client.hello("manual")


class OverviewLink(_NetworkLink):
    """The arbiter's overview over MQTT: the public state of every board on the hall broker."""

    def open(self, deliver) -> None:
        """Connect and deliver each board's public state."""
        from firmware_bridge.protocol.client import OverviewClient

        super().open(deliver)
        self.adapter = ContractTranslator(deliver, None)
        self._ui = to_ui_thread(self._forward)
        client = OverviewClient(self.broker)
        client.on_state = lambda state: self._ui("board_state", state)
        self.client = client
        client.start(wait=None)
        self._start_polling()

    def _forward(self, kind: str, payload: dict[str, Any]) -> None:
        if self._deliver is not None:
            self._deliver(kind, payload)

    def send(self, command: str, payload: dict[str, Any] | None = None) -> None:
        """The overview sends nothing."""


class BoardFinder:
    """Looks for boards announced by zeroconf (``_arbiter._tcp``) while the board list is shown.

    Browsing runs on its own thread; each board found is handed to `found(title, address)` on
    the Kivy thread.
    """

    def __init__(self, found, interval: float = 5.0) -> None:
        import threading

        self.found = found
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start looking (again)."""
        import threading

        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-finder", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop looking."""
        self._stop.set()

    def _run(self) -> None:
        from kivy.clock import Clock

        try:
            from firmware_bridge.protocol.discovery import discover
        except ImportError:  # zeroconf not installed: typing the address still works
            return
        while not self._stop.is_set():
            try:
                boards = discover(timeout=2.0)
            except Exception:  # no multicast on this network: typing the address still works
                boards = []
            for board in boards:
                title = board.title or board.board
                address = f"{board.broker_url}/{board.board}"
                Clock.schedule_once(lambda _dt, t=title, a=address: self.found(t, a), 0)
            self._stop.wait(self.interval)


def network_link_factory(credentials_path: str | None = None):
    """A link factory for TabletRoot: seat None makes a referee display (keeping its pairing beside
    the credentials file, if one is given)."""

    def make(address: str, seat: str | None) -> Link:
        if seat == "overview":
            return OverviewLink(address)
        if seat is None:
            return DisplayLink(address, str(Path(credentials_path).parent) if credentials_path else None)
        return SeatLink(address, seat, credentials_path)

    return make
