"""The app's logic without Kivy: setups, the table state, the contract adapter, the replay."""

from __future__ import annotations

import random

import pytest

from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import result_text
from companion_app.model.replay import Replay
from companion_app.model.setup_model import SetupDraft, SetupStore, flag_is_sheltered
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator
from engine import Color, Game, Square, get_variant
from engine.stratego.records import check_record


def test_setup_draft_counts_and_messages():
    draft = SetupDraft("classic", "red")
    tr = Translator("en")
    assert draft.place("a1", "flag")
    assert not draft.place("a1", "nonsense")
    assert not draft.place("a5", "scout"), "a5 is outside Red's zone"
    assert draft.remaining()["flag"] == 0
    assert not draft.place("b1", "flag"), "there is only one flag"
    problems = draft.problems(tr)
    assert "Place 8 more: Scout" in problems
    draft.move("a1", "b1")
    assert draft.placed == {"b1": "flag"}
    draft.move("b1", None)
    assert draft.placed == {}
    draft.randomize(random.Random(1))
    assert draft.problems(tr) == []


def test_a_saved_setup_fits_either_seat(tmp_path):
    store = SetupStore(tmp_path / "setups.json")
    red = SetupDraft("classic", "red")
    red.randomize(random.Random(2))
    store.save("Wall", red)
    blue = SetupDraft("classic", "blue")
    assert store.load("Wall", blue)
    assert blue.problems(Translator()) == []
    # Red's back-left corner is a1; Blue's is j10, seen from Blue's chair.
    assert blue.placed["j10"] == red.placed["a1"]
    assert store.names("classic")[0] == "Wall"
    assert not store.load("Nope", blue)


def test_the_engines_well_known_setups_are_offered_for_either_seat(tmp_path):
    store = SetupStore(tmp_path / "setups.json")
    built_in = [n for n in store.names("classic") if n.startswith("★ ")]
    assert "★ corner-fortress" in built_in
    for color in ("red", "blue"):
        draft = SetupDraft("classic", color)
        assert store.load("★ corner-fortress", draft)
        assert draft.problems(Translator()) == []


def test_corrupt_setups_file_is_treated_as_empty(tmp_path):
    path = tmp_path / "setups.json"
    path.write_text("{not json")
    assert [n for n in SetupStore(path).names("classic") if not n.startswith("★ ")] == []


def _game(seed: int = 4) -> Game:
    variant = get_variant("classic")
    rng = random.Random(seed)
    from engine import random_setup

    return Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng), volcanoes=())


def test_table_state_follows_views_and_collects_what_battles_reveal():
    game = _game()
    state = TableState(seat="blue")
    state.apply("view", game.view(Color.BLUE).to_dict())
    rng = random.Random(9)
    battles = 0
    while game.result is None and game.ply < 300:
        game.push(rng.choice(game.legal_moves()))
        state.apply("view", game.view(Color.BLUE).to_dict())
        if state.battle:
            battles += 1
            assert state.battle.attacker_kind and state.battle.defender_kind
    assert battles > 0
    for piece_id, (color, kind) in state.kinds_by_id.items():
        assert game.piece(piece_id).kind == kind and game.piece(piece_id).color.value == color


def test_replay_writes_a_record_the_engine_accepts():
    game = _game(5)
    state = TableState(seat="red")
    state.apply("view", game.view(Color.RED).to_dict())
    rng = random.Random(1)
    for _ in range(40):
        game.push(rng.choice(game.legal_moves()))
        state.apply("view", game.view(Color.RED).to_dict())
    game.resign(Color.BLUE)
    state.apply("view", game.view(Color.RED).to_dict())
    record = Replay(state.history, state.kinds_by_id).record()
    assert record is not None
    verdict = check_record(record)
    assert verdict["illegal"] is None and verdict["applied"] == 40


def test_replay_refuses_to_invent_a_record_after_missed_views():
    game = _game(6)
    state = TableState(seat="red")
    state.apply("view", game.view(Color.RED).to_dict())
    rng = random.Random(2)
    for i in range(6):
        game.push(rng.choice(game.legal_moves()))
        if i != 3:
            state.apply("view", game.view(Color.RED).to_dict())
    assert Replay(state.history, state.kinds_by_id).record() is None


def test_adapter_maps_contract_phases_to_screens():
    got = []
    adapter = ContractTranslator(lambda kind, payload: got.append((kind, payload)), "red")
    adapter.pairing({"status": "challenge", "method": "squares", "squares": ["e4", "g5"], "seat": "red"})
    assert got[-1] == ("pairing", {"squares": ["e4", "g5"], "method": "squares", "fingerprint": None})
    adapter.pairing({"status": "granted", "seat": "red"})
    assert got[-1] == ("phase", {"phase": "setup", "seat": "red"})
    adapter.seat_state({"phase": "setup", "view": None, "setup": {"a1": "flag"}, "seq": 1})
    assert got[-1] == ("phase", {"phase": "placing"})
    adapter.public_state({"phase": "setup", "seats": {"red": {"online": True, "setup_ready": True}},
                          "board_check": {"matches": False, "missing": ["a1"], "extra": []}})
    assert ("placement", {"sensed": []}) in got
    adapter.reply({"ok": False, "code": "invalid-setup", "message": "Red has 7 Scouts, needs 8"})
    assert got[-1] == ("setup_status", {"errors": ["Red has 7 Scouts, needs 8"]})


def test_malformed_messages_change_nothing():
    state = TableState(seat="red")
    state.apply("no-such-kind", {"x": 1})
    state.apply("phase", {"phase": "nonsense"})
    assert state.phase == "connect"
    assert state.view is None


def test_two_squares_warning_uses_the_engines_count():
    variant = get_variant("classic")
    pieces = {Square.parse("a1"): (Color.RED, "flag"), Square.parse("b2"): (Color.RED, "scout"),
              Square.parse("j10"): (Color.BLUE, "flag"), Square.parse("h9"): (Color.BLUE, "scout")}
    game = Game.from_position(variant, pieces)
    state = TableState(seat="red")
    state.apply("view", game.view(Color.RED).to_dict())
    seen = []
    for text in ("b2-b3", "h9-h8", "b3-b2", "h8-h9", "b2-b3", "h9-h8"):
        from engine import Move

        game.push(Move.parse(text))
        state.apply("view", game.view(Color.RED).to_dict())
        seen.append(list(state.warnings))
    assert seen[0] == []
    assert ("two-squares-now", "b3", "b2") in seen[-1]


def test_chasing_player_is_warned_which_moves_the_more_squares_rule_forbids():
    from companion_app.i18n.texts import warning_text
    from engine import Move

    variant = get_variant("classic")
    pieces = {Square.parse(s): (c, k) for s, c, k in (
        ("j1", Color.RED, "flag"), ("j2", Color.RED, "sergeant"), ("a2", Color.RED, "general"),
        ("j10", Color.BLUE, "flag"), ("j9", Color.BLUE, "scout"), ("b1", Color.BLUE, "major"))}
    game = Game.from_position(variant, pieces)
    state = TableState(seat="red")
    # Example 2.1 of docs/rules/repetition.md: the General chases the Major round a block.
    for text in ["a2-a1", "b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1"]:
        game.push(Move.parse(text))
        state.apply("view", game.view(Color.RED).to_dict())
    chase = [w for w in state.warnings if w[0] == "chase-refused"]
    assert chase, state.warnings
    text = warning_text(Translator("en"), chase[0])
    assert "Not allowed now: " in text and "a2-a1" in text
    assert "Mehr-Felder-Regel" in warning_text(Translator("de"), chase[0])


def test_settings_are_kept_between_starts_and_a_broken_file_means_defaults(tmp_path, monkeypatch):
    from companion_app.model import prefs

    monkeypatch.setenv("ARBITER_APP_HOME", str(tmp_path))
    assert prefs.load() == {"language": "en", "numbering": "new"}
    prefs.save(language="bg", numbering="old", nonsense=1)
    assert prefs.load() == {"language": "bg", "numbering": "old"}
    (tmp_path / "settings.json").write_text("[1, 2")
    assert prefs.load() == {"language": "en", "numbering": "new"}


def test_a_grant_arriving_after_the_seats_snapshot_keeps_the_game_on_screen():
    state = TableState(seat="red")
    adapter = ContractTranslator(state.apply, "red")
    game = _game(7)
    adapter.seat_state({"phase": "playing", "view": game.view(Color.RED).to_dict(),
                        "setup": {"a1": "flag"}, "seq": 3})
    adapter.pairing({"status": "granted", "seat": "red"})
    assert state.phase == "game"


def test_the_end_of_the_game_comes_with_its_result_even_before_the_final_view():
    # The referee publishes a ruling's events before its snapshots: on a busy machine a tablet
    # may apply the game_end event while its view still shows the game running.
    game = _game(7)
    state = TableState(seat="red")
    adapter = ContractTranslator(state.apply, "red")
    adapter.seat_state({"game": "g", "seq": 4, "phase": "playing", "view": game.view(Color.RED).to_dict()})
    adapter.events({"events": [{"type": "game_end", "winner": None, "reason": "agreement", "ply": 0}]})
    assert state.phase == "over"
    assert state.view is not None and state.view["result"] is None  # the snapshot is still to come
    assert state.result == {"winner": None, "reason": "agreement"}
    # What the headless demo then prints.
    assert result_text(Translator("en"), state.result, None) == "Draw\nReason: both players agreed to a draw"
    # The final view carries the same result.
    game.agree_draw()
    adapter.seat_state({"game": "g", "seq": 5, "phase": "over", "view": game.view(Color.RED).to_dict()})
    assert state.result == {"winner": None, "reason": "agreement"} and state.phase == "over"


def test_a_tablet_replaced_on_its_seat_is_told_so_on_the_pairing_screen():
    state = TableState()
    adapter = ContractTranslator(state.apply, "red")
    adapter.pairing({"v": 1, "status": "lost", "seat": "red", "message": "another tablet holds the red seat"})
    assert state.phase == "pairing" and state.pairing == {"lost": True, "seat": "red", "reason": ""}


@pytest.mark.parametrize("variant", ["classic", "barrage", "compact", "strategy8"])
def test_random_gives_a_sensible_army_flag_at_the_back_and_guarded(variant):
    rng = random.Random(20)
    for color in ("red", "blue"):
        for _ in range(60):
            draft = SetupDraft(variant, color)
            draft.randomize(rng)
            assert draft.problems(Translator("en")) == []
            assert flag_is_sheltered(variant, color, draft.placed), draft.placed


def test_a_flag_alone_in_the_front_row_is_not_sheltered():
    setup = {"a4": "flag", "b1": "bomb"}
    assert not flag_is_sheltered("classic", "red", setup)
    assert not flag_is_sheltered("classic", "red", {"e1": "flag", "a1": "bomb"})  # at the back, unguarded
    assert flag_is_sheltered("classic", "red", {"e1": "flag", "e2": "bomb"})
    assert flag_is_sheltered("classic", "blue", {"e10": "flag", "f10": "bomb"})
