"""Where the NT map's marks go (Kivy-free): never one over another, at every zoom a tablet
shows, in views with full armies, attacks and feints; numbers of busy locales always shown."""

from __future__ import annotations

import pytest

from companion_app.model.triumph_board import TriumphBoard, inside, parse_position
from companion_app.model.triumph_chips import Chip, lay_out, overlapping
from engine.triumph.game import TriumphGame
from engine.triumph.standard import standard_setup
from tests.companion_app.triumph_games import feint_on_94, opening_with_an_attack

BOARD = TriumphBoard()
# pixels per sheet unit: the whole board on a 1024x600 and a 1280x800 tablet, an upright one,
# and zoomed in twice and four times
SCALES = (0.17, 0.22, 0.3, 0.44, 0.9)


def measure(kind: str, text: str, flags: tuple[str, ...]) -> tuple[float, float]:
    """Sizes like the widget's at sp = 1 (the widget measures real textures)."""
    pennants = sum(len(label) * 7 + 10 for label in flags)
    if kind == "number":
        return len(text) * 7 + 6, 15
    if kind == "flag":
        return pennants, 21
    return pennants + max(len(text) * 8 + 10, 22), 22


def views() -> dict[str, dict]:
    game = TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"),
                                   handle_secret="t")
    _, attack = opening_with_an_attack()
    return {"french": game.view("french").to_dict(), "allied": game.view("allied").to_dict(),
            "public": game.view(None).to_dict(), "attack": attack[-1],
            "feint": feint_on_94().view(None).to_dict()}


VIEWS = views()


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("name", sorted(VIEWS))
def test_no_mark_covers_another(name, scale):
    chips = lay_out(BOARD, BOARD.scene(VIEWS[name]), scale, measure)
    assert overlapping(chips) == []


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_every_block_count_and_flag_shows_with_its_locale_number(name):
    scene = BOARD.scene(VIEWS[name])
    chips = lay_out(BOARD, scene, 0.17, measure)
    stacks = {c.key: c for c in chips if c.kind == "stack"}
    assert set(stacks) == {f"stack:{s.position}:{s.side}" for s in scene.stacks}
    assert all(stacks[f"stack:{s.position}:{s.side}"].text == str(s.count) for s in scene.stacks)
    flagged = {name for c in chips for name in c.commanders}
    assert flagged == {f.name for f in scene.flags}
    numbers = {c.text for c in chips if c.kind == "number"}
    assert {str(parse_position(s.position)[0]) for s in scene.stacks} <= numbers


def test_zoomed_in_every_mark_sits_in_its_own_locale_and_every_number_shows():
    chips = lay_out(BOARD, BOARD.scene(VIEWS["french"]), 0.9, measure)
    assert {c.text for c in chips if c.kind == "number"} == {str(n) for n in BOARD.regions}
    for chip in chips:
        assert inside((chip.x, chip.y), BOARD.regions[parse_position(chip.position)[0]].outline)
    # closer still, a chip also lists the faces its view knows
    chips = lay_out(BOARD, BOARD.scene(VIEWS["french"]), 1.2, measure, faces=True)
    assert overlapping(chips) == []
    lannes = next(c for c in chips if "Lannes" in c.commanders)
    assert lannes.position == "R64" and lannes.text == "5 · I3 I3 I2 I2 A1"


def test_the_overlap_check_sees_two_chips_touching():
    a = Chip("stack", "a", "R1", "1", "french", 100, 100, 20, 20)
    b = Chip("stack", "b", "R2", "1", "french", 115, 110, 20, 20)
    c = Chip("stack", "c", "R3", "1", "french", 121, 100, 20, 20)
    assert overlapping([a, b, c]) == [("a", "b"), ("b", "c")]
