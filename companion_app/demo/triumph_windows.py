"""`arbiter demo --game triumph` with a screen: broker and referee here, tablets and display as windows.

Napoleon's Triumph has no sensors, so instead of the simulated board this process shows a small
window with the pairing codes the referee gives out; each tablet (its own `arbiter tablet`
process, as on a real table) types its code, and the players play on the tablets.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from companion_app.demo.windows import spawn, stop_windows
from companion_app.ui import kivy_env

CODES_SIZE = (420, 300)
TRIUMPH_TABLET_SIZE = (1100, 700)


def run_triumph_windows(args: argparse.Namespace) -> int:
    """Start the broker, the referee and the windows; stop everything when the codes window closes."""
    from companion_app.demo.triumph_headless import TriumphTable

    kivy_env.prepare(*CODES_SIZE)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    folder = Path(tempfile.mkdtemp(prefix="arbiter-triumph-demo-"))
    table = TriumphTable(folder)
    table.broker.start()
    assert table.referee.start(), "the referee could not reach the broker"
    url = f"{table.broker.url}/{table.board}"
    # The map needs a larger tablet window than the Stratego board.
    children = [spawn(url, seat, (CODES_SIZE[0] + 20 * number, 40 * number), TRIUMPH_TABLET_SIZE,
                      args.lang, folder) for number, seat in enumerate(("red", "blue"))]
    if args.display:
        children.append(spawn(url, "display", (CODES_SIZE[0] + 60, 100), TRIUMPH_TABLET_SIZE,
                              args.lang, folder))
    print(f"arbiter demo: Napoleon's Triumph at {url}; type each seat's code on its tablet.")

    class CodesApp(App):
        title = "Arbiter: Napoleon's Triumph (pairing codes)"

        def build(self) -> Label:
            self.label = Label(text="", halign="center", font_size="20sp")
            Clock.schedule_interval(self.refresh, 0.5)
            if args.quit_after:
                Clock.schedule_once(lambda _dt: self.stop(), args.quit_after)
            return self.label

        def refresh(self, _dt: float) -> None:
            lines = ["Red tablet: the Allies", "Blue tablet: the French", ""]
            lines += [f"{seat}: code {code}" for seat, code in sorted(table.codes.items())]
            self.label.text = "\n".join(lines) or "waiting for the tablets"

    try:
        CodesApp().run()
    finally:
        stop_windows(children)
        table.referee.stop()
        table.broker.stop()
    return 0
