"""Human-like setups: legal, and set up the way people do, not at random."""

from __future__ import annotations

import random

import pytest

from engine import Color, Square, get_variant, random_setup, validate_setup
from engine.stratego.notebook import SetupPrior, human_setup

VARIANTS = ["classic", "barrage", "duel", "compact", "strategy8"]


def depth(square: Square, color: Color, height: int) -> int:
    """Rows from the owner's back row."""
    return square.rank if color is Color.RED else height - 1 - square.rank


def on_board(setup: dict[str, str]) -> dict[Square, str]:
    return {Square.parse(s): k for s, k in setup.items()}


@pytest.mark.parametrize("variant_name", VARIANTS)
@pytest.mark.parametrize("color", list(Color))
def test_every_human_setup_is_legal(variant_name, color):
    variant = get_variant(variant_name)
    rng = random.Random(1)
    for _ in range(60):
        assert validate_setup(variant, color, on_board(human_setup(variant, color, rng))) == []


def test_setups_vary():
    variant = get_variant("classic")
    rng = random.Random(2)
    setups = {tuple(sorted(human_setup(variant, Color.RED, rng).items())) for _ in range(50)}
    assert len(setups) == 50


@pytest.mark.parametrize("color", list(Color))
def test_the_classic_flag_stands_on_the_back_row_guarded_by_bombs_but_not_by_all_of_them(color):
    variant = get_variant("classic")
    rng = random.Random(3)
    back, guarded, spread, spy_near = 0, 0, 0, 0
    trials = 200
    for _ in range(trials):
        setup = on_board(human_setup(variant, color, rng))
        flag = next(s for s, k in setup.items() if k == "flag")
        general = next(s for s, k in setup.items() if k == "general")
        spy = next(s for s, k in setup.items() if k == "spy")
        bombs = [s for s, k in setup.items() if k == "bomb"]
        back += depth(flag, color, variant.height) == 0
        guarded += any(b.distance(flag) == 1 for b in bombs)
        spread += sum(b.distance(flag) > 1 for b in bombs) >= 2
        spy_near += spy.touches(general)
    assert back > 0.85 * trials
    assert guarded == trials
    assert spread > 0.9 * trials
    assert spy_near > 0.6 * trials


def test_human_setups_are_not_random_ones():
    # A random setup puts the flag on the back row one time in four and miners anywhere.
    variant = get_variant("classic")
    rng = random.Random(4)

    def back_row_share(make, kind: str) -> float:
        setups = [on_board(make()) for _ in range(200)]
        hits = [depth(s, Color.RED, 10) == 0 for setup in setups for s, k in setup.items() if k == kind]
        return sum(hits) / len(hits)

    human = lambda: human_setup(variant, Color.RED, rng)  # noqa: E731
    chance = lambda: {s.name: k for s, k in random_setup(variant, Color.RED, rng).items()}  # noqa: E731
    assert back_row_share(human, "flag") > 0.85 > 0.4 > back_row_share(chance, "flag")
    assert back_row_share(human, "miner") > 1.4 * back_row_share(chance, "miner")
    assert back_row_share(human, "marshal") < 0.5 * back_row_share(chance, "marshal")


def test_espionage_has_no_human_setups_and_a_uniform_prior():
    variant = get_variant("espionage")
    with pytest.raises(ValueError):
        human_setup(variant, Color.RED, random.Random(0))
    prior = SetupPrior.human(variant, Color.RED)
    assert prior == SetupPrior.uniform(variant, Color.RED)


@pytest.mark.parametrize("variant_name", VARIANTS)
def test_the_prior_is_a_distribution_on_every_square_of_the_zone(variant_name):
    variant = get_variant(variant_name)
    for color in Color:
        prior = SetupPrior.human(variant, color)
        for square in variant.zone(color):
            chances = prior.at(square.name)
            assert sum(chances.values()) == pytest.approx(1.0)
            assert all(p > 0 for p in chances.values())  # nothing impossible before the game
    classic = SetupPrior.human(get_variant("classic"), Color.BLUE)
    assert classic.at("a10")["flag"] > 5 * classic.at("a7")["flag"]  # Blue's back row is rank 10
