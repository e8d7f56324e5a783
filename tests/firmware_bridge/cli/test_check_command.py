"""`arbiter check RECORD.json`: one JSON verdict on stdout and exit 0, or exit 2 and a reason on stderr."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Color, get_variant, named_setup
from firmware_bridge.cli.check import main

REPO = Path(__file__).resolve().parents[3]
ARBITER = REPO / ".venv" / "bin" / "arbiter"
GRAVON_GSN = REPO / "tests" / "engine" / "stratego" / "data" / "gravon_classic_forfeit.gsn"


def classic_setup() -> dict:
    variant = get_variant("classic")
    return {color.value: {sq.name: kind for sq, kind in
                          named_setup(variant, color, "corner-fortress").items()}
            for color in Color}


RAID = {
    "variant": "classic",
    "position": {"red": {"a1": "flag", "e4": "spy", "j2": "scout"},
                 "blue": {"a10": "flag", "e5": "marshal", "j9": "bomb", "b9": "scout"}},
    "moves": ["e4-e5", "b9-b8", "j2-j9"],
}


def run_arbiter(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    command = [str(ARBITER)] if ARBITER.exists() else [sys.executable, "-m", "firmware_bridge.cli.main"]
    return subprocess.run([*command, "check", *args], input=stdin, capture_output=True, text=True,
                          cwd=REPO, timeout=60)


def write(tmp_path: Path, content) -> Path:
    path = tmp_path / "record.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def test_the_installed_command_prints_the_verdict_and_exits_0(tmp_path):
    done = run_arbiter(str(write(tmp_path, {"variant": "classic", "setup": classic_setup(),
                                            "moves": ["a4-a5", "j7-j6"]})))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout) == {"applied": 2, "illegal": None, "battles": [], "result": None}


def test_an_illegal_move_is_a_verdict_not_an_error(tmp_path):
    record = {**RAID, "moves": ["e4-e5", "b9-b8", "j2-i3"]}
    done = run_arbiter(str(write(tmp_path, record)))
    assert done.returncode == 0
    verdict = json.loads(done.stdout)
    assert verdict["applied"] == 2
    assert verdict["illegal"] == {"index": 2, "move": "j2-i3", "rule": "movement",
                                  "message": "pieces move orthogonally, never diagonally"}
    assert verdict["battles"] == [{"attacker": "spy", "defender": "marshal", "outcome": "attacker"}]


def test_the_verdict_reports_battles_and_the_result():
    verdict = check_in_process(RAID)
    assert verdict["battles"] == [
        {"attacker": "spy", "defender": "marshal", "outcome": "attacker"},
        {"attacker": "scout", "defender": "bomb", "outcome": "defender"},
    ]
    assert verdict["result"] is None


def test_a_finished_game_names_the_winner_and_the_reason(tmp_path):
    record = {**RAID, "position": {"red": {"a1": "flag", "e4": "scout"},
                                   "blue": {"e7": "flag", "j9": "bomb"}}, "moves": ["e4-e7"]}
    done = run_arbiter(str(write(tmp_path, record)))
    assert json.loads(done.stdout)["result"] == {"winner": "red", "reason": "flag-captured"}


def test_a_chase_that_would_repeat_a_position_is_refused_by_the_more_squares_rule(tmp_path):
    """Example 2.1 of docs/rules/repetition.md: a General chases a Major round a block."""
    chase = ["a2-a1", "b1-b2", "a1-b1", "b2-a2", "b1-b2", "a2-a1", "b2-a2", "a1-b1", "a2-a1"]
    record = {"variant": "classic", "moves": chase, "position": {
        "red": {"a2": "general", "j1": "flag", "j2": "sergeant"},
        "blue": {"b1": "major", "j10": "flag", "j9": "scout"}}}
    done = run_arbiter(str(write(tmp_path, record)))
    verdict = json.loads(done.stdout)
    assert verdict["applied"] == 8
    assert verdict["illegal"]["index"] == 8 and verdict["illegal"]["rule"] == "more-squares"


def test_the_record_can_come_from_standard_input():
    done = run_arbiter("-", stdin=json.dumps({**RAID, "ending": {"reason": "agreement"}}))
    assert done.returncode == 0
    assert json.loads(done.stdout)["result"] == {"winner": None, "reason": "agreement"}


def check_in_process(record) -> dict:
    """Run `main` with a record on standard input and return the parsed verdict."""
    import io

    old_stdin, old_stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(json.dumps(record)), io.StringIO()
    try:
        assert main(["-"]) == 0
        return json.loads(sys.stdout.getvalue())
    finally:
        sys.stdin, sys.stdout = old_stdin, old_stdout


@pytest.mark.parametrize("reason, color, result", [
    ("resignation", "red", {"winner": "blue", "reason": "resignation"}),
    ("clock", "blue", {"winner": "red", "reason": "clock"}),
    ("game-time", None, {"winner": None, "reason": "game-time"}),
    ("agreement", None, {"winner": None, "reason": "agreement"}),
])
def test_endings_the_players_declare(tmp_path, capsys, reason, color, result):
    ending = {"reason": reason} if color is None else {"reason": reason, "color": color}
    path = write(tmp_path, {**RAID, "ending": ending})
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == result


def test_a_study_with_blue_to_move(tmp_path, capsys):
    record = {"variant": "barrage", "to_move": "blue",
              "position": {"red": {"e4": "marshal", "a1": "flag"}, "blue": {"e5": "spy", "j10": "flag"}},
              "moves": ["e5-e4"]}
    assert main([str(write(tmp_path, record))]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["battles"] == [{"attacker": "spy", "defender": "marshal", "outcome": "attacker"}]


INVALID = {
    "not JSON": ("{variant: classic", "not JSON"),
    "not an object": ("[1, 2]", "a record is a JSON object"),
    "missing variant": ({"setup": {}}, "no 'variant'"),
    "unknown variant": ({"variant": "chess", "setup": {}}, "unknown variant 'chess'"),
    "both setup and position": ({"variant": "classic", "setup": {}, "position": {}},
                                "either 'setup' or 'position'"),
    "invalid setup": ({"variant": "classic", "setup": {"red": {"a1": "flag"}, "blue": {}}},
                      "Red has 0 Scouts, needs 8"),
    "bad square": ({"variant": "classic", "position": {"red": {"k11": "flag"}}},
                   "not on the 10x10 board"),
    "not a move": ({**RAID, "moves": ["e4 to e5"]}, "move 0 is not a move"),
    "ending without colour": ({**RAID, "ending": {"reason": "resignation"}}, "needs the 'color'"),
}


@pytest.mark.parametrize("content, complaint", INVALID.values(), ids=INVALID.keys())
def test_an_invalid_record_exits_2_with_the_reason_on_stderr(tmp_path, capsys, content, complaint):
    assert main([str(write(tmp_path, content))]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("arbiter check: ") and complaint in err


def test_the_installed_command_exits_2_for_an_invalid_setup(tmp_path):
    setup = classic_setup()
    setup["blue"].pop("a10")
    done = run_arbiter(str(write(tmp_path, {"variant": "classic", "setup": setup})))
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Blue's zone must be full; empty: a10" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_file_that_cannot_be_read_exits_2(tmp_path, capsys):
    assert main([str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert main([str(binary)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_a_gravon_file_is_read_by_its_content(capsys):
    assert main([str(GRAVON_GSN)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["result"] == {"winner": "red", "reason": "resignation"}


def test_deeply_nested_json_is_refused_not_crashed(tmp_path, capsys):
    assert main([str(write(tmp_path, "[" * 100_000))]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_no_argument_is_a_usage_error():
    done = run_arbiter()
    assert done.returncode == 2
    assert "usage" in done.stderr
