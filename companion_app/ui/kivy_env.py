"""Settings Kivy reads at import time: set before the first `import kivy` of a process."""

from __future__ import annotations

import os
import tempfile


def prepare(width: int | None = None, height: int | None = None, quiet: bool = True) -> None:
    """Keep Kivy from parsing our command line, writing ~/.kivy in tests, and flooding the log."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    if quiet:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    if "ARBITER_KIVY_HOME" in os.environ:
        os.environ.setdefault("KIVY_HOME", os.environ["ARBITER_KIVY_HOME"])
    elif os.environ.get("PYTEST_CURRENT_TEST") or os.environ.get("ARBITER_TEST"):
        os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="arbiter-kivy-"))
    from kivy.config import Config

    if quiet:
        import logging

        # Kivy reports missing optional providers (mtdev, clipboard tools) as errors; a user
        # starting the app needs none of them.
        logging.getLogger("kivy").setLevel(logging.CRITICAL + 10)
        Config.set("kivy", "log_level", "critical")

    if width and height:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")


def has_display() -> bool:
    """True when a window can be opened here (X11 or Wayland display, or a non-Linux desktop)."""
    if os.name == "nt" or os.uname().sysname == "Darwin":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
