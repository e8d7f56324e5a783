"""How well the notebook foresees an opponent's hidden pieces: games recorded once, scored often.

Win rates move slowly (80 games to see 10 points); the beliefs can be held against the truth
at every decision instead. `record` plays our bot against one opponent (as the other one-opponent
benches do) and keeps what our seat was told at each ruling (its view and redacted events) and
the true kind of every enemy piece. `score` feeds those updates to a fresh notebook, as the bot's
own notebook was fed, and at each of our turns weighs the beliefs given to the true kinds of the
enemy pieces still hidden: the mean log probability (the higher the better; 0 is certainty),
the mean probability, apart for pieces that have moved, pieces that have not, pieces
standing beside one of ours and the piece our next move attacks (the ones a decision is about);
`--by-kind` adds a row per true kind. Replaying costs a few seconds a
game, so a change to the notebook is measured on thousands of decisions in a minute or two,
always on the same games. The games were played by the bot as it stood when they were recorded:
a change of the notebook changes the beliefs, not the moves.

`archive` records people's games instead: games of the Gravon archive (`.xml`/`.gsn` files, or
the archive's zips of them), replayed by our rules engine and told to both seats in turn, so
the beliefs are held against human setups and play (the months bench/count_gravon_setups.py
left out of the classic prior's counts keep the test honest).

`--set facts.FLEE=3` (a module of `engine.stratego.notebook` and one of its constants) scores
with that constant changed; several `--set` change several at once.

Run: nice -n 10 .venv/bin/python bench/bench_bot_beliefs.py record --opponent peternlewis
         --rules none --games 20 --seed 1 --out FILE.json.gz
     .venv/bin/python bench/bench_bot_beliefs.py archive strados2015-2.zip --games 100
         --out FILE.json.gz
     .venv/bin/python bench/bench_bot_beliefs.py score FILE.json.gz... [--set MODULE.NAME=VALUE]
         [--by-kind]
     .venv/bin/python bench/bench_bot_beliefs.py   (two games against PeternLewis, then scored)
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_opponents import bench_game, find_opponent, one_opponent_parser  # noqa: E402
from count_gravon_setups import archive_files  # noqa: E402

from engine import ArbiterError, Color  # noqa: E402
from engine.stratego.events import CaptureEvent, Event  # noqa: E402
from engine.stratego.game import Game  # noqa: E402
from engine.stratego.gravon import GravonError, GravonGame, read_gravon  # noqa: E402
from engine.stratego.notebook import Notebook  # noqa: E402
from engine.stratego.notebook.recall import Recollection  # noqa: E402
from engine.stratego.squares import Move, Square  # noqa: E402
from engine.stratego.variants import get_variant  # noqa: E402
from engine.stratego.views import redact_events  # noqa: E402
from firmware_bridge.bot.match import make_player  # noqa: E402
from firmware_bridge.bot.players import Player  # noqa: E402

FLOOR = 1e-4  # a true kind believed impossible scores log(FLOOR), not minus infinity


class Recorder:
    """Our bot, keeping every update its seat was given."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.updates: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def choose_setup(self) -> dict[str, str]:
        """The bot's own setup."""
        return self.inner.choose_setup()

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        """Keep the update, then pass it on."""
        self.updates.append((view, events))
        return self.inner.on_update(view, events)


def record(args: argparse.Namespace) -> int:
    """Play and keep the games (one JSON document, gzipped)."""
    spec = find_opponent(args.opponent)
    if spec is None:
        return 0
    games = []
    for number in range(args.games):
        seats: list[Recorder] = []
        truth: dict[int, str] = {}

        def maker(bot: str, variant_name: str, color: Color, seed: int,
                  seats: list[Recorder] = seats) -> Player:
            seats.append(Recorder(make_player(bot, variant_name, color, seed)))
            return seats[-1]

        def observer(game: Game, events: list[Event], truth: dict[int, str] = truth) -> None:
            if truth:  # kinds never change: the first ruling tells them all
                return
            for _, piece in game.pieces():
                truth[piece.id] = piece.kind
            for event in events:  # a piece taken on the first ply is never seen standing
                if isinstance(event, CaptureEvent):
                    truth[event.piece_id] = event.kind

        played = bench_game(f"bot:{args.level}", spec, number, args.seed, args.rules,
                            args.max_plies, observer=observer, maker=maker)
        color = played.color
        enemies = _enemy_ids(seats[0].updates, color)
        enemy_truth = {ident: kind for ident, kind in truth.items() if ident in enemies}
        games.append({"game": number, "color": color.value, "who": played.who,
                      "reason": played.result.reason, "plies": played.result.plies,
                      "truth": enemy_truth, "updates": seats[0].updates})
        print(f"  game {number + 1}: {played.who} wins, {played.result.reason}, "
              f"{played.result.plies} plies", flush=True)
    with gzip.open(args.out, "wt", encoding="utf-8") as out:
        json.dump({"opponent": args.opponent, "rules": args.rules, "level": args.level,
                   "seed": args.seed, "games": games}, out)
    return 0


def archive(args: argparse.Namespace) -> int:
    """Replay classic games of the Gravon archive and keep both seats' updates (gzipped JSON)."""
    games: list[dict[str, Any]] = []
    refused = 0
    for name, text in archive_files(args.files):
        if len(games) >= 2 * args.games:
            break
        try:
            archived = read_gravon(text)
        except GravonError:
            continue
        if archived.gravon_type != "classic":
            continue
        seats, truth, plies, cut = replayed(archived)
        refused += cut
        for color in Color:
            enemies = _enemy_ids(seats[color], color)
            enemy = {ident: kind for ident, kind in truth.items() if ident in enemies}
            games.append({"game": name, "color": color.value, "who": "", "reason": "archive",
                          "plies": plies, "truth": enemy, "updates": seats[color]})
    with gzip.open(args.out, "wt", encoding="utf-8") as out:
        json.dump({"opponent": "gravon archive", "rules": "classic", "level": "", "seed": 0,
                   "games": games}, out)
    print(f"{len(games) // 2} archive games, {sum(g['plies'] for g in games) // 2} plies "
          f"({refused} cut short at a move our rules refuse) -> {args.out}")
    return 0


Updates = list[tuple[dict[str, Any], list[dict[str, Any]]]]


def replayed(archived: GravonGame) -> tuple[dict[Color, Updates], dict[int, str], int, int]:
    """An archive game replayed by our rules: each seat's updates, every piece's true kind, the
    plies played and 1 if a move our rules refuse cut it short (else 0)."""
    game = archived.record.new_game()
    truth = {piece.id: piece.kind for _, piece in game.pieces()}
    seats: dict[Color, Updates] = {c: [] for c in Color}
    events: list[Event] = []
    for text_move in [*archived.record.moves, None]:
        for color in Color:
            seats[color].append((game.view(color).to_dict(), redact_events(game, events, color)))
        if text_move is None or game.result is not None:
            break
        try:
            events = game.push(Move.parse(text_move))
        except (ValueError, ArbiterError):
            return seats, truth, game.ply, 1  # the game is kept up to the move our rules refuse
    return seats, truth, game.ply, 0


def _enemy_ids(updates: list[tuple[dict[str, Any], list[dict[str, Any]]]], color: Color) -> set[int]:
    first = updates[0][0]
    return {int(p["id"]) for p in first["pieces"] if p["color"] != color.value}


class Tally:
    """Sums of log probabilities and probabilities of the true kinds, by group."""

    def __init__(self) -> None:
        self.log: dict[str, float] = defaultdict(float)
        self.prob: dict[str, float] = defaultdict(float)
        self.count: dict[str, int] = defaultdict(int)

    def add(self, groups: list[str], probability: float) -> None:
        """One hidden piece at one decision."""
        for group in groups:
            self.log[group] += math.log(max(probability, FLOOR))
            self.prob[group] += probability
            self.count[group] += 1

    def row(self, group: str) -> str:
        """Mean log probability, mean probability and how many."""
        n = self.count[group]
        if not n:
            return "- | - | 0"
        return f"{self.log[group] / n:.3f} | {self.prob[group] / n:.3f} | {n}"


GROUPS = ("all", "moved", "still", "beside ours", "we attack it next", "ply < 100", "ply 100-300", "ply >= 300")


def score_game(game: dict[str, Any], variant_name: str, tally: Tally,
               recall: Recollection | None = None) -> None:
    """Replay one recorded game into a fresh notebook (remembering `recall`) and score its
    beliefs at our turns."""
    color = Color(game["color"])
    truth = {int(ident): kind for ident, kind in game["truth"].items()}
    notebook = Notebook(get_variant(variant_name), color, learn_probers=True, recall=recall)
    updates = game["updates"]
    for number, (view, events) in enumerate(updates):
        notebook.observe(view, events)
        if view.get("to_move") != color.value or view.get("result") is not None:
            continue
        ply = int(view.get("ply", 0))
        phase = "ply < 100" if ply < 100 else "ply 100-300" if ply < 300 else "ply >= 300"
        ours = {Square.parse(p["square"]) for p in view["pieces"] if p["color"] == color.value}
        beliefs = notebook.beliefs()
        target = _our_attack(updates[number + 1][1] if number + 1 < len(updates) else [], color)
        for entry in view["pieces"]:
            if entry["color"] == color.value or entry.get("kind") is not None:
                continue
            ident = int(entry["id"])
            square = Square.parse(entry["square"])
            motion = "moved" if entry.get("moved") else "still"
            groups = ["all", phase, motion, f"{motion} {truth[ident]}"]
            if any(square.distance(mine) == 1 for mine in ours):
                groups.append("beside ours")
            if ident == target:
                groups.append("we attack it next")
            tally.add(groups, beliefs.get(ident, {}).get(truth[ident], 0.0))


def _our_attack(events: list[dict[str, Any]], color: Color) -> int | None:
    """The enemy piece our next move attacked, if it did."""
    for event in events:
        if event.get("type") == "battle" and event.get("attacker_color") == color.value:
            return int(event["defender_id"])
    return None


def apply_settings(settings: list[str]) -> None:
    """`module.NAME=value` for modules of engine.stratego.notebook: change that constant."""
    for setting in settings:
        name, _, value = setting.partition("=")
        module_name, _, constant = name.rpartition(".")
        module = importlib.import_module(f"engine.stratego.notebook.{module_name}")
        if not hasattr(module, constant):
            raise SystemExit(f"engine.stratego.notebook.{module_name} has no {constant}")
        old = getattr(module, constant)
        setattr(module, constant, value.lower() in ("1", "true", "on") if isinstance(old, bool)
                else type(old)(value))


def score(args: argparse.Namespace) -> int:
    """Score the recorded games and print the table."""
    apply_settings(args.set or [])
    started = time.perf_counter()
    tally = Tally()
    games = 0
    for path in args.files:
        with gzip.open(path, "rt", encoding="utf-8") as source:
            recorded = json.load(source)
        for game in recorded["games"]:
            score_game(game, "classic", tally)
            games += 1
    label = ", ".join(args.set) if args.set else "as it stands"
    print(f"{label}: {games} games, {time.perf_counter() - started:.0f} s")
    print("| hidden enemy pieces at our turns | mean log p(true kind) | mean p | decisions x pieces |")
    print("|---|---|---|---|")
    for group in GROUPS:
        print(f"| {group} | {tally.row(group)} |")
    if args.by_kind:  # the same, by the true kind of the piece
        for group in sorted(g for g in tally.count if g not in GROUPS):
            print(f"| {group} | {tally.row(group)} |")
    return 0


def main() -> int:
    """`record` games or `score` recorded ones."""
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "record":
        recording = one_opponent_parser(__doc__.splitlines()[0])
        recording.add_argument("--out", required=True, help="the games, gzipped JSON")
        return record(recording.parse_args(sys.argv[2:]))
    if command == "archive":
        archiving = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        archiving.add_argument("files", nargs="+", help="Gravon archive files or zips of them")
        archiving.add_argument("--games", type=int, default=100)
        archiving.add_argument("--out", required=True, help="the games, gzipped JSON")
        return archive(archiving.parse_args(sys.argv[2:]))
    if command == "score":
        scoring = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        scoring.add_argument("files", nargs="+")
        scoring.add_argument("--set", action="append", help="MODULE.NAME=VALUE, a notebook constant")
        scoring.add_argument("--by-kind", action="store_true", help="also a row per true kind")
        return score(scoring.parse_args(sys.argv[2:]))
    if command:
        print(__doc__)
        return 2
    # With no command (`make bench`): two games against PeternLewis, recorded and scored.
    with tempfile.TemporaryDirectory() as folder:
        games = str(Path(folder) / "games.json.gz")
        recording = one_opponent_parser("")
        recording.set_defaults(games=2, out=games)
        if record(recording.parse_args([])) or not Path(games).exists():
            return 0
        return score(argparse.Namespace(files=[games], set=None, by_kind=False))


if __name__ == "__main__":
    sys.exit(main())
