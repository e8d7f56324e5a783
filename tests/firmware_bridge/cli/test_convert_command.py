"""`arbiter convert IN OUT`: between JSON, Gravon XML and GSN; errors are one line and exit 2."""

import io
import json
import sys
from pathlib import Path

import pytest

from engine.stratego.formats import load
from firmware_bridge.cli.main import main, usage

CORPUS = Path(__file__).resolve().parents[3] / "tests" / "engine" / "stratego" / "data" / "gravon"
GSN = CORPUS / "classic-two-ends.gsn"


def test_convert_is_listed_in_the_help():
    assert "convert" in usage()


def test_the_output_format_follows_the_extension(tmp_path, capsys):
    out = tmp_path / "game.xml"
    assert main(["convert", str(GSN), str(out)]) == 0
    assert capsys.readouterr() == ("", "")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    game = load(text)
    assert game.format == "xml"
    assert game.players == ("Anna", "Boris")
    assert game.record == load(GSN.read_text(encoding="utf-8")).record


def test_json_out_is_a_record_that_check_accepts(tmp_path, capsys):
    out = tmp_path / "game.json"
    assert main(["convert", str(CORPUS / "classicfree-unable-to-move.gsn"), str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["variant"] == "classic" and "position" in data and data["two_squares_limit"] == 5


def test_standard_input_and_output_need_to(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(GSN.read_text(encoding="utf-8")))
    assert main(["convert", "-", "-", "--to", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["moves"] == ["a4-a5", "j7-j6", "a5-a7"]


def test_to_overrides_the_extension(tmp_path):
    out = tmp_path / "game.txt"
    assert main(["convert", str(GSN), str(out), "--to", "gsn"]) == 0
    assert out.read_text(encoding="utf-8").startswith("#X38FA11 Stratego-Notation v1")


@pytest.mark.parametrize("args, complaint", [
    ([str(GSN), "-"], "needs --to"),
    ([str(GSN), "game.pdf"], "cannot tell the format"),
    ([str(GSN), "-", "--to", "pdf"], "invalid choice"),
    (["missing.gsn", "-", "--to", "json"], "cannot read missing.gsn"),
    ([str(CORPUS / "duell-flag-captured.xml"), "-", "--to", "gsn"], "write XML instead"),
    ([], "required"),
])
def test_errors_are_one_line_on_stderr_and_exit_2(args, complaint, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["convert", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("arbiter convert: ")
    assert complaint in captured.err


def test_a_failed_conversion_leaves_no_output_file(tmp_path, capsys):
    broken = tmp_path / "broken.xml"
    broken.write_text("<stratego><game type='classic'>")
    out = tmp_path / "out.json"
    assert main(["convert", str(broken), str(out)]) == 2
    assert "not XML" in capsys.readouterr().err
    assert not out.exists()
