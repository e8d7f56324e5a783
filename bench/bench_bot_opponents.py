"""Our bot against the Stratego programs others wrote, refereed by our own rules engine.

The opponents are not part of this repository and nothing here builds them. Build them yourself
from their public sources and put them under one folder, named by `ARBITER_OPPONENTS` (default
`~/stratego-opponents`):

- `see/`: the UCC 2012 competition's manager and bots (github braathwaate/strategoevaluator).
  `see/agents/peternlewis/peternlewis` built with that folder's own Makefile (g++);
  `see/agents/celsius1.1/celsius.py` and `see/agents/vixen/vixen.py` as they are: they are
  Python 2 programs, run by the interpreter `PYTHON2` names (default `python2`; a Python 2.7
  from pyenv works). PeternLewis writes a log of every game it plays to
  `/tmp/peternlewis-output-*.log` (about 60 KB each): clear them after long runs.
- `doi/`: Demon of Ignorance (github braathwaate/stratego). `doi/classes/` holds the compiled
  classes (javac of `src/com/cjmalloy/stratego/*.java`, `player/*.java` and
  `server/shared/*.java`), and `doi/run/` is its working folder with an `ai.cfg` that lists the
  setup files of `src/com/cjmalloy/stratego/resource/ai/` by absolute path: on Java 9 and later
  the program cannot read its own bundled `ai.cfg` and only looks for one in its working folder.
  It is driven in its own UCC-protocol agent mode (`StrategoDriver -t`), its two-squares rule
  on (`-2`), thinking `DOI_LEVEL`^2 x 10 ms a move (`-l10`: 1 s).

A pairing whose program is missing is skipped with a line saying what was looked for. Each game
is refereed by `engine.Game` (`firmware_bridge.bot.match.play_game`): under `classic` both
repetition rules apply to both sides and a refused move forfeits; under `none` the referee
applies no repetition rule, as the 2012 manager did (our bot obeys them all the same). Colours
alternate. Reported per pairing: won-drawn-lost, wins by play (flag taken or the opponent left
without a move) apart from wins by the opponent's forfeit, Wilson 95% intervals, the endings,
our think time per move (p50/p90/p99/max), and where our pieces died: attacking a bomb, attacking
an unknown piece, and the Marshal's and General's deaths.

Run: .venv/bin/python bench/bench_bot_opponents.py [--opponents peternlewis,celsius1.1,vixen,doi,random]
     [--rules classic,none] [--games 2] [--level normal] [--seed 1] [--max-plies 1000] [--json FILE]
     .venv/bin/python bench/bench_bot_opponents.py --table FILE   (the markdown table of a run)

Without arguments (as `make bench` runs it) it plays 2 games a pairing; the table in docs/bot.md
used `--games 20`. Run it with `nice`: a game against Demon of Ignorance at 1 s a move takes
minutes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interleave import percentile  # noqa: E402

from engine import Color  # noqa: E402
from firmware_bridge.bot.levels import Level  # noqa: E402
from firmware_bridge.bot.match import (  # noqa: E402
    GameResult,
    Observer,
    Tally,
    make_player,
    play_game,
    wilson,
)
from firmware_bridge.bot.players import Player  # noqa: E402

OPPONENTS = ("peternlewis", "celsius1.1", "vixen", "doi", "random")


def opponent_command(name: str, root: Path) -> tuple[str | None, str]:
    """The `ucc:` command of a built opponent (or the spec of a built-in one), and what was sought."""
    python2 = os.environ.get("PYTHON2", "python2")
    if name == "random":
        return "random", "built in"
    if name == "peternlewis":
        program = root / "see/agents/peternlewis/peternlewis"
        return (f"ucc:{shlex.quote(str(program))}" if program.is_file() else None), str(program)
    if name in ("celsius1.1", "vixen", "celsius"):
        script = root / "see/agents" / name / ("vixen.py" if name == "vixen" else "celsius.py")
        command = f"ucc:{shlex.quote(python2)} -u {shlex.quote(str(script))}"
        return (command if script.is_file() else None), str(script)
    if name == "doi":
        classes, run = root / "doi/classes", root / "doi/run"
        level = os.environ.get("DOI_LEVEL", "10")
        found = (classes / "com/cjmalloy/stratego/player/StrategoDriver.class").is_file() and (
            run / "ai.cfg").is_file()
        java = (f"sh -c 'cd {shlex.quote(str(run))} && exec java -Djava.awt.headless=true -cp "
                f"{shlex.quote(str(classes))} com.cjmalloy.stratego.player.StrategoDriver -2 "
                f"-l{int(level)} -t'")
        return (f"ucc:{java}" if found else None), f"{classes} and {run}/ai.cfg"
    raise ValueError(f"unknown opponent {name!r}; known: {', '.join(OPPONENTS)}")


def one_opponent_parser(description: str) -> argparse.ArgumentParser:
    """The arguments of a bench that plays our bot against one opponent (A/B runs, losses)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--opponent", default="peternlewis", choices=OPPONENTS)
    parser.add_argument("--rules", default="none")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--max-plies", type=int, default=1000)
    return parser


def flipped(level: Level, names: str) -> tuple[Level, str]:
    """`level` with the switches named in `names` (comma-separated) turned the other way, and a
    label saying how they now stand ("race off", "deep on informed on")."""
    change: dict[str, Any] = {name: not getattr(level, name) for name in names.split(",")}
    label = " ".join(f"{name} {'on' if on else 'off'}" for name, on in change.items())
    return dataclasses.replace(level, **change), label


def find_opponent(name: str) -> str | None:
    """The spec of a built opponent under ARBITER_OPPONENTS, or None having said what was sought."""
    root = Path(os.environ.get("ARBITER_OPPONENTS", "~/stratego-opponents")).expanduser()
    spec, sought = opponent_command(name, root)
    if spec is None:
        print(f"{name}: not found ({sought}); see bench_bot_opponents.py")
    return spec


class Watched:
    """Our bot, with a record of the battles its seat was told of (what it sees anyway)."""

    def __init__(self, inner: Player, color: Color) -> None:
        self.inner = inner
        self.color = color.value
        self.battles: list[dict[str, Any]] = []

    def choose_setup(self) -> dict[str, str]:
        """The bot's own setup."""
        return self.inner.choose_setup()

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        """Pass the update on; keep the battles."""
        self.battles += [e for e in events if e.get("type") == "battle"]
        return self.inner.on_update(view, events)

    def close(self) -> None:
        """The game is over: the bot keeps what it saw (`ComputerPlayer.close`)."""
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


@dataclass
class BenchGame:
    """One game of our bot as the benches play it, and how it went for the bot."""

    number: int
    color: Color  # our bot's colour
    result: GameResult
    battles: list[dict[str, Any]]  # the battles our seat was told of

    @property
    def who(self) -> str:
        """Who won: "bot", "opponent" or "nobody"."""
        if self.result.winner is None:
            return "nobody"
        return "bot" if self.result.winner == self.color.value else "opponent"


def bench_game(bot: str, spec: str, number: int, seed: int, rules: str, max_plies: int,
               opponent: str = "opponent", observer: Observer | None = None,
               maker: Callable[[str, str, Color, int], Player] | None = None) -> BenchGame:
    """Game `number` of a series: our bot (`bot`, a player spec, made by `maker`) against
    `spec`, colours alternating with the number, seeds from `seed`, so every bench plays the
    same setups."""
    bot_is_red = number % 2 == 0
    game_seed = seed * 1000 + number
    color = Color.RED if bot_is_red else Color.BLUE
    if maker is None:  # our bot as `arbiter match` makes it: it remembers this opponent
        ours = Watched(make_player(bot, "classic", color, game_seed * 2 + 1, spec), color)
    else:
        ours = Watched(maker(bot, "classic", color, game_seed * 2 + 1), color)
    theirs = make_player(spec, "classic", color.other, game_seed * 2 + 2)
    red, blue = (ours, theirs) if bot_is_red else (theirs, ours)
    names = (bot, opponent) if bot_is_red else (opponent, bot)
    result = play_game(red, blue, "classic", max_plies, game_seed, names, rules, observer)
    return BenchGame(number, color, result, ours.battles)


def losses(battles: list[dict[str, Any]], color: str) -> Counter[str]:
    """Where our pieces died: on bombs when attacking, and the two highest officers."""
    found: Counter[str] = Counter()
    for battle in battles:
        ours_attacked = battle["attacker_color"] == color
        ours = battle["attacker"] if ours_attacked else battle["defender"]
        died = battle["outcome"] in (("defender", "both") if ours_attacked else ("attacker", "both"))
        killed = battle["outcome"] in (("attacker", "both") if ours_attacked else ("defender", "both"))
        found["enemy pieces taken"] += killed
        if not died:
            continue
        found["pieces lost"] += 1
        found["lost attacking" if ours_attacked else "lost defending"] += 1
        if ours_attacked and battle["defender"] == "bomb":
            found["lost attacking a bomb"] += 1
            if ours in ("marshal", "general"):
                found[f"{ours} on a bomb"] += 1
        if ours in ("marshal", "general"):
            enemy = battle["defender"] if ours_attacked else battle["attacker"]
            found[f"{ours} lost {'attacking' if ours_attacked else 'to'} {enemy}"] += 1
    return found


def play_pairing(bot: str, opponent: str, spec: str, rules: str, games: int, seed: int,
                 max_plies: int) -> dict[str, Any]:
    """Play `games` games, colours alternating; returns the pairing's figures."""
    tally = Tally()
    think: list[float] = []
    lost: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    started = time.perf_counter()
    for number in range(games):
        game = bench_game(bot, spec, number, seed, rules, max_plies, opponent)
        tally.add(game.result, game.color is Color.RED)
        think += game.result.think_seconds[game.color.value]
        lost += losses(game.battles, game.color.value)
        endings[f"{game.who}: {game.result.reason}"] += 1
        print(f"  game {number + 1} ({rules}): bot {game.color.value}: {game.who} wins, "
              f"{game.result.reason}, {game.result.plies} plies", flush=True)
    low, high = wilson(tally.wins, tally.games)
    play_low, play_high = wilson(tally.wins_by_play, tally.games)
    return {
        "opponent": opponent, "rules": rules, "bot": bot, "games": tally.games,
        "won": tally.wins, "drawn": tally.draws, "lost": tally.losses,
        "won_by_play": tally.wins_by_play, "wilson": [low, high], "wilson_by_play": [play_low, play_high],
        "endings": dict(endings), "our_losses": dict(lost),
        "think_p50": percentile(think, 50), "think_p90": percentile(think, 90),
        "think_p99": percentile(think, 99), "think_max": max(think, default=0.0),
        "moves": len(think), "seconds": time.perf_counter() - started,
    }


def markdown(rows: list[dict[str, Any]]) -> str:
    """The pairings as docs/bot.md's table."""
    lines = ["| opponent | rules | games | won-drawn-lost | wins by play | win rate (Wilson 95%) "
             "| by play (Wilson 95%) | how games ended | think p50 / p99 / max |",
             "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        games = row["games"] or 1
        endings = ", ".join(f"{reason} {count}" for reason, count in
                            sorted(row["endings"].items(), key=lambda item: -item[1]))
        lines.append(
            f"| {row['opponent']} | {row['rules']} | {row['games']} | "
            f"{row['won']}-{row['drawn']}-{row['lost']} | {row['won_by_play']} | "
            f"{row['won'] / games:.0%} ({row['wilson'][0]:.0%}-{row['wilson'][1]:.0%}) | "
            f"{row['won_by_play'] / games:.0%} ({row['wilson_by_play'][0]:.0%}-"
            f"{row['wilson_by_play'][1]:.0%}) | {endings} | {row['think_p50']:.3f} / "
            f"{row['think_p99']:.3f} / {row['think_max']:.3f} s |")
    return "\n".join(lines)


def main() -> int:
    """Play the pairings that can be played here and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", default=",".join(OPPONENTS))
    parser.add_argument("--rules", default="classic,none")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--level", default="normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--json", default=None, help="append each pairing's figures to this file")
    parser.add_argument("--table", default=None,
                        help="only print the markdown table of a --json file from an earlier run")
    args = parser.parse_args()
    if args.table:
        with open(args.table, encoding="utf-8") as stored:
            print(markdown([json.loads(line) for line in stored if line.strip()]))
        return 0
    root = Path(os.environ.get("ARBITER_OPPONENTS", "~/stratego-opponents")).expanduser()
    bot = f"bot:{args.level}"
    rows = []
    for opponent in args.opponents.split(","):
        spec, sought = opponent_command(opponent, root)
        if spec is None:
            print(f"{opponent}: skipped, not found ({sought}); see this file's docstring")
            continue
        for rules in args.rules.split(","):
            if opponent in ("random", "doi") and rules == "none":
                continue  # random knows no rules to break; DoI obeys the two-squares rule itself
            print(f"{bot} vs {opponent}, rules {rules}:", flush=True)
            row = play_pairing(bot, opponent, spec, rules, args.games, args.seed, args.max_plies)
            rows.append(row)
            print(f"  {row['won']}-{row['drawn']}-{row['lost']}, {row['won_by_play']} by play; "
                  f"Wilson {row['wilson'][0]:.0%}-{row['wilson'][1]:.0%}, by play "
                  f"{row['wilson_by_play'][0]:.0%}-{row['wilson_by_play'][1]:.0%}; think p50 "
                  f"{row['think_p50']:.3f} s p99 {row['think_p99']:.3f} s max {row['think_max']:.3f} s; "
                  f"our losses {row['our_losses']}; {row['seconds']:.0f} s", flush=True)
            if args.json:
                with open(args.json, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
    if not rows:
        print("no opponent found: nothing played (set ARBITER_OPPONENTS)")
    else:
        print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
