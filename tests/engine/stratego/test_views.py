"""Views: each player knows its own ranks, what battles showed, and what has moved."""

from engine import Color

from .positions import play, position


def test_an_enemy_piece_is_unknown_until_shown():
    game = position(red={"e4": "captain", "a1": "flag"}, blue={"e7": "sergeant", "j10": "flag"})
    red_view = game.view(Color.RED)
    assert red_view.piece_at("e4").kind == "captain"
    assert red_view.piece_at("e7").kind is None
    assert game.view(None).piece_at("e4").kind is None


def test_a_moved_piece_is_public_knowledge():
    game = position(red={"e4": "captain", "a1": "flag"}, blue={"e7": "sergeant", "j10": "flag"})
    play(game, "e4-e5")
    assert game.view(Color.BLUE).piece_at("e5").moved
    assert game.view(Color.BLUE).piece_at("e5").kind is None


def test_a_survivor_of_a_battle_stays_known_and_its_owner_is_told():
    game = position(red={"e4": "captain", "a1": "flag", "a2": "scout"},
                    blue={"e5": "sergeant", "j10": "flag", "j9": "scout"})
    play(game, "e4-e5", "j9-j8")
    assert game.view(Color.BLUE).piece_at("e5").kind == "captain"
    assert game.view(Color.RED).piece_at("e5").known
    assert not game.view(Color.RED).piece_at("a2").known


def test_redacted_events_hide_the_kind_of_a_moving_unknown_piece():
    game = position(red={"e4": "captain", "a1": "flag"}, blue={"e7": "sergeant", "j10": "flag"})
    play(game, "e4-e5")
    blue_events = game.view(Color.BLUE).last_events
    assert blue_events[0]["type"] == "move" and blue_events[0]["kind"] is None
    assert game.view(Color.RED).last_events[0]["kind"] == "captain"


def test_a_view_is_plain_json():
    import json

    game = position(red={"e4": "captain", "a1": "flag"}, blue={"e7": "sergeant", "j10": "flag"})
    data = json.loads(json.dumps(game.view(Color.RED).to_dict()))
    assert data["viewer"] == "red" and data["to_move"] == "red" and data["width"] == 10
    assert {"square": "e4", "color": "red", "id": data["pieces"][1]["id"], "kind": "captain",
            "moved": False, "known": False} in data["pieces"]


def test_piece_ids_follow_squares_not_ranks():
    game = position(red={"a1": "marshal", "b1": "flag"}, blue={"a10": "flag", "b10": "marshal"})
    ids = {p.kind + "-" + p.color.value: p.id for _, p in game.pieces()}
    assert ids == {"marshal-red": 0, "flag-red": 1, "flag-blue": 2, "marshal-blue": 3}


def test_a_view_as_data_holds_every_field_of_the_view():
    import dataclasses

    game = position(red={"e4": "captain", "a1": "flag", "a2": "scout"},
                    blue={"e5": "sergeant", "j10": "flag", "j9": "scout"})
    play(game, "e4-e5")
    for viewer in (Color.RED, Color.BLUE, None):
        view = game.view(viewer)
        assert view.to_dict() == dataclasses.asdict(view)
