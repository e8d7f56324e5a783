"""`arbiter check` on the Gravon corpus: files in the archive's real shapes, each with its verdict.

The files (tests/engine/stratego/data/gravon/) are hand-written in the shapes public readers of the
archive show; docs/records.md ("The corpus") says where each shape comes from.
"""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Color
from engine.stratego.formats import load
from engine.stratego.gravon import GravonResult
from firmware_bridge.cli.main import main

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO / "tests" / "engine" / "stratego" / "data" / "gravon"
RED, BLUE = Color.RED, Color.BLUE

# file: (moves applied, the verdict's result, the archive's own result (ending code, winner))
EXPECTED = {
    "barrage-raid-row10.xml": (33, ("red", "flag-captured"), (1, RED)),
    "classic-two-ends.gsn": (3, ("red", "flag-captured"), (1, RED)),
    "classic-converted-from-gsn.xml": (3, ("red", "flag-captured"), (1, RED)),
    "classicfree-unable-to-move.gsn": (1, ("red", "no-legal-move"), (0, RED)),
    "classicfree-both-unable-to-move.xml": (1, (None, "neither-can-move"), (2, None)),
    "barrage-forfeit.xml": (4, ("blue", "resignation"), (3, BLUE)),
    "barrage-tie-agreed.gsn": (4, (None, "agreement"), (4, None)),
    "barrage-both-missing.xml": (4, None, (10, None)),  # nothing to replay: the game goes on
    "classic-player-clock.gsn": (2, ("blue", "clock"), (11, BLUE)),
    "barrage-game-clock.xml": (4, (None, "game-time"), (12, None)),
    "barrage-clock-and-missing.gsn": (3, ("red", "clock"), (13, RED)),
    "classic-opponent-missing.xml": (1, ("red", "resignation"), (14, RED)),
    "duell-flag-captured.xml": (110, ("blue", "flag-captured"), (1, BLUE)),
}


def check(path: Path, capsys) -> dict:
    assert main(["check", str(path)]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_every_file_of_the_corpus_is_listed_here():
    assert sorted(p.name for p in CORPUS.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_corpus_file_imports_and_replays_to_its_result(name, capsys):
    applied, result, archive = EXPECTED[name]
    verdict = check(CORPUS / name, capsys)
    assert verdict["illegal"] is None
    assert verdict["applied"] == applied
    assert verdict["result"] == (None if result is None else {"winner": result[0], "reason": result[1]})
    game = load((CORPUS / name).read_text(encoding="utf-8"))
    assert game.archive_result == GravonResult(*archive)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_same_game_as_json_xml_and_gsn_gets_the_same_verdict(name, tmp_path, capsys):
    verdict = check(CORPUS / name, capsys)
    formats = ["json", "xml"] + ([] if name.startswith("duell") else ["gsn"])
    for to in formats:
        out = tmp_path / f"game.{to}"
        assert main(["convert", str(CORPUS / name), str(out)]) == 0, capsys.readouterr().err
        assert check(out, capsys) == verdict, to


def test_the_installed_command_checks_an_archive_file_from_standard_input():
    command = [str(REPO / ".venv" / "bin" / "arbiter")]
    if not Path(command[0]).exists():
        command = [sys.executable, "-m", "firmware_bridge.cli.main"]
    text = (CORPUS / "classic-two-ends.gsn").read_text(encoding="utf-8")
    done = subprocess.run([*command, "check", "-"], input=text, capture_output=True, text=True,
                          cwd=REPO, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"] == {"winner": "red", "reason": "flag-captured"}


def test_check_reads_by_content_whatever_the_name(tmp_path, capsys):
    disguised = tmp_path / "game.json"
    disguised.write_text((CORPUS / "barrage-raid-row10.xml").read_text(encoding="utf-8"))
    assert check(disguised, capsys)["applied"] == 33


def test_an_unreadable_archive_file_is_one_line_on_stderr_and_exit_2(tmp_path, capsys):
    broken = tmp_path / "broken.gsn"
    broken.write_text("#X38FA11 Stratego-Notation v1\ntype 3\nEND\n")
    assert main(["check", str(broken)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "not a readable Gravon game" in captured.err


def test_standard_input_works_in_process(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO((CORPUS / "barrage-tie-agreed.gsn").read_text()))
    assert main(["check", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["result"]["reason"] == "agreement"
