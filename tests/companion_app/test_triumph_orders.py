"""Attack orders and block choices built block by block (Kivy-free): the blocks offered are the
ones the referee lists, the engine's own attack rules say what is still wrong as the answer
grows, and the finished answer is one the full engine (every hidden face known) accepts."""

from __future__ import annotations

from typing import Any

from companion_app.model.triumph_orders import OrdersDraft, PickDraft, known_game
from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from tests.companion_app.test_triumph_answers import threatened_93
from tests.companion_app.triumph_games import THREAT_ON_94, _choose, feint_on_94
from tests.engine.triumph.setups import allied_setup, french_setup

ST_HILAIRE = ["f-st. -0", "f-st. -1", "f-st. -2", "f-st. -3"]


def french_threat_on_94() -> TriumphGame:
    """7:00: Langeron marches to 94 and the Allies end their turn; St. Hilaire threatens 94
    from 93 across the wide border and the Allies stand with all five blocks."""
    game = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="orders")
    for wanted in THREAT_ON_94:
        _choose(game, wanted)
    assert game.awaiting() == ("french", "feint_or_press")
    return game


def seat_view(game: TriumphGame, side: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What the tablet of `side` holds: its view and the answers the referee lists."""
    view = game.view(side).to_dict()
    return view, list(view.get("options") or [])


def accepted(game: TriumphGame, side: str, answer: dict[str, Any] | None) -> None:
    """The full engine takes the answer as the tablet built it."""
    assert answer is not None
    game.push(action_from_dict(dict(answer, side=side)))


def test_the_blocks_offered_are_those_the_referee_lists_where_they_stand():
    game = french_threat_on_94()
    view, options = seat_view(game, "french")
    draft = OrdersDraft.start(view, options)
    assert draft.decision == "feint_or_press"
    assert set(draft.blocks()) == set(ST_HILAIRE)
    assert {draft.starts[u] for u in ST_HILAIRE} == {"R93"}
    assert {draft.corps[u] for u in ST_HILAIRE} == {"St. Hilaire"}
    # the tablet knows the turn's commands as the view tells them
    known = known_game(view)
    assert known.state.turn.corps_commands == game.state.turn.corps_commands


def test_a_feint_built_block_by_block_then_ended_by_a_tap_on_the_map():
    game = french_threat_on_94()
    draft = OrdersDraft.start(*seat_view(game, "french"))
    assert draft.problem().reason == "name-commands"
    assert draft.answer() is None
    # the whole corps goes by its Corps Move, and the feint ends in the reserve of 93
    for unit in ST_HILAIRE:
        draft.tap(unit)
    assert draft.orders()[0].type == "corps_move" and len(draft.orders()) == 1
    assert draft.tap_position("R93") and draft.end == "reserve"
    assert draft.problem() is None
    answer = draft.answer()
    assert answer["type"] == "feint" and answer["end"] == "reserve"
    accepted(game, "french", answer)
    assert game.awaiting() == ("allied", "advance")


def test_blocks_sent_alone_go_by_unit_moves_and_the_engine_counts_the_commands():
    game = french_threat_on_94()
    draft = OrdersDraft.start(*seat_view(game, "french"))
    for unit in ST_HILAIRE:
        draft.tap(unit)
    draft.go_alone("St. Hilaire")
    assert {o.type for o in draft.orders()} == {"unit_move"}
    # four Unit Moves would take the whole corps: the engine says so in its own words
    assert draft.problem().reason in ("unit-moves-take-all", "independent-commands-short")
    draft.tap(ST_HILAIRE[-1])  # one block stays: three Unit Moves, as many as the French have
    problem = draft.problem()
    assert problem is None or problem.reason == "independent-commands-short"
    draft.go_alone("St. Hilaire")  # back to the Corps Move
    assert draft.problem() is None


def test_an_attack_with_its_leaders_is_checked_as_it_grows_and_the_referee_takes_it():
    game = french_threat_on_94()
    _choose(game, lambda a: a["type"] == "press")
    _choose(game, lambda a: a["type"] == "defence_leaders" and a["units"] == ["a-lang-0"])
    view, options = seat_view(game, "french")
    draft = OrdersDraft.start(view, options)
    assert draft.decision == "attack" and draft.wide_border()
    for unit in ST_HILAIRE:
        draft.tap(unit)
    units = game.state.units
    weak = [u for u in ST_HILAIRE if units[u].face.strength == 1 and units[u].face.type == "infantry"]
    strong = [u for u in ST_HILAIRE if units[u].face.strength >= 2]
    if weak:
        draft.lead(weak[0])
        assert draft.problem().reason == "weak-attack-leader"
        draft.lead(weak[0])
    draft.lead(strong[0])
    draft.lead(strong[1])
    assert draft.problem().reason == "attack-leaders-count"  # two leaders need a wide attack
    draft.toggle_wide()
    assert draft.wide
    problem = draft.problem()
    if problem is not None:  # two leaders of different types: the engine's reason, then one
        assert problem.reason in ("leaders-same-type", "guard-beside-guard")
        draft.lead(strong[1])
    assert draft.problem() is None
    accepted(game, "french", draft.answer())
    assert game.state.attack is None or game.awaiting()[1] != "attack"


def test_a_block_taken_back_leads_no_more():
    game = french_threat_on_94()
    draft = OrdersDraft.start(*seat_view(game, "french"))
    draft.tap(ST_HILAIRE[0])
    draft.lead(ST_HILAIRE[0])
    draft.tap(ST_HILAIRE[0])
    assert draft.picked == [] and draft.leaders == []
    draft.lead(ST_HILAIRE[1])  # a block that does not go cannot lead
    assert draft.leaders == []


def test_the_occupation_after_a_retreat_is_built_from_the_attackers_blocks():
    game = threatened_93()
    _choose(game, lambda a: a["type"] == "retreat")
    assert game.awaiting() == ("allied", "occupy")
    view, options = seat_view(game, "allied")
    draft = OrdersDraft.start(view, options)
    assert draft.blocks() and all(draft.starts[u] == "R94" for u in draft.blocks())
    assert draft.tap_position("R94")  # every block standing there goes
    assert set(draft.picked) == set(draft.blocks())
    assert draft.problem() is None
    accepted(game, "allied", draft.answer())
    assert game.state.attack is None
    assert {game.state.units[u].at.locale for u in draft.picked} == {93}


def test_the_defender_names_its_leaders_block_by_block():
    game = french_threat_on_94()
    _choose(game, lambda a: a["type"] == "press")
    view, options = seat_view(game, "allied")
    draft = PickDraft.start(view, options)
    assert draft.decision == "defence_leaders" and len(draft.candidates) == 5
    assert draft.problem() is None  # no leader at all is an answer too
    for unit in draft.candidates:
        draft.tap(unit)
    assert len(draft.picked) == 2  # never more than two: the rules' most
    problems = set()
    while draft.problem() is not None:  # the engine names what is wrong with the pair
        problems.add(draft.problem().reason)
        draft.tap(draft.picked[-1])
    assert problems <= {"leaders-same-type", "leaders-same-corps", "weak-reserve-leader",
                        "defence-leaders-count"}
    accepted(game, "allied", draft.answer())
    assert game.awaiting() == ("french", "attack")


def test_the_advance_after_a_feint_names_the_blocks_and_their_commander_goes_along():
    game = feint_on_94()
    assert game.awaiting() == ("allied", "advance")
    view, options = seat_view(game, "allied")
    draft = PickDraft.start(view, options)
    assert draft.problem().reason == "advance-one"
    draft.tap(draft.candidates[0])
    assert draft.problem() is None
    for unit in draft.candidates[1:]:
        draft.tap(unit)
    assert draft.action().commanders == ("Langeron",)  # all his blocks go: so does his flag
    assert draft.problem() is None
    accepted(game, "allied", draft.answer())
    assert game.state.commanders["Langeron"].at.toward == 93
