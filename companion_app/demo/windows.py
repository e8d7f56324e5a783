"""The windowed demo: this process runs broker, referee and the board window; tablets are children.

Each tablet and the referee display is a separate `arbiter tablet` process with its own window,
connected over MQTT like a real tablet on the table's network. The windows are laid side by side
to fit the screen (placement.py); closing any of them ends the demo.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from companion_app.demo.placement import Place, screen_size, stratego_places
from companion_app.demo.terminal_steps import stratego_steps
from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import device_name
from companion_app.ui import kivy_env


def window_title(tr: Translator, seat: str) -> str:
    """A demo window's title: "Arbiter: Red tablet", "Arbiter: Referee display"."""
    return f"Arbiter: {device_name(tr, seat)}"


def spawn(url: str, seat: str, place: Place, language: str, folder: Path,
          title: str | None = None) -> subprocess.Popen:
    """Start one `arbiter tablet` window (a seat's tablet, or the referee display)."""
    command = [sys.executable, "-m", "firmware_bridge.cli.main", "tablet", "--board", url, "--seat", seat,
               "--size", f"{place.width}x{place.height}", "--position", f"{place.x},{place.y}",
               "--lang", language, "--credentials", str(folder / f"{seat}.json"),
               "--title", title or window_title(Translator(language), seat)]
    return subprocess.Popen(command)


def end_with_any_window(app, children: list[subprocess.Popen]) -> None:
    """Stop `app` (and so the demo) as soon as any child window is closed."""
    from kivy.clock import Clock

    def check(_dt: float) -> None:
        if any(child.poll() is not None for child in children):
            app.stop()

    Clock.schedule_interval(check, 0.5)


def stop_windows(children: list[subprocess.Popen]) -> None:
    """Close the tablet and display windows (child processes), killing any that hang."""
    for child in children:
        child.terminate()
    for child in children:
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()


def run_windows(args: argparse.Namespace) -> int:
    """Start everything, show the board window until it is closed, then stop the rest."""
    from companion_app.demo.system import DemoSystem

    computer = getattr(args, "computer", None)  # the computer holds that seat: no tablet for it
    seats = [seat for seat in ("red", "blue") if seat != computer]
    places = stratego_places(screen_size(), seats)
    board = places["board"]
    kivy_env.prepare(board.width, board.height)
    from kivy.config import Config

    Config.set("graphics", "position", "custom")
    Config.set("graphics", "left", str(board.x))
    Config.set("graphics", "top", str(board.y))
    from kivy.app import App
    from kivy.clock import Clock

    from companion_app.demo.board_window import BoardWindow

    tr = Translator(args.lang)

    replay = None
    if getattr(args, "replay", None):  # a recorded game: the board takes its variant
        from companion_app.demo.replay_demo import read_replay_file, start_replay

        replay = read_replay_file(args.replay)
    system = DemoSystem(replay[1] if replay else args.variant, computer=computer,
                        computer_level=getattr(args, "level", "normal"))
    system.start()
    if replay:
        start_replay(system, replay[0], Path(args.replay).name)
        print(tr("arbiter demo: replaying {file}: put both setups on the board, then make the moves "
                 "the tablets show.").format(file=args.replay))
    folder = Path(tempfile.mkdtemp(prefix="arbiter-demo-tablets-"))
    children = [spawn(system.url, seat, places[seat], args.lang, folder) for seat in seats]
    if not getattr(args, "no_display", False):
        children.append(spawn(system.url, "display", places["display"], args.lang, folder))
    print(stratego_steps(tr, system.url, seats, computer), flush=True)

    class BoardApp(App):
        title = "Arbiter: " + tr("Simulated board")

        def build(self):
            self.window = BoardWindow(system, tr)
            end_with_any_window(self, children)
            if args.quit_after:
                Clock.schedule_once(lambda _dt: self.stop(), args.quit_after)
            return self.window

        def on_stop(self):
            self.window.stop()

    try:
        BoardApp().run()
    finally:
        stop_windows(children)
        system.stop()
    return 0
