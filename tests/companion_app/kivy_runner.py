"""Runs one app scenario in this process: `python -m tests.companion_app.kivy_runner NAME OUTDIR`.

A scenario is a generator function taking the Driver; each `yield seconds` lets Kivy draw for
that long before the scenario continues. Whatever it puts into `driver.report` is written to
OUTDIR/report.json, with the traceback if it raised.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

from companion_app.ui import kivy_env

kivy_env.prepare(1280, 800)

from kivy.app import App  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from kivy.uix.floatlayout import FloatLayout  # noqa: E402


class Driver(App):
    """An app whose window shows whichever widget a scenario puts on stage."""

    def __init__(self, scenario, out: Path, args: list[str]):
        super().__init__()
        self.scenario, self.out, self.args = scenario, out, args
        self.report: dict = {"screenshots": []}
        self.on_finish = None  # a scenario's clean-up (stop brokers, referees)

    def build(self):
        self.stage = FloatLayout()
        return self.stage

    def on_start(self):
        self.steps = self.scenario(self)
        Clock.schedule_once(self._next, 0.2)

    def _next(self, _dt):
        try:
            wait = next(self.steps)
        except StopIteration:
            self._finish()
            return
        except Exception:
            self.report["error"] = traceback.format_exc()
            self._finish()
            return
        Clock.schedule_once(self._next, wait if wait is not None else 0.05)

    def _finish(self):
        if self.on_finish is not None:
            try:
                self.on_finish()
            except Exception:
                self.report.setdefault("error", traceback.format_exc())
        (self.out / "report.json").write_text(json.dumps(self.report, indent=1, default=str))
        self.stop()

    # -- helpers for scenarios ----------------------------------------------------------------
    def show(self, *widgets, size=None):
        """Put widgets on stage side by side (each gets an equal share, or `size` each)."""
        self.stage.clear_widgets()
        count = len(widgets)
        for index, widget in enumerate(widgets):
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            if size:
                widget.size_hint = (None, None)
                widget.size = size
                widget.pos = (index * size[0], Window.height - size[1])
            else:
                widget.size_hint = (1 / count, 1)
                widget.pos_hint = {"x": index / count, "y": 0}
            self.stage.add_widget(widget)

    def shot(self, name: str, widget=None) -> str:
        """Save a PNG of the window (or of one widget) and remember it in the report."""
        from kivy.graphics import Color, Rectangle

        path = self.out / f"{name}.png"
        if widget is None:
            widget = self.stage
        # The app paints its background with the window's clear colour; an exported widget
        # needs it painted under it to look like the screen.
        backdrop = [Color(*Window.clearcolor), Rectangle(pos=widget.pos, size=widget.size)]
        for instruction in backdrop:  # (insert() leaves the Fbo of export_to_png blank)
            widget.canvas.before.add(instruction)
        widget.export_to_png(str(path))
        for instruction in backdrop:
            widget.canvas.before.remove(instruction)
        self.report["screenshots"].append(str(path))
        return str(path)

    def tap(self, widget, x: float, y: float) -> None:
        """A finger tap at a position in `widget`'s coordinates."""
        wx, wy = widget.to_window(x, y)
        touch = UnitTestTouch(wx, wy)
        touch.touch_down()
        touch.touch_up()

    def drag(self, widget, start, end, steps: int = 6) -> None:
        """A finger drag between two positions in `widget`'s coordinates."""
        sx, sy = widget.to_window(*start)
        ex, ey = widget.to_window(*end)
        touch = UnitTestTouch(sx, sy)
        touch.touch_down()
        for i in range(1, steps + 1):
            touch.touch_move(sx + (ex - sx) * i / steps, sy + (ey - sy) * i / steps)
        touch.touch_up()


def main() -> None:
    name, out, *args = sys.argv[1:]
    import importlib

    # every scenarios*.py module of this folder, so a new one needs no line here
    modules = [importlib.import_module(f"tests.companion_app.{path.stem}")
               for path in sorted(Path(__file__).parent.glob("scenarios*.py"))]
    scenario = next(getattr(module, name) for module in modules if hasattr(module, name))
    Driver(scenario, Path(out), args).run()


if __name__ == "__main__":
    main()
