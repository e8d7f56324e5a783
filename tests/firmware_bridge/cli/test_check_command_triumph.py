"""`arbiter check` on Napoleon's Triumph records: dispatch on the record's game field."""

from __future__ import annotations

import json
from pathlib import Path

from engine.triumph.records import check_triumph_record
from firmware_bridge.cli.check import main
from tests.engine.triumph.test_records import EXAMPLE


def test_arbiter_check_dispatches_on_the_game_field(tmp_path: Path, capsys) -> None:
    path = tmp_path / "nt.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == check_triumph_record(EXAMPLE)
    path.write_text(json.dumps({"game": "napoleons-triumph", "actions": []}), encoding="utf-8")
    assert main([str(path)]) == 2
    assert "napoleons-triumph" not in capsys.readouterr().out
