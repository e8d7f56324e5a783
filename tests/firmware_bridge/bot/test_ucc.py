"""The UCC 2012 protocol: lines as the competition's manager writes them, and a real round trip.

The sample lines are from the competition's published game logs and its sample agent
(progcomp2012: basic_python.py's setup, "basic_python.vs.vixen" round 4): Red's setup rows are
board rows y = 0..3, Blue's rows y = 6..9 (its back row last); UP is y - 1.
"""

from __future__ import annotations

import io
import sys

from engine import Color, get_variant, validate_setup
from engine.stratego.squares import Square
from firmware_bridge.bot.match import run_match
from firmware_bridge.bot.ucc import (
    board_lines,
    move_answer,
    parse_answer,
    read_setup,
    result_line,
    setup_lines,
)
from firmware_bridge.bot.ucc_bot import UccSeat, serve
from firmware_bridge.cli.main import main as arbiter

CLASSIC = get_variant("classic")
# The sample agent's setup, as it prints it for Red (for Blue it prints the rows reversed).
SAMPLE = ["FB8sB479B8", "BB31555583", "6724898974", "967B669999"]


def test_the_sample_agents_setup_reads_as_a_valid_setup_for_both_colours() -> None:
    red = read_setup(CLASSIC, Color.RED, SAMPLE)
    blue = read_setup(CLASSIC, Color.BLUE, SAMPLE[::-1])
    assert red["a1"] == "flag" and red["d1"] == "spy" and red["d2"] == "marshal"
    assert blue["a10"] == "flag" and blue["d9"] == "marshal"  # Blue's back row is y = 9
    for color, setup in ((Color.RED, red), (Color.BLUE, blue)):
        assert validate_setup(CLASSIC, color, {Square.parse(s): k for s, k in setup.items()}) == []
    assert setup_lines(CLASSIC, Color.RED, red) == SAMPLE
    assert setup_lines(CLASSIC, Color.BLUE, blue) == SAMPLE[::-1]


def test_moves_and_result_lines_as_in_the_competition_logs() -> None:
    assert parse_answer("0 3 DOWN") == "a4-a5"  # "1 RED: 0 3 DOWN OK"
    assert parse_answer("1 6 UP") == "b7-b6"  # "1 BLU: 1 6 UP OK"
    assert parse_answer("9 8 UP 3") == "j9-j6"
    assert move_answer("a4-a5") == "0 3 DOWN" and move_answer("j9-j6") == "9 8 UP 3"
    battle = [{"type": "move", "move": "e5-e4"},
              {"type": "battle", "attacker": "lieutenant", "defender": "lieutenant",
               "outcome": "both"}]
    assert result_line(CLASSIC, battle) == "4 4 UP BOTHDIE 6 6"  # "4 BLU: 4 4 UP BOTHDIE 6 6"
    flag = [{"type": "move", "move": "b1-a1"},
            {"type": "battle", "attacker": "miner", "defender": "flag", "outcome": "attacker"}]
    assert result_line(CLASSIC, flag) == "1 0 LEFT VICTORY_FLAG"  # "142 BLU: 1 0 LEFT VICTORY_FLAG"


def test_blue_rebuilds_its_view_from_the_first_board_and_reds_first_move() -> None:
    blue_setup = read_setup(CLASSIC, Color.BLUE, SAMPLE[::-1])
    seat = UccSeat(CLASSIC, Color.BLUE, blue_setup)
    seat.apply("0 3 DOWN OK")  # Red's first move comes before Blue's first board
    board = ["#" * 10, "#" * 10, "#" * 10, ".#########", "#.++..++..", "..++..++.."]
    board += SAMPLE[::-1]
    events = seat.start(board)
    view = seat.view(events)
    assert [e["type"] for e in events] == ["move", "turn"]
    assert {p["square"] for p in view["pieces"] if p["color"] == "red"} == (
        {Square(x, y).name for y in range(4) for x in range(10)} - {"a4"} | {"a5"})
    assert events[0]["piece_id"] == 30  # a4 was piece 30 at the start (ids follow the squares)
    assert board_lines(view, CLASSIC)[4].startswith("#.++")


def test_our_bot_speaks_the_protocol_in_process() -> None:
    from firmware_bridge.bot.players import RandomPlayer

    stdin = io.StringIO("RED opponent 10 10\nSTART\n" + "\n".join(
        board_lines_for_start()) + "\nQUIT\n")
    stdout = io.StringIO()
    assert serve(lambda color, _: RandomPlayer("classic", color, 1), CLASSIC, stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    setup = read_setup(CLASSIC, Color.RED, lines[:4])
    assert validate_setup(CLASSIC, Color.RED, {Square.parse(s): k for s, k in setup.items()}) == []
    assert parse_answer(lines[4])  # one move, in the protocol's form


def board_lines_for_start() -> list[str]:
    # Any full Red setup row works for the first board; the seat reads its own pieces from it.
    from firmware_bridge.bot.players import RandomPlayer

    red = RandomPlayer("classic", Color.RED, 1)
    rows = setup_lines(CLASSIC, Color.RED, red.choose_setup())
    return rows + ["..++..++..", "..++..++.."] + ["#" * 10] * 4


def test_arbiter_bot_ucc_as_a_real_subprocess_plays_a_match_to_the_end(capsys) -> None:
    command = f"{sys.executable} -m firmware_bridge.cli.main bot --ucc --level easy --seed 4"
    tally, results = run_match(f"ucc:{command}", "random", 2, "classic", 4, 1000)
    assert tally.games == 2
    for result in results:
        assert not result.reason.startswith("forfeit"), result
        assert result.reason != "invalid-setup"
    assert arbiter(["bot", "--ucc", "--level", "nonsense"]) == 2


def test_with_a_recall_folder_the_bot_remembers_the_opponent_the_manager_names(tmp_path) -> None:
    """`arbiter bot --ucc --recall DIR` plays one game a process: what it saw of the opponent
    goes into a file named for the opponent in the header (our manager says "arbiter"), also
    when the game is cut off at the ply cap."""
    from firmware_bridge.bot.recall_shelf import RecallShelf

    command = (f"{sys.executable} -m firmware_bridge.cli.main bot --ucc --level normal --seed 4 "
               f"--recall {tmp_path}")
    tally, _ = run_match(f"ucc:{command}", "random", 1, "classic", 4, 120)
    assert tally.games == 1
    assert [path.name.split("-")[0] for path in tmp_path.iterdir()] == ["ucc_arbiter"]
    assert RecallShelf(tmp_path).recollection("ucc:arbiter", CLASSIC).games == [1]
