"""Napoleon's Triumph on the real tablets under Xvfb (scenarios in scenarios_triumph.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _keep(folder: Path) -> None:
    """Copy the scenario's screenshots to docs/screenshots (the app's documentation)."""
    for png in folder.glob("triumph-*.png"):
        shutil.copy(png, DOCS / png.name)


def test_setup_screen(run_scenario):
    report, folder = run_scenario("triumph_setup")
    _keep(folder)
    print(report)
    assert report["screen"] == "triumph_setup"


def test_command(run_scenario):
    report, folder = run_scenario("triumph_command")
    _keep(folder)
    print(report)


def test_attack(run_scenario):
    report, folder = run_scenario("triumph_attack")
    _keep(folder)
    import json
    print(json.dumps(report, indent=1, ensure_ascii=False))
