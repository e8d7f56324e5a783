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
from companion_app.demo.terminal_steps import triumph_steps
from companion_app.demo.windows import end_with_any_window, spawn, stop_windows
from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import device_name
from companion_app.i18n.triumph_texts import army_name
from companion_app.model.triumph_table import SIDE_OF_SEAT
from companion_app.ui import kivy_env


def codes_text(codes: dict[str, str], tr: Translator) -> str:
    """What the codes window says: each tablet's code, or that the tablets are still starting (the
    referee display's once it asks: `--no-display` leaves it out)."""
    lines = [tr("Type this code on each tablet:"), ""]
    for seat in ("red", "blue"):
        code, side = codes.get(seat), army_name(tr, SIDE_OF_SEAT[seat])
        lines.append(f"{side}: [b]{code}[/b]" if code else tr("{side}: waiting for the tablet...").format(side=side))
    if codes.get("display"):
        lines.append(device_name(tr, "display") + f": [b]{codes['display']}[/b]")
    return "\n".join(lines)


def run_triumph_windows(args: argparse.Namespace) -> int:
    """Start the broker, the referee and the windows; stop everything when any window closes."""
    from companion_app.demo.triumph_headless import TriumphTable

    places = triumph_places(screen_size())
    tr = Translator(args.lang)
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
                      f"Arbiter: {army_name(tr, SIDE_OF_SEAT[seat])}") for seat in ("red", "blue")]
    if not getattr(args, "no_display", False):
        children.append(spawn(url, "display", places["display"], args.lang, folder))
    print(triumph_steps(tr, url), flush=True)

    class CodesApp(App):
        title = "Arbiter: " + tr("Pairing codes")

        def build(self) -> Label:
            self.label = Label(text=codes_text({}, tr), halign="center", valign="middle", font_size="18sp",
                               markup=True)
            self.label.bind(size=lambda label, size: setattr(label, "text_size", size))
            Clock.schedule_interval(self.refresh, 0.5)
            end_with_any_window(self, children)
            if args.quit_after:
                Clock.schedule_once(lambda _dt: self.stop(), args.quit_after)
            return self.label

        def refresh(self, _dt: float) -> None:
            self.label.text = codes_text(table.codes, tr)

    try:
        CodesApp().run()
    finally:
        stop_windows(children)
        table.referee.stop()
        table.broker.stop()
    return 0
