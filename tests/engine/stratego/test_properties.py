"""Properties over many random games of every registered variant.

(a) No view, redacted event or captured tray holds an enemy rank the rules have not shown to that
    viewer: a battle shows both ranks to everyone (Stratego variants), a spy shows the ranks of
    the enemy pieces touching it to its owner only (Espionage). What was shown is tracked here,
    independently of the engine, from the board after every move.
(b) A move applied then taken back restores the same hash, the same views and the same legal moves.
(c) The incremental hash equals the hash of the same position built from scratch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    BattleEvent,
    Color,
    Game,
    Move,
    Square,
    get_variant,
    place_volcanoes,
    random_setup,
    variant_names,
)

VIEWERS = (Color.RED, Color.BLUE, None)
PLIES = 120  # per game; enough for battles, spies at work and some finished games
GAMES_PER_VARIANT = 8


@dataclass
class Shown:
    """What the rules have shown so far: piece ids known to Red, to Blue and to the public."""

    to: dict[Color | None, set[int]] = field(
        default_factory=lambda: {Color.RED: set(), Color.BLUE: set(), None: set()})

    def copy(self) -> Shown:
        return Shown({viewer: set(ids) for viewer, ids in self.to.items()})

    def after_move(self, game: Game, events: list) -> None:
        """Update from a move's battles and from every spy's neighbours on the board now."""
        variant = game.variant
        if variant.battle_reveals:
            for event in events:
                if isinstance(event, BattleEvent):
                    for ids in self.to.values():
                        ids.update((event.attacker_id, event.defender_id))
        if variant.recognizers:
            for square, piece in game.pieces():
                if piece.kind not in variant.recognizers:
                    continue
                for other_square, other in game.pieces():
                    if other.color is not piece.color and square.touches(other_square):
                        self.to[piece.color].add(other.id)

    def knows(self, game: Game, viewer: Color | None, piece_id: int) -> bool:
        if game.result is not None:
            return True  # the end of the game reveals every piece
        piece = game.piece(piece_id)
        return piece.color is viewer or piece_id in self.to[viewer]


def new_game(variant_name: str, rng: random.Random) -> Game:
    variant = get_variant(variant_name)
    return Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng),
                           volcanoes=place_volcanoes(variant, rng))


def assert_private(game: Game, shown: Shown) -> None:
    """(a): every kind in every view is the viewer's own or one the rules showed it."""
    for viewer in VIEWERS:
        view = game.view(viewer).to_dict()
        for entry in view["pieces"]:
            piece = game.piece(entry["id"])
            assert set(entry) == {"square", "color", "id", "kind", "moved", "known"}
            if shown.knows(game, viewer, piece.id):
                assert entry["kind"] == piece.kind
            else:
                assert entry["kind"] is None, f"{viewer} sees hidden {piece}"
        trays = {color.value: [p for p in game.captured if p.color is color] for color in Color}
        for color_name, kinds in view["captured"].items():
            assert len(kinds) == len(trays[color_name])
            for kind, piece in zip(kinds, trays[color_name], strict=True):
                assert kind == (piece.kind if shown.knows(game, viewer, piece.id) else None)
        for event in view["last_events"]:
            assert_event_private(game, shown, viewer, event)


def assert_event_private(game: Game, shown: Shown, viewer: Color | None, event: dict) -> None:
    kind_fields = {"move": [("piece_id", "kind")], "capture": [("piece_id", "kind")],
                   "battle": [("attacker_id", "attacker"), ("defender_id", "defender")]}
    if event["type"] == "reveal":
        assert viewer is not None and event["to"] == viewer.value, "a recognition leaked"
        assert event["piece_id"] in shown.to[viewer] or game.result is not None
        return
    for id_field, kind_field in kind_fields.get(event["type"], []):
        if not shown.knows(game, viewer, event[id_field]):
            assert event[kind_field] is None, f"{viewer} sees hidden {kind_field} in {event}"


def snapshot(game: Game) -> tuple:
    return (game.hash, [game.view(v).to_dict() for v in VIEWERS],
            sorted(m.name for m in game.legal_moves()), game.to_move, game.ply, game.result)


def hash_from_scratch(game: Game) -> int:
    pieces = {square: (piece.color, piece.kind) for square, piece in game.pieces()}
    return Game.from_position(game.variant, pieces, to_move=game.to_move,
                              volcanoes=game.volcanoes).hash


def walk(variant_name: str, seed: int) -> None:
    """Play a random game, checking (a), (b) and (c) at every ply, with some takebacks."""
    rng = random.Random(seed)
    game = new_game(variant_name, rng)
    shown = Shown()
    history: list[Shown] = []
    assert_private(game, shown)
    for _ in range(PLIES):
        if game.result is not None:
            break
        moves = game.legal_moves()
        assert moves, "a game that goes on has a legal move"
        move = rng.choice(moves)
        before = snapshot(game)
        game.push(move)
        assert game.pop() == move
        assert snapshot(game) == before  # (b)
        history.append(shown.copy())
        shown.after_move(game, game.push(move))
        assert game.hash == hash_from_scratch(game)  # (c)
        assert_private(game, shown)  # (a)
        if rng.random() < 0.05 and len(history) >= 2:  # a takeback, as players may agree
            for _ in range(rng.randint(1, 2)):
                game.pop()
                shown = history.pop()
            assert game.hash == hash_from_scratch(game)
            assert_private(game, shown)


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=GAMES_PER_VARIANT, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def test_every_registered_variant_is_covered():
    assert {"classic", "barrage", "duel", "compact", "strategy8"} <= set(variant_names())


@pytest.mark.parametrize("variant_name", variant_names())
@PROPERTY
@given(seed=SEEDS)
def test_views_hashes_and_takebacks_hold_in_random_games(variant_name, seed):
    """(a), (b) and (c) hold at every ply of random games of every registered variant."""
    walk(variant_name, seed)


def test_the_tracker_sees_what_a_battle_shows():
    """The independent tracker itself: a battle shows both ranks to both players and the public."""
    pieces = {Square.parse("e4"): (Color.RED, "captain"), Square.parse("e5"): (Color.BLUE, "major"),
              Square.parse("a1"): (Color.RED, "flag"), Square.parse("j10"): (Color.BLUE, "flag"),
              Square.parse("a4"): (Color.RED, "scout"), Square.parse("j7"): (Color.BLUE, "scout")}
    game = Game.from_position(get_variant("classic"), pieces)
    shown = Shown()
    shown.after_move(game, game.push(Move.parse("e4-e5")))
    major = game.piece_at(Square.parse("e5"))
    assert all(major.id in shown.to[viewer] for viewer in VIEWERS)
    assert_private(game, shown)
