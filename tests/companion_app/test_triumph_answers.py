"""Answers built block by block (Kivy-free): a retreat grows on the tablet's own knowledge, the
engine's own retreat rule says what is still wrong at each step, and the finished plan is one
the full engine (with every hidden face) accepts; a loss allocation adds up to its points."""

from __future__ import annotations

import pytest

from companion_app.model.triumph_answers import LossDraft, RetreatDraft, known_state
from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.standard import standard_setup


def threatened_93() -> TriumphGame:
    """8:00: the Allies (Liechtenstein, by road to 94) threaten St. Hilaire's corps in 93."""
    game = TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"),
                                   handle_secret="t")
    game.push(next(a for a in game.legal_actions() if a.type == "corps_move"
                   and getattr(a, "commander", "") == "Liechtenstein" and str(a.to) == "R94"))
    for data in ({"side": "allied", "type": "end_turn"}, {"side": "french", "type": "end_turn"},
                 {"side": "allied", "type": "threat", "from": 94, "into": 93}):
        game.push(action_from_dict(data))
    assert game.awaiting() == ("french", "response")
    return game


def test_the_tablet_knows_enough_to_plan_a_retreat_and_nothing_more():
    game = threatened_93()
    state = known_state(game.view("french").to_dict())
    own = {u.id for u in state.units.values() if u.side == "french"}
    assert own == {u.id for u in game.state.units.values() if u.side == "french" and u.at}
    # enemy blocks stand where they stand, under handles, with no face of theirs
    enemy = [u for u in state.units.values() if u.side == "allied"]
    assert enemy and all(u.id.startswith("x") for u in enemy)
    assert state.attack is not None and (state.attack.attack_locale, state.attack.defence_locale) == (94, 93)


def test_a_retreat_built_block_by_block_is_checked_by_the_engine_as_it_grows():
    game = threatened_93()
    draft = RetreatDraft.start(game.view("french").to_dict())
    units = list(draft.plan.units)
    assert len(units) == 4 and draft.targets == [82, 92, 103, 104]
    # nothing chosen: the infantry in 93 owe two steps (a wide border)
    assert draft.problem().reason == "retreat-group-losses"
    strongest = max(units, key=draft.strength)  # the Infantry 3 takes both steps
    draft.add_loss(strongest)
    assert draft.problem().data["given"] == 1
    draft.add_loss(strongest)
    # the losses are right; the corps now has two faces (I1, I2): which one keeps the flag?
    assert draft.problem().reason == "retreat-name-kept"
    draft.keep_with("St. Hilaire", strongest)
    # then survivors must go while there is room
    assert draft.problem().reason == "retreat-while-room"
    assert not draft.send_to(94, units[0])  # the attack locale is no retreat target
    for unit in draft.survivors():
        draft.tap_unit(unit)
        assert draft.selected == unit
        assert draft.send_to(104)  # a tap on 104 sends the selected block there
        assert draft.selected is None
    assert draft.problem() is None
    # the full engine, which knows every face, accepts the plan the tablet built
    action = action_from_dict({"side": "french", **draft.answer()})
    assert game.check(action) is None
    game.push(action)
    assert {str(game.state.units[u].at) for u in draft.survivors()} == {"R104"}


def test_a_block_taking_all_its_steps_goes_nowhere_and_a_fourth_tap_clears_it():
    game = threatened_93()
    draft = RetreatDraft.start(game.view("french").to_dict())
    weak = min(draft.plan.units, key=draft.strength)
    draft.send_to(103, weak)
    for _ in range(draft.strength(weak)):
        draft.add_loss(weak)
    assert weak not in draft.survivors() and weak not in draft.to
    draft.add_loss(weak)
    assert draft.losses[weak] == 0


def test_a_loss_allocation_adds_up_to_its_points():
    options = [{"type": "assign_losses", "allocation": {"a": 2, "b": 1}},
               {"type": "assign_losses", "allocation": {"a": 0, "b": 3}}]
    units = {"a": {"face": {"type": "infantry", "strength": 2}},
             "b": {"face": {"type": "infantry", "strength": 3}}}
    draft = LossDraft.start(options, units)
    assert (draft.group, draft.points) == (["a", "b"], 3)
    assert draft.answer() is None
    draft.add_loss("a")
    draft.add_loss("b")
    draft.add_loss("b")
    assert draft.left() == 0
    assert draft.answer() == {"type": "assign_losses", "allocation": {"a": 1, "b": 2}}
    draft.add_loss("a")
    draft.add_loss("a")  # past its strength: back to none
    assert draft.allocation["a"] == 0 and draft.left() == 1


@pytest.mark.parametrize("side", ["allied"])
def test_the_attacker_has_nothing_to_build(side):
    game = threatened_93()
    view = game.view(side).to_dict()
    assert "options" not in view or not view["options"]
