"""Copy a scenario's screenshots into docs/screenshots, only when asked (`make screenshots`).

A test run leaves the tracked tree as it found it: the screenshots stay in the test's own
temporary folder unless ARBITER_DOCS_SCREENSHOTS=1 is set."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def keep_for_docs(folder: Path, pattern: str, prefix: str = "") -> list[Path]:
    """Copy the screenshots in `folder` matching `pattern` to docs/screenshots (named `prefix`
    + their own name) when ARBITER_DOCS_SCREENSHOTS=1; return what was copied."""
    if os.environ.get("ARBITER_DOCS_SCREENSHOTS") != "1":
        return []
    kept = []
    for png in sorted(folder.glob(pattern)):
        target = DOCS / f"{prefix}{png.name}"
        shutil.copy(png, target)
        kept.append(target)
    return kept
