"""Board guidance: each thing that can be wrong on the board gives the steps a person would take.

The steps are checked as the public ``board_check.plan`` carries them (the referee's board
watcher and its setup-phase check), so what is tested here is what the tablets receive.
"""

from __future__ import annotations

from engine import Color, Game, Move, Square, get_variant, random_setup
from firmware_bridge.board.guidance import (
    Step,
    led_colours,
    plan_steps,
    setup_steps,
    volcano_marker_steps,
)
from firmware_bridge.board.position import ExpectedPosition
from firmware_bridge.board.recognition import IllegalAttempt, MoveMade
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.protocol import contract, crypto
from firmware_bridge.protocol.board_steps import StepAction, known_step, plan_problem
from firmware_bridge.referee.board_input import BoardWatcher
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.firmware import protocol
from tests.firmware_bridge.board.test_recognition import position

S = Square.parse
CLASSIC = get_variant("classic")


class Table:
    """A game, the referee's board watcher, and the hands that change the board."""

    def __init__(self, game: Game, volcano_markers_sensed: bool | None = None) -> None:
        self.game = game
        self.moves: list[MoveMade | IllegalAttempt] = []
        self.watcher = BoardWatcher(self.moves.append, volcano_markers_sensed)
        self.occupied = set(game.occupied())
        self.time = 100.0
        self.show()

    def show(self) -> None:
        self.time += 0.3
        self.watcher.feed(StableBoard.from_squares(self.occupied, 10, 10, self.time),
                          ExpectedPosition.of(self.game))
        for made in self.moves:  # as the referee does: rule the move, then hand over the position
            if isinstance(made, MoveMade):
                self.game.push(made.move)
                self.watcher.ruled(ExpectedPosition.of(self.game))
        self.moves.clear()

    def lift(self, *squares: str) -> Table:
        for square in squares:
            self.occupied.discard(S(square))
            self.show()
        return self

    def place(self, *squares: str) -> Table:
        for square in squares:
            self.occupied.add(S(square))
            self.show()
        return self

    def check(self) -> dict:
        """The public board_check; its plan must be what the contract accepts."""
        check = self.watcher.check()
        assert plan_problem(check["plan"]) is None
        return check

    def plan(self) -> list[dict]:
        return self.check()["plan"]


def test_a_board_that_matches_the_game_needs_no_step():
    table = Table(position(e4=(Color.RED, "major")))
    assert table.check()["matches"] and table.plan() == []


def test_a_nudged_piece_goes_back_to_the_square_next_to_it():
    table = Table(position(e4=(Color.RED, "major"), g7=(Color.BLUE, "scout")))
    table.lift("g7").place("g8")  # knocked one square on: most likely nudged, not a new piece
    assert table.plan() == [{"action": "move", "square": "g8", "to": "g7"}]


def test_a_stray_piece_far_from_any_gap_comes_off_and_a_missing_one_goes_back():
    table = Table(position(e4=(Color.RED, "major"), b9=(Color.BLUE, "scout")))
    table.lift("b9").place("h3")
    assert table.plan() == [{"action": "remove", "square": "h3"}, {"action": "put_back", "square": "b9"}]


def test_after_a_battle_the_defender_wins_the_winner_is_swapped_back_in():
    table = Table(position(e4=(Color.RED, "captain"), e5=(Color.BLUE, "major")))
    table.lift("e5", "e4").place("e5")  # the attacker stands where the battle was
    check = table.check()
    assert check["reason"] == "after-battle"
    # Occupancy sensors see the square filled: the piece on it is the wrong one.
    assert check["plan"] == [{"action": "replace", "square": "e5"}]
    table.lift("e5")
    assert table.plan() == [{"action": "put_back", "square": "e5"}]
    table.place("e5")
    assert table.check()["matches"]


def test_after_a_battle_of_equal_ranks_both_pieces_come_off():
    table = Table(position(e4=(Color.RED, "major"), e5=(Color.BLUE, "major")))
    table.lift("e4", "e5").place("e5")
    check = table.check()
    assert check["reason"] == "after-battle"
    assert check["plan"] == [{"action": "remove", "square": "e5"}]


def test_a_takeback_asks_for_the_piece_to_go_back_where_it_came_from():
    table = Table(position(e4=(Color.RED, "major")))
    table.lift("e4").place("e5")
    assert table.game.ply == 1
    table.game.pop()
    table.watcher.ruled(ExpectedPosition.of(table.game))
    check = table.check()
    assert check["reason"] == "restore"
    assert check["plan"] == [{"action": "move", "square": "e5", "to": "e4"}]


def test_a_missing_sensed_volcano_marker_is_asked_for_as_a_marker_not_a_piece():
    pieces = {S("a1"): (Color.RED, "headquarters"), S("c3"): (Color.RED, "corporal"),
              S("j10"): (Color.BLUE, "headquarters"), S("h8"): (Color.BLUE, "corporal")}
    game = Game.from_position(get_variant("espionage"), pieces, volcanoes=(S("e5"), S("f6")))
    table = Table(game, volcano_markers_sensed=True)  # the sensors see a marker: both are missing
    assert sorted(step["square"] for step in table.plan()) == ["e5", "f6"]
    assert {step["action"] for step in table.plan()} == {"marker"}
    table.place("e5")
    assert table.plan() == [{"action": "marker", "square": "f6"}]


def test_setup_steps_take_strays_off_then_place_the_setup_then_the_markers_in_board_order():
    steps = setup_steps(clear=[S("e5")], fill=[S("b4"), S("a1"), S("d6")], volcanoes=[S("d6")])
    assert [step.payload() for step in steps] == [
        {"action": "remove", "square": "e5"}, {"action": "place", "square": "a1"},
        {"action": "place", "square": "b4"}, {"action": "marker", "square": "d6"}]


def test_before_the_first_move_the_referee_asks_for_the_setups_pieces_to_be_placed(tmp_path):
    referee = Referee(RefereeSettings("steps", tmp_path / "journal.db", "mqtt://127.0.0.1:9", variant="barrage"))
    try:
        session = referee.session
        tablet_key = crypto.key_to_text(crypto.PrivateKey.generate().public_key)
        session.pair("red", tablet_key, "tablet-red")
        setup = {s.name: kind for s, kind in random_setup(session.variant, Color.RED).items()}
        reply, _ = session.execute("red", {"v": 1, "id": "r-1", "seat": "red", "counter": 1,
                                           "type": "setup", "args": {"setup": setup}})
        assert reply["ok"] and session.phase == "setup"
        squares = sorted(setup, key=lambda name: (S(name).rank, S(name).file))
        referee.on_board([*squares[1:], "e5"])  # the first piece not down yet, a stray on e5
        check = referee.board_check()
        assert check["reason"] == "setup" and not check["matches"]
        assert check["plan"] == [{"action": "remove", "square": "e5"}, {"action": "place", "square": squares[0]}]
        contract.validate("state", {**session.public_state("steps", set()), "board_check": check})
    finally:
        referee.journal.close()


def test_the_volcano_markers_of_a_new_game_are_one_marker_step_each_in_board_order():
    steps = volcano_marker_steps([S("h6"), S("b5"), S("d6")])
    assert steps == [Step(StepAction.MARKER, S("b5")), Step(StepAction.MARKER, S("d6")),
                     Step(StepAction.MARKER, S("h6"))]


def test_every_step_the_guidance_makes_is_one_the_apps_know():
    steps = (plan_steps([S("e6"), S("a9")], [S("e5"), S("c3"), S("d6")], [S("b2")], volcanoes=[S("d6")])
             + setup_steps([S("e6")], [S("a1")]))
    assert {step.action for step in steps} == set(StepAction)
    assert all(known_step(step.payload()) == step.payload() for step in steps)


def test_the_leds_light_the_same_steps():
    steps = plan_steps(clear=[S("e6"), S("a9")], fill=[S("e5")], wrong=[S("c1")], focus=S("e5"))
    assert [step.payload() for step in steps] == [
        {"action": "move", "square": "e6", "to": "e5"}, {"action": "remove", "square": "a9"},
        {"action": "replace", "square": "c1"}]
    colours = led_colours(10, 10, steps, illegal=Move.parse("b1-b2"))

    def at(name: str) -> int:
        return colours[S(name).rank * 10 + S(name).file]

    assert (at("e6"), at("e5"), at("a9"), at("c1")) == (protocol.LED_RED, protocol.LED_GREEN,
                                                        protocol.LED_RED, protocol.LED_BLUE)
    assert (at("b1"), at("b2"), at("d4")) == (protocol.LED_AMBER, protocol.LED_AMBER, protocol.LED_OFF)
    marker = led_colours(10, 10, volcano_marker_steps([S("d6")]) + setup_steps([], [S("a1")]))
    assert (marker[S("d6").rank * 10 + 3], marker[0]) == (protocol.LED_GREEN, protocol.LED_GREEN)


def test_the_contract_refuses_a_board_check_whose_plan_is_no_list_of_steps():
    state = {"v": 1, "board": "b", "game": "g", "seq": 0, "phase": "playing", "view": None, "seats": {}}
    good = {"matches": False, "plan": [{"action": "move", "square": "e5", "to": "e4"}]}
    contract.validate("state", {**state, "board_check": good})
    # A newer referee may ask for a step this version does not know: still well-formed.
    contract.validate("state", {**state, "board_check": {"plan": [{"action": "lift", "square": "e5"}]}})
    for plan in ("take the piece off e5", ["take the piece off e5"], [{"action": "remove", "square": "E5"}],
                 [{"action": "move", "square": "e5"}], [{"square": "e5"}],
                 [{"action": "remove", "square": "e5", "kind": "Marshal!"}]):
        for field in ("board_check", "volcano_markers"):
            try:
                contract.validate("state", {**state, field: {"plan": plan}})
            except contract.ContractError as error:
                assert "plan" in str(error)
            else:
                raise AssertionError(f"{field} plan {plan!r} was accepted")
