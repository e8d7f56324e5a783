"""The client library the apps use: a player's seat and the public referee display. Pure paho.

Interface (stable; the Kivy app codes against it)::

    from firmware_bridge.protocol.client import SeatClient, DisplayClient, OverviewClient

    seat = SeatClient("mqtt://192.168.1.20:1883", board="board1",   # or mqtts://host:8883
                      credentials_path="~/.arbiter/board1.json",  # None: keep in memory only
                      name="Anna", ca_file=None)                  # CA bundle for mqtts://
    seat.on_pairing = lambda reply: ...    # {"status": "challenge", "method": "square", "square": "e5"}
                                           # {"status": "challenge", "method": "code"}  -> seat.send_code("123456")
                                           # {"status": "granted", "seat": "red"} / {"status": "refused", "message": ...}
    seat.on_state = lambda state: ...      # decrypted seat snapshot, see below
    seat.on_events = lambda events: ...    # {"seat", "game", "seq", "events": [redacted event dicts]}
    seat.on_reply = lambda reply: ...      # {"id", "ok", "code", "message", "seq"} for our commands
    seat.on_public_state = lambda s: ...   # the public "state" payload (clocks, seats, draw offer)
    seat.start()                           # connects in the background; reconnects by itself
    seat.pair("red")                       # ask for the seat; not needed once paired (credentials file)
    seat.move("a4-a5"); seat.setup({"a1": "flag", ...}); seat.resign()
    seat.offer_draw(); seat.accept_draw(); seat.decline_draw()
    seat.new_game()                        # or new_game(moves_per_turn=1): Espionage's one-move option
    seat.offer_takeback(); seat.accept_takeback(); seat.decline_takeback()
    seat.state, seat.view, seat.seq, seat.seat, seat.paired, seat.public_state
    seat.approve_pairing(fingerprint)      # during a game: let the tablet with this key take the seat
    seat.pairing_request, seat.seat_lost   # {"fingerprint", "name"} of a tablet asking; the seat lost
    seat.fingerprint                       # this tablet's key, "1234-5678-9012-3456": compare it with
                                           # public_state["seats"][seat]["key_fingerprint"] on the display
    seat.wait(lambda c: c.seq >= 3, timeout=5.0)   # for scripts and tests
    seat.stop()

    display = DisplayClient(url, "board1")     # the public referee display: on_state, on_events,
    display.start()                            # .state, .info, .referee_online, .seq
    hall = OverviewClient(url)                 # every board on a hall broker: .boards {name: state}

Decrypted seat snapshot (``on_state``): ``{"v": 1, "seat": "red", "game": "7f3a...", "seq": 12,
"phase": "setup"|"playing"|"over", "view": PlayerView.to_dict() or None before the game,
"setup": own submitted setup or None, "last_counter": int}``.
Public state (``DisplayClient.on_state``): ``{"board", "game", "seq", "phase", "view" (public
view), "seats": {"red": {"paired": bool, "online": bool, "setup_ready": bool, "name": str,
"key_fingerprint": "1234-5678-9012-3456" or None}, ...},
"clocks": {"red": seconds, "blue": seconds, "game": seconds or None, "running": color or None}
or None, "draw_offer": color or None, "takeback_offer": color or None, "variant": name,
"moves_per_turn": 1 or 2, "volcanoes": [squares], "volcano_markers": {"squares": [...],
"sensed": bool or None, "plan": [{"action": "marker", "square": "d5"}, ...]} or None,
"board_check": None without a board, else {"matches": bool, "reading": bool (moves are read
again), "clear": [squares to take a piece off], "fill": [squares that need a piece or a volcano
marker], "wrong": [squares holding the wrong piece], "reason": "setup" | "after-battle" |
"restore" | "unexpected" | None, "plan": [{"action": "remove", "square": "d7"}, ...]}}``
(docs/mqtt.md; the steps' vocabulary: firmware_bridge.protocol.board_steps).

Callbacks run on the MQTT network thread: a Kivy app wraps them in ``Clock.schedule_once``.
Every command method returns the command id; the reply arrives via ``on_reply`` with that id.
Unanswered commands are resent unchanged after a reconnect, when the referee comes back online
and every 2 s; the referee applies each exactly once and answers a resend with the first reply.
Consistency: on connect and on any gap in ``seq`` the client publishes ``hello`` and the referee
republishes every snapshot, so ``state`` is never older than the last event seen.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nacl.public import PrivateKey

from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.mqtt_link import BrokerURL
from firmware_bridge.protocol.pairing_client import PairingClient
from firmware_bridge.protocol.public_client import (
    DisplayClient,
    OverviewClient,
    SequencedClient,
)
from firmware_bridge.protocol.vocabulary import Command

__all__ = ["DisplayClient", "OverviewClient", "SeatClient"]

log = logging.getLogger(__name__)
Callback = Callable[[dict], None] | None
ALIVE_SECONDS = 4.0  # a sealed heartbeat this often; the referee gives a seat up after three missed


class SeatClient(SequencedClient):
    """A player's tablet: pairing, decrypted private snapshots and events, authenticated commands."""

    role = "seat"

    def __init__(self, broker_url: str | BrokerURL, board: str, *, credentials_path: str | None = None,
                 client_id: str | None = None, name: str = "", ca_file: str | None = None) -> None:
        self._path = Path(credentials_path).expanduser() if credentials_path else None
        saved = self._load()
        if saved.get("broker_username"):
            url = BrokerURL.parse(broker_url) if isinstance(broker_url, str) else broker_url
            broker_url = url.with_credentials(saved["broker_username"], saved.get("broker_password"))
        self._account = (saved.get("broker_username"), saved.get("broker_password"))
        super().__init__(broker_url, board, client_id or saved.get("client_id"), ca_file)
        self.name = name
        self.key = crypto.private_key_from_text(saved["key"]) if "key" in saved else PrivateKey.generate()
        self.seat: str | None = saved.get("seat")
        self.referee_key: str | None = saved.get("referee_key")
        self._counter = int(saved.get("counter", 0))
        self.fresh.min_run = int(saved.get("run", 0))
        self.fresh.game_no = int(saved.get("game_no", 0))
        self.state: dict | None = None
        self.public_state: dict | None = None
        self.seat_lost: str | None = None  # the seat another tablet was granted: this one stops sending
        self.replies: dict[str, dict] = {}
        self.on_state: Callback = None
        self.on_events: Callback = None
        self.on_reply: Callback = None
        self.on_pairing: Callback = None
        self.on_public_state: Callback = None
        self._channel: crypto.Channel | None = None
        self._pending: dict[str, tuple[str, bytes]] = {}  # command id -> (topic, envelope)
        self._sent_at: dict[str, float] = {}
        self.resend_after = 2.0  # seconds without a reply before a command goes again
        self.alive_every = ALIVE_SECONDS  # the sealed heartbeat that keeps the seat "here"
        self._alive_at = 0.0
        self._asked_at = 0.0  # when the pairing request last went out
        self._resender = threading.Thread(target=self._resend_loop, name="seat-resend", daemon=True)
        self._stopped = threading.Event()
        self.pairing = PairingClient(self.topics, self.client_id, self.key, self.link.publish)
        self.link.subscribe(self.topics.state, self._on_public_state)
        self.link.subscribe(self.topics.pair_reply(self.client_id), self._on_pair_reply)
        if saved.get("sign_key"):
            self.pin_key(saved["sign_key"])
        if self.seat and self.referee_key and self.pin.key:  # a seat counts with the key it was granted by
            self._open_seat()

    # -- what the app reads ------------------------------------------------------------------
    @property
    def paired(self) -> bool:
        """True once the referee granted a seat to this tablet's key."""
        return self._channel is not None

    @property
    def last_pairing(self) -> dict | None:
        """What pairing asks of the player now: {"status": "challenge", "method": "code" |
        "squares" (with "squares") | "approval" (with "fingerprint")}, "granted", "refused" ..."""
        return self.pairing.status

    @property
    def fingerprint(self) -> str:
        """This tablet's key fingerprint ("1234-5678-9012-3456"), to compare with the referee display's."""
        return crypto.fingerprint(self.key.public_key)

    @property
    def pairing_request(self) -> dict | None:
        """Another tablet asking for this seat during a game: {"fingerprint", "name"}, or None."""
        return self.state.get("pairing_request") if self.state else None

    @property
    def view(self) -> dict | None:
        """The latest decrypted PlayerView dict (None before the game starts)."""
        return self.state["view"] if self.state else None

    # -- pairing -----------------------------------------------------------------------------
    def pair(self, seat: str) -> None:
        """Ask the referee for ``seat``; the challenge comes through ``on_pairing``."""
        contract.check_seat(seat)
        with self._lock:
            self.pairing.ask(seat, self.name)
            self._asked_at = time.monotonic()

    def send_code(self, code: str) -> None:
        """Answer a ``method: code`` challenge with the six digits the referee shows."""
        with self._lock:
            self.pairing.send_code(code)

    def forget_seat(self) -> None:
        """Forget the seat and the referee's keys (the referee is another one): pair again."""
        with self._lock:
            self._channel, self.seat, self.referee_key = None, None, None
            self.forget_referee()
            self._save()

    def _on_pair_reply(self, topic: str, raw: bytes) -> None:
        if raw[:len(crypto.MAGIC)] == crypto.MAGIC:
            self._on_sealed_pair_reply(topic, raw)
            return
        super()._on_pair_reply(topic, raw)

    def _granted(self, grant: dict) -> None:
        self.seat = grant["seat"]
        self.referee_key = grant["referee_key"]
        self.seat_lost = None
        self.fresh.min_run = max(self.fresh.min_run, grant["run"])
        self.fresh.game_no = max(self.fresh.game_no, grant.get("game_no", 0))
        self.pin_key(grant["sign_key"])
        account = (grant.get("broker_username"), grant.get("broker_password"))
        self._open_seat()
        if account[0] and account != self._account:
            # The seat account may read the seat's topics: reconnect with it.
            self._account = account
            self.link.reconnect_as(account[0], account[1] or "")
        else:
            self.hello("connect")
        self._save()
        self._alive_at = 0.0  # say so at once

    def _on_sealed_pair_reply(self, topic: str, raw: bytes) -> None:
        # Only "lost" comes sealed to our seat key: another tablet now holds the seat.
        if not self.referee_key:
            return
        channel = crypto.Channel(self.key, crypto.public_key_from_text(self.referee_key))
        try:
            _, body = channel.open(raw, expect={"topic": topic})
            reply = contract.validate("pair_reply", body)
        except (crypto.CryptoError, contract.ContractError) as error:
            log.info("ignored a sealed pairing message: %s", error)
            return
        with self._lock:
            if reply["status"] == "lost" and reply["seat"] == self.seat:
                self._lose_seat()
                self.pairing.status = reply
        if self.on_pairing:
            self.on_pairing(reply)
        self._notify()

    def _lose_seat(self) -> None:
        # Replaced by another tablet: nothing more is sent or resent in the seat's name.
        log.warning("another tablet now holds the %s seat", self.seat)
        self.seat_lost, self.seat, self._channel = self.seat, None, None
        self._pending.clear()
        self._sent_at.clear()
        self._save()

    def _open_seat(self) -> None:
        assert self.seat and self.referee_key
        self._channel = crypto.Channel(self.key, crypto.public_key_from_text(self.referee_key))
        self.link.subscribe(self.topics.seat_state(self.seat), self._on_seat_state)
        self.link.subscribe(self.topics.seat_events(self.seat), self._on_seat_events)
        self.link.subscribe(self.topics.seat_reply(self.seat), self._on_seat_reply)

    # -- liveness ----------------------------------------------------------------------------
    def send_alive(self, online: bool = True) -> None:
        """The sealed heartbeat that tells the referee this tablet still holds its seat."""
        with self._lock:
            if not self._channel or not self.seat or (online and self._stopped.is_set()):
                return  # a stopped tablet says only that it is gone
            counter = max(self._counter + 1, time.time_ns() // 1000)
            self._counter = counter
            topic = self.topics.seat_command(self.seat)
            body = {"v": 1, "seat": self.seat, "run": self.fresh.min_run, "online": online}
            envelope = self._channel.seal({"topic": topic, "seat": self.seat, "alive": counter,
                                           "run": self.fresh.min_run}, body)
            self._alive_at = time.monotonic()
            # Published under the lock: beats leave in the order of their counters, so an
            # "alive" of another thread never lands after the "gone" that follows it.
            self.link.publish(topic, envelope)

    # -- incoming ----------------------------------------------------------------------------
    def _open(self, topic: str, raw: bytes, kind: str) -> tuple[dict, dict] | None:
        channel = self._channel
        if channel is None:
            return None
        try:
            header, body = channel.open(raw, expect={"topic": topic})
            return header, contract.validate(kind, body)
        except (crypto.CryptoError, contract.ContractError) as error:
            log.warning("ignored a message on %s: %s", topic, error)
            return None

    def _on_seat_state(self, topic: str, raw: bytes) -> None:
        opened = self._open(topic, raw, "seat_state")
        if not opened:
            return
        header, state = opened
        if header.get("game") != state["game"] or header.get("seq") != state["seq"]:
            return
        with self._lock:
            current = (self.fresh.accept("seat", header)
                       and self._stream.snapshot_is_current(state["game"], state["seq"]))
            if current:
                self.state = state
                self._counter = max(self._counter, state.get("last_counter", 0))
        if current:
            if self.on_state:
                self.on_state(state)
            self._notify()

    def _on_seat_events(self, topic: str, raw: bytes) -> None:
        opened = self._open(topic, raw, "seat_events")
        if not opened:
            return
        header, events = opened
        if header.get("game") != events["game"] or header.get("seq") != events["seq"]:
            return
        with self._lock:
            fresh = self.fresh.accept("seat", header)
        if fresh:
            self._events_arrived(events, self.on_events)

    def _on_seat_reply(self, topic: str, raw: bytes) -> None:
        opened = self._open(topic, raw, "reply")
        if not opened:
            return
        reply = opened[1]
        with self._lock:
            if reply["id"] not in self._pending and reply["id"] not in self.replies:
                return
            self._pending.pop(reply["id"], None)
            self._sent_at.pop(reply["id"], None)
            self.replies[reply["id"]] = reply
        if self.on_reply:
            self.on_reply(reply)
        self._notify()

    def _on_public_state(self, topic: str, raw: bytes) -> None:
        state = self._referee_payload(topic, raw, "state", self._on_public_state, "public")
        if state is None:
            return
        self.public_state = state
        if self.on_public_state:
            self.on_public_state(self.public_state)
        self._notify()

    def _referee_back(self) -> None:
        # Commands sent while the referee was down (or whose reply was lost) go again, unchanged;
        # a restarted referee (a new run) hears at once that this tablet is here.
        self.send_alive()
        with self._lock:
            pending = list(self._pending.values())
        for topic, envelope in pending:
            self.link.publish(topic, envelope)

    def _announce(self) -> None:
        super()._announce()
        with self._lock:
            if not self.paired:
                self.pairing.resend_request()
            pending = list(self._pending.values())
        for topic, envelope in pending:  # resent unchanged: the referee answers it once
            self.link.publish(topic, envelope)

    # -- commands ----------------------------------------------------------------------------
    def command(self, command_type: Command | str, **args: Any) -> str:
        """Send an authenticated command; return its id (the reply comes via ``on_reply``)."""
        with self._lock:
            if not self._channel or not self.seat:
                raise RuntimeError("this tablet has no seat yet: pair first")
            # Counters only grow, even across app restarts without the credentials file.
            self._counter = max(self._counter + 1, time.time_ns() // 1000)
            command_id = uuid.uuid4().hex
            body = dict(contract.command(self.seat, command_id, self._counter, command_type, **args))
            topic = self.topics.seat_command(self.seat)
            envelope = self._channel.seal({"topic": topic, "seat": self.seat,
                                           "counter": self._counter}, body)
            self._pending[command_id] = (topic, envelope)
            self._sent_at[command_id] = time.monotonic()
            self._save()
        self.link.publish(topic, envelope)
        return command_id

    def _resend_loop(self) -> None:
        # A command can fall between a broker restart and the referee's resubscription; the
        # referee answers a resent command once, so resending is always safe.
        while not self._stopped.wait(0.5):
            now = time.monotonic()
            with self._lock:
                due = [(i, self._pending[i]) for i, at in self._sent_at.items()
                       if i in self._pending and now - at >= self.resend_after]
                for command_id, _ in due:
                    self._sent_at[command_id] = now
            for _, (topic, envelope) in due:
                self.link.publish(topic, envelope)
            with self._lock:  # a request whose answer was lost (sent before our subscription
                # held) goes again while unanswered; the referee answers a repeat as the same one
                if not self.paired and self._asked_at and now - self._asked_at >= self.resend_after:
                    self._asked_at = now
                    self.pairing.resend_request()
            if self.paired and now - self._alive_at >= self.alive_every:
                self.send_alive()

    def start(self, wait: float | None = 10.0) -> bool:
        """Connect in the background; unanswered commands are resent every few seconds."""
        if not self._resender.is_alive():
            self._resender.start()
        return super().start(wait)

    def stop(self) -> None:
        """Stop resending, say offline (sealed, so the seat is free at once) and disconnect."""
        self._stopped.set()
        if self.link.connected.is_set():
            self.send_alive(online=False)
        super().stop()

    def resend(self, command_id: str) -> None:
        """Send an unanswered command again, unchanged."""
        with self._lock:
            topic, envelope = self._pending[command_id]
        self.link.publish(topic, envelope)

    def move(self, move: str) -> str:
        """Make a move from the tablet (when the board is not the input)."""
        return self.command(Command.MOVE, move=move)

    def setup(self, setup: dict[str, Any]) -> str:
        """Submit this seat's hidden setup: ``{"a1": "flag", ...}``, or a Napoleon's Triumph
        side's set-up object (``{"commanders", "units", "fixed_battery"}``)."""
        return self.command(Command.SETUP, setup=setup)

    def nt(self, action: dict[str, Any]) -> str:
        """One Napoleon's Triumph action, without its side (the seat's army acts)."""
        return self.command(Command.NT, action=action)

    def resign(self) -> str:
        """Resign the game."""
        return self.command(Command.RESIGN)

    def offer_draw(self) -> str:
        """Offer a draw."""
        return self.command(Command.OFFER_DRAW)

    def accept_draw(self) -> str:
        """Accept the opponent's draw offer."""
        return self.command(Command.ACCEPT_DRAW)

    def decline_draw(self) -> str:
        """Decline the opponent's draw offer."""
        return self.command(Command.DECLINE_DRAW)

    def offer_takeback(self) -> str:
        """Ask to take the last move back (the opponent must agree)."""
        return self.command(Command.OFFER_TAKEBACK)

    def accept_takeback(self) -> str:
        """Agree to the opponent's takeback request: the last move is undone."""
        return self.command(Command.ACCEPT_TAKEBACK)

    def decline_takeback(self) -> str:
        """Refuse the opponent's takeback request."""
        return self.command(Command.DECLINE_TAKEBACK)

    def replay_load(self, text: str, name: str = "") -> str:
        """Load a recorded game (JSON record, Gravon XML or GSN text) to replay on the board."""
        return self.command(Command.REPLAY_LOAD, text=text, **({"name": name} if name else {}))

    def replay_step(self, step: str, ply: int | None = None) -> str:
        """Step the replay "forward" or "back", or "jump" to ``ply``."""
        return self.command(Command.REPLAY_STEP, step=step, **({"ply": ply} if ply is not None else {}))

    def replay_play_on(self) -> str:
        """Play on from the replayed position as a new game."""
        return self.command(Command.REPLAY_PLAY_ON)

    def replay_stop(self) -> str:
        """Stop the replay."""
        return self.command(Command.REPLAY_STOP)

    def approve_pairing(self, fingerprint: str) -> str:
        """Let the tablet with this key fingerprint (shown on it) take this seat; this tablet loses it."""
        return self.command(Command.APPROVE_PAIRING, fingerprint=fingerprint)

    def new_game(self, moves_per_turn: int | None = None, computer: str | None = None,
                 level: str | None = None) -> str:
        """Start a new game with the same seats once the game is over.

        moves_per_turn: 1 for Espionage's one-move option, 2 for its standard turns; None keeps
        the setting of the game just played. computer: the seat the computer plays, "off" for two
        people, None as before; level: its strength.
        """
        args = {"moves_per_turn": moves_per_turn, "computer": computer, "level": level}
        return self.command(Command.NEW_GAME, **{k: v for k, v in args.items() if v is not None})

    # -- credentials -------------------------------------------------------------------------
    def _load(self) -> dict:
        if self._path and self._path.exists():
            return json.loads(self._path.read_text())
        return {}

    def _save(self) -> None:
        if not self._path:
            return
        data = {"client_id": self.client_id, "key": crypto.key_to_text(self.key), "seat": self.seat,
                "referee_key": self.referee_key, "sign_key": self.pin.key,
                "counter": self._counter, "board": self.topics.board,
                "run": self.fresh.min_run, "game_no": self.fresh.game_no,
                "broker_username": self._account[0], "broker_password": self._account[1]}
        self._path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        os.chmod(tmp, 0o600)
        tmp.replace(self._path)
