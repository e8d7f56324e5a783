"""The recall shelf: the computer remembers what it saw of an opponent's setup, game to game."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from engine import Color, get_variant
from engine.stratego.notebook.library import MOVED, owner_index
from engine.stratego.squares import Square
from firmware_bridge.bot.match import make_player, play_game
from firmware_bridge.bot.player import ComputerPlayer
from firmware_bridge.bot.players import RandomPlayer
from firmware_bridge.bot.recall_shelf import RecallShelf

CLASSIC = get_variant("classic")


class Setting(RandomPlayer):
    """The random mover, keeping the setup it chose (to hold what the bot saw against it)."""

    def choose_setup(self) -> dict[str, str]:
        self.setup = super().choose_setup()
        return self.setup


def a_game(shelf: RecallShelf, level: str = "normal", plies: int = 60) -> tuple[ComputerPlayer, Setting]:
    bot = ComputerPlayer("classic", Color.RED, level, seed=5, opponent="random", shelf=shelf)
    other = Setting("classic", Color.BLUE, seed=6)
    play_game(bot, other, "classic", max_plies=plies)
    return bot, other


def test_a_game_cut_at_the_ply_cap_is_remembered_and_read_by_the_next_game(tmp_path: Path) -> None:
    shelf = RecallShelf(tmp_path)
    first, _ = a_game(shelf)
    assert first.notebook.recall is None  # a new opponent
    assert shelf.recollection("random", CLASSIC).games == [1]
    again = RecallShelf(tmp_path)  # the referee started again: the file holds it
    second = ComputerPlayer("classic", Color.RED, "normal", opponent="random", shelf=again)
    assert second.notebook.recall is not None and second.notebook.recall.games == [1]
    assert ComputerPlayer("classic", Color.RED, "normal", opponent="someone else",
                          shelf=again).notebook.recall is None


def test_what_is_remembered_is_only_what_the_bot_was_shown(tmp_path: Path) -> None:
    shelf = RecallShelf()
    bot, other = a_game(shelf, plies=120)
    (remembered,) = shelf.recollection("random", CLASSIC).setups
    shown = {p.start: p for p in bot.notebook._facts.enemies.values()
             if p.start is not None and (p.known is not None or p.moved)}
    assert 0 < len(shown) < 40
    for square, kind in other.setup.items():
        index = owner_index(CLASSIC, Color.BLUE, Square.parse(square))
        assert index is not None
        seen = remembered[index]
        if square not in shown:
            assert seen is None
        elif shown[square].known is not None:
            assert seen == kind
        else:
            assert seen == MOVED and CLASSIC.kinds[kind].mobile


def test_the_easy_level_and_a_nameless_opponent_remember_nothing() -> None:
    shelf = RecallShelf()
    a_game(shelf, level="easy")
    nameless = ComputerPlayer("classic", Color.RED, "normal", seed=5, shelf=shelf)
    play_game(nameless, RandomPlayer("classic", Color.BLUE, seed=6), "classic", max_plies=40)
    assert shelf._kept == {}


def test_a_match_remembers_each_opponent_by_its_spec() -> None:
    bot = make_player("bot:normal", "classic", Color.RED, 3, opponent="random")
    assert isinstance(bot, ComputerPlayer) and bot.opponent == "random"


def test_a_broken_file_is_reported_left_alone_and_the_opponent_played_as_new(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    shelf = RecallShelf(tmp_path)
    path = shelf.path("random", CLASSIC)
    path.write_text('{"variant": "classic", "setups": [{"games": 1, "squares": ["bomb"]}]}')
    with caplog.at_level(logging.WARNING):
        bot, _ = a_game(shelf)
    assert bot.notebook.recall is None
    assert "cannot read what was remembered" in caplog.text
    assert json.loads(path.read_text())["setups"][0]["squares"] == ["bomb"]


def test_two_names_never_share_a_file(tmp_path: Path) -> None:
    shelf = RecallShelf(tmp_path)
    assert shelf.path("ucc:a/b", CLASSIC) != shelf.path("ucc:a_b", CLASSIC)
    assert shelf.path("../../etc/passwd", CLASSIC).parent == tmp_path


def test_a_match_remembers_the_other_player_unless_told_to_forget() -> None:
    from firmware_bridge.bot.match import run_match
    from firmware_bridge.bot.recall_shelf import SHELF

    run_match("bot:normal", "heuristic", 1, "classic", 4, max_plies=30, recall=False)
    assert ("heuristic", "classic") not in SHELF._kept
    run_match("bot:normal", "heuristic", 1, "classic", 4, max_plies=30)
    assert SHELF.recollection("heuristic", CLASSIC).games == [1]
    del SHELF._kept[("heuristic", "classic")]


def test_a_bot_against_its_own_level_keeps_each_side_apart() -> None:
    """`arbiter match bot:normal bot:normal`: each bot remembers the other side's setups only,
    under a name of its own (one name would mix both armies into one memory)."""
    from firmware_bridge.bot.match import run_match
    from firmware_bridge.bot.recall_shelf import SHELF

    run_match("bot:normal", "bot:normal", 1, "classic", 5, max_plies=30)
    first = SHELF.recollection("bot:normal (first)", CLASSIC)
    second = SHELF.recollection("bot:normal (second)", CLASSIC)
    assert first.games == [1] and second.games == [1]
    assert ("bot:normal", "classic") not in SHELF._kept
    for name in ("bot:normal (first)", "bot:normal (second)"):
        del SHELF._kept[(name, "classic")]


def test_two_processes_sharing_a_folder_each_read_the_others_games(tmp_path: Path) -> None:
    """A bench split between processes shares one folder: each shelf reads a file the other
    rewrote before the next game, and adds its own sighting to it rather than over it."""
    here, there = RecallShelf(tmp_path), RecallShelf(tmp_path)
    assert here.recollection("random", CLASSIC).games == []  # both have read the (empty) folder
    assert there.recollection("random", CLASSIC).games == []
    a_game(here)
    assert there.recollection("random", CLASSIC).games == [1]
    a_game(there)  # its sighting is added to here's, not written over it
    assert sum(here.recollection("random", CLASSIC).games) == 2
    assert RecallShelf(tmp_path).recollection("random", CLASSIC).games == (
        here.recollection("random", CLASSIC).games)
