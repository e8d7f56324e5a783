"""`arbiter demo --game triumph` with a screen: broker and referee here, tablets and display as windows.

Napoleon's Triumph has no sensors, so instead of the simulated board this process shows a small
window with the pairing codes the referee gives out, above the referee display; each tablet (its
own `arbiter tablet` process, as on a real table) types its code, and the players play on the
tablets. The windows are laid side by side to fit the screen; closing any of them ends the demo.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from companion_app.demo.placement import screen_size, triumph_places
from companion_app.demo.windows import end_with_any_window, spawn, stop_windows
from companion_app.ui import kivy_env

SIDES = {"red": "the Allies", "blue": "the French"}  # protocol/triumph_contract.py's seat mapping
NEXT_STEPS = """\
arbiter demo: Napoleon's Triumph runs on this computer (broker and referee at {url}).
  Windows: the pairing codes above the referee display (left), the Allies' tablet (middle),
  the French tablet (right).
  1. On each tablet and on the referee display type the code the codes window shows for it, and
     press "Send code".
  2. Each side sends its set-up (the standard one is ready), then plays on its tablet.
  Close any window to end the demo."""


def codes_text(codes: dict[str, str]) -> str:
    """What the codes window says: each tablet's code, or that the tablets are still starting (the
    referee display's once it asks: `--no-display` leaves it out)."""
    lines = ["Type this code on each tablet:", ""]
    for seat in ("red", "blue"):
        code, side = codes.get(seat), SIDES[seat][0].upper() + SIDES[seat][1:]
        lines.append(f"{side}: [b]{code}[/b]" if code else f"{side}: waiting for the tablet...")
    if codes.get("display"):
        lines.append(f"The referee display: [b]{codes['display']}[/b]")
    return "\n".join(lines)


def run_triumph_windows(args: argparse.Namespace) -> int:
    """Start the broker, the referee and the windows; stop everything when any window closes."""
    from companion_app.demo.triumph_headless import TriumphTable

    places = triumph_places(screen_size())
    codes = places["codes"]
    kivy_env.prepare(codes.width, codes.height)
    from kivy.config import Config

    Config.set("graphics", "position", "custom")
    Config.set("graphics", "left", str(codes.x))
    Config.set("graphics", "top", str(codes.y))
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.label import Label

    folder = Path(tempfile.mkdtemp(prefix="arbiter-triumph-demo-"))
    table = TriumphTable(folder)
    table.broker.start()
    assert table.referee.start(), "the referee could not reach the broker"
    url = f"{table.broker.url}/{table.board}"
    children = [spawn(url, seat, places[seat], args.lang, folder,
                      f"Arbiter: {SIDES[seat]} ({seat.capitalize()}'s tablet)") for seat in ("red", "blue")]
    if not getattr(args, "no_display", False):
        children.append(spawn(url, "display", places["display"], args.lang, folder))
    print(NEXT_STEPS.format(url=url), flush=True)

    class CodesApp(App):
        title = "Arbiter: Napoleon's Triumph, the pairing codes"

        def build(self) -> Label:
            self.label = Label(text=codes_text({}), halign="center", valign="middle", font_size="18sp",
                               markup=True)
            self.label.bind(size=lambda label, size: setattr(label, "text_size", size))
            Clock.schedule_interval(self.refresh, 0.5)
            end_with_any_window(self, children)
            if args.quit_after:
                Clock.schedule_once(lambda _dt: self.stop(), args.quit_after)
            return self.label

        def refresh(self, _dt: float) -> None:
            self.label.text = codes_text(table.codes)

    try:
        CodesApp().run()
    finally:
        stop_windows(children)
        table.referee.stop()
        table.broker.stop()
    return 0
