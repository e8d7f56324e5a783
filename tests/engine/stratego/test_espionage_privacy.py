"""Random whole Espionage games checked against rules re-derived here, view by view and move by move.

The oracle does not ask the engine what a player knows: it scans the board after every move for
enemy pieces touching the player's spies, and keeps them for the rest of the game.
"""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Color, Game, get_variant, random_setup

ESPIONAGE = get_variant("espionage")


def touching_enemies_of_spies(game: Game, viewer: Color) -> set[int]:
    spies = [sq for sq, piece in game.pieces() if piece.color is viewer and piece.kind == "spy"]
    return {
        piece.id for sq, piece in game.pieces()
        if piece.color is not viewer and any(sq.touches(spy) for spy in spies)
    }


def check_views(game: Game, known: dict[Color, set[int]]) -> None:
    for viewer in Color:
        view = game.view(viewer)
        for piece in view.pieces:
            if piece.color == viewer.value:
                assert piece.kind is not None
                assert not piece.known  # nothing in Espionage tells you the opponent knows
            else:
                assert (piece.kind is not None) == (piece.id in known[viewer])
        own_tray = view.captured[viewer.value]
        assert None not in own_tray
        enemy = [p for p in game.captured if p.color is not viewer]
        assert view.captured[viewer.other.value] == [
            p.kind if p.id in known[viewer] else None for p in enemy]
        for event in view.last_events:
            if event["type"] == "reveal":
                assert event["to"] == viewer.value and event["piece_id"] in known[viewer]
            check_event_kinds(game, event, viewer, known[viewer])
        json.dumps(view.to_dict())
    public = game.view(None)
    assert all(p.kind is None for p in public.pieces)
    assert all(k is None for tray in public.captured.values() for k in tray)
    for event in public.last_events:
        assert event["type"] != "reveal"
        for key in ("kind", "attacker", "defender"):
            assert event.get(key) is None


def check_event_kinds(game: Game, event: dict, viewer: Color, known: set[int]) -> None:
    def allowed(piece_id: int) -> bool:
        return game.piece(piece_id).color is viewer or piece_id in known

    if event["type"] in ("move", "capture", "reveal"):
        assert (event["kind"] is not None) == allowed(event["piece_id"])
    elif event["type"] == "battle":
        assert (event["attacker"] is not None) == allowed(event["attacker_id"])
        assert (event["defender"] is not None) == allowed(event["defender_id"])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_rules_and_never_leak(seed):
    rng = random.Random(seed)
    game = Game.from_setup(ESPIONAGE, random_setup(ESPIONAGE, Color.RED, rng),
                           random_setup(ESPIONAGE, Color.BLUE, rng), rng=rng)
    volcanoes = set(game.volcanoes)
    known: dict[Color, set[int]] = {Color.RED: set(), Color.BLUE: set()}
    left: dict[int, tuple] = {}  # piece id -> (square it left, turn number)
    turn, movers = 1, []
    while game.result is None and game.ply < 600:
        moves = game.legal_moves()
        assert moves, "a player to move always has a move (a blocked one passes)"
        move = rng.choice(moves)
        piece = game.piece_at(move.origin)
        assert move.target not in volcanoes and move.origin.distance(move.target) == 1
        assert left.get(piece.id) != (move.target, turn - 2), "went straight back"
        assert piece.id not in movers and len(movers) < 2
        movers.append(piece.id)
        left[piece.id] = (move.origin, turn)
        events = game.push(move)
        for event in events:
            if event.type == "turn":
                turn, movers = event.turn, []
        assert turn == game.turn
        for viewer in Color:
            known[viewer] |= touching_enemies_of_spies(game, viewer)
        if game.result is None:
            check_views(game, known)
    if game.result is not None:
        assert all(p.kind is not None for p in game.view(None).pieces)
