"""Variants are data: board, lakes, zones and armies as docs/rules/stratego.md lists them."""

import pytest

from engine import Color, get_variant, variant_from_toml, variant_names
from engine.core.errors import ArbiterError
from engine.stratego.variants import VariantError, check_variant


def test_the_shipped_variants():
    assert {"classic", "barrage", "duel", "compact", "strategy8"} <= set(variant_names())


@pytest.mark.parametrize("name", ["classic", "barrage", "duel", "compact", "strategy8"])
def test_every_shipped_variant_is_playable(name):
    assert check_variant(get_variant(name)) == []


def test_classic_has_92_playable_squares_and_armies_of_40():
    classic = get_variant("classic")
    assert classic.width * classic.height - len(classic.lakes) == 92
    assert classic.army_size() == 40
    assert len(classic.zone(Color.RED)) == 40
    assert {s.rank for s in classic.zone(Color.BLUE)} == {6, 7, 8, 9}


def test_smaller_armies():
    assert get_variant("barrage").army_size() == 8
    assert get_variant("duel").army_size() == 10
    assert get_variant("compact").army_size() == 30
    assert get_variant("compact").setup_rows == 3


def test_strategy8_is_an_8x8_board_with_24_pieces_and_the_general_on_top():
    strategy = get_variant("strategy8")
    assert (strategy.width, strategy.height) == (8, 8)
    assert sorted(s.name for s in strategy.lakes) == ["c4", "c5", "f4", "f5"]
    assert strategy.army_size() == 24
    assert "marshal" not in strategy.army
    assert ("spy", "general") in strategy.combat.assassins


def test_a_family_variant_from_toml():
    variant = variant_from_toml(
        """
        name = "long-shuffles"
        base = "classic"
        two_squares_limit = 5
        scout_strike = false
        """
    )
    assert variant.two_squares_limit == 5
    assert not variant.scout_strike
    assert variant.army == get_variant("classic").army


def test_a_family_variant_may_change_the_army():
    variant = variant_from_toml(
        """
        name = "tiny"
        base = "barrage"
        army_mode = "change"
        [army]
        scout = 4
        """
    )
    assert variant.army["scout"] == 4 and variant.army["marshal"] == 1


@pytest.mark.parametrize(
    "text, message",
    [
        ("base = 'classic'", "needs a name"),
        ("name = 'x'\nbase = 'chess'", "unknown variant"),
        ("name = 'x'\ncolour = 'green'", "unknown variant setting"),
        ("name = 'x'\n[army]\nscout = 41", "do not fit"),
        ("name = 'x'\n[army]\nwizard = 1", "unknown pieces"),
        ("name = [", "not valid TOML"),
    ],
)
def test_a_broken_family_variant_is_refused_with_the_reason(text, message):
    with pytest.raises(ValueError, match=message):
        variant_from_toml(text)


@pytest.mark.parametrize(
    "text, message",
    [
        # A piece power the engine does not know: named, not a TypeError from deep inside.
        ("name = 'x'\n[kinds.scout]\nspeed = 3", "scout.*unknown piece field 'speed'"),
        ("name = 'x'\n[kinds.scout]\nmobile = 'yes'", "scout.*'mobile' must be"),
        ("name = 'x'\nkinds = 3", "'kinds' must be a table"),
        ("name = 'x'\n[kinds]\nscout = 3", "kinds.scout.*must be a table"),
        ("name = 'x'\n[army]\nscout = 'many'", "army.*scout"),
        ("name = 'x'\nwidth = 'ten'", "'width' must be"),
        ("name = 'x'\nlakes = 'c5'", "'lakes' must be a list"),
        ("name = 'x'\nlakes = ['zz']", "lakes"),
        ("name = 'x'\nfirst = 'green'", "'first'"),
        ("name = 'x'\n[combat]\nassassins = 3", "combat.assassins"),
        ("name = 'x'\n[combat]\ntraps = 'bomb'", "combat.traps"),
        ("name = 'x'\n[combat]\nluck = true", "unknown setting 'luck'"),
    ],
)
def test_a_family_variant_with_a_malformed_field_is_refused_naming_the_field(text, message):
    with pytest.raises(VariantError, match=message) as raised:
        variant_from_toml(text)
    assert raised.value.code == "bad-variant"


def test_a_variant_error_is_one_of_ours_and_still_a_value_error():
    # Callers that catch ValueError (the user-variant loader) keep working.
    assert issubclass(VariantError, ArbiterError) and issubclass(VariantError, ValueError)


def test_a_family_variant_may_change_the_combat_rules():
    variant = variant_from_toml("name = 'sappers'\n[combat]\ntraps = ['bomb']\n"
                                "defusers = [['miner', 'bomb'], ['scout', 'bomb']]")
    assert variant.combat.defusers == {("miner", "bomb"), ("scout", "bomb")}
    assert variant.combat.assassins == get_variant("classic").combat.assassins


def test_a_family_variant_may_give_a_piece_new_powers():
    variant = variant_from_toml("name = 'far-miners'\n[kinds.miner]\nscout = true\nrank = 3")
    assert variant.kinds["miner"].scout and variant.kinds["miner"].rank == 3
