"""Brokers the referee can run: amqtt embedded in-process, or a real mosquitto child process.

A family needs nothing but the Pi: with no broker named, the referee runs :class:`EmbeddedBroker`
(amqtt, MQTT 3.1.1, anonymous). :class:`Mosquitto` starts a real mosquitto on a port of our
choosing, for the tests, the benches and local bridge set-ups; a Pi in production runs the
system mosquitto with the files in hardware/deploy/.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # amqtt is imported when the broker starts
    from amqtt.broker import Broker

log = logging.getLogger(__name__)
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def wait_for_port(host: str, port: int, timeout: float = 10.0) -> bool:
    """Wait until something accepts TCP connections on (host, port)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.2):
            return True
        time.sleep(0.02)
    return False


class SnapshotDict(dict):
    """A dict whose iteration walks a copy of its keys or items.

    amqtt 0.12 iterates its subscriptions with an ``await`` inside the loop (a client connecting
    while another subscribes), so the dict changes under the loop and the connecting client's
    handler dies with "dictionary changed size during iteration". Iterating a copy is what the
    loop meant: the subscriptions as they were when it began.
    """

    def __iter__(self):
        return iter(list(super().keys()))

    def keys(self):
        return list(super().keys())

    def items(self):
        return list(super().items())

    def values(self):
        return list(super().values())


# What amqtt's own tasks raise when a client goes away mid-message: expected on any network, no fault.
CLIENT_GONE = (TimeoutError, ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError)


def _quiet_loop_errors(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """The broker loop's unhandled errors go to the log in a line, never as a traceback on a terminal."""
    error = context.get("exception")
    if isinstance(error, CLIENT_GONE):
        log.debug("embedded broker: a client went away: %r", error)
    else:
        log.warning("embedded broker: %s%s", context.get("message", "error"), f" ({error!r})" if error else "")


class EmbeddedBroker:
    """amqtt running on its own event loop in a daemon thread of this process."""

    def __init__(self, host: str = "0.0.0.0", port: int = 1883) -> None:
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker: Broker | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @property
    def url(self) -> str:
        """Where clients on this machine reach it."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"mqtt://{host}:{self.port}"

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        self._thread = threading.Thread(target=self._run, name="amqtt", daemon=True)
        self._thread.start()
        self._ready.wait(timeout)
        if self._error:
            raise RuntimeError(f"embedded broker failed to start: {self._error}") from self._error
        if not self._ready.is_set():
            raise RuntimeError(f"embedded broker did not start on port {self.port}")
        log.info("embedded amqtt broker on %s:%s", self.host, self.port)

    def _run(self) -> None:
        from amqtt.broker import Broker

        # amqtt logs every packet at INFO; a referee's log is for people.
        for name in ("amqtt", "transitions"):
            logging.getLogger(name).setLevel(logging.WARNING)
        # A client that leaves mid-message makes amqtt warn with a traceback: nobody's fault.
        logging.getLogger("amqtt.mqtt.protocol.handler").setLevel(logging.ERROR)
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }
        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        self._loop.set_exception_handler(_quiet_loop_errors)
        try:
            self._broker = Broker(config, loop=self._loop)
            # Work around amqtt's iteration race (see SnapshotDict); the same dicts, copied on iteration.
            for name in ("_subscriptions", "_retained_messages", "_sessions"):
                setattr(self._broker, name, SnapshotDict(getattr(self._broker, name)))
            self._loop.run_until_complete(self._broker.start())
        except BaseException as error:  # reported to start() in the caller's thread
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    def stop(self) -> None:
        """Shut the broker down and end its thread."""
        if not self._loop or not self._broker:
            return
        future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
        with contextlib.suppress(Exception):
            future.result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread:
            self._thread.join(timeout=10)


class Mosquitto:
    """A mosquitto process with its own config directory, on a free port of 127.0.0.1.

    ``acl`` and ``passwords`` ({user: password}) switch authentication on; ``extra`` is appended
    to mosquitto.conf (e.g. a bridge section). mosquitto started as root drops to user
    ``mosquitto``, so the directory and its files are made readable (and the persistence
    directory writable) for that user.
    """

    def __init__(self, port: int | None = None, *, acl: str | None = None,
                 passwords: dict[str, str] | None = None, extra: str = "",
                 persistence: bool = False, workdir: str | None = None,
                 anonymous: bool | None = None, tls: tuple[str, str, str] | None = None) -> None:
        self.port = port or free_port()
        self.dir = Path(workdir or tempfile.mkdtemp(prefix="arbiter-mosquitto-"))
        self.acl, self.passwords, self.extra, self.persistence = acl, passwords, extra, persistence
        # Anonymous clients are allowed unless accounts exist and nobody said otherwise.
        self.anonymous = passwords is None if anonymous is None else anonymous
        self.tls = tls  # (CA file, server certificate, server key): the listener speaks mqtts
        self.process: subprocess.Popen | None = None
        self._write_config()

    @property
    def url(self) -> str:
        """mqtt://127.0.0.1:<port> (mqtts:// with TLS)"""
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def url_for(self, username: str, password: str) -> str:
        """The URL with credentials."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{username}:{password}@127.0.0.1:{self.port}"

    def _write_config(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        lines = [f"listener {self.port} 127.0.0.1"]
        if self.tls:
            for option, source in zip(("cafile", "certfile", "keyfile"), self.tls, strict=True):
                copy = self.dir / f"tls-{option}.pem"
                shutil.copyfile(source, copy)
                lines.append(f"{option} {copy}")
        lines += ["max_queued_messages 100000",
                 f"log_dest file {self.dir / 'mosquitto.log'}", "log_type error",
                 "log_type warning", "log_type notice"]
        if self.passwords is not None:
            password_file = self.dir / "passwd"
            password_file.write_text("")
            for user, password in self.passwords.items():
                subprocess.run(["mosquitto_passwd", "-b", str(password_file), user, password],
                               check=True, capture_output=True)
            lines.append(f"password_file {password_file}")
        lines.append(f"allow_anonymous {'true' if self.anonymous else 'false'}")
        if self.acl is not None:
            (self.dir / "acl").write_text(self.acl)
            lines.append(f"acl_file {self.dir / 'acl'}")
        if self.persistence:
            lines += ["persistence true", f"persistence_location {self.dir}/", "autosave_interval 1"]
        (self.dir / "mosquitto.conf").write_text("\n".join(lines) + "\n" + self.extra + "\n")
        self._make_readable()

    def _make_readable(self) -> None:
        os.chmod(self.dir, 0o755)
        for path in self.dir.iterdir():
            os.chmod(path, 0o644)
        if os.geteuid() == 0:
            with contextlib.suppress(KeyError):
                user = pwd.getpwnam("mosquitto")
                for path in [self.dir, *self.dir.iterdir()]:
                    os.chown(path, user.pw_uid, user.pw_gid)

    def start(self, timeout: float = 10.0) -> Mosquitto:
        """Start mosquitto and wait until it listens."""
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.dir / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if not wait_for_port("127.0.0.1", self.port, timeout):
            self.stop()
            log_text = (self.dir / "mosquitto.log").read_text() if (self.dir / "mosquitto.log").exists() else ""
            raise RuntimeError(f"mosquitto did not listen on {self.port}: {log_text[-2000:]}")
        return self

    def kill(self) -> None:
        """SIGKILL, as a crash or power cut would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """Terminate politely."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self, kill: bool = True) -> None:
        """Crash (or stop) and start again on the same port with the same files."""
        self.kill() if kill else self.stop()
        self.start()

    def cleanup(self) -> None:
        """Stop and remove the directory."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.cleanup()
