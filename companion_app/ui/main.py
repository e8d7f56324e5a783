"""`arbiter tablet`: the companion app as a player's tablet or as the referee display."""

from __future__ import annotations

import argparse
import sys

from companion_app.i18n.catalog import LANGUAGES
from companion_app.ui import kivy_env


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line of `arbiter tablet`."""
    parser = argparse.ArgumentParser(prog="arbiter tablet", description=__doc__)
    parser.add_argument("--board", default="", help="board address, e.g. mqtt://192.168.1.20:1883/kitchen")
    parser.add_argument("--seat", choices=("red", "blue", "display", "overview"),
                        help="connect at once and take this seat (display: the referee display; "
                        "overview: every board on the broker, for the arbiter of a hall)")
    parser.add_argument("--lang", choices=sorted(LANGUAGES), default=None,
                        help="language (default: the one chosen last time, else en)")
    parser.add_argument("--numbering", choices=("new", "old"), default=None,
                        help="new: Marshal 10 ... Spy 1; old: Marshal 1 ... Scout 9")
    parser.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT")
    parser.add_argument("--position", default="", help="window position LEFT,TOP on the screen")
    parser.add_argument("--title", default="Arbiter", help="the window's title")
    parser.add_argument("--verbose", action="store_true",
                        help="log what the network does (for developers; a family sees nothing)")
    parser.add_argument("--credentials", default=None,
                        help="file keeping this tablet's pairing (default: in the app's folder; "
                        "the referee display keeps its pairing in the same folder)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Start the app window."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not kivy_env.has_display():
        print("arbiter tablet: no display here (DISPLAY is not set); the app needs a screen.",
              file=sys.stderr)
        return 2
    if not args.verbose:
        # Messages meant for others on a shared broker fail to open with this tablet's keys, which
        # the network client logs as warnings: a developer's business, not the player's terminal's.
        import logging

        logging.getLogger("firmware_bridge").setLevel(logging.ERROR)
    width, height = (int(v) for v in args.size.lower().split("x"))
    kivy_env.prepare(width, height)
    if args.position:
        from kivy.config import Config

        left, top = args.position.split(",")
        Config.set("graphics", "position", "custom")
        Config.set("graphics", "left", left)
        Config.set("graphics", "top", top)
    from kivy.app import App

    from companion_app.i18n.catalog import Translator
    from companion_app.model import prefs
    from companion_app.net.network import network_link_factory
    from companion_app.ui.app_root import TabletRoot

    saved = prefs.load()
    language = args.lang or (saved["language"] if saved["language"] in LANGUAGES else "en")
    tr = Translator(language, args.numbering or saved["numbering"])
    factory = network_link_factory(args.credentials)

    class TabletApp(App):
        title = args.title

        def build(self):
            root = TabletRoot(factory, tr=tr, default_address=args.board, find_boards=True,
                              remember_settings=True)
            if args.seat and args.board:
                root.connect(args.board, None if args.seat == "display" else args.seat)
            return root

        def on_stop(self):
            if self.root is not None:
                self.root.disconnect()

    TabletApp().run()
    return 0
