"""Recall against people: the Gravon archive's games scored with a memory of setups, and without.

The notebook's recall (engine/stratego/notebook/recall.py) keeps the setups an opponent showed in
earlier games (their whole setups: the referee shows the whole board when a game ends). Whether
that helps against people, who may set up again as before or may not, is measured here on data
we did not write: the classic games of a month of the Gravon archive (the month the classic prior
and the library left out). The archive's copies name no players, so who met whom cannot be read
from it; instead each seat's notebook is given a memory of the opponent as three kinds of player
would leave it, each holding `--others` setups people made in earlier months (other players'):

- new: a player who never sets up the same way twice (the memory holds only those others);
- same: one who sets up again as last time (the others and the true setup);
- changed: one who moved a few pieces since (the others and the true setup with `--swaps` pairs
  of pieces of different kinds swapped).

Each scored game is replayed into a notebook without recall and one with each memory, and the
beliefs are held against the true kinds at every decision as `bench_bot_beliefs.py score` holds
them.

Run: .venv/bin/python bench/bench_bot_recall.py --scored strados2015-2.zip --games 50
         --history strados2015-1.zip
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_beliefs import GROUPS, Tally, _enemy_ids, replayed, score_game  # noqa: E402
from count_gravon_setups import archive_files  # noqa: E402

from engine import Color  # noqa: E402
from engine.stratego.gravon import GravonError, GravonGame, read_gravon  # noqa: E402
from engine.stratego.notebook.library import owner_index  # noqa: E402
from engine.stratego.notebook.recall import Recollection, Sighting  # noqa: E402
from engine.stratego.variants import get_variant  # noqa: E402

CLASSIC = get_variant("classic")


def classic_games(paths: list[str]) -> list[tuple[str, GravonGame]]:
    """The archive's classic games in these files, in the order they were played."""
    found = []
    for name, text in archive_files(paths):
        try:
            archived = read_gravon(text)
        except GravonError:
            continue
        if archived.gravon_type == "classic":
            found.append((name, archived))
    return found


def sightings(archived: GravonGame) -> dict[Color, Sighting]:
    """What each side's setup showed its opponent by the end of the game: all of it, since the
    referee shows the whole board when a game ends (`Game.knows`), whoever won and however."""
    seen: dict[Color, list[str | None]] = {color: [None] * 40 for color in Color}
    for square, piece in archived.record.new_game().pieces():
        index = owner_index(CLASSIC, piece.color, square)
        if index is not None:
            seen[piece.color][index] = piece.kind
    return {color: tuple(squares) for color, squares in seen.items()}


def changed(sighting: Sighting, swaps: int, rng: random.Random) -> Sighting:
    """The setup with `swaps` pairs of squares of different kinds swapped."""
    squares = list(sighting)
    for _ in range(swaps):
        while True:
            one, two = rng.sample(range(len(squares)), 2)
            if squares[one] != squares[two]:
                squares[one], squares[two] = squares[two], squares[one]
                break
    return tuple(squares)


def memory_of(setups: list[Sighting]) -> Recollection:
    """A notebook's memory holding these setups, one game each."""
    memory = Recollection(CLASSIC)
    for setup in setups:
        memory.remember(setup)
    return memory


def main() -> int:
    """Score the month's games without recall and with each memory, and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scored", required=True, help="the month scored (a zip of the archive)")
    parser.add_argument("--history", nargs="+", required=True, help="earlier months, as zips")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--others", type=int, default=10, help="other people's setups remembered")
    parser.add_argument("--swaps", type=int, default=3, help="pairs swapped in a changed setup")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    rng = random.Random(args.seed)
    pool = [sighting for _, archived in classic_games(args.history)
            for sighting in sightings(archived).values()]
    tallies: dict[str, Tally] = defaultdict(Tally)
    scored = classic_games([args.scored])[:args.games]
    for name, archived in scored:
        updates, truth, plies, _ = replayed(archived)
        setups = sightings(archived)
        for color in Color:
            enemies = _enemy_ids(updates[color], color)
            game = {"game": name, "color": color.value, "plies": plies, "updates": updates[color],
                    "truth": {ident: kind for ident, kind in truth.items() if ident in enemies}}
            true = setups[color.other]
            others = [setup for setup in rng.sample(pool, args.others + 5) if setup != true][:args.others]
            score_game(game, "classic", tallies["no recall"])
            for label, remembered in (("new", others), ("same", [*others, true]),
                                      ("changed", [*others, changed(true, args.swaps, rng)])):
                score_game(game, "classic", tallies[label], memory_of(remembered))
    print(f"{len(scored)} games scored, both seats; memories of {args.others} setups of {len(pool)} "
          f"from earlier months; {time.perf_counter() - started:.0f} s")
    print("| notebook | " + " | ".join(GROUPS) + " |")
    print("|---|" + "---|" * len(GROUPS))
    for label in ("no recall", "new", "same", "changed"):
        cells = [tallies[label].row(column).split(" | ")[0] for column in GROUPS]
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
