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


def test_an_observer_on_the_referees_side_sees_every_ruling_and_changes_nothing() -> None:
    from firmware_bridge.bot.match import play_game

    def players() -> tuple:  # type: ignore[type-arg]
        return (make_player("random", "barrage", Color.RED, 4),
                make_player("random", "barrage", Color.BLUE, 5))

    seen: list[tuple[int, list[str]]] = []
    watched = play_game(*players(), "barrage", 200, 6,
                        observer=lambda game, events: seen.append(
                            (game.ply, [event.type for event in events])))
    plain = play_game(*players(), "barrage", 200, 6)
    assert (watched.winner, watched.reason, watched.plies) == (plain.winner, plain.reason, plain.plies)
    assert [ply for ply, _ in seen] == list(range(1, watched.plies + 1))  # every ruling, in order
    assert all("move" in types for _, types in seen)


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


def test_wins_by_play_are_counted_apart_from_wins_by_forfeit() -> None:
    tally = Tally()
    tally.add(GameResult("a", "b", "red", "flag-captured", 10), first_is_red=True)
    tally.add(GameResult("a", "b", "red", "no-movable-pieces", 10), first_is_red=True)
    tally.add(GameResult("a", "b", "red", "forfeit-two-squares", 10), first_is_red=True)
    tally.add(GameResult("b", "a", "red", "forfeit-more-squares", 10), first_is_red=False)
    assert (tally.wins, tally.wins_by_play, tally.losses) == (3, 2, 1)
    assert "3 wins (2 by play)" in tally.summary("a", "b")


class Shuffler:
    """Moves one piece back and forth for ever: the two-squares rule forbids it after three."""

    def __init__(self, color: Color) -> None:
        self.color = color
        self.inner = make_player("random", "classic", color, 5)

        self.front = "a4" if color is Color.RED else "a7"
        self.forward = "a5" if color is Color.RED else "a6"

    def choose_setup(self) -> dict[str, str]:
        setup = self.inner.choose_setup()
        sergeant = next(square for square, kind in setup.items() if kind == "sergeant")
        setup[sergeant], setup[self.front] = setup[self.front], "sergeant"
        return setup

    def on_update(self, view, events):  # type: ignore[no-untyped-def]
        if view["to_move"] != self.color.value or view["result"] is not None:
            return None
        mine = {p["square"] for p in view["pieces"] if p["color"] == self.color.value}
        if self.forward in mine:
            return f"{self.forward}-{self.front}"
        return f"{self.front}-{self.forward}" if self.front in mine else None


def test_without_the_repetition_rules_the_shuffler_is_not_refused_but_the_bot_still_obeys() -> None:
    from firmware_bridge.bot.match import play_game

    def referee(rules: str) -> tuple[GameResult, list[str]]:
        bot = make_player("bot:easy", "classic", Color.BLUE, 3)
        moves: list[str] = []
        inner = bot.on_update

        def recording(view, events):  # type: ignore[no-untyped-def]
            answer = inner(view, events)
            if answer is not None:
                moves.append(answer)
            return answer

        bot.on_update = recording  # type: ignore[method-assign]
        return play_game(Shuffler(Color.RED), bot, "classic", max_plies=40, rules=rules), moves

    classic, _ = referee("classic")
    assert classic.reason == "forfeit-two-squares" and classic.winner == "blue"
    free, moves = referee("none")
    assert free.reason not in ("forfeit-two-squares", "forfeit-more-squares"), free
    # Our bot never moved one piece back and forth more than three times in a row.
    runs = 1
    for before, after in zip(moves, moves[1:], strict=False):
        back = before.split("-")[::-1] == after.split("-")
        runs = runs + 1 if back else 1
        assert runs <= 3, moves


def test_unknown_rules_are_refused_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        arbiter(["match", "random", "random", "--rules", "2013"])
    assert "invalid choice" in capsys.readouterr().err
