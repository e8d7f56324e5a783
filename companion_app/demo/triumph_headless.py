"""`arbiter demo --game triumph` without a screen: a scripted Napoleon's Triumph battle through the
real referee, told in the terminal as the two tablets tell it.

An embedded broker and a referee for Napoleon's Triumph start; two tablets pair with the codes the
referee shows, send the standard set-ups, and scripted players (firmware_bridge/bot/triumph_script.py)
answer from what their own seat's view offers. Each action is printed with what each tablet tells
its player to do with his blocks, in the chosen language, until the battle has a result.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion_app.i18n.catalog import Translator
from companion_app.i18n.triumph_tablet_texts import (
    command_summary,
    hour_text,
    option_text,
    result_line,
    side_text,
    step_text,
)
from engine.triumph.standard import standard_setup
from firmware_bridge.bot.triumph_script import choose_action
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.protocol.triumph_contract import SIDE_OF_SEAT, VARIANT
from firmware_bridge.referee.broker import EmbeddedBroker, free_port
from firmware_bridge.referee.service import Referee, RefereeSettings

BOARD = "austerlitz"
WAIT_S = 30.0  # a generous bound for one ruling to reach every client on a loaded machine


class TriumphTable:
    """Broker, referee, two seat clients and a display, all in this process."""

    def __init__(self, workdir: Path) -> None:
        self.board = BOARD
        self.broker = EmbeddedBroker("127.0.0.1", free_port("127.0.0.1"))
        url = self.broker.url
        self.codes: dict[str, str] = {}
        self.referee = Referee(RefereeSettings(board=BOARD, journal_path=workdir / "journal.db",
                                               broker_url=url, variant=VARIANT, name="Austerlitz"))
        self.referee.on_pairing_code = lambda seat, code: self.codes.__setitem__(seat, code)
        self.seats = {seat: SeatClient(url, BOARD, name=seat) for seat in SIDE_OF_SEAT}
        self.display = DisplayClient(url, BOARD)

    def start(self) -> None:
        """Start the broker, the referee and the clients; pair both seats by code."""
        self.broker.start()
        assert self.referee.start(), "the referee could not reach the broker"
        for client in (*self.seats.values(), self.display):
            assert client.start(), "a client could not reach the broker"
        for seat, client in self.seats.items():
            assert client.wait(lambda c: c.referee_key is not None, WAIT_S), "no referee info"
            client.pair(seat)
            assert client.wait(lambda c: (c.last_pairing or {}).get("status") == "challenge", WAIT_S)
            deadline = time.monotonic() + WAIT_S
            while seat not in self.codes and time.monotonic() < deadline:
                time.sleep(0.01)
            client.send_code(self.codes[seat])
            assert client.wait(lambda c: c.paired, WAIT_S), f"{seat} was not seated"

    def stop(self) -> None:
        """Disconnect everybody and stop the referee and the broker."""
        for client in (*self.seats.values(), self.display):
            client.stop()
        self.referee.stop()
        self.broker.stop()

    def settle(self) -> None:
        """Wait until both tablets and the display hold the referee's latest ruling."""
        seq = self.referee.session.seq
        for client in (*self.seats.values(), self.display):
            assert client.wait(lambda c, s=seq: c.seq == s and (c.state or {}).get("seq") == s, WAIT_S), \
                "a client fell behind the referee"

    def send(self, seat: str, send: Callable[[SeatClient], str]) -> dict:
        """Send a command from a seat's tablet and return the referee's reply."""
        client = self.seats[seat]
        command_id = send(client)
        assert client.wait(lambda c: command_id in c.replies, WAIT_S), "no reply from the referee"
        return client.replies[command_id]


def play_triumph_headless(seed: int = 1, language: str = "en", say: Callable[[str], None] = print,
                          max_actions: int = 3000) -> int:
    """Play the scripted battle to its result; 0 when it ended with every action accepted."""
    tr = Translator(language)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="arbiter-triumph-") as folder:
        table = TriumphTable(Path(folder))
        started = time.monotonic()
        try:
            table.start()
            say(f"Broker {table.broker.url}, board '{BOARD}': Napoleon's Triumph, 2 December 1805.")
            for seat, side in SIDE_OF_SEAT.items():
                reply = table.send(seat, lambda c, s=side: c.setup(standard_setup(s)))
                assert reply["ok"], reply
                say(f"{side_text(tr, side).capitalize()}: {tr('set-up accepted')} ✓")
            actions = 0
            while actions < max_actions:
                table.settle()
                if table.referee.session.phase != "playing":
                    break
                seat, action = _next_action(table, rng)
                view = table.seats[seat].state["view"]
                reply = table.send(seat, lambda c, a=action: c.nt(a))
                if not reply["ok"]:
                    say(f"REFUSED {action}: {reply['message']}")
                    return 1
                actions += 1
                _tell(tr, table, seat, view, action, say)
            table.settle()
            result = table.seats["red"].state["view"]["result"]
            say(result_line(tr, result, None))
            say(f"{actions} actions in {time.monotonic() - started:.1f} s.")
        finally:
            table.stop()
    return 0 if result else 1


def _next_action(table: TriumphTable, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The seat the game waits for and what its scripted player answers."""
    for seat, client in table.seats.items():
        action = choose_action(client.state["view"], rng)
        if action is not None:
            return seat, action
    raise AssertionError("the game waits for nobody")


def _tell(tr: Translator, table: TriumphTable, seat: str, view: dict, action: dict,
          say: Callable[[str], None]) -> None:
    """One action as its player chose it and what each tablet then tells its player."""
    table.settle()
    units = {u["id"]: u for u in view.get("units", ())}
    text = command_summary(tr, action, units) if view["awaiting"]["decision"] == "command" \
        else option_text(tr, action, units)
    say(f"{hour_text(tr, view['round'])} {side_text(tr, SIDE_OF_SEAT[seat])}: {text}")
    for other, client in table.seats.items():
        latest = (client.state.get("instructions") or [None])[-1]
        if latest and latest["seq"] == client.state["seq"]:
            for step in latest["steps"]:
                say(f"    {side_text(tr, SIDE_OF_SEAT[other])} ▸ {step_text(tr, step)}")
