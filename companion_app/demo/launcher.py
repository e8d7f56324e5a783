"""`arbiter demo`: the whole system on one computer, with a simulated board.

With a display: the embedded broker, the referee, a window with the simulated physical board
(drag tokens like real pieces), two player tablets and the referee display, each its own
window. Without one: says so and plays a scripted game in the terminal instead.
"""

from __future__ import annotations

import argparse
import logging
import sys

from companion_app.i18n.catalog import LANGUAGES, Translator
from companion_app.ui import kivy_env

SCRIPTED_PLIES = 24  # the scripted game's length when --plies does not say


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of `arbiter demo`."""
    parser = argparse.ArgumentParser(prog="arbiter demo", description=__doc__)
    parser.add_argument("--headless", action="store_true", help="play the scripted game even with a display")
    parser.add_argument("--plies", type=int, default=None,
                        help="moves to play (default: a scripted game of 24; a replay: the whole file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default="en")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--game", choices=("stratego", "triumph"), default="stratego",
                        help="triumph: Napoleon's Triumph (2 December 1805), entered on the tablets")
    parser.add_argument("--display", action="store_true", help=argparse.SUPPRESS)  # now always open
    parser.add_argument("--no-display", action="store_true", help="do not open the referee display")
    parser.add_argument("--replay", metavar="FILE",
                        help="replay a recorded game (JSON record, Gravon XML or GSN) on the board")
    parser.add_argument("--computer", choices=("red", "blue"), help="the computer plays this seat")
    parser.add_argument("--level", default="normal", help="the computer's level: easy, normal, strong")
    parser.add_argument("--quit-after", type=float, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the demo (windowed when a display exists)."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # The demo says itself what to do; the referee's and the network's log lines (pairing codes
    # it already shows, messages meant for other tablets) are a developer's, not a family's.
    logging.getLogger("firmware_bridge").setLevel(logging.ERROR)
    tr = Translator(args.lang)
    if args.headless or not kivy_env.has_display():
        if not args.headless:
            print(tr("arbiter demo: no display found (DISPLAY is not set), so the app windows cannot "
                     "open. Playing a scripted game through the real referee instead."))
        if args.game == "triumph":
            from companion_app.demo.triumph_headless import play_triumph_headless

            return play_triumph_headless(seed=args.seed, language=args.lang)
        if args.replay:
            from companion_app.demo.replay_demo import play_replay_headless

            return play_replay_headless(args.replay, plies=args.plies, language=args.lang)
        if args.computer:
            from companion_app.demo.computer_demo import play_against_computer_headless

            return play_against_computer_headless(args.computer, args.level, args.plies or SCRIPTED_PLIES,
                                                  args.seed, args.lang, args.variant)
        from companion_app.demo.headless import play_headless

        return play_headless(plies=args.plies or SCRIPTED_PLIES, seed=args.seed, language=args.lang)
    if args.game == "triumph":
        from companion_app.demo.triumph_windows import run_triumph_windows

        return run_triumph_windows(args)
    from companion_app.demo.windows import run_windows

    print(tr("arbiter demo: Napoleon's Triumph is `make run GAME=triumph` (arbiter demo --game "
             "triumph)."))
    return run_windows(args)
