"""The windowed demo: this process runs broker, referee and the board window; tablets are children.

Each tablet (and the optional referee display) is a separate `arbiter tablet` process with its
own window, connected over MQTT like a real tablet on the table's network.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from companion_app.ui import kivy_env

BOARD_SIZE = (520, 800)
TABLET_SIZE = (760, 400)


def spawn(url: str, seat: str, position: tuple[int, int], size: tuple[int, int], language: str,
           folder: Path) -> subprocess.Popen:
    """Start one `arbiter tablet` window (a seat's tablet, or the referee display)."""
    command = [sys.executable, "-m", "firmware_bridge.cli.main", "tablet", "--board", url, "--seat", seat,
               "--size", f"{size[0]}x{size[1]}", "--position", f"{position[0]},{position[1]}",
               "--lang", language, "--credentials", str(folder / f"{seat}.json")]
    return subprocess.Popen(command)


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

    kivy_env.prepare(*BOARD_SIZE)
    from kivy.config import Config

    Config.set("graphics", "position", "custom")
    Config.set("graphics", "left", "0")
    Config.set("graphics", "top", "0")
    from kivy.app import App
    from kivy.clock import Clock

    from companion_app.demo.board_window import BoardWindow

    replay = None
    if getattr(args, "replay", None):  # a recorded game: the board takes its variant
        from companion_app.demo.replay_demo import read_replay_file, start_replay

        replay = read_replay_file(args.replay)
    computer = getattr(args, "computer", None)  # the computer holds that seat: no tablet for it
    system = DemoSystem(replay[1] if replay else args.variant, computer=computer,
                        computer_level=getattr(args, "level", "normal"))
    system.start()
    if replay:
        start_replay(system, replay[0], Path(args.replay).name)
        print(f"arbiter demo: replaying {args.replay}: put both setups on the board, then make "
              "the moves the tablets show.")
    folder = Path(tempfile.mkdtemp(prefix="arbiter-demo-tablets-"))
    left = BOARD_SIZE[0]
    children = [spawn(system.url, seat, (left, top), TABLET_SIZE, args.lang, folder)
                for seat, top in (("red", 0), ("blue", TABLET_SIZE[1])) if seat != computer]
    if args.display:
        children.append(spawn(system.url, "display", (left + 80, 80), (900, 600), args.lang, folder))
    print(f"arbiter demo: broker and referee at {system.url}; close the board window to stop.")

    class BoardApp(App):
        title = "Arbiter demo: the simulated board"

        def build(self):
            self.window = BoardWindow(system)
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
