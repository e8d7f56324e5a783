"""The Napoleon's Triumph part of a tablet, without Kivy: seats play their sides, a command composed
on the menu is exactly the contract's action and the engine accepts it, answers to the attack
sequence, instructions with local marks, refusals, the set-up draft and the sentences."""

from __future__ import annotations

from typing import Any

import pytest

from companion_app.i18n.catalog import Translator
from companion_app.i18n.triumph_refusals import refusal_sentence
from companion_app.i18n.triumph_tablet_texts import (
    commands_text,
    decision_text,
    face_text,
    menu_text,
    option_text,
    refusal_title,
    step_text,
)
from companion_app.model.table import TableState
from companion_app.model.triumph_setup import TriumphSetupDraft
from companion_app.model.triumph_table import Command
from companion_app.net.contract_adapter import ContractTranslator, contract_command
from engine.triumph.actions import action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.standard import standard_setup
from tests.companion_app.triumph_referee import (
    SECRET,
    RefereeTable,
    finish_attack,
    seat_state,
    to_allied_threat,
)

I3 = {"type": "infantry", "strength": 3, "guard": False}
I2 = {"type": "infantry", "strength": 2, "guard": False}
C2 = {"type": "cavalry", "strength": 2, "guard": False}


def new_game() -> TriumphGame:
    return TriumphGame.from_setups(standard_setup("french"), standard_setup("allied"),
                                   handle_secret=SECRET)


def tablet(game: TriumphGame | None, seat: str, **extra: Any) -> tuple[TableState, ContractTranslator]:
    """A tablet's state fed the seat's snapshot through the real contract adapter."""
    state = TableState(seat=seat)
    adapter = ContractTranslator(state.apply, seat)
    adapter.info({"variant": "napoleons-triumph"})
    adapter.seat_state(seat_state(game, seat, **extra))
    return state, adapter


def legal(game: TriumphGame, action: dict[str, Any], side: str) -> str | None:
    """None when the engine takes the action (side added as the referee adds it), else the rule."""
    refusal = game.check(action_from_dict({**action, "side": side}))
    return refusal.rule if refusal else None


def test_red_plays_the_allies_who_decide_first_and_blue_the_french_who_wait():
    game = new_game()
    red, _ = tablet(game, "red")
    blue, _ = tablet(game, "blue")
    assert (red.triumph.side, blue.triumph.side) == ("allied", "french")
    assert red.phase == blue.phase == "game"
    assert red.triumph.awaiting() == blue.triumph.awaiting() == ("allied", "command")
    assert red.triumph.my_decision() and red.triumph.menu()
    assert not blue.triumph.my_decision() and blue.triumph.menu() == [] and blue.triumph.options() == []
    # own units carry faces, grouped by corps; the enemy's have none
    corps = dict(red.triumph.corps())
    assert len(corps["Bagration"]) == 6 and all("face" in u for u in corps["Bagration"])
    shown = [u["face"] for u in red.triumph.view["units"] if u["side"] == "french" and "face" in u]
    assert shown == [{"type": "artillery", "strength": 1, "guard": False}]  # the fixed battery


def test_a_corps_move_with_one_unit_left_behind_is_exactly_the_contracts_action_and_legal():
    game = new_game()
    red, _ = tablet(game, "red")
    menu = red.triumph.menu()
    index = next(i for i, e in enumerate(menu) if e["type"] == "corps_move"
                 and e["commander"] == "Bagration")
    red.triumph.pick_entry(index)
    command = red.triumph.command
    units = menu[index]["units"]
    assert command.picked == units and command.missing() == "destination"
    command.toggle(units[-1])  # leave the last unit behind
    assert command.choose("R66")
    action = command.action()
    assert action == {"type": "corps_move", "commander": "Bagration", "units": units[:-1],
                      "to": "R66"}
    assert contract_command("nt", {"action": action}) == ("nt", {"action": action})
    assert legal(game, action, "allied") is None
    for unit in units:
        command.toggle(unit)  # every unit unticked (the last one ticked again, then all off)
    command.picked = []
    assert command.missing() == "units" and command.action() is None


@pytest.mark.parametrize("french_turn", [False, True])
def test_every_entry_of_the_menu_composes_a_legal_action_for_every_destination(french_turn):
    game = new_game()
    if french_turn:
        game.push(action_from_dict({"side": "allied", "type": "end_turn"}))
    seat, side = ("blue", "french") if french_turn else ("red", "allied")
    state, _ = tablet(game, seat)
    checked = 0
    for index, entry in enumerate(state.triumph.menu()):
        state.triumph.pick_entry(index)
        command = state.triumph.command
        if entry["type"] in ("detach_move", "unit_move", "attach"):
            command.toggle(entry["units"][0])
        choices = range(len(command.destinations)) if command.destinations else [None]
        for choice in choices:
            if choice is not None:
                command.choose_index(choice)
            action = command.action()
            assert action is not None, entry
            assert "side" not in action
            assert legal(game, action, side) is None, action
            checked += 1
    assert checked > 100  # corps, detachments, single units, roads and the end of the turn


def test_a_road_that_may_end_blocking_offers_each_approach_by_that_road():
    command = Command.start({"type": "unit_move", "units": ["c1"],
                             "to": ["R56", {"to": "R57", "road": [56, 57], "block": [49, 58]}]})
    assert command.positions() == ["R56", "R57", "57>49", "57>58"]
    assert command.choose("57>58")
    assert command.action() == {"type": "unit_move", "unit": "c1", "to": "57>58", "road": [56, 57]}


def test_the_defender_answers_a_threat_with_the_engines_options_and_the_attacker_waits():
    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    to_allied_threat(table)
    game = table.game
    blue, _ = tablet(game, "blue")
    red, _ = tablet(game, "red")
    assert blue.triumph.awaiting() == ("french", "response") and blue.triumph.my_decision()
    assert red.triumph.options() == [] and not red.triumph.my_decision()
    tr = Translator("en")
    attack = red.triumph.view["attack"]
    assert decision_text(tr, "response", attack, False, "french") == \
        "Waiting for the French: defend or retreat"
    assert decision_text(tr, "response", attack, True, "french") == "Threat on 93: defend or retreat"
    options = blue.triumph.options()
    kinds = {o["type"] for o in options}
    assert kinds == {"defend", "retreat"}
    assert len(options) == len({repr(o) for o in options})  # the engine's repeats shown once
    units = blue.triumph.units_by_id()
    texts = [option_text(tr, o, units) for o in options]
    assert "Defend with Infantry 3, Infantry 2 ×3" in texts
    assert any(t.startswith("Retreat: Infantry 3, Infantry 2 ×3 to ") for t in texts)
    for option in options:
        action = {k: v for k, v in option.items() if k != "side"}
        assert legal(game, action, "french") is None


def test_instructions_after_a_combat_are_the_own_blocks_only_and_keep_their_done_marks():
    table = RefereeTable()
    table.start(standard_setup("french"), standard_setup("allied"))
    to_allied_threat(table)
    table.play(next(a for a in table.game.legal_actions() if a.type == "defend"))
    finish_attack(table)
    game = table.game
    blocks = table.instructions["blue"]
    blue, adapter = tablet(game, "blue", instructions=blocks)
    steps = blue.triumph.steps()
    assert steps and steps[-1][0] == blocks[-1]["seq"]  # in the order they happened
    tr = Translator("en")
    texts = [step_text(tr, step) for _, _, step, _ in steps]
    assert any("St. Hilaire" in t or " at 93" in t for t in texts), texts
    assert all("Liechtenstein" not in t for t in texts)  # nothing about the enemy's blocks
    seq, index, _, done = steps[-1]
    assert not done
    blue.triumph.toggle_done(seq, index)
    adapter.seat_state(seat_state(game, "blue", instructions=blocks))  # a new snapshot
    assert blue.triumph.steps()[-1][3] is True
    blue.triumph.toggle_done(seq, index)
    assert blue.triumph.steps()[-1][3] is False
    # A block whose steps are all done drops out of the recent ones (the newest one stays).
    old = {"seq": 1, "steps": [{"step": "show", "at": "R93", "faces": [I3]}]}
    adapter.seat_state(seat_state(game, "blue", instructions=[old, *blocks]))
    assert blue.triumph.steps(blocks=4)[0][0] == 1
    blue.triumph.toggle_done(1, 0)
    assert all(s != 1 for s, *_ in blue.triumph.steps(blocks=4))
    assert [s for s, *_ in blue.triumph.steps()][0] == 1  # all of them: still there
    blue.apply("new_game", {})
    assert blue.triumph.steps() == [] and blue.triumph.seat == "blue"


def test_a_refusal_names_its_rule_and_text_and_a_new_view_clears_it():
    game = new_game()
    red, adapter = tablet(game, "red")
    red.triumph.pick_entry(0)
    adapter.reply({"ok": False, "code": "illegal", "message": "nt-road: the road is closed here"})
    assert red.triumph.refusal == {"rule": "nt-road", "message": "the road is closed here"}
    assert refusal_title(Translator("en"), "nt-road") == "Road movement"
    assert refusal_title(Translator("de"), "nt-capacity") == "Fassungsvermögen"
    game.push(action_from_dict({"side": "allied", "type": "end_turn"}))
    adapter.seat_state(seat_state(game, "red"))
    assert red.triumph.refusal is None and red.triumph.command is None
    # any other answer frees the tablet from "Sent. Waiting for the referee..." too
    red.triumph.sent_action({"type": "end_turn"})
    adapter.reply({"ok": False, "code": "not-your-turn", "message": "it is not your turn"})
    assert red.triumph.sent is None and red.triumph.notice == "It is not your turn."
    game.push(action_from_dict({"side": "french", "type": "end_turn"}))
    adapter.seat_state(seat_state(game, "red"))
    assert red.triumph.notice is None


def test_the_setup_object_passes_through_and_a_setup_refusal_is_shown():
    setup = standard_setup("french")
    blue, adapter = tablet(None, "blue", phase="setup", setup=setup)
    assert blue.triumph.setup == setup and blue.phase == "placing"
    adapter.reply({"ok": False, "code": "invalid-setup", "message": "french set-up: no"})
    assert blue.setup_errors == ["french set-up: no"]


def test_a_setup_refusal_only_the_referee_saw_is_worded_in_the_tablets_language():
    blue, adapter = tablet(None, "blue", phase="setup", setup=standard_setup("french"))
    adapter.reply({"ok": False, "code": "invalid-setup", "reason": "setup-together",
                   "message": "set-up: R64 is over capacity", "data": {"side": None, "problem": "R64"}})
    (refusal,) = blue.setup_refusals
    assert refusal["reason"] == "setup-together" and refusal["message"] == blue.setup_errors[0]
    german = refusal_sentence(Translator("de"), refusal)
    assert german and "capacity" not in german and german != refusal_sentence(Translator("en"), refusal)


def test_the_setup_draft_starts_standard_and_the_engine_judges_each_change():
    french = TriumphSetupDraft("french")
    assert french.problem() is None
    legrand = [u["id"] for u in french.units if u.get("commander") == "Legrand"]
    french.move_to_corps(legrand[0], "St. Hilaire")
    assert "Legrand's corps has 2 units" in (french.problem() or "")
    french.move_to_corps(legrand[0], "Legrand")
    vandamme = [u["id"] for u in french.units if u.get("commander") == "Vandamme"]
    french.detach(vandamme[-2], "R73")
    assert french.unit(vandamme[-2]) | {"at": "R73", "from": "Vandamme"} == french.unit(vandamme[-2])
    assert "commander" not in french.unit(vandamme[-2])
    assert french.problem() is None
    allied = TriumphSetupDraft("allied")
    allied.detach(allied.units[0]["id"], "R66")
    assert "the Allies place no detachments" in (allied.problem() or "")


def test_sentences_name_faces_positions_and_commanders_as_printed():
    tr = Translator("en")
    move = {"step": "move", "commander": "Lannes", "flag": True, "faces": [I3, I2], "from": "R64",
            "to": "R63"}
    assert step_text(tr, move) == ("Move Lannes' flag and your Infantry 3, Infantry 2 from 64 to "
                                   "the reserve of 63")
    replace = {"step": "replace", "commander": "Lannes", "at": "R63", "before": I3, "after": I2}
    assert step_text(tr, replace) == "Replace one Infantry 3 of Lannes at 63 with one Infantry 2"
    assert step_text(tr, {"step": "remove", "commander": None, "at": "R39", "face": C2}) == \
        "Remove the Cavalry 2 at 39"
    assert step_text(tr, {"step": "show", "at": "52>53", "faces": [C2]}) == \
        "Show your Cavalry 2 at 52>53 to your opponent"
    assert step_text(tr, {"step": "remove_flag", "commander": "St. Hilaire", "at": "R93"}) == \
        "Take St. Hilaire's flag off the map at 93"
    guard = {"type": "infantry", "strength": 3, "guard": True}
    assert [face_text(Translator(code), guard) for code in ("en", "de", "bg")] == [
        "Guard Infantry 3", "Garde-Infanterie 3", "Гвардейска пехота 3"]
    assert [face_text(Translator(code), I3) for code in ("en", "de", "bg")] == [
        "Infantry 3", "Infanterie 3", "Пехота 3"]
    de = Translator("de")
    assert step_text(de, move) == ("Bewege die Fahne von Lannes und deine Infanterie 3, "
                                   "Infanterie 2 von 64 in die Reserve von 63")
    assert commands_text(tr, {"corps_used": 2, "corps_limit": 5, "independent_used": 1,
                              "independent_limit": 3, "commanders": 9}) == \
        "Corps commands left: 3 of 5 · Independent commands left: 2 of 3"
    assert commands_text(tr, {"corps_used": 4, "corps_limit": None, "independent_used": 0,
                              "independent_limit": 4, "commanders": 6}) == \
        "Corps commands: unlimited (4 of 6 commanders used) · Independent commands left: 4 of 4"
    assert menu_text(tr, {"type": "threat", "from": 94, "into": 93, "guard": ["g"]}, {}) == \
        "Threaten 93 from 94 (Guard Attack possible)"


def test_through_a_random_game_each_road_ending_blocking_composes_a_legal_action():
    import random

    rng = random.Random(2)
    game = new_game()
    blocking = 0
    for _ in range(80):
        side, decision = game.awaiting()
        if decision == "command":
            state, _ = tablet(game, "red" if side == "allied" else "blue")
            for index, entry in enumerate(state.triumph.menu()):
                state.triumph.pick_entry(index)
                command = state.triumph.command
                if entry["type"] in ("detach_move", "unit_move", "attach"):
                    command.toggle(entry["units"][0])
                for choice, dest in enumerate(command.destinations):
                    written = [d for d in entry["to"] if isinstance(d, dict) and d.get("block")]
                    if isinstance(dest, dict) and ">" in dest["to"] and written:
                        command.choose_index(choice)
                        assert legal(game, command.action(), side) is None, command.action()
                        blocking += 1
        actions = game.legal_actions()
        moves = [a for a in actions if a.type in ("corps_move", "unit_move")]
        game.push(rng.choice(moves) if moves and rng.random() < 0.7 else rng.choice(actions))
    assert blocking > 20


def test_the_end_of_a_battle_is_told_in_the_tablets_language_not_the_engines_english():
    from companion_app.i18n.triumph_tablet_texts import result_line

    resigned = {"winner": "allied", "reason": "resignation", "why": "the french player resigned"}
    assert result_line(Translator("en"), resigned, "allied") == "You won! (The French resigned.)"
    assert result_line(Translator("de"), resigned, "french") == \
        "Die Alliierten haben gewonnen. (Die Franzosen haben aufgegeben.)"
    judged = {"winner": "allied", "reason": "objectives", "why": "the reinforced French hold no black objective"}
    assert "the reinforced French" not in result_line(Translator("bg"), judged, "french")
