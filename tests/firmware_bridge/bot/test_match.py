"""`arbiter match`: whole games between players to a result, colours alternating, Wilson intervals."""

from __future__ import annotations

import pytest

from engine import Color
from firmware_bridge.bot.match import GameResult, Tally, make_player, run_match, wilson
from firmware_bridge.cli.main import main as arbiter


def test_a_whole_game_bot_against_random_through_arbiter_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert arbiter(["match", "bot:easy", "random", "--games", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "game 1: bot:easy (red) vs random (blue):" in out
    assert "bot:easy vs random: 1 games" in out and "95% Wilson" in out
    assert "forfeit" not in out


def test_colours_alternate_and_each_game_reaches_a_result() -> None:
    tally, results = run_match("heuristic", "random", 2, "barrage", 3, 300)
    assert [r.red for r in results] == ["heuristic", "random"]
    assert tally.games == 2
    assert all(r.reason and r.plies <= 300 for r in results)


def test_an_illegal_answer_forfeits_the_game() -> None:
    class Stubborn:
        def choose_setup(self) -> dict[str, str]:
            return make_player("random", "classic", Color.RED, 1).choose_setup()

        def on_update(self, view, events):  # type: ignore[no-untyped-def]
            return "a1-a9"

    from firmware_bridge.bot.match import play_game

    result = play_game(Stubborn(), make_player("random", "classic", Color.BLUE, 1), "classic")
    assert result.winner == "blue" and result.reason == "forfeit-movement"


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(8, 10)
    assert round(low, 3) == 0.490 and round(high, 3) == 0.943
    assert wilson(0, 0) == (0.0, 1.0)
    tally = Tally()
    tally.add(GameResult("a", "b", "red", "flag-captured", 10), first_is_red=True)
    tally.add(GameResult("b", "a", "red", "flag-captured", 10), first_is_red=False)
    tally.add(GameResult("a", "b", None, "ply-cap", 10), first_is_red=True)
    assert (tally.wins, tally.draws, tally.losses) == (1, 1, 1)


def test_unknown_players_are_refused_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    assert arbiter(["match", "grandmaster", "random"]) == 2
    assert "unknown player" in capsys.readouterr().err
