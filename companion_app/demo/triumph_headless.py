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
from functools import partial
from pathlib import Path
from typing import Any

from companion_app.i18n.catalog import Translator
from companion_app.i18n.triumph_tablet_texts import (
    capital,
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
        # In one process the display is given the referee's key (a display elsewhere pairs by code).
        self.display = DisplayClient(url, BOARD, sign_key=self.referee.signer.verify_key)

    def start(self) -> None:
        """Start the broker, the referee and the clients; pair both seats by code."""
        self.broker.start()
        assert self.referee.start(), "the referee could not reach the broker"
        for client in (*self.seats.values(), self.display):
            assert client.start(), "a client could not reach the broker"
        for seat, client in self.seats.items():
            assert client.link.connected.wait(WAIT_S), "no broker"
            client.pair(seat)
            assert client.wait(_challenged, WAIT_S), "no pairing challenge"
            deadline = time.monotonic() + WAIT_S
            while seat not in self.codes and time.monotonic() < deadline:
                time.sleep(0.01)
            client.send_code(self.codes[seat])
            assert client.wait(_paired, WAIT_S), f"{seat} was not seated"

    def stop(self) -> None:
        """Disconnect everybody and stop the referee and the broker."""
        for client in (*self.seats.values(), self.display):
            client.stop()
        self.referee.stop()
        self.broker.stop()

    def settle(self) -> None:
        """Wait until both tablets and the display hold the referee's latest ruling."""
        seq = self.referee.session.seq

        def caught_up(client: Any) -> bool:
            return bool(client.seq == seq and (client.state or {}).get("seq") == seq)

        for client in (*self.seats.values(), self.display):
            assert client.wait(caught_up, WAIT_S), "a client fell behind the referee"

    def view(self, seat: str) -> dict[str, Any]:
        """The seat's view as its tablet holds it."""
        state = self.seats[seat].state
        assert state is not None and state.get("view"), f"the {seat} tablet has no view yet"
        return dict(state["view"])

    def instructions(self, seat: str) -> list[dict[str, Any]]:
        """The steps the seat's tablet was told after the latest ruling (none if it was not told)."""
        state = self.seats[seat].state or {}
        latest = (state.get("instructions") or [None])[-1]
        return list(latest["steps"]) if latest and latest["seq"] == state.get("seq") else []

    def send(self, seat: str, send: Callable[[SeatClient], str]) -> dict:
        """Send a command from a seat's tablet and return the referee's reply."""
        client = self.seats[seat]
        command_id = send(client)

        def answered(c: SeatClient) -> bool:
            return command_id in c.replies

        assert client.wait(answered, WAIT_S), "no reply from the referee"
        return dict(client.replies[command_id])


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
                reply = table.send(seat, partial(_send_setup, setup=standard_setup(side)))
                assert reply["ok"], reply
                say(f"{capital(side_text(tr, side))}: {tr('The referee accepted the set-up.')} ✓")
            actions = 0
            while actions < max_actions:
                table.settle()
                if table.referee.session.phase != "playing":
                    break
                seat, action = _next_action(table, rng)
                view = table.view(seat)
                reply = table.send(seat, partial(_send_action, action=action))
                if not reply["ok"]:
                    say(f"REFUSED {action}: {reply['message']}")
                    return 1
                actions += 1
                _tell(tr, table, seat, view, action, say)
            table.settle()
            result = table.view("red")["result"]
            say(result_line(tr, result, None))
            say(tr("{count} actions in {seconds} s.").format(count=actions,
                                                             seconds=f"{time.monotonic() - started:.1f}"))
        finally:
            table.stop()
    return 0 if result else 1


def _send_setup(client: SeatClient, setup: dict[str, Any]) -> str:
    return client.setup(setup)


def _send_action(client: SeatClient, action: dict[str, Any]) -> str:
    return client.nt(action)


def _challenged(client: SeatClient) -> bool:
    return (client.last_pairing or {}).get("status") == "challenge"


def _paired(client: SeatClient) -> bool:
    return client.paired


def _next_action(table: TriumphTable, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The seat the game waits for and what its scripted player answers."""
    for seat in table.seats:
        action = choose_action(table.view(seat), rng)
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
    for other in table.seats:
        for step in table.instructions(other):
            say(f"    {side_text(tr, SIDE_OF_SEAT[other])} ▸ {step_text(tr, step)}")
