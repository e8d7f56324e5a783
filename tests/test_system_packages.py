"""A missing system package skips a test on a developer's machine and fails it under CI=true."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
NEEDS_A_PACKAGE = """
from tests.system_packages import requires, skip_without

def test_needing_a_program_nobody_installed():
    skip_without("no-such-program", False, "the test cannot run without it")

@requires("no-such-program", False, "neither can this one")
def test_marked_as_needing_it():
    pass

def test_that_needs_nothing():
    pass
"""


def run(tmp_path: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_needs.py").write_text(NEEDS_A_PACKAGE)
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p",
                           "tests.system_packages", "--rootdir", str(tmp_path), str(tmp_path / "test_needs.py")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


def test_a_developer_sees_the_tests_skipped_with_the_package_named(tmp_path):
    result = run(tmp_path, None)
    assert result.returncode == 0, result.stdout
    assert "1 passed, 2 skipped" in result.stdout and "no-such-program" in result.stdout


@pytest.mark.parametrize("ci", ["true", "1"])
def test_ci_fails_instead_of_skipping(tmp_path, ci):
    result = run(tmp_path, ci)
    assert result.returncode == 1, result.stdout
    assert "1 failed, 1 passed, 1 error" in result.stdout  # a skip at set-up fails as an error
    assert result.stdout.count("CI=true and a system package the test needs is missing") == 2
    assert "no-such-program (the test cannot run without it" in result.stdout
