"""Espionage as data: the army, the setup rows, the volcanoes, and the variant's options."""

import random

import pytest

from engine import (
    Color,
    Game,
    Square,
    espionage_variant,
    get_variant,
    named_setup,
    named_setups,
    place_volcanoes,
    random_setup,
    validate_setup,
    variant_from_toml,
)
from engine.stratego.records import GameRecord

from .positions import position, refusal

ESPIONAGE = get_variant("espionage")


def new_game(seed: int) -> Game:
    rng = random.Random(seed)
    return Game.from_setup(ESPIONAGE, random_setup(ESPIONAGE, Color.RED, rng),
                           random_setup(ESPIONAGE, Color.BLUE, rng), rng=rng)


def test_the_army_of_thirty_fills_three_rows():
    assert ESPIONAGE.army == {
        "corporal": 5, "lieutenant": 4, "captain": 3, "colonel": 2, "general": 2,
        "spy": 5, "sapper": 4, "mine": 4, "headquarters": 1,
    }
    assert ESPIONAGE.army_size() == 30 == len(ESPIONAGE.zone(Color.RED))
    assert (ESPIONAGE.width, ESPIONAGE.height, ESPIONAGE.setup_rows) == (10, 10, 3)
    assert not ESPIONAGE.lakes


def test_the_sapper_count_is_a_parameter():
    assert espionage_variant(sappers=3).army["sapper"] == 3
    assert not espionage_variant(sappers=3).full_setup  # 29 pieces leave a square free
    with pytest.raises(ValueError, match="31 pieces do not fit"):
        espionage_variant(sappers=5)  # the Bulgarian seed's 5 need a fourth row
    assert espionage_variant(sappers=5, setup_rows=4).army_size() == 31
    assert espionage_variant(sappers=5, setup_rows=4).name == "espionage-5-sappers-4-rows"
    assert espionage_variant(moves_per_turn=1).name == "espionage"  # records carry that option


def test_mines_and_the_headquarters_are_immobile_and_the_rest_moves_one_square():
    immobile = {name for name, kind in ESPIONAGE.kinds.items() if not kind.mobile}
    assert immobile == {"mine", "headquarters"}
    assert not any(kind.scout for kind in ESPIONAGE.kinds.values())


def test_get_variant_finds_espionage_after_importing_the_engine():
    assert get_variant("espionage") is ESPIONAGE
    assert ESPIONAGE.moves_per_turn == 2 and ESPIONAGE.no_immediate_return
    assert ESPIONAGE.two_squares_limit is None and not ESPIONAGE.more_squares_rule


def test_a_family_can_take_espionage_as_the_base_of_its_own_variant():
    variant = variant_from_toml('name = "espionage-quick"\nbase = "espionage"\nmoves_per_turn = 1\n')
    assert variant.moves_per_turn == 1 and variant.recognizers == frozenset({"spy"})


def test_named_setups_are_valid_for_both_sides():
    assert len(named_setups(ESPIONAGE)) >= 2
    for name in named_setups(ESPIONAGE):
        for color in Color:
            assert validate_setup(ESPIONAGE, color, named_setup(ESPIONAGE, color, name)) == []


def test_four_volcanoes_are_placed_on_the_middle_rows_only():
    middle = set(ESPIONAGE.middle_rows())
    assert middle == {3, 4, 5, 6}
    for seed in range(200):
        volcanoes = place_volcanoes(ESPIONAGE, random.Random(seed))
        assert len(set(volcanoes)) == 4
        assert all(square.rank in middle for square in volcanoes)


def test_volcano_placement_is_seeded():
    assert place_volcanoes(ESPIONAGE, random.Random(7)) == place_volcanoes(ESPIONAGE, random.Random(7))
    assert new_game(3).volcanoes == new_game(3).volcanoes
    assert len({new_game(seed).volcanoes for seed in range(20)}) > 1


def test_no_piece_may_ever_enter_a_volcano():
    game = position("espionage", red={"a1": "headquarters", "e4": "general", "c3": "spy"},
                    blue={"j10": "headquarters", "h8": "corporal"}, volcanoes=("e5",))
    problem = refusal(game, "e4-e5")
    assert problem.rule == "movement" and problem.message == "e5 is a volcano"
    assert Square.parse("e5") not in {m.target for m in game.legal_moves()}


def test_volcanoes_are_in_every_view_and_in_the_record():
    game = new_game(11)
    names = [s.name for s in game.volcanoes]
    for viewer in (Color.RED, Color.BLUE, None):
        data = game.view(viewer).to_dict()
        assert data["volcanoes"] == names and set(names) <= set(data["blocked"])
    record = GameRecord.from_game(game).to_dict()
    assert record["volcanoes"] == names
    assert GameRecord.from_dict(record).new_game().volcanoes == game.volcanoes


def test_a_game_with_given_volcanoes_uses_them():
    rng = random.Random(1)
    volcanoes = (Square.parse("b5"), Square.parse("h6"))
    game = Game.from_setup(ESPIONAGE, random_setup(ESPIONAGE, Color.RED, rng),
                           random_setup(ESPIONAGE, Color.BLUE, rng), volcanoes=volcanoes)
    assert game.volcanoes == volcanoes
    assert game.blocked == frozenset(volcanoes)


def test_no_piece_may_start_on_a_volcano():
    with pytest.raises(ValueError, match="cannot stand on a2"):
        position("espionage", red={"a2": "corporal"}, blue={"j10": "corporal"}, volcanoes=("a2",))
