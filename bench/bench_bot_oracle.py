"""What knowing the enemy's pieces is worth: our bot against one opponent, as it plays and peeking.

A diagnosis, not a player: game n is played by the level as it stands and by the same level
given the truth (every sampled world is the real position, every belief certain, no battle
weighed as a guess), on the same seeds, one after the other (the order alternates), as
`bench_bot_ab.py` plays its two configurations. If the peeking bot wins far more often, what the
bot believes is what loses; if it wins about as often, the way it plays is.

The peeking seat reads the true kinds from the bench's observer after every ruling (the first
move of a game, before any ruling, is chosen as usual). It lives here, in the bench: the bot in
`firmware_bridge/bot` has no way to see a `Game` (tests/firmware_bridge/bot/test_no_peek.py).

`--told bomb,flag` shows it only the pieces of those kinds (the rest it samples from its
beliefs as usual, the told kinds taken out of them): which part of the truth is worth most.

Run: nice -n 10 .venv/bin/python bench/bench_bot_oracle.py --opponent peternlewis --rules none
         --games 40 --seed 1 [--told all|KIND,KIND] [--level normal] [--json FILE]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_ab import play_interleaved, report  # noqa: E402
from bench_bot_opponents import bench_game, find_opponent, losses, one_opponent_parser  # noqa: E402

from engine import Color  # noqa: E402
from engine.stratego.events import Event  # noqa: E402
from engine.stratego.game import Game  # noqa: E402
from engine.stratego.variants import get_variant  # noqa: E402
from firmware_bridge.bot.board import SearchBoard  # noqa: E402
from firmware_bridge.bot.match import make_player  # noqa: E402
from firmware_bridge.bot.player import ComputerPlayer  # noqa: E402
from firmware_bridge.bot.players import Player  # noqa: E402


class PeekingPlayer(ComputerPlayer):
    """The computer player with the true kinds of the enemy pieces in place of its beliefs."""

    def __init__(self, variant_name: str, color: Color, level: str, seed: int,
                 told: frozenset[str] | None = None) -> None:
        super().__init__(variant_name, color, level, seed)
        self.truth: dict[int, str] = {}
        self.told = told  # the kinds whose pieces are shown to it (None: all)
        plain_board = self.memory.board

        def certain_board(view: dict[str, Any], world: dict[int, str]) -> SearchBoard:
            board = plain_board(view, world)
            for piece, ident in enumerate(board.ident):  # no battle with a told piece is a guess
                if ident in self.truth and (self.told is None or self.truth[ident] in self.told):
                    board.hidden[piece] = 0.0
            return board

        self.memory.board = certain_board  # type: ignore[method-assign]

    def see(self, game: Game, events: list[Event]) -> None:
        """The bench's observer: the enemy pieces as they are after this ruling."""
        self.truth = {piece.id: piece.kind for _, piece in game.pieces() if piece.color != self.color}

    def _sample_world(self) -> dict[int, str]:
        if not self.truth:
            return super()._sample_world()
        if self.told is None:
            return dict(self.truth)
        # The told pieces get their kinds; the kinds the sample gave them go to the pieces it
        # had wrongly given told kinds, so the army's counts still add up.
        world = super()._sample_world()
        told = self.told
        shown = {ident for ident, kind in self.truth.items() if kind in told}
        freed = [world[ident] for ident in shown if world.get(ident) not in told]
        for ident in shown:
            world[ident] = self.truth[ident]
        for ident in [i for i, kind in world.items() if kind in told and i not in shown]:
            # (A notebook that failed gives a fallback world whose counts need not add up.)
            world[ident] = freed.pop() if freed else world[ident]
        return world

    def _beliefs(self) -> dict[int, dict[str, float]]:
        beliefs = super()._beliefs()
        if not self.truth:
            return beliefs
        if self.told is None:
            return {ident: {kind: 1.0} for ident, kind in self.truth.items()}
        for ident, kind in self.truth.items():
            if kind in self.told:
                beliefs[ident] = {kind: 1.0}
            elif ident in beliefs:
                rest = {k: p for k, p in beliefs[ident].items() if k not in self.told}
                total = sum(rest.values())
                # Beliefs that left it nothing but told kinds were wrong: it gets the truth.
                beliefs[ident] = {k: p / total for k, p in rest.items()} if total else {kind: 1.0}
        return beliefs


def play(level: str, spec: str, rules: str, number: int, seed: int, max_plies: int,
         peeking: bool, told: frozenset[str] | None = None) -> dict[str, Any]:
    """One game of our bot at `level`, peeking or not (colours alternate with the game number)."""
    seats: list[PeekingPlayer] = []

    def maker(bot: str, variant_name: str, color: Color, player_seed: int) -> Player:
        if not peeking:
            return make_player(bot, variant_name, color, player_seed)
        seats.append(PeekingPlayer(variant_name, color, level, player_seed, told))
        return seats[-1]

    def observer(game: Game, events: list[Event]) -> None:
        for seat in seats:
            seat.see(game, events)

    game = bench_game(f"bot:{level}", spec, number, seed, rules, max_plies, observer=observer,
                      maker=maker)
    color = game.color.value
    return {"game": number, "who": game.who,
            "reason": game.result.reason, "plies": game.result.plies,
            "think": game.result.think_seconds[color], "losses": dict(losses(game.battles, color))}


def main() -> int:
    """Play both configurations game by game and print the table."""
    parser = one_opponent_parser(__doc__.splitlines()[0])
    parser.add_argument("--json", default=None, help="append each game's figures to this file")
    parser.add_argument("--told", default="all",
                        help="the kinds shown to the peeking bot, comma-separated (default: all)")
    args = parser.parse_args()
    told = None if args.told == "all" else frozenset(args.told.split(","))
    unknown = sorted((told or frozenset()) - set(get_variant("classic").kinds))
    if unknown:
        parser.error(f"--told: no such kind in classic: {', '.join(unknown)}")
    spec = find_opponent(args.opponent)
    if spec is None:
        return 0  # a missing program is skipped (said above), so `make bench` goes on
    started = time.perf_counter()
    played = play_interleaved(args, ["as it stands", "peeking"], lambda label, number: play(
        args.level, spec, args.rules, number, args.seed, args.max_plies, label == "peeking", told))
    report(args, played, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
