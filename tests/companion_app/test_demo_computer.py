"""`arbiter demo --computer`: a scripted person plays the computer through broker, referee and board."""

from __future__ import annotations

import re

from companion_app.demo.computer_demo import play_against_computer_headless
from companion_app.demo.launcher import parse_args


def test_the_headless_demo_plays_the_computers_shown_moves_on_the_board():
    lines: list[str] = []
    assert play_against_computer_headless("blue", "easy", plies=12, seed=3, say=lines.append) == 0
    shown = [line.strip() for line in lines if line.endswith("for the computer.")]
    made = [line.split()[-1] for line in lines if re.match(r"\s*\d+\. Blue ", line)]
    assert len(shown) == len(made) == 6, lines
    for sentence, move in zip(shown, made, strict=True):
        origin, target = move.split("-")
        assert sentence == f"Move the blue piece from {origin} to {target} for the computer."
    assert lines[-1] == "The computer's 6 moves were shown on the tablet and made on the board."


def test_the_demo_command_line_names_the_computers_seat_and_level():
    args = parse_args(["--computer", "blue", "--level", "easy", "--headless"])
    assert (args.computer, args.level) == ("blue", "easy")
    assert parse_args([]).computer is None
