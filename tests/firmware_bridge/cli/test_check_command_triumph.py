"""`arbiter check` on Napoleon's Triumph records: dispatch on the record's game field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.triumph.records import check_triumph_record
from firmware_bridge.cli.check import main
from tests.engine.triumph.test_records import DATA, EXAMPLE, VERDICTS, verdict_differences


def test_arbiter_check_dispatches_on_the_game_field(tmp_path: Path, capsys) -> None:
    path = tmp_path / "nt.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert main([str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == check_triumph_record(EXAMPLE)
    path.write_text(json.dumps({"game": "napoleons-triumph", "actions": []}), encoding="utf-8")
    assert main([str(path)]) == 2
    assert "napoleons-triumph" not in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_arbiter_check_gives_the_verdicts_of_the_rules_for_the_shapes_of_3_5(name: str,
                                                                           capsys) -> None:
    # records written the two ways 3.5 allows (a blocked defence with or without the answer,
    # a road up to the attack or the defence locale) give the verdicts worked out by hand
    assert main([str(DATA / name)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict_differences(verdict, VERDICTS[name]) == {}
