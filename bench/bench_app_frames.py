"""Frame time of the player tablet while a game runs, and the time from a view arriving to it on screen.

The measured process runs only the red tablet (the real app in a 1280x800 window; Mesa's
software renderer, under a private Xvfb when there is no display), as on a real tablet. A second
process is the table: embedded broker, referee reading the simulated board at 200 Hz, a headless
Blue seat, and scripted hands that play every move on the simulated board (battles included).

Kivy redraws only when something changed; to measure frame time the bench asks for a redraw on
every frame while the game runs (the worst case: as if something animated all the time).
Reported: frame intervals (fps), the app's Python work per incoming message (state update and
widget refresh), the split of a frame into drawing (on_draw: the GL calls)
and buffer swap (flip: copying the frame to the X server, which software rendering pays per
pixel), and view-to-screen latency: from paho handing the decrypted view to the app (on the
network thread) to the swap of the first frame that shows it.

Usage: python bench/bench_app_frames.py [--moves 60] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from interleave import percentile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def ensure_display() -> subprocess.Popen | None:
    """Start a private Xvfb when there is no display; returns it (to stop at the end)."""
    if os.environ.get("DISPLAY"):
        return None
    if shutil.which("Xvfb") is None:
        sys.exit("bench_app_frames: no display and no Xvfb to make one")
    number = next(n for n in range(140, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        time.sleep(0.05)
    os.environ["DISPLAY"] = f":{number}"
    return xvfb


def serve(moves: int, seed: int) -> int:
    """The table for the measured tablet, in its own process: broker, referee, board, hands, Blue.

    Prints the board's address, waits for the tablet to take the red seat (a piece on the square
    the referee names) and to send its setup, then plays `moves` moves by hand on the board.
    """
    from companion_app.demo.headless import ScriptedGame
    from companion_app.demo.system import DemoSystem
    from engine import Square

    system = DemoSystem()
    system.start()
    print(system.url, flush=True)
    script = ScriptedGame(system, seed, lambda _text: None, "en", seats=("blue",))
    referee = system.referee
    try:
        script.wait(lambda: any(c.seat == "red" and c.square for c in referee.desk.pending.values()),
                    timeout=60, what="the tablet's pairing request")
        square = next(c.square for c in referee.desk.pending.values() if c.seat == "red")
        system.board.place(Square.parse(square))
        script.wait(lambda: "red" in referee.session.seats, what="the red seat")
        system.board.remove(Square.parse(square))
        script.pair()
        script.setup()
        script.play(moves)
        script.finish()
    finally:
        script.stop()
        system.stop()
    return 0


def run(moves: int, seed: int, on_demand: bool = False) -> dict:
    """Show the red tablet while the table process plays; return the raw figures."""
    os.environ.setdefault("ARBITER_APP_HOME", os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                           f"arbiter-bench-{os.getpid()}"))
    table = subprocess.Popen([sys.executable, __file__, "--serve", "--moves", str(moves),
                              "--seed", str(seed)], stdout=subprocess.PIPE, text=True)
    url = table.stdout.readline().strip()
    from companion_app.ui import kivy_env

    kivy_env.prepare(1280, 800)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion_app.net.network import network_link_factory
    from companion_app.ui.app_root import TabletRoot

    figures: dict = {}
    frame_starts: list[float] = []
    flips: list[float] = []
    work: list[float] = []
    draws: list[float] = []
    swaps: list[float] = []
    refreshes: list[float] = []

    class Bench(App):
        def build(self):
            self.tablet = TabletRoot(network_link_factory())
            self.phase, self.started = "setup", 0.0
            Window.bind(on_flip=self.flipped)
            Clock.schedule_interval(self.frame_start, 0)
            Clock.schedule_interval(self.step, 0.1)
            on_draw, flip = Window.on_draw, Window.flip

            def timed_draw(*args):
                start = time.perf_counter()
                on_draw(*args)
                if self.phase == "play":
                    draws.append(time.perf_counter() - start)

            def timed_flip(*args):
                start = time.perf_counter()
                flip(*args)
                if self.phase == "play":
                    swaps.append(time.perf_counter() - start)

            Window.on_draw, Window.flip = timed_draw, timed_flip
            refresh = self.tablet.refresh

            def timed_refresh(*args):
                start = time.perf_counter()
                refresh(*args)
                if self.phase == "play":
                    refreshes.append(time.perf_counter() - start)

            self.tablet.refresh = timed_refresh
            self.tablet._refresh_trigger = Clock.create_trigger(timed_refresh, 0)
            self.tablet.connect(url, "red")
            return self.tablet

        def frame_start(self, _dt):
            frame_starts.append(time.perf_counter())
            if self.phase == "play" and not on_demand:
                Window.canvas.ask_update()  # redraw every frame: the worst case

        def flipped(self, *_):
            now = time.perf_counter()
            if self.phase == "play":
                flips.append(now)
                if frame_starts:
                    work.append(now - frame_starts[-1])

        def step(self, _dt):
            state = self.tablet.state
            if self.phase == "setup" and self.tablet.screens.current == "setup":
                screen = self.tablet.screen_by_name["setup"]
                screen.randomize()
                screen.submit()
                self.phase = "placing"
            elif self.phase == "placing" and state.view is not None and state.phase == "game":
                self.started = time.perf_counter()
                self.tablet.latencies.clear()
                self.phase = "play"
            elif self.phase == "play" and (state.phase == "over" or table.poll() is not None):
                figures["seconds"] = time.perf_counter() - self.started
                figures["plies"] = (state.view or {}).get("ply")
                figures["result"] = (state.view or {}).get("result")
                self.stop()

        def on_stop(self):
            figures["latencies"] = list(self.tablet.latencies)
            self.tablet.disconnect()

    try:
        Bench().run()
    finally:
        table.wait(timeout=60)
    intervals = [b - a for a, b in zip(flips, flips[1:], strict=False)]
    figures.update(frames=len(flips), intervals=intervals, work=work, draws=draws, swaps=swaps,
                   refreshes=refreshes)
    return figures


def summary(figures: dict) -> dict:
    """Medians and tails in milliseconds."""
    ms = lambda values, share: round(1000 * percentile(values, 100 * share), 2)  # noqa: E731
    out = {"plies": figures.get("plies"), "seconds": round(figures.get("seconds", 0), 1),
           "frames": figures["frames"]}
    intervals, work, latencies = figures["intervals"], figures["work"], figures["latencies"]
    if intervals:
        out["frame_interval_ms"] = {"median": ms(intervals, 0.5), "p95": ms(intervals, 0.95),
                                    "p99": ms(intervals, 0.99), "max": ms(intervals, 1.0)}
        out["fps"] = round(len(intervals) / sum(intervals), 1)
        out["frames_within_60fps_budget"] = round(
            sum(1 for i in intervals if i <= 1 / 60 * 1.05) / len(intervals), 3)
    if work:
        out["work_per_frame_ms"] = {"median": ms(work, 0.5), "p95": ms(work, 0.95),
                                    "p99": ms(work, 0.99), "max": ms(work, 1.0),
                                    "mean": round(1000 * statistics.fmean(work), 2)}
    if figures.get("draws"):
        out["on_draw_ms"] = {"median": ms(figures["draws"], 0.5), "p99": ms(figures["draws"], 0.99)}
    if figures.get("refreshes"):
        out["app_update_per_message_ms"] = {"median": ms(figures["refreshes"], 0.5),
                                            "p99": ms(figures["refreshes"], 0.99)}
    if figures.get("swaps"):
        out["flip_ms"] = {"median": ms(figures["swaps"], 0.5), "p99": ms(figures["swaps"], 0.99)}
    if latencies:
        out["view_to_screen_ms"] = {"n": len(latencies), "median": ms(latencies, 0.5),
                                    "p95": ms(latencies, 0.95), "p99": ms(latencies, 0.99),
                                    "max": ms(latencies, 1.0)}
    if not figures.get("result"):
        figures.setdefault("error", "the table process stopped before the game ended")
    if figures.get("error"):
        out["error"] = figures["error"]
    return out


def main() -> int:
    """Run the bench and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--on-demand", action="store_true",
                        help="redraw only when something changed (Kivy's normal way) instead of every frame")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if args.serve:
        return serve(args.moves, args.seed)
    xvfb = ensure_display()
    try:
        result = summary(run(args.moves, args.seed, args.on_demand))
    finally:
        if xvfb is not None:
            xvfb.terminate()
    if args.json:
        print(json.dumps(result))
    else:
        mode = "redraw on change" if args.on_demand else "redraw every frame"
        print(f"Tablet frame time while a game runs (red tablet, 1280x800, classic 10x10, {mode}):")
        for key, value in result.items():
            print(f"  {key}: {value}")
    return 1 if "error" in result else 0


if __name__ == "__main__":
    sys.exit(main())
