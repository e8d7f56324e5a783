"""The bot follows the repetition rules from public moves alone, so no transport can make it illegal.

Over UCC the view carries no chase warning; the bot's own copy of the rules
(`firmware_bridge.bot.public_rules.PublicRepetition`) must refuse every move the referee refuses.
"""

from __future__ import annotations

import random
from collections import Counter

from engine import Color, Game, Move, Square
from engine.stratego.views import redact_events
from firmware_bridge.bot.player import ComputerPlayer
from firmware_bridge.bot.public_rules import PublicRepetition
from tests.engine.stratego.positions import play, position
from tests.engine.stratego.repetition_walks import TINY, tiny_game, walk_move

ROUND_THE_BLOCK = ["a2-a1", "b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1"]


def step_candidates(game: Game) -> list[str]:
    """Every one-square move of the mover's pieces to a square not its own (tiny has no scouts)."""
    found = []
    me = game.to_move
    for index, piece in enumerate(game._board):
        if piece is None or piece.color is not me or not game.variant.kinds[piece.kind].mobile:
            continue
        origin = game.geometry.squares[index]
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            target = Square(origin.file + df, origin.rank + dr)
            if not game.variant.on_board(target) or target in game.blocked:
                continue
            occupant = game.piece_at(target)
            if occupant is None or occupant.color is not me:
                found.append(f"{origin}-{target}")
    return found


def seats_follow(game: Game, seats: dict[Color, PublicRepetition], events: list) -> None:
    for color, seat in seats.items():
        view = game.view(color).to_dict()
        view["chase_warning"] = None  # as over UCC: the bot must not need it
        seat.observe(view, redact_events(game, events, color))


def test_the_public_copy_refuses_every_move_the_referee_refuses() -> None:
    refused: Counter[str] = Counter()
    extra = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = tiny_game()
        seats = {color: PublicRepetition(TINY, color) for color in Color}
        seats_follow(game, seats, [])
        for _ in range(80):
            if game.result is not None:
                break
            candidates = step_candidates(game)
            ours = seats[game.to_move].refused(candidates)
            for name in candidates:
                verdict = game.check(Move.parse(name))
                rule = verdict.rule if verdict else None
                if rule in ("two-squares", "more-squares"):
                    assert name in ours, (seed, game.ply, name, rule)
                    refused[rule] += 1
                elif name in ours:
                    extra += 1
            move = walk_move(game, rng)
            if move is None:
                break
            seats_follow(game, seats, game.push(move))
    # The walks reach both rules (else this test could not fail), and the copy is hardly stricter.
    assert refused["two-squares"] > 20 and refused["more-squares"] > 5, refused
    assert extra <= sum(refused.values()) // 10, (extra, refused)


def test_a_takeback_starts_the_copy_again_from_the_view() -> None:
    game = position("classic", red={"j1": "flag", "j2": "sergeant", "a2": "general"},
                    blue={"j10": "flag", "j9": "scout", "b1": "major"})
    seat = PublicRepetition(game.variant, Color.RED)
    seat.observe(game.view(Color.RED).to_dict(), [])
    for name in ROUND_THE_BLOCK:
        events = redact_events(game, game.push(Move.parse(name)), Color.RED)
        seat.observe(game.view(Color.RED).to_dict(), events)
    assert seat.refused(["a2-a1"]) == {"a2-a1"}
    game.pop()
    seat.observe(game.view(Color.RED).to_dict(), [{"type": "takeback", "ply": game.ply}])
    assert seat.refused(["a2-a1", "b2-a2"]) == set()  # no history after a takeback: never invented


def test_the_computer_never_plays_the_refused_chase_without_a_chase_warning() -> None:
    """Example 2.1 of docs/rules/repetition.md, fed to the bot with the warning taken out."""
    game = position("classic", red={"j1": "flag", "j2": "sergeant", "a2": "general"},
                    blue={"j10": "flag", "j9": "scout", "b1": "major"})
    bot = ComputerPlayer("classic", Color.RED, "easy", seed=1)

    def view() -> dict:
        data = game.view(Color.RED).to_dict()
        data["chase_warning"] = None
        return data

    bot.notebook.observe(view(), [])
    bot.public_rules.observe(view(), [])
    bot.memory.observe(view(), [])
    for name in ROUND_THE_BLOCK:
        events = redact_events(game, game.push(Move.parse(name)), Color.RED)
        for part in (bot.notebook, bot.memory, bot.public_rules):
            part.observe(view(), events)
    assert game.check(Move.parse("a2-a1")).rule == "more-squares"
    board = bot.memory.board(view(), bot._sample_world())
    moves = {board.move_name(*m) for m in bot._root_moves(board, view())}
    assert "a2-a1" not in moves and "a2-a3" in moves
    play(game, "a2-a3")  # the position helper still works after the bot looked
