"""SIGKILL the referee at random points of many games: no ruled move is lost or applied twice.

Set ARBITER_SOAK_KILLS for a longer soak (default 200 kills, about a minute and a half here).
"""

from __future__ import annotations

import os
import random
import threading

import pytest

from engine import Color, Game, Move, get_variant
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.helpers import journal_sign_key, setup_dict, wait_until
from tests.firmware_bridge.referee_process import RefereeProcess, write_config

VARIANT = "barrage"
KILLS = int(os.environ.get("ARBITER_SOAK_KILLS", "200"))


def replay_journal(path) -> Session:
    """What a restarted referee will believe: the journal replayed in this process."""
    journal = Journal(path)
    try:
        return Session(journal, VARIANT)
    finally:
        journal.close()


def pair(process: RefereeProcess, client: SeatClient, seat: str) -> None:
    assert client.link.connected.wait(10)
    client.pair(seat)
    assert client.wait(lambda c: c.last_pairing is not None, 10)
    assert wait_until(lambda: seat in process.codes)
    client.send_code(process.codes[seat])
    assert client.wait(lambda c: c.paired, 10)


class Players:
    """Both tablets and the moves the referee confirmed, as the players saw them."""

    def __init__(self, red: SeatClient, blue: SeatClient, rng: random.Random) -> None:
        self.seats = {"red": red, "blue": blue}
        self.rng = rng
        self.game: Game | None = None
        self.confirmed: list[str] = []
        self.setups: dict[str, dict] = {}
        self.in_flight: tuple[str, str, str] | None = None  # (seat, command id, move)

    def new_game(self, seed: int) -> None:
        self.setups = {seat: setup_dict(VARIANT, seat, seed) for seat in self.seats}
        for seat, client in self.seats.items():
            command_id = client.setup(self.setups[seat])
            assert client.wait(lambda c, i=command_id: i in c.replies, 15), "setup unanswered"
            assert client.replies[command_id]["ok"], client.replies[command_id]
        from engine import Square

        variant = get_variant(VARIANT)
        red, blue = ({Square.parse(s): k for s, k in self.setups[c].items()} for c in ("red", "blue"))
        self.game = Game.from_setup(variant, red, blue, volcanoes=())
        self.confirmed = []

    def play_until_killed(self, alive) -> None:
        """Send moves one after the other (each waits for its reply) while the referee lives."""
        while alive() and self.game.result is None:
            seat = self.game.to_move.value
            client = self.seats[seat]
            move = str(self.rng.choice(self.game.legal_moves()))
            command_id = client.move(move)
            self.in_flight = (seat, command_id, move)
            assert wait_until(lambda c=client, i=command_id: i in c.replies or not alive(), 15)
            if command_id not in client.replies:
                return  # killed before the reply: the move may or may not be in the journal
            self.settle_in_flight()

    def resign(self, seat: str) -> None:
        """A player gives up (so the soak goes through many games)."""
        client = self.seats[seat]
        command_id = client.resign()
        assert client.wait(lambda c, i=command_id: i in c.replies, 15)
        assert client.replies[command_id]["ok"], client.replies[command_id]
        self.game.resign(Color(seat))

    def settle_in_flight(self) -> None:
        """The in-flight command got its reply: apply it to the players' game if it was ruled."""
        seat, command_id, move = self.in_flight
        reply = self.seats[seat].replies[command_id]
        assert reply["ok"], reply
        self.game.push(Move.parse(move))
        self.confirmed.append(move)
        self.in_flight = None


@pytest.mark.slow  # a soak: 200 kills
def test_sigkill_at_random_points_loses_no_ruled_move_and_applies_none_twice(mosquitto, tmp_path):
    rng = random.Random(2024)
    journal = tmp_path / "journal.db"
    config = write_config(tmp_path / "referee.toml", "crash", mosquitto.url, journal, VARIANT)
    process = RefereeProcess(config).start()
    red = SeatClient(mosquitto.url, "crash", credentials_path=str(tmp_path / "red.json"))
    blue = SeatClient(mosquitto.url, "crash", credentials_path=str(tmp_path / "blue.json"))
    display = DisplayClient(mosquitto.url, "crash")
    for client in (red, blue, display):
        assert client.start()
    display.pin_key(journal_sign_key(journal))
    players = Players(red, blue, rng)
    games = 0
    seen = {"in_flight": 0, "committed_unanswered": 0}
    try:
        pair(process, red, "red")
        pair(process, blue, "blue")
        players.new_game(seed=0)
        for kill in range(KILLS):
            if players.game.result is not None:
                command_id = red.new_game()
                assert red.wait(lambda c, i=command_id: i in c.replies, 10) and red.replies[command_id]["ok"]
                games += 1
                players.new_game(seed=kill + 1)
            # Kill at a random moment while moves are flowing (or while it is still starting).
            killer = threading.Timer(rng.uniform(0.05, 0.5), process.signal_kill)
            killer.start()
            players.play_until_killed(process.alive)
            killer.join()
            process.kill()

            # The journal holds every confirmed move once, in order, plus at most the one in flight.
            replayed = replay_journal(journal)
            ruled = [str(m) for m in replayed.game.move_stack] if replayed.game else []
            assert ruled[:len(players.confirmed)] == players.confirmed, f"kill {kill}: a confirmed move is lost"
            extra = ruled[len(players.confirmed):]
            assert extra in ([], [players.in_flight[2]] if players.in_flight else []), f"kill {kill}: {extra}"
            seen["in_flight"] += players.in_flight is not None
            seen["committed_unanswered"] += bool(extra)

            process = RefereeProcess(config).start()
            if players.in_flight:  # the tablet resends it when the referee is back: applied once
                seat, command_id, _ = players.in_flight
                assert players.seats[seat].wait(lambda c, i=command_id: i in c.replies, 15), f"kill {kill}: no reply after restart"
                players.settle_in_flight()
            # Everyone converges on the referee's republished state, identical to the players' game.
            expected = (players.game.ply, players.game.hash)
            replayed = replay_journal(journal)
            assert (replayed.game.ply, replayed.game.hash) == expected
            seq = replayed.seq
            for color, client in (("red", red), ("blue", blue)):
                assert client.wait(lambda c, s=seq: c.seq == s, 15), f"kill {kill}: {color} did not resync"
                assert client.view == players.game.view(Color(color)).to_dict()
            assert display.wait(lambda c, s=seq: c.seq == s, 15)
            assert display.state["view"] == players.game.view(None).to_dict()
            if players.game.result is None and rng.random() < 0.08:
                players.resign(rng.choice(("red", "blue")))
    finally:
        process.stop()
        for client in (red, blue, display):
            client.stop()
    print(f"{KILLS} kills, {games} games finished, {seen}")
    if KILLS >= 50:  # the kills really fell between journal and reply, and before the journal
        assert seen["committed_unanswered"] > 0 and seen["in_flight"] > seen["committed_unanswered"]
