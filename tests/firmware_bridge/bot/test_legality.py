"""The computer player only plays moves the rules allow, and never repeats a refused one.

Over many games against the random mover (every square-board variant) the match referee would
forfeit the bot for any move `Game.check` refuses; none may happen. Positions built so that the
two-squares rule bites (a lone piece that can only walk between two squares) must not trap it,
and a move the referee refuses must never come back at the same ply.
"""

from __future__ import annotations

import pytest

from engine import Color, Game, Move, Square, get_variant
from engine.stratego.views import redact_events
from firmware_bridge.bot.levels import LEVELS, Level
from firmware_bridge.bot.match import play_game
from firmware_bridge.bot.player import ComputerPlayer
from firmware_bridge.bot.players import HeuristicPlayer, RandomPlayer

# A quick, deterministic level for tests: worlds, not wall-clock time, bound the work.
QUICK = Level("quick", think_seconds=1e9, max_worlds=2, replies=True, sharpness=1.0, noise=0.3)


def quick_bot(variant: str, color: Color, seed: int) -> ComputerPlayer:
    bot = ComputerPlayer(variant, color, "easy", seed)
    bot.level = QUICK
    return bot


@pytest.mark.parametrize("variant", ["classic", "barrage", "duel", "compact", "strategy8"])
def test_the_bot_never_breaks_a_rule_against_the_random_mover(variant: str) -> None:
    for seed in range(2):
        red, blue = (quick_bot(variant, Color.RED, seed), RandomPlayer(variant, Color.BLUE, seed))
        if seed % 2:
            red, blue = RandomPlayer(variant, Color.RED, seed), quick_bot(variant, Color.BLUE, seed)
        result = play_game(red, blue, variant, max_plies=300, seed=seed)
        assert not result.reason.startswith("forfeit"), result


def test_baselines_never_break_a_rule() -> None:
    for seed in range(3):
        result = play_game(HeuristicPlayer("classic", Color.RED, seed),
                           RandomPlayer("classic", Color.BLUE, seed), "classic", 400, seed)
        assert not result.reason.startswith("forfeit"), result


def shuffle_game() -> Game:
    """Red's Sergeant on a1 may go up the a-file or right; Blue's Scout walks far away."""
    variant = get_variant("classic")
    pieces = {
        Square.parse("a1"): (Color.RED, "sergeant"), Square.parse("j1"): (Color.RED, "flag"),
        Square.parse("i1"): (Color.RED, "bomb"),
        Square.parse("j10"): (Color.BLUE, "flag"), Square.parse("a10"): (Color.BLUE, "scout"),
        Square.parse("i10"): (Color.BLUE, "bomb"),
    }
    return Game.from_position(variant, pieces, Color.RED)


def test_the_seat_knows_when_the_two_squares_rule_bites() -> None:
    game = shuffle_game()
    bot = quick_bot("classic", Color.RED, 1)
    bot.on_update(game.view(Color.RED).to_dict(), [])
    script = ["a1-a2", "a10-b10", "a2-a1", "b10-a10", "a1-a2", "a10-b10"]
    for text in script:
        events = game.push(Move.parse(text))
        bot.on_update(game.view(Color.RED).to_dict(), redact_events(game, events, Color.RED))
    # a2-a1 would be the fourth move between a1 and a2: the rules refuse it, and so does the seat.
    assert game.check(Move.parse("a2-a1")) is not None
    view = game.view(Color.RED).to_dict()
    board = bot.memory.board(view, {p["id"]: "scout" for p in view["pieces"] if p["kind"] is None})
    seat_moves = {board.move_name(*m) for m in bot._root_moves(board, view)}
    assert seat_moves == {m.name for m in game.legal_moves()}
    assert "a2-a1" not in seat_moves
    for _ in range(5):
        answer = bot.on_update(view, [])
        assert answer is not None and game.check(Move.parse(answer)) is None


def test_a_refused_move_is_never_answered_again_at_the_same_ply() -> None:
    variant = get_variant("classic")
    bot = ComputerPlayer("classic", Color.RED, "easy", 5)
    bot.level = QUICK
    blue = RandomPlayer("classic", Color.BLUE, 5)
    game = Game.from_setup(variant, *(
        {Square.parse(s): k for s, k in p.choose_setup().items()} for p in (bot, blue)))
    view = game.view(Color.RED).to_dict()
    refused: list[str] = []
    answer = bot.on_update(view, [])
    for _ in range(6):
        assert answer is not None and answer not in refused
        refused.append(answer)
        # The referee refuses it: a refusal record, the position unchanged.
        event = {"type": "refusal", "color": "red", "move": answer, "rule": "movement",
                 "message": "refused for the test", "ply": game.ply}
        answer = bot.on_update(game.view(Color.RED).to_dict(), [event])
    assert len(set(refused)) == 6
    assert Move.parse(refused[0]) in game.legal_moves()


def test_every_level_is_a_level() -> None:
    assert set(LEVELS) == {"easy", "normal", "strong"}
    assert LEVELS["easy"].think_seconds < LEVELS["normal"].think_seconds < LEVELS["strong"].think_seconds
