"""The time track and order of play, rules 5 and 7 (our reading, section 1.5)."""

from __future__ import annotations

import pytest

from tests.engine.triumph.helpers import act, game, play, refusal_rule, unit


def two_units(**kwargs):
    return game([unit("f", "french", "I3", "R95"), unit("a", "allied", "I2", "R106")], **kwargs)


def test_allied_then_french_each_round() -> None:
    g = two_units(to_move="allied")
    play(g, act("allied", "end_turn"))
    assert (g.state.round, g.state.to_move) == (7, "french")
    play(g, act("french", "end_turn"))
    assert (g.state.round, g.state.to_move) == (8, "allied")


def test_ten_rounds_end_with_the_objective_judgement() -> None:
    # SG design diary: ten one-hour turns, 7:00 AM to 4:00 PM; then objectives decide (RB 16).
    g = two_units(to_move="allied")
    for _ in range(10):
        play(g, act("allied", "end_turn"), act("french", "end_turn"))
    # no corps holds anything: the Allies hold no blue objective, so the French win
    assert g.result is not None
    assert (g.result["winner"], g.result["reason"]) == ("french", "objectives")
    assert g.state.round == 16
    assert refusal_rule(g, act("allied", "end_turn")) == "nt-turn"


def test_per_turn_marks_reset_at_the_end_of_each_player_turn() -> None:
    g = two_units()
    play(g, act("french", "unit_move", unit="f", to="R108"))
    assert g.state.turn.moved == {"f"} and g.state.turn.independent_commands == 1
    play(g, act("french", "end_turn"), act("allied", "end_turn"))
    assert g.state.turn.moved == set() and g.state.turn.independent_commands == 0
    play(g, act("french", "unit_move", unit="f", to="R95"))


def test_undo_restores_the_exact_state() -> None:
    g = two_units()
    before = repr(g.state)
    play(g, act("french", "unit_move", unit="f", to="R108"), act("french", "end_turn"))
    g.pop()
    g.undo()
    assert repr(g.state) == before and g.actions == [] and g.events == []


def test_nothing_to_take_back_is_an_arbiter_error() -> None:
    from engine.core.errors import ArbiterError

    g = two_units()
    with pytest.raises(ArbiterError) as error:
        g.pop()
    assert error.value.code == "nt-undo"


def test_a_declared_end_is_pushed_and_popped_like_an_action() -> None:
    # a resignation, an agreed end or time ends the game outside the rules; the game holds it
    # on its undo stack, so a referee whose journal refuses the write takes it back by `pop`
    from engine.triumph.actions import DeclareEnd

    g = game([unit("u", "french", "I2", "R95")], to_move="allied")
    before = repr(g.state)
    events = play(g, act("french", "declare_end", reason="resignation"))
    assert events == [{"type": "game-end", "winner": "allied", "reason": "resignation"}]
    assert g.result == {"winner": "allied", "reason": "resignation",
                        "why": "the french player resigned"}
    assert g.awaiting() is None and refusal_rule(g, act("allied", "end_turn")) == "nt-turn"
    assert g.pop() == DeclareEnd("french", "resignation") and repr(g.state) == before
    play(g, act("allied", "declare_end", reason="agreed"))
    assert g.result == {"winner": None, "reason": "agreed",
                        "why": "the players agreed to end the game"}
