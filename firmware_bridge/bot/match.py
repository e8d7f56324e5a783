"""`arbiter match RED BLUE`: referee a series of games between two players, colours alternating.

The match referee holds the `Game` (players never do): each seat gets its own view and the
events redacted for it after every ruling, exactly what a tablet gets. A move the rules refuse,
an unreadable answer or no answer when it is that seat's turn forfeits the game. Results are
printed with Wilson 95% intervals, wins by play (flag taken, opponent left without a move) apart
from wins by the opponent's forfeit.

`--rules none` referees without the repetition rules, as the UCC 2012 manager did, for sparring
with programs that never knew them; our own bot obeys them all the same (it follows them from the
public moves, `public_rules.py`).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.stratego.events import Event
from engine.stratego.game import Game
from engine.stratego.pieces import Color
from engine.stratego.setups import validate_setup
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant, get_variant
from engine.stratego.views import redact_events
from firmware_bridge.bot.players import HeuristicPlayer, Player, RandomPlayer

PLAYER_SPECS = "bot:LEVEL (easy, normal, strong), random, heuristic, ucc:COMMAND"
RULES = ("classic", "none")  # the variant's own repetition rules, or none (the UCC 2012 manager)
# Told of every ruling with the referee's game and its events: for benches that trace games
# (bench/bench_bot_losses.py); it sits on the referee's side, never on a player's.
Observer = Callable[[Game, list[Event]], None]


def referee_variant(variant_name: str, rules: str = "classic") -> Variant:
    """The variant the match referee rules by: as named, or without the repetition rules."""
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}; known: {', '.join(RULES)}")
    variant = get_variant(variant_name)
    if rules == "none":
        return dataclasses.replace(variant, two_squares_limit=None, more_squares_rule=False)
    return variant


def by_play(reason: str) -> bool:
    """True when a game was won on the board, not by the loser's forfeit or broken setup."""
    return not reason.startswith("forfeit-") and reason != "invalid-setup"


@dataclass
class GameResult:
    """How one game ended, for the player who had red and the one who had blue."""

    red: str
    blue: str
    winner: str | None  # "red", "blue" or None for a draw
    reason: str
    plies: int
    think_seconds: dict[str, list[float]] = field(default_factory=dict)


def make_player(spec: str, variant_name: str, color: Color, seed: int,
                opponent: str | None = None) -> Player:
    """A player from its match spec; our bot remembers what it sees of `opponent` (a spec)
    from game to game (`recall_shelf.SHELF`)."""
    if spec == "random":
        return RandomPlayer(variant_name, color, seed)
    if spec == "heuristic":
        return HeuristicPlayer(variant_name, color, seed)
    if spec == "bot" or spec.startswith("bot:"):
        from firmware_bridge.bot.player import ComputerPlayer

        level = spec.partition(":")[2] or "normal"
        return ComputerPlayer(variant_name, color, level, seed, opponent=opponent)
    if spec.startswith("ucc:"):
        from firmware_bridge.bot.ucc import UccPlayer

        return UccPlayer(spec[4:], variant_name, color)
    raise ValueError(f"unknown player {spec!r}; players are {PLAYER_SPECS}")


def _setup(player: Player, variant_name: str, color: Color) -> dict[Square, str] | None:
    variant = get_variant(variant_name)
    try:
        setup = {Square.parse(square): kind for square, kind in player.choose_setup().items()}
    except (ValueError, TypeError, AttributeError):
        return None
    return None if validate_setup(variant, color, setup) else setup


def play_game(red: Player, blue: Player, variant_name: str, max_plies: int = 1000,
              seed: int = 0, names: tuple[str, str] = ("red", "blue"),
              rules: str = "classic", observer: Observer | None = None) -> GameResult:
    """Referee one game to its end (or to the ply cap: a draw); `observer` sees every ruling."""
    seats = {Color.RED: red, Color.BLUE: blue}
    variant = referee_variant(variant_name, rules)
    setups = {color: _setup(player, variant_name, color) for color, player in seats.items()}
    think: dict[str, list[float]] = {"red": [], "blue": []}
    bad = [color for color, setup in setups.items() if setup is None]
    if bad:
        winner = None if len(bad) == 2 else bad[0].other.value
        return GameResult(names[0], names[1], winner, "invalid-setup", 0, think)
    red_setup, blue_setup = setups[Color.RED], setups[Color.BLUE]
    assert red_setup is not None and blue_setup is not None
    game = Game.from_setup(variant, red_setup, blue_setup, rng=random.Random(seed))
    return play_from(game, seats, max_plies, names, think, observer)


def play_from(game: Game, seats: dict[Color, Player], max_plies: int = 1000,
              names: tuple[str, str] = ("red", "blue"),
              think: dict[str, list[float]] | None = None,
              observer: Observer | None = None) -> GameResult:
    """Referee a game from its current position to the end, the ply cap (a draw) or a forfeit."""
    think = think if think is not None else {"red": [], "blue": []}
    events: list[Event] = []
    try:
        while True:
            answer = _tell_both(game, seats, events, think)
            if game.result is not None:
                return _finished(game, names, think)
            if game.ply >= max_plies:
                return GameResult(names[0], names[1], None, "ply-cap", game.ply, think)
            mover = game.to_move
            try:
                move = Move.parse(answer) if answer is not None else None
            except ValueError:
                move = None
            refusal = game.check(move) if move is not None else None
            if move is None or refusal is not None:
                rule = "no-move" if refusal is None else refusal.rule
                return GameResult(names[0], names[1], mover.other.value, f"forfeit-{rule}",
                                  game.ply, think)
            events = game.push(move)
            if observer is not None:
                observer(game, events)
    finally:
        for player in seats.values():
            close = getattr(player, "close", None)
            if close is not None:
                close()


def _tell_both(game: Game, seats: dict[Color, Player], events: list[Event],
               think: dict[str, list[float]]) -> str | None:
    """Give each seat its view and redacted events; return the answer of the seat to move."""
    answer = None
    for color in (game.to_move.other, game.to_move):  # the mover last, so it answers fresh
        view = game.view(color).to_dict()
        started = time.perf_counter()
        reply = seats[color].on_update(view, redact_events(game, events, color))
        if color is game.to_move and game.result is None:
            think[color.value].append(time.perf_counter() - started)
            answer = reply
    return answer


def _finished(game: Game, names: tuple[str, str], think: dict[str, list[float]]) -> GameResult:
    assert game.result is not None
    winner = game.result.winner.value if game.result.winner else None
    return GameResult(names[0], names[1], winner, game.result.reason, game.ply, think)


def wilson(successes: float, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a proportion."""
    if total == 0:
        return 0.0, 1.0
    p = successes / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    denominator = 1 + z * z / total
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


@dataclass
class Tally:
    """Wins, draws and losses of the first player of a match."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_by_play: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    plies: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    def add(self, result: GameResult, first_is_red: bool) -> None:
        """Count one game."""
        first = "red" if first_is_red else "blue"
        if result.winner is None:
            self.draws += 1
        elif result.winner == first:
            self.wins += 1
            self.wins_by_play += by_play(result.reason)
        else:
            self.losses += 1
        self.reasons[result.reason] = self.reasons.get(result.reason, 0) + 1
        self.plies.append(result.plies)

    def summary(self, first: str, second: str) -> str:
        """One line: W/D/L and the win rate with its Wilson 95% interval."""
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        play_low, play_high = wilson(self.wins_by_play, self.games)
        return (f"{first} vs {second}: {self.games} games, {self.wins} wins ({self.wins_by_play} by "
                f"play), {self.draws} draws, {self.losses} losses; win rate {rate:.1%} (95% Wilson "
                f"{low:.1%}-{high:.1%}); by play {play_low:.1%}-{play_high:.1%}")


def run_match(first: str, second: str, games: int, variant_name: str, seed: int,
              max_plies: int, progress: Any = None, rules: str = "classic",
              recall: bool = True) -> tuple[Tally, list[GameResult]]:
    """Play `games` games, `first` taking red in the even ones; returns the tally and each result.
    With `recall` our bot remembers what it saw of the other player's setups from game to game."""
    tally = Tally()
    results = []
    # Who each side remembers: the other's spec; a bot against its own spec would otherwise keep
    # both sides' setups under one name.
    names = (f"{first} (first)", f"{second} (second)") if first == second else (first, second)
    for number in range(games):
        first_is_red = number % 2 == 0
        game_seed = seed * 1000 + number
        red_spec, blue_spec = (first, second) if first_is_red else (second, first)
        red_name, blue_name = names if first_is_red else names[::-1]
        red = make_player(red_spec, variant_name, Color.RED, game_seed * 2 + 1,
                          blue_name if recall else None)
        blue = make_player(blue_spec, variant_name, Color.BLUE, game_seed * 2 + 2,
                           red_name if recall else None)
        result = play_game(red, blue, variant_name, max_plies, game_seed, (red_spec, blue_spec),
                           rules)
        tally.add(result, first_is_red)
        results.append(result)
        if progress is not None:
            winner = {"red": red_spec, "blue": blue_spec}.get(result.winner or "", "nobody")
            progress(f"game {number + 1}: {red_spec} (red) vs {blue_spec} (blue): "
                     f"{winner} wins, {result.reason}, {result.plies} plies")
    return tally, results


def main(argv: list[str]) -> int:
    """Play the match and print each game and the result with its Wilson 95% interval."""
    parser = argparse.ArgumentParser(prog="arbiter match", description=__doc__)
    parser.add_argument("red", help=f"first player ({PLAYER_SPECS}); red in game 1")
    parser.add_argument("blue", help="second player; blue in game 1")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--rules", default="classic", choices=RULES,
                        help="classic: the variant's repetition rules; none: without them, as the "
                             "UCC 2012 manager played (our bot obeys them all the same)")
    parser.add_argument("--forget", action="store_true",
                        help="our bot meets the other player as a stranger in every game (no recall)")
    args = parser.parse_args(argv)
    try:
        referee_variant(args.variant, args.rules)
        for spec in (args.red, args.blue):
            if spec.startswith("ucc:"):
                continue
            make_player(spec, args.variant, Color.RED, 0)
    except ValueError as error:
        print(f"arbiter match: {error}", file=sys.stderr)
        return 2
    tally, _ = run_match(args.red, args.blue, args.games, args.variant, args.seed, args.max_plies,
                         progress=lambda line: print(line, flush=True), rules=args.rules,
                         recall=not args.forget)
    print(tally.summary(args.red, args.blue))
    return 0
