"""The bot's search board against the rules engine, on random games of every square-board variant.

Built from the full position (only a test may hold a Game), the search board must list the same
legal moves as `Game.legal_moves` (apart from the more-squares rule, which it does not model: every
move it lists and the engine refuses must be refused by that rule), give the same battle results,
refuse the same two-squares moves, and `unmake` must restore the position exactly.
"""

from __future__ import annotations

import random

import pytest

from engine import BattleEvent, Color, Game, Move, get_variant, random_setup
from firmware_bridge.bot.board import BLUE, EMPTY, RED, SearchBoard, rules_for

VARIANTS = ("classic", "barrage", "duel", "compact", "strategy8")
COLOR_CODE = {Color.RED: RED, Color.BLUE: BLUE}


def board_from_game(game: Game) -> SearchBoard:
    """A search board holding the whole position, with both players' two-squares runs."""
    board = SearchBoard(rules_for(game.variant))
    index = game.geometry.index
    for square, piece in game.pieces():
        board.add(index(square), COLOR_CODE[piece.color], piece.kind, piece.id, piece.id in game.moved)
    for color, run in game.repetition.runs.items():
        if run is not None and game.square_of(run.piece_id) is not None:
            board.set_run(COLOR_CODE[color], run.piece_id, run.squares, run.count)
    board.to_move = COLOR_CODE[game.to_move]
    return board


def snapshot(board: SearchBoard) -> tuple:
    return (list(board.cells), list(board.square), list(board.mobile_count), list(board.runs),
            list(board.moved), board.to_move)


def shuffle_heavy_choice(game: Game, moves: list[Move], rng: random.Random) -> Move:
    """Mostly random, but often straight back, so two-squares runs reach their limit."""
    if len(game.move_stack) >= 2 and rng.random() < 0.6:
        mine = game.move_stack[-2]
        back = Move(mine.target, mine.origin)
        if back in moves:
            return back
    return rng.choice(moves)


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_search_board_agrees_with_the_engine_on_random_games(variant_name: str) -> None:
    variant = get_variant(variant_name)
    rng = random.Random(variant_name)
    refusals_seen = {"two-squares": 0}
    battles_seen = 0
    for _ in range(6):
        game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                               random_setup(variant, Color.BLUE, rng))
        for _ply in range(250):
            if game.result is not None:
                break
            board = board_from_game(game)
            ours = {board.move_name(o, t) for o, t in board.moves()}
            theirs = {m.name for m in game.legal_moves()}
            assert theirs <= ours
            for name in ours - theirs:
                refusal = game.check(Move.parse(name))
                assert refusal is not None and refusal.rule == "more-squares", (name, refusal)
            for name in _candidates(game) - ours:
                refusal = game.check(Move.parse(name))
                assert refusal is not None
                if refusal.rule == "two-squares":
                    refusals_seen["two-squares"] += 1
            moves = game.legal_moves()
            move = shuffle_heavy_choice(game, moves, rng)
            before = snapshot(board)
            origin, target = board.index(move.origin.name), board.index(move.target.name)
            undo = board.make(origin, target)
            events = game.push(move)
            for event in events:
                if isinstance(event, BattleEvent):
                    battles_seen += 1
                    _assert_battle(board, event, target)
            after = board_from_game(game)
            assert board.cells == after.cells or _same_occupancy(board, after)
            assert board.mobile_count == after.mobile_count
            assert board.finished == (game.result is not None and game.result.reason in (
                "flag-captured", "no-movable-pieces", "both-immobile"))
            board.unmake(undo)
            assert snapshot(board) == before
    assert battles_seen > 0
    assert refusals_seen["two-squares"] > 0


def _candidates(game: Game) -> set[str]:
    """Moves by the pieces' powers alone (what a player might try), refused ones included."""
    return {game._move(o, t).name for _, o, t in game._candidate_moves(game.to_move)}


def _same_occupancy(board: SearchBoard, other: SearchBoard) -> bool:
    def occupants(b: SearchBoard) -> list[tuple[int, int] | None]:
        return [None if c < 0 else (b.ident[c], b.kind[c]) for c in b.cells]
    return occupants(board) == occupants(other)


def _assert_battle(board: SearchBoard, event: BattleEvent, target: int) -> None:
    occupant = board.cells[target]
    survivor = None if occupant == EMPTY else board.ident[occupant]
    expected = {"attacker": event.attacker_id, "defender": event.defender_id, "both": None}
    assert survivor == expected[event.outcome]
