"""The games our bot loses against one opponent, told ply by ply, to find out what beats it.

For each game the bot loses, and with `--draws` each drawn game (the games `bench_bot_ab.py` and
`bench_bot_opponents.py` play: `bench_game`, the same seeds and colours, so our setups are
theirs; `--first N` starts at game N, to split a run into processes): how it ended, the last plies
as the referee ruled them (moves and battles with both kinds), and the true board every few of
those plies and at the end, each piece marked with its side and whether the other side has seen
it. A summary of all endings closes the report. With `--ledger FILE` every game (won, drawn or
lost) is appended to FILE as one JSON line: how it ended, our think times, every battle with
what the attacker's side knew (`bench_bot_ledger.Ledger`), the material each side had every 50
plies, every ruling's text and the game as a record (`record`: the setups and the moves, in the
shape `arbiter check` reads, ruled by the line's `rules`), from which `bench_bot_replay.py`
rebuilds any position; `bench_bot_ledger.py --read FILE...` tallies such files, of split runs
too. This is the referee's record, not the bot's: the bot never sees it.

Run: nice -n 5 .venv/bin/python bench/bench_bot_losses.py --opponent celsius1.1 --rules none
          --games 20 --seed 41 [--plies 40] [--every 6] [--level normal] [--flip SWITCHES]
          [--out FILE] [--draws] [--first N] [--recall DIR] [--ledger FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_ledger import Ledger, worth  # noqa: E402
from bench_bot_opponents import bench_game, find_opponent, flipped, one_opponent_parser  # noqa: E402

from engine.stratego.events import Event  # noqa: E402
from engine.stratego.game import Game  # noqa: E402
from engine.stratego.pieces import Color  # noqa: E402
from engine.stratego.records import GameRecord  # noqa: E402
from engine.stratego.squares import Square  # noqa: E402
from firmware_bridge.bot.levels import LEVELS  # noqa: E402
from firmware_bridge.bot.recall_shelf import SHELF  # noqa: E402


def piece_mark(game: Game, square: Square) -> str:
    """Four characters: '*' when the other side has seen it, its side (r/b), its rank (classic:
    Marshal 10 ... Scout 2, Spy 1) or its kind's first letter (B bomb, F flag)."""
    piece = game.piece_at(square)
    if piece is None:
        return "   ."
    rank = game.variant.kinds[piece.kind].rank
    token = str(rank) if rank else piece.kind[0].upper()
    seen = "*" if game.knows(piece.color.other, piece) else " "
    return f"{seen}{piece.color.value[0]}{token:>2}"


def board_text(game: Game) -> str:
    """The true board, top rank first, with file letters underneath."""
    variant = game.variant
    rows = [f"{rank + 1:3d} " + "".join(piece_mark(game, Square(file, rank))
                                        for file in range(variant.width))
            for rank in range(variant.height - 1, -1, -1)]
    files = "    " + "".join(f"{Square(file, 0).name[:-1]:>4}" for file in range(variant.width))
    return "\n".join(rows + [files])


def ruling_text(events: list[Event]) -> list[str]:
    """The moves and battles of one ruling, both kinds shown (the referee's record)."""
    lines = []
    for event in events:
        data: dict[str, Any] = event.to_dict()
        if data.get("type") == "move":
            lines.append(f"{data['color']} {data['kind']} {data['move']}")
        elif data.get("type") == "battle":
            lines.append(f"{data['attacker']} attacks {data['defender']}: {data['outcome']} wins")
    return lines


MATERIAL_EVERY = 50  # plies between two counts of the material in the ledger file


class Recorder:
    """The referee's observer: each ruling's text and the board after it, the battles with what
    the attacker knew, and each side's material every MATERIAL_EVERY plies."""

    def __init__(self) -> None:
        self.plies: list[tuple[int, list[str], str]] = []
        self.ledger = Ledger()
        self.material: list[tuple[int, float, float]] = []  # (ply, red's, blue's)
        self.game: Game | None = None  # the referee's game, for its record at the end

    def __call__(self, game: Game, events: list[Event]) -> None:
        self.game = game
        self.plies.append((game.ply, ruling_text(events), board_text(game)))
        self.ledger(game, events)
        if game.ply % MATERIAL_EVERY == 0:
            sides = {Color.RED: 0.0, Color.BLUE: 0.0}
            for _, piece in game.pieces():
                sides[piece.color] += worth(piece.kind)
            self.material.append((game.ply, sides[Color.RED], sides[Color.BLUE]))


def report(out: TextIO, number: int, bot: Color, outcome: str, plies: int, recorder: Recorder,
           last: int, every: int) -> None:
    """One game told: the last plies and a board every `every` of them and at the end."""
    out.write(f"===== game {number}: the bot ({bot.value}) {outcome}, ply {plies}\n")
    tail = recorder.plies[-last:]
    for index, (ply, lines, board) in enumerate(tail):
        out.write(f"ply {ply}: " + "; ".join(lines) + "\n")
        if index % every == 0 or index == len(tail) - 1:
            out.write(board + "\n")
    out.flush()


def ledger_line(number: int, bot: Color, who: str, reason: str, plies: int, think: list[float],
                recorder: Recorder, rules: str = "classic") -> str:
    """One game of the ledger file: a JSON object on one line."""
    return json.dumps({
        "game": number, "color": bot.value, "who": who, "reason": reason, "plies": plies,
        "rules": rules,
        "think": [round(seconds, 4) for seconds in think],
        "battles": [dataclasses.asdict(battle) for battle in recorder.ledger.battles],
        "material": [list(count) for count in recorder.material],
        "rulings": ["; ".join(lines) for _, lines, _ in recorder.plies],
        "record": GameRecord.from_game(recorder.game).to_dict() if recorder.game else None}) + "\n"


def play_all(args: argparse.Namespace, spec: str, out: TextIO) -> Counter[str]:
    """Play the games; tell each loss to `out` (and every game to the ledger file, when asked);
    return how the games ended."""
    endings: Counter[str] = Counter()
    for number in range(args.first, args.first + args.games):
        recorder = Recorder()
        game = bench_game(f"bot:{args.level}", spec, number, args.seed, args.rules, args.max_plies,
                          observer=recorder)
        result = game.result
        endings[f"{game.who}: {result.reason}"] += 1
        print(f"game {number}: {game.who} wins, {result.reason}, {result.plies} plies", flush=True)
        if args.ledger:
            with open(args.ledger, "a", encoding="utf-8") as ledger:
                ledger.write(ledger_line(number, game.color, game.who, result.reason, result.plies,
                                         result.think_seconds[game.color.value], recorder,
                                         args.rules))
        if game.who == "opponent" or (args.draws and game.who == "nobody"):
            outcome = "lost" if game.who == "opponent" else "drew"
            report(out, number, game.color, f"{outcome}, {result.reason}", result.plies, recorder,
                   args.plies, args.every)
    return endings


def main() -> int:
    """Play the games and tell each loss."""
    parser = one_opponent_parser(__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=40, help="plies told before each loss's end")
    parser.add_argument("--every", type=int, default=6, help="a board every this many of them")
    parser.add_argument("--out", default=None, help="write the report here (default: stdout)")
    parser.add_argument("--draws", action="store_true", help="tell the drawn games too")
    parser.add_argument("--first", type=int, default=0,
                        help="number of the first game (its seed and colours), to split a run")
    parser.add_argument("--recall", default=None, metavar="DIR",
                        help="keep the bot's memory of the opponent in this folder: processes "
                             "of a split run given one folder remember each other's games")
    parser.add_argument("--ledger", default=None, metavar="FILE",
                        help="append every game to FILE as a JSON line (battles, material, think "
                             "times) for bench_bot_ledger.py --read")
    parser.add_argument("--flip", default=None, metavar="SWITCHES",
                        help="play the level with these Level switches (comma-separated) turned "
                             "the other way, as bench_bot_ab.py --flip does")
    args = parser.parse_args()
    label = args.level
    if args.flip:
        LEVELS[args.level], flips = flipped(LEVELS[args.level], args.flip)
        label += f" ({flips})"
    if args.recall:
        SHELF.folder = Path(args.recall)  # this process's shelf, which our bot reads
    spec = find_opponent(args.opponent)
    if spec is None:
        return 0  # a missing program is skipped (said above), so `make bench` goes on
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else sys.stdout
        endings = play_all(args, spec, out)
        out.write(f"bot:{label} against {args.opponent}, rules {args.rules}, seed {args.seed}: "
                  f"{dict(endings)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
