"""Espionage at the referee: the one-move option, volcanoes in the journal, two-move turns on the clock."""

from __future__ import annotations

import random

import pytest

from engine import Color, Game, Move, Square, get_variant
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.vocabulary import Command
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.config import ConfigError, load_config
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.referee.test_session import Clock, command, setup_args


def espionage(tmp_path, clock=None, control=None, moves_per_turn=None) -> Session:
    """An Espionage session with both seats paired and both setups in: the game has begun."""
    session = Session(Journal(tmp_path / "j.db"), "espionage", control, now=clock or Clock(),
                      rng=random.Random(7), moves_per_turn=moves_per_turn)
    session.pair("red", "r" * 44, "tab-r")
    session.pair("blue", "b" * 44, "tab-b")
    session.execute("red", command("red", 1, Command.SETUP, **setup_args("espionage", "red", 1)))
    reply, _ = session.execute("blue", command("blue", 1, Command.SETUP, **setup_args("espionage", "blue", 2)))
    assert reply["ok"] and session.phase == "playing"
    return session


def play(session: Session, count: int, rng: random.Random, counter: int = 10) -> int:
    """Random legal moves sent as tablet commands; returns the next free counter."""
    for _ in range(count):
        if session.phase != "playing":
            break
        seat = session.game.to_move.value
        move = str(rng.choice(session.game.legal_moves()))
        reply, _ = session.execute(seat, command(seat, counter, Command.MOVE, move=move))
        assert reply["ok"], reply
        counter += 1
    return counter


def test_the_one_move_option_is_journaled_and_a_replay_rebuilds_the_same_game(tmp_path):
    session = espionage(tmp_path, moves_per_turn=1)
    game_entry = [e for e in session.journal.entries() if e.kind == "game"][-1]
    assert game_entry.payload["variant"] == "espionage"
    assert game_entry.payload["moves_per_turn"] == 1
    assert len(game_entry.payload["volcanoes"]) == 4
    play(session, 12, random.Random(1))
    # One move a turn: the turn passed after every move.
    assert session.game.turn == session.game.ply + 1
    again = Session(Journal(tmp_path / "j.db"), "espionage")  # the default would be two moves
    assert again.variant.moves_per_turn == 1
    assert again.volcanoes == session.volcanoes == session.game.volcanoes
    assert (again.game.hash, again.game.ply, again.game.turn) == \
           (session.game.hash, session.game.ply, session.game.turn)
    assert again.seat_state("red") == session.seat_state("red")


def test_standard_espionage_has_two_moves_a_turn_and_says_so_in_the_public_state(tmp_path):
    session = espionage(tmp_path)
    state = session.public_state("b1", set())
    assert state["variant"] == "espionage" and state["moves_per_turn"] == 2
    assert state["volcanoes"] == [s.name for s in session.volcanoes]
    assert state["volcano_markers"]["plan"] == [
        {"action": "marker", "square": s.name} for s in sorted(session.volcanoes, key=lambda s: (s.rank, s.file))]
    play(session, 4, random.Random(2))
    assert session.game.turn == 3  # two moves each


def test_the_clock_switches_only_when_the_turn_passes(tmp_path):
    clock = Clock()
    session = espionage(tmp_path, clock, TimeControl(player_seconds=600, increment=5))
    rng = random.Random(3)
    assert session.clock.running == "red"
    clock.now += 10
    counter = play(session, 1, rng)
    assert session.clock.running == "red", "red still has a second move to make"
    assert session.clock.remaining("red", clock.now) == pytest.approx(590)
    clock.now += 10
    counter = play(session, 1, rng, counter)
    assert session.clock.running == "blue"
    assert session.clock.remaining("red", clock.now) == pytest.approx(585)  # 600 - 20 + 5
    clock.now += 3
    play(session, 1, rng, counter)
    assert session.clock.running == "blue"
    assert session.clock.remaining("blue", clock.now) == pytest.approx(597)


def test_a_blocked_player_passes_the_pass_is_announced_and_the_clock_stays_with_the_mover(tmp_path):
    clock = Clock()
    session = espionage(tmp_path, clock, TimeControl(player_seconds=600, increment=5))
    # A position no setup reaches in a few moves: blue's only mobile piece is walled in by its
    # own mines, so after red's two moves blue cannot move and passes.
    pieces = {Square.parse(s): (Color.RED, k) for s, k in
              {"a1": "headquarters", "c3": "corporal", "e3": "spy"}.items()}
    pieces.update({Square.parse(s): (Color.BLUE, k) for s, k in
                   {"j10": "corporal", "i10": "mine", "j9": "mine", "a10": "headquarters"}.items()})
    session.game = Game.from_position(get_variant("espionage"), pieces)
    session.board_move(Move.parse("c3-c4"))
    clock.now += 7
    ruling = session.board_move(Move.parse("e3-e4"))
    turns = [e for e in ruling.public_events if e["type"] == "turn"]
    assert [t["to_move"] for t in turns] == ["blue", "red"], "blue's pass is in the events"
    for seat in ("red", "blue"):
        assert [e["to_move"] for e in ruling.seat_events[seat] if e["type"] == "turn"] == ["blue", "red"]
    assert session.clock.running == "red"
    assert session.clock.remaining("red", clock.now) == pytest.approx(598)  # 600 - 7 + 5
    assert session.clock.remaining("blue", clock.now) == pytest.approx(600)


def test_new_game_takes_the_one_move_option_and_refuses_it_where_the_variant_has_none(tmp_path):
    session = espionage(tmp_path)
    session.execute("red", command("red", 5, Command.RESIGN))
    reply, _ = session.execute("red", command("red", 6, Command.NEW_GAME, moves_per_turn=1))
    assert reply["ok"], reply
    assert session.variant.moves_per_turn == 1 and session.phase == "setup"
    assert session.public_state("b1", set())["moves_per_turn"] == 1
    # Without the argument the next game keeps the setting of the last one.
    reply, _ = session.execute("blue", command("blue", 7, Command.NEW_GAME))
    assert reply["ok"] and session.variant.moves_per_turn == 1
    reply, _ = session.execute("blue", command("blue", 8, Command.NEW_GAME, moves_per_turn=2))
    assert reply["ok"] and session.variant.moves_per_turn == 2

    barrage = Session(Journal(tmp_path / "b.db"), "barrage")
    barrage.pair("red", "r" * 44, "tab-r")
    reply, _ = barrage.execute("red", command("red", 1, Command.NEW_GAME, moves_per_turn=2))
    assert not reply["ok"] and reply["code"] == "invalid-option"
    assert "one move per turn" in reply["message"]


@pytest.mark.parametrize("value", [0, 3, True, "1", None])
def test_a_new_game_command_with_a_bad_moves_per_turn_is_malformed(value):
    with pytest.raises(contract.ContractError):
        contract.command("red", "x", 1, Command.NEW_GAME, moves_per_turn=value)
    assert contract.command("red", "x", 1, Command.NEW_GAME, moves_per_turn=1)["args"] == {"moves_per_turn": 1}
    assert contract.command("red", "x", 1, Command.NEW_GAME)["args"] == {}


def test_the_config_file_takes_the_option_for_espionage_only(tmp_path):
    path = tmp_path / "referee.toml"
    path.write_text('[game]\nvariant = "espionage"\nmoves_per_turn = 1\n')
    assert load_config(path).moves_per_turn == 1
    path.write_text('[game]\nvariant = "classic"\nmoves_per_turn = 2\n')
    with pytest.raises(ConfigError, match="moves_per_turn"):
        load_config(path)
    path.write_text('[game]\nvariant = "espionage"\nmoves_per_turn = 3\n')
    with pytest.raises(ConfigError, match="moves_per_turn"):
        load_config(path)
