"""Guidance for putting the board right: nearest piece first, as steps and as LED colours.

The recogniser reports *what* differs (firmware_bridge.board.recognition.BoardMismatch); this
module orders it for a person standing at the board and turns it into steps (move the piece
from e5 to e4, take the piece off d7: the vocabulary of firmware_bridge.protocol.board_steps,
which the referee publishes as data and each app words in its language) and into the LED
colour codes the scanner firmware shows (hardware/firmware/protocol.py: green = fill / the
move made, red = clear, amber = illegal move, blue = the piece to replace). It never names a
rank: which piece belongs on a square is told privately to its owner by the referee, not here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import Move, Square
from firmware_bridge.protocol.board_steps import BoardStep, StepAction
from hardware.firmware import protocol


def order_nearest(squares: Iterable[Square], focus: Square) -> tuple[Square, ...]:
    """Squares sorted nearest to focus first (ties: lower rank, then file)."""
    return tuple(sorted(squares, key=lambda s: (s.distance(focus), s.rank, s.file)))


@dataclass(frozen=True)
class Step:
    """One thing to do with one hand (see StepAction)."""

    action: StepAction
    square: Square
    to: Square | None = None

    def payload(self) -> BoardStep:
        """The step as the contract carries it: {"action", "square"} and "to" for a move."""
        step: BoardStep = {"action": self.action.value, "square": self.square.name}
        if self.to is not None:
            step["to"] = self.to.name
        return step


def as_plan(steps: Iterable[Step]) -> list[BoardStep]:
    """Steps as the contract's ``plan``."""
    return [step.payload() for step in steps]


def plan_steps(clear: Iterable[Square], fill: Iterable[Square], wrong: Iterable[Square] = (),
               focus: Square | None = None, volcanoes: Iterable[Square] = ()) -> list[Step]:
    """Steps that fix the board: a stray piece goes to the nearest empty square it belongs on.

    volcanoes: volcano squares (Espionage); one of them in ``fill`` wants a volcano marker,
    never a piece.
    """
    volcanoes = set(volcanoes)
    markers = [square for square in fill if square in volcanoes]
    clear, fill = list(clear), [square for square in fill if square not in volcanoes]
    focus = focus or (clear + fill + list(wrong) or [Square(0, 0)])[0]
    steps: list[Step] = []
    for stray in order_nearest(clear, focus):
        if fill:
            # A piece standing next to where one is missing was most likely nudged there.
            home = min(fill, key=lambda s: (s.distance(stray), s.rank, s.file))
            if home.distance(stray) <= 2:
                fill.remove(home)
                steps.append(Step(StepAction.MOVE, stray, home))
                continue
        steps.append(Step(StepAction.REMOVE, stray))
    steps += [Step(StepAction.PUT_BACK, square) for square in order_nearest(fill, focus)]
    steps += [Step(StepAction.MARKER, square) for square in order_nearest(markers, focus)]
    steps += [Step(StepAction.REPLACE, square) for square in order_nearest(wrong, focus)]
    return steps


def in_board_order(squares: Iterable[Square]) -> list[Square]:
    """Squares as players read the board: by rank, then file."""
    return sorted(squares, key=lambda s: (s.rank, s.file))


def setup_steps(clear: Iterable[Square], fill: Iterable[Square], volcanoes: Iterable[Square] = ()) -> list[Step]:
    """Before the first move: take strays off, place the setups' pieces, put the markers down.

    fill: squares a submitted setup puts a piece on, and volcanoes whose marker the sensors
    should see; each list in board order, as the players set up.
    """
    volcanoes = set(volcanoes)
    fill = in_board_order(fill)
    return ([Step(StepAction.REMOVE, square) for square in in_board_order(clear)]
            + [Step(StepAction.PLACE, square) for square in fill if square not in volcanoes]
            + [Step(StepAction.MARKER, square) for square in fill if square in volcanoes])


def volcano_marker_steps(volcanoes: Iterable[Square]) -> list[Step]:
    """What to tell the players when an Espionage game is created: one marker per volcano."""
    return [Step(StepAction.MARKER, square) for square in in_board_order(volcanoes)]


# The colour each step lights: where a piece goes, green; where one comes off, red.
STEP_LEDS = {StepAction.REMOVE: protocol.LED_RED, StepAction.PUT_BACK: protocol.LED_GREEN,
             StepAction.PLACE: protocol.LED_GREEN, StepAction.MARKER: protocol.LED_GREEN,
             StepAction.REPLACE: protocol.LED_BLUE}


def led_colours(width: int, height: int, steps: Iterable[Step] = (), *,
                last_move: Move | None = None, illegal: Move | None = None) -> list[int]:
    """One LED colour code per square (index rank * width + file) for SET_LEDS.

    The board lights the same steps the tablets read: a move's square red and its target
    green, a square to clear red, a square to fill green, a wrong piece blue; then the move
    just made (green) or an illegal one (amber, over all else).
    """
    colours = [protocol.LED_OFF] * (width * height)

    def light(square: Square, code: int) -> None:
        if 0 <= square.file < width and 0 <= square.rank < height:
            colours[square.rank * width + square.file] = code

    if last_move is not None:
        light(last_move.origin, protocol.LED_GREEN)
        light(last_move.target, protocol.LED_GREEN)
    for step in steps:
        if step.action == StepAction.MOVE and step.to is not None:
            light(step.square, protocol.LED_RED)
            light(step.to, protocol.LED_GREEN)
        elif step.action in STEP_LEDS:
            light(step.square, STEP_LEDS[step.action])
    if illegal is not None:
        light(illegal.origin, protocol.LED_AMBER)
        light(illegal.target, protocol.LED_AMBER)
    return colours
