"""SIGKILL the referee in an Espionage game with the one-move option: it comes back as the same game.

The journal's game entry holds the variant, the option and the volcanoes drawn; a restart that
fell back to the referee's defaults would rebuild another game (two moves a turn, new volcanoes).
"""

from __future__ import annotations

import random
import threading

from engine import Color, Game, Square
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.referee.game_options import game_variant
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.helpers import journal_sign_key, setup_dict
from tests.firmware_bridge.referee.test_crash_recovery import Players, pair
from tests.firmware_bridge.referee_process import RefereeProcess, write_config

KILLS = 5


class EspionagePlayers(Players):
    """The players' own record of the game: Espionage, one move a turn, the referee's volcanoes."""

    def start_espionage(self, seed: int, volcanoes: list[str]) -> None:
        self.setups = {seat: setup_dict("espionage", seat, seed) for seat in self.seats}
        for seat, client in self.seats.items():
            command_id = client.setup(self.setups[seat])
            assert client.wait(lambda c, i=command_id: i in c.replies, 15), "setup unanswered"
            assert client.replies[command_id]["ok"], client.replies[command_id]
        red, blue = ({Square.parse(s): k for s, k in self.setups[c].items()} for c in ("red", "blue"))
        self.game = Game.from_setup(game_variant("espionage", 1), red, blue,
                                    volcanoes=tuple(Square.parse(v) for v in volcanoes))
        self.confirmed = []


def replayed(path) -> Session:
    """What a restarted referee believes, with the referee's default being two moves a turn."""
    journal = Journal(path)
    try:
        return Session(journal, "espionage")
    finally:
        journal.close()


def test_a_killed_referee_restarts_the_same_one_move_espionage_game(mosquitto, tmp_path):
    rng = random.Random(77)
    journal = tmp_path / "journal.db"
    config = write_config(tmp_path / "referee.toml", "spy", mosquitto.url, journal, "espionage",
                          extra="moves_per_turn = 1")
    process = RefereeProcess(config).start()
    red = SeatClient(mosquitto.url, "spy", credentials_path=str(tmp_path / "red.json"))
    blue = SeatClient(mosquitto.url, "spy", credentials_path=str(tmp_path / "blue.json"))
    display = DisplayClient(mosquitto.url, "spy")
    for client in (red, blue, display):
        assert client.start()
    display.pin_key(journal_sign_key(journal))
    players = EspionagePlayers(red, blue, rng)
    try:
        pair(process, red, "red")
        pair(process, blue, "blue")
        assert display.wait(lambda c: c.state is not None and c.state["volcanoes"], 10)
        assert display.state["variant"] == "espionage" and display.state["moves_per_turn"] == 1
        volcanoes = display.state["volcanoes"]
        players.start_espionage(seed=3, volcanoes=volcanoes)
        for kill in range(KILLS):
            killer = threading.Timer(rng.uniform(0.1, 0.4), process.signal_kill)
            killer.start()
            players.play_until_killed(process.alive)
            killer.join()
            process.kill()
            process = RefereeProcess(config).start()
            if players.in_flight:  # resent after the restart, applied once
                seat, command_id, _ = players.in_flight
                assert players.seats[seat].wait(lambda c, i=command_id: i in c.replies, 15)
                players.settle_in_flight()
            again = replayed(journal)
            assert again.variant.moves_per_turn == 1, f"kill {kill}: the option was lost"
            assert [s.name for s in again.volcanoes] == volcanoes
            assert (again.game.ply, again.game.turn, again.game.hash) == \
                   (players.game.ply, players.game.turn, players.game.hash)
            assert again.game.turn == again.game.ply + 1 or again.game.result, "one move, one turn"
            seq = again.seq
            for color, client in (("red", red), ("blue", blue)):
                assert client.wait(lambda c, s=seq: c.seq == s, 15), f"kill {kill}: {color} did not resync"
                assert client.view == players.game.view(Color(color)).to_dict()
                assert client.view["moves_per_turn"] == 1
            assert display.wait(lambda c, s=seq: c.seq == s, 15)
            assert display.state["view"] == players.game.view(None).to_dict()
            assert display.state["volcanoes"] == volcanoes and display.state["moves_per_turn"] == 1
            if players.game.result is not None:
                break
        assert players.game.ply > 5, "moves were made between the kills"
    finally:
        process.stop()
        for client in (red, blue, display):
            client.stop()
