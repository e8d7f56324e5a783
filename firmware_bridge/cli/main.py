"""The `arbiter` command: one entry point, subcommands provided by the packages."""

from __future__ import annotations

import importlib
import sys

from firmware_bridge.cli.user_variants import load_user_variants

# Each subcommand lives in the module that owns the job; imported only when asked for,
# so `arbiter check` works without Kivy or MQTT installed.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "check": ("firmware_bridge.cli.check", "Replay a game record and print a JSON verdict"),
    "convert": ("firmware_bridge.cli.convert", "Convert a game between JSON, Gravon XML and GSN"),
    "referee": ("firmware_bridge.cli.referee", "Run the referee service on the Pi"),
    "sim": ("hardware.sim.command", "Run a simulated sensor grid on a pseudo-terminal"),
    "tablet": ("companion_app.ui.main", "Start the companion app (player tablet or referee display)"),
    "demo": ("companion_app.demo.launcher", "The whole system on one computer, with a simulated board"),
    "match": ("firmware_bridge.bot.match", "Play a series of games between computer players"),
    "bot": ("firmware_bridge.bot.ucc_bot", "The computer player speaking the UCC protocol"),
}


def usage() -> str:
    """The help text listing every subcommand."""
    lines = ["usage: arbiter <command> [options]", "", "commands:"]
    lines += [f"  {name:<9} {summary}" for name, (_, summary) in SUBCOMMANDS.items()]
    lines += ["", "A family's own variants: TOML files in ~/.config/arbiter/variants/ or $ARBITER_VARIANTS",
              "(see docs/rules/README.md)."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand's own `main(argv)`."""
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in SUBCOMMANDS:
        print(f"arbiter: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    _, problems = load_user_variants()
    for problem in problems:
        print(f"arbiter: variant file skipped: {problem}", file=sys.stderr)
    module = importlib.import_module(SUBCOMMANDS[name][0])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
