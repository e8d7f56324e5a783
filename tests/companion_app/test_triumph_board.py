"""What the NT map draws for a view (Kivy-free): blocks per position, faces, flags, taps."""

from __future__ import annotations

import math

from companion_app.i18n.catalog import Translator
from companion_app.i18n.triumph_texts import (
    attack_lines,
    face_words,
    result_lines,
    track_hour_text,
    turn_text,
    waiting_text,
)
from companion_app.model.triumph_board import (
    TriumphBoard,
    face_code,
    faces_label,
    inside,
    short_name,
)
from engine.triumph.game import TriumphGame
from tests.companion_app.triumph_games import feint_on_94, opening_with_an_attack
from tests.engine.triumph.setups import allied_setup, french_setup

BOARD = TriumphBoard()


def counts(game: TriumphGame) -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for unit in game.state.units.values():
        if unit.at is not None:
            key = (str(unit.at), unit.side)
            found[key] = found.get(key, 0) + 1
    return found


def test_faces_are_written_as_players_say_them():
    assert face_code({"type": "infantry", "strength": 3, "guard": True}) == "G3"
    assert face_code({"type": "cavalry", "strength": 2, "guard": False}) == "C2"
    assert face_code(None) == "?"
    i2 = {"type": "infantry", "strength": 2, "guard": False}
    a1 = {"type": "artillery", "strength": 1, "guard": False}
    c3 = {"type": "cavalry", "strength": 3, "guard": False}
    assert faces_label([i2, None, a1, c3, None]) == "C3 I2 A1 +2"
    assert faces_label([c3, {**c3, "type": "infantry", "guard": True}]) == "G3 C3"
    assert faces_label([None, None]) == ""
    assert [short_name(n) for n in ("St. Hilaire", "Lannes", "Bagration")] == ["StHi", "Lann",
                                                                               "Bagr"]


def test_the_public_scene_counts_every_block_and_shows_no_hidden_face():
    game = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="t")
    scene = BOARD.scene(game.view(None).to_dict())
    assert {(s.position, s.side): s.count for s in scene.stacks} == counts(game)
    labels = {s.position: s.label for s in scene.stacks}
    assert labels["64>63"] == "A1"  # the fixed battery is public from the set-up
    assert all(label == "" for position, label in labels.items() if position != "64>63")
    assert {f.name: f.position for f in scene.flags}["Lannes"] == "R64"
    assert sorted(scene.off_map) == ["Bernadotte", "Davout"]


def test_a_seat_sees_its_own_faces_and_not_the_enemys():
    game = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="t")
    scene = BOARD.scene(game.view("french").to_dict())
    by_key = {(s.position, s.side): s for s in scene.stacks}
    assert by_key[("R53", "french")].label == "G3 G3 C3 C3"  # Bessières' corps
    assert by_key[("R108", "allied")].label == ""


def test_the_attack_and_its_revealed_faces_reach_the_scene():
    game, views = opening_with_an_attack()
    scene = BOARD.scene(views[-1])
    assert (scene.attack_locale, scene.defence_locale) == (93, 94)
    stacks = {s.position: s for s in scene.stacks}
    assert stacks["R94"].label == "I3 +4"  # Langeron's leader is revealed, four are not
    assert stacks["R93"].label == "I3 I2 +2"


def test_an_approach_s_blocks_stand_just_inside_its_own_locale_behind_the_printed_bar():
    x, y = BOARD.point("64>63")
    assert inside((x, y), BOARD.regions[64].outline)
    bar = BOARD.bar("64>63")
    assert math.dist((x, y), bar.centre) < 20
    assert BOARD.point("R64") == BOARD.regions[64].anchor


def test_a_tap_names_the_locale_it_falls_in_or_a_marked_approach():
    assert BOARD.position_at(*BOARD.regions[94].anchor) == "R94"
    bar = BOARD.bar("93>94")
    x, y = BOARD.point("93>94")
    assert BOARD.position_at(x, y, {"93>94"}) == "93>94"
    assert BOARD.position_at(x, y) == "R93"  # an unmarked approach is not a target
    # the other side of the same bar belongs to the other locale's approach
    other = (bar.centre[0] - bar.inward[0] * 16, bar.centre[1] - bar.inward[1] * 16)
    assert BOARD.position_at(*other, {"93>94"}) != "93>94"
    assert BOARD.position_at(-50, -50) is None
    # a finger's reach: just off the board's edge still names the nearest locale
    assert BOARD.position_at(40, 560, reach=20) == "R1"


def test_the_display_texts():
    tr = Translator("en")
    assert [track_hour_text(tr, h) for h in (7, 12, 13, 16)] == ["7:00", "12:00", "13:00", "16:00"]
    game, views = opening_with_an_attack()
    assert waiting_text(tr, views[5]) == "Waiting for the Allies: defend or retreat"
    assert turn_text(tr, views[0]) == "7:00: turn of the Allies"
    lines = attack_lines(tr, views[-1])
    assert lines[0] == "French attack from 93 into 94"
    assert "Attack leaders (2): Inf-3, Inf-2" in lines
    assert lines[-1] == "Result so far: +2"
    assert face_words(tr, {"type": "infantry", "strength": 3, "guard": True}) == "Guard Inf-3"
    assert result_lines(tr, {"winner": "french", "reason": "demoralised"}) == [
        "French win", "The Allied army is demoralised."]
    de = Translator("de")
    assert waiting_text(de, views[5]) == "Warten auf die Alliierten: verteidigen oder zurückziehen"
    assert track_hour_text(de, 14) == "14:00"  # 24-hour in every language, never "nachmittags"


def test_a_feint_closes_its_approach_on_the_map():
    scene = BOARD.scene(feint_on_94().view(None).to_dict())
    assert scene.closed == ["93>94"]
    assert (scene.attack_locale, scene.defence_locale) == (93, 94)
