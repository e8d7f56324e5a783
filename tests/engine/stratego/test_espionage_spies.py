"""Espionage information: spies recognise touching enemies for their owner only; battles show outcomes."""

from engine import Color

from .positions import play, position

RED_HOME = {"a1": "headquarters", "b1": "general"}
BLUE_HOME = {"j10": "headquarters", "i10": "general"}


def kinds_seen(game, viewer):
    """Square -> kind for every enemy piece `viewer` currently knows."""
    view = game.view(viewer)
    return {p.square: p.kind for p in view.pieces if p.color != view.viewer and p.kind}


def test_a_spy_recognises_every_touching_enemy_orthogonal_or_diagonal():
    game = position("espionage", red={**RED_HOME, "e3": "spy"},
                    blue={**BLUE_HOME, "d5": "captain", "e5": "mine", "f5": "sapper",
                          "f4": "corporal", "e6": "colonel"})
    events = play(game, "e3-e4")
    assert kinds_seen(game, Color.RED) == {"d5": "captain", "e5": "mine", "f5": "sapper",
                                           "f4": "corporal"}  # e6 is two squares away
    reveals = [e for e in events if e.type == "reveal"]
    assert {(e.to, e.square, e.kind) for e in reveals} == {
        ("red", "d5", "captain"), ("red", "e5", "mine"), ("red", "f5", "sapper"),
        ("red", "f4", "corporal")}


def test_the_recognition_is_for_the_spys_owner_only():
    game = position("espionage", red={**RED_HOME, "e3": "spy"},
                    blue={**BLUE_HOME, "e5": "captain"})
    play(game, "e3-e4")
    assert kinds_seen(game, Color.RED) == {"e5": "captain"}
    assert game.view(None).piece_at("e5").kind is None
    assert kinds_seen(game, Color.BLUE) == {}
    # Blue is not told its captain was recognised: that would point at the spy.
    assert not game.view(Color.BLUE).piece_at("e5").known
    assert all(e["type"] != "reveal" for e in game.view(Color.BLUE).last_events)
    assert all(e["type"] != "reveal" for e in game.view(None).last_events)
    assert any(e["type"] == "reveal" for e in game.view(Color.RED).last_events)


def test_an_enemy_stepping_next_to_a_spy_is_recognised_after_the_opponents_move():
    game = position("espionage", red={**RED_HOME, "e4": "spy", "h2": "corporal"},
                    blue={**BLUE_HOME, "d7": "lieutenant", "j7": "corporal"})
    play(game, "h2-h3", "b1-b2", "d7-d6", "j7-j6", "h3-h4", "b2-b3")
    assert kinds_seen(game, Color.RED) == {}
    events = play(game, "d6-d5")  # now diagonal to the red spy on e4
    assert kinds_seen(game, Color.RED) == {"d5": "lieutenant"}
    assert [e.to for e in events if e.type == "reveal"] == ["red"]
    assert kinds_seen(game, Color.BLUE) == {}  # a piece touching a spy learns nothing


def test_the_recognition_is_permanent():
    game = position("espionage", red={**RED_HOME, "e3": "spy", "h2": "corporal"},
                    blue={**BLUE_HOME, "e5": "captain", "j7": "corporal"})
    play(game, "e3-e4", "h2-h3")
    play(game, "e5-e6", "j7-j6")
    play(game, "e4-d4", "h3-h4")
    assert kinds_seen(game, Color.RED) == {"e6": "captain"}


def test_two_spies_that_meet_recognise_each_other():
    game = position("espionage", red={**RED_HOME, "e3": "spy"}, blue={**BLUE_HOME, "f5": "spy"})
    play(game, "e3-e4")
    assert kinds_seen(game, Color.RED) == {"f5": "spy"}
    assert kinds_seen(game, Color.BLUE) == {"e4": "spy"}


def test_recognition_happens_after_the_first_move_of_a_turn():
    game = position("espionage", red={**RED_HOME, "e3": "spy"}, blue={**BLUE_HOME, "e5": "general"})
    play(game, "e3-e4")
    assert game.to_move is Color.RED and kinds_seen(game, Color.RED) == {"e5": "general"}


def test_a_taken_back_move_forgets_what_the_spy_saw():
    game = position("espionage", red={**RED_HOME, "e3": "spy"}, blue={**BLUE_HOME, "e5": "general"})
    play(game, "e3-e4")
    game.pop()
    assert kinds_seen(game, Color.RED) == {}


def test_a_battle_shows_only_its_outcome():
    game = position("espionage", red={**RED_HOME, "e4": "colonel"}, blue={**BLUE_HOME, "e5": "captain"})
    play(game, "e4-e5")
    for viewer in (Color.BLUE, None):
        battle = next(e for e in game.view(viewer).last_events if e["type"] == "battle")
        assert battle["outcome"] == "attacker" and battle["square"] == "e5"
        if viewer is None:
            assert battle["attacker"] is None and battle["defender"] is None
        else:
            assert battle["attacker"] is None and battle["defender"] == "captain"
    red_battle = next(e for e in game.view(Color.RED).last_events if e["type"] == "battle")
    assert red_battle["attacker"] == "colonel" and red_battle["defender"] is None
    assert game.view(Color.BLUE).piece_at("e5").kind is None  # the winner stays unknown
    assert game.view(Color.RED).captured["blue"] == [None]  # the loser's rank too
    assert game.view(Color.BLUE).captured["blue"] == ["captain"]
    assert game.view(None).captured["blue"] == [None]


def test_the_piece_that_left_the_board_is_public():
    game = position("espionage", red={**RED_HOME, "e4": "corporal"}, blue={**BLUE_HOME, "e5": "mine"})
    play(game, "e4-e5")
    capture = next(e for e in game.view(None).last_events if e["type"] == "capture")
    assert capture["color"] == "red" and capture["square"] == "e4" and capture["kind"] is None
    assert game.view(None).piece_at("e5").color == "blue"


def test_a_battle_shows_the_kinds_a_player_already_knew():
    game = position("espionage", red={**RED_HOME, "e3": "spy"},
                    blue={**BLUE_HOME, "e5": "sapper", "j7": "corporal"})
    play(game, "e3-e4", "b1-b2", "i10-i9", "j7-j6")
    play(game, "e4-e5")  # the spy attacks the sapper it recognised, and wins
    red_battle = next(e for e in game.view(Color.RED).last_events if e["type"] == "battle")
    blue_battle = next(e for e in game.view(Color.BLUE).last_events if e["type"] == "battle")
    assert (red_battle["attacker"], red_battle["defender"]) == ("spy", "sapper")
    assert (blue_battle["attacker"], blue_battle["defender"]) == (None, "sapper")
    assert game.view(Color.RED).captured["blue"] == ["sapper"]


def test_the_reason_for_a_refused_move_names_the_piece_to_its_owner_only():
    from engine import Move, RefusalEvent, redact_event

    game = position("espionage", red={**RED_HOME, "e4": "mine", "c3": "spy"}, blue=BLUE_HOME)
    problem = game.check(Move.parse("e4-e5"))
    event = RefusalEvent("red", "e4-e5", problem.rule, problem.message, game.ply)
    assert "mine" in redact_event(game, event, Color.RED)["message"]
    for viewer in (Color.BLUE, None):
        told = redact_event(game, event, viewer)
        assert told["message"] == "e4-e5 was refused (movement)" and told["rule"] == "movement"
