"""Why the bot played a move: a game of a ledger file replayed to one ply, and the bot's search there.

`bench_bot_losses.py --ledger FILE` keeps each game as a record (the setups and the moves). This
rebuilds the game to the ply asked for, feeds our bot (at its level, with the recall folder of the
run when given) every seat update the referee gave it up to there, lets it choose at that ply and
prints the true board, the move it chose, the move it played in the game and its best root moves
with their scores. The bot's sampling is seeded anew, so its choice may differ from the game's;
that difference is itself worth seeing.

Run: .venv/bin/python bench/bench_bot_replay.py --ledger FILE --game 0 --ply 251 [--level normal]
          [--flip SWITCHES] [--recall DIR --opponent doi] [--top 8]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_losses import board_text  # noqa: E402
from bench_bot_opponents import OPPONENTS, find_opponent, flipped  # noqa: E402

from engine.stratego.game import Game  # noqa: E402
from engine.stratego.pieces import Color  # noqa: E402
from engine.stratego.records import GameRecord  # noqa: E402
from engine.stratego.squares import Move  # noqa: E402
from engine.stratego.views import redact_events  # noqa: E402
from firmware_bridge.bot.levels import LEVELS  # noqa: E402
from firmware_bridge.bot.match import referee_variant  # noqa: E402
from firmware_bridge.bot.player import ComputerPlayer  # noqa: E402
from firmware_bridge.bot.recall_shelf import SHELF, RecallShelf  # noqa: E402


def saved_game(path: str, number: int) -> dict[str, Any]:
    """The ledger line of game `number`."""
    with open(path, encoding="utf-8") as ledger:
        for line in ledger:
            game = json.loads(line)
            if game["game"] == number:
                if not game.get("record"):
                    raise SystemExit(f"game {number} has no record (a ledger older than the records)")
                return game
    raise SystemExit(f"no game {number} in {path}")


def replay(saved: dict[str, Any], ply: int, level: str,
           opponent: str | None, shelf: RecallShelf) -> tuple[Game, ComputerPlayer]:
    """The game before ply `ply` (plies count from 1), and our bot having seen it all
    (`opponent`: the spec its recall is filed under, None for none)."""
    record = GameRecord.from_dict(saved["record"])
    # The record cannot say "no more-squares rule"; the line's `rules` does.
    game = Game(referee_variant(record.variant, saved.get("rules", "classic")), record.pieces,
                record.to_move)
    color = Color(saved["color"])
    bot = ComputerPlayer(record.variant, color, level, seed=ply, opponent=opponent, shelf=shelf)
    bot.choose_move = lambda view: None  # type: ignore[method-assign]  # silent until `ply`
    events: list[Any] = []
    for text in record.moves[:ply - 1]:
        bot.on_update(game.view(color).to_dict(), redact_events(game, events, color))
        events = game.push(Move.parse(text))
    del bot.choose_move  # the class's own again
    return game, bot


def main() -> int:
    """Replay one game to one ply and show the bot's choice there."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--game", type=int, required=True)
    parser.add_argument("--ply", type=int, required=True, help="the ply to choose at, from 1")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--flip", default=None, help="Level switches turned the other way")
    parser.add_argument("--recall", default=None, metavar="DIR",
                        help="the run's recall folder (with --opponent: what the bot recalled)")
    parser.add_argument("--opponent", default=None, choices=OPPONENTS)
    parser.add_argument("--top", type=int, default=8, help="root moves shown")
    args = parser.parse_args()
    if args.flip:
        LEVELS[args.level], _ = flipped(LEVELS[args.level], args.flip)
    shelf = RecallShelf(Path(args.recall)) if args.recall else SHELF
    opponent = find_opponent(args.opponent) if args.recall and args.opponent else None
    saved = saved_game(args.ledger, args.game)
    game, bot = replay(saved, args.ply, args.level, opponent, shelf)
    color = Color(saved["color"])
    if game.to_move is not color:
        raise SystemExit(f"ply {args.ply} is not our bot's ({color.value}) to play")
    print(board_text(game))
    chosen = bot.on_update(game.view(color).to_dict(), [])
    played = saved["record"]["moves"][args.ply - 1]
    print(f"ply {args.ply}: the bot chooses {chosen} now; in the game it played {played} "
          f"({saved['rulings'][args.ply - 1]})")
    for move, score in sorted(bot.last_scores.items(), key=lambda item: -item[1])[:args.top]:
        print(f"  {move:8s} {score:+8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
