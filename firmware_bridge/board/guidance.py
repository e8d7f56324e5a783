"""Guidance for putting the board right: nearest piece first, as words and as LED colours.

The recogniser reports *what* differs (firmware_bridge.board.recognition.BoardMismatch); this
module orders it for a person standing at the board and turns it into steps ("move the
piece from e5 to e4", "take the piece off d7") and into the LED colour codes the scanner
firmware shows (hardware/firmware/protocol.py: green = fill / the move made, red = clear,
amber = illegal move, blue = the piece to replace). It never names a rank: which piece
belongs on a square is told privately to its owner by the referee, not here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import Move, Square
from hardware.firmware import protocol


def order_nearest(squares: Iterable[Square], focus: Square) -> tuple[Square, ...]:
    """Squares sorted nearest to focus first (ties: lower rank, then file)."""
    return tuple(sorted(squares, key=lambda s: (s.distance(focus), s.rank, s.file)))


@dataclass(frozen=True)
class Step:
    """One thing to do with one hand: "move", "remove", "place", "replace" or "marker"."""

    action: str
    square: Square
    to: Square | None = None

    def describe(self) -> str:
        """The step in plain English."""
        if self.action == "move":
            return f"move the piece from {self.square} to {self.to}"
        if self.action == "remove":
            return f"take the piece off {self.square}"
        if self.action == "place":
            return f"put the missing piece back on {self.square}"
        if self.action == "marker":
            return f"put a volcano marker on {self.square}"
        return f"the piece on {self.square} is the wrong one: swap it for the right piece"


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
                steps.append(Step("move", stray, home))
                continue
        steps.append(Step("remove", stray))
    steps += [Step("place", square) for square in order_nearest(fill, focus)]
    steps += [Step("marker", square) for square in order_nearest(markers, focus)]
    steps += [Step("replace", square) for square in order_nearest(wrong, focus)]
    return steps


def volcano_marker_steps(volcanoes: Iterable[Square]) -> list[str]:
    """What to tell the players when an Espionage game is created: one marker per volcano."""
    return [Step("marker", square).describe() for square in sorted(volcanoes, key=lambda s: (s.rank, s.file))]


def led_colours(width: int, height: int, *, clear: Iterable[Square] = (),
                fill: Iterable[Square] = (), wrong: Iterable[Square] = (),
                last_move: Move | None = None, illegal: Move | None = None) -> list[int]:
    """One LED colour code per square (index rank * width + file) for SET_LEDS."""
    colours = [protocol.LED_OFF] * (width * height)

    def light(square: Square, code: int) -> None:
        if 0 <= square.file < width and 0 <= square.rank < height:
            colours[square.rank * width + square.file] = code

    if last_move is not None:
        light(last_move.origin, protocol.LED_GREEN)
        light(last_move.target, protocol.LED_GREEN)
    for square in fill:
        light(square, protocol.LED_GREEN)
    for square in clear:
        light(square, protocol.LED_RED)
    for square in wrong:
        light(square, protocol.LED_BLUE)
    if illegal is not None:
        light(illegal.origin, protocol.LED_AMBER)
        light(illegal.target, protocol.LED_AMBER)
    return colours
