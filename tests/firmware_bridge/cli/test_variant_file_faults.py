"""A family's variant file with a fault is skipped with a message; every `arbiter` command still runs."""

import json

import pytest

from engine import Color, get_variant, named_setup, variant_names
from firmware_bridge.cli.main import main


def opening_record() -> dict:
    classic = get_variant("classic")
    red = named_setup(classic, Color.RED, "corner-fortress")
    blue = named_setup(classic, Color.BLUE, "corner-fortress")
    return {"variant": "classic",
            "setup": {"red": {s.name: k for s, k in red.items()},
                      "blue": {s.name: k for s, k in blue.items()}},
            "moves": ["a4-a5"]}


@pytest.mark.parametrize(("fault", "named"), [
    ('name = "fast-scouts"\n[kinds.scout]\nspeed = 3\n', "unknown piece field 'speed'"),
    ('name = "fast-scouts"\n[kinds.scout]\nscout = "yes"\n', "'scout' must be true or false"),
    ('name = "fast-scouts"\nwidth = "ten"\n', "'width' must be a whole number"),
])
def test_arbiter_check_skips_a_variant_file_with_a_bad_piece_field(tmp_path, monkeypatch, capsys,
                                                                   fault, named):
    broken = tmp_path / "fast-scouts.toml"
    broken.write_text(fault)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(opening_record()))
    monkeypatch.setenv("ARBITER_VARIANTS", str(broken))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))

    status = main(["check", str(record)])

    out, err = capsys.readouterr()
    assert status == 0
    assert json.loads(out)["applied"] == 1
    assert "variant file skipped" in err and "fast-scouts.toml" in err and named in err
    assert "fast-scouts" not in variant_names()
