"""The system packages some tests need, and how their absence is reported.

On a developer's machine a missing package skips the tests that need it (with the reason). With
CI=true the same skip fails the run instead (tests/conftest.py), so a CI whose machine lost
mosquitto or Xvfb can never stay green by running fewer tests. `.ci/system-deps` installs them.
"""

from __future__ import annotations

import os

import pytest

MISSING = "missing system package: "  # the prefix conftest.py turns into a failure under CI


def in_ci() -> bool:
    """Whether this run is CI's (CI=true)."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(package: str, why: str) -> str:
    """The skip reason for a missing package (a failure under CI)."""
    return f"{MISSING}{package} ({why}; bash .ci/system-deps installs it)"


def skip_without(package: str, present: bool, why: str) -> None:
    """Skip the running test (fail it under CI) when ``package`` is not there."""
    if not present:
        pytest.skip(missing(package, why))


def requires(package: str, present: bool, why: str) -> pytest.MarkDecorator:
    """A marker that skips (fails under CI) the tests it marks when ``package`` is not there."""
    return pytest.mark.skipif(not present, reason=missing(package, why))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With CI=true, a skip for a missing system package is a failure: CI runs every test.

    A pytest hook: tests/conftest.py takes it in (and ``-p tests.system_packages`` loads it alone).
    """
    outcome = yield
    report = outcome.get_result()
    if report.skipped and in_ci() and isinstance(report.longrepr, tuple) and MISSING in report.longrepr[2]:
        report.outcome = "failed"
        reason = report.longrepr[2].removeprefix("Skipped: ")
        report.longrepr = f"CI=true and a system package the test needs is missing: {reason}"
