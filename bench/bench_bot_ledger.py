"""Where the material goes against one opponent: every battle, by who attacked and what it knew.

For the games `bench_bot_ab.py` and `bench_bot_opponents.py` play (`bench_game`: the same seeds and
colours), each battle is put in a class by who attacked and whether the attacker's side knew the
defender before it (known, or unknown and moved, or unknown and still), and the material each side
lost in it is summed (rank values of `evaluation.RANK_VALUE`, a bomb 5). Printed per game, for the
games our bot won and those it lost apart: battles, material taken, material lost and the balance
per class and per attacking kind, then what their Marshal took before and after our Spy died and
how often our Spy took their Marshal. With `--read`, also the chases (how many of our pieces taken
by an enemy attack had stepped away from that same attacker in the 16 plies before) and our
officers that a battle showed (by their attack or the enemy's) and how many of those died later. This is the
referee's record, not the bot's: the bot never sees it.

Run: nice -n 5 .venv/bin/python bench/bench_bot_ledger.py --opponent peternlewis --rules none
          --games 20 --seed 172
     .venv/bin/python bench/bench_bot_ledger.py --opponent doi --read FILE [FILE ...]
          (tallies the games `bench_bot_losses.py --ledger FILE` saved instead of playing; with
          the material balance every 100 plies and the think times)
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_bot_opponents import bench_game, find_opponent, one_opponent_parser  # noqa: E402
from interleave import percentile  # noqa: E402

from engine import get_variant  # noqa: E402
from engine.stratego.events import Event  # noqa: E402
from engine.stratego.game import Game  # noqa: E402
from engine.stratego.squares import Square  # noqa: E402
from firmware_bridge.bot.evaluation import RANK_VALUE, TRAP_VALUE  # noqa: E402


@dataclass
class Battle:
    """One battle as the referee ruled it, with what each side knew just before."""

    attacker_color: str
    attacker: str
    defender: str
    outcome: str  # "attacker", "defender" or "both"
    defender_known: bool  # the attacker's side knew the defender's kind
    defender_moved: bool


@dataclass
class Ledger:
    """The referee's observer: the battles of one game."""

    battles: list[Battle] = field(default_factory=list)
    _before: dict[str, tuple[bool, bool]] = field(default_factory=dict)  # square -> (known, moved)

    def __call__(self, game: Game, events: list[Event]) -> None:
        mover = ("", "", "")
        for event in events:
            data: dict[str, Any] = event.to_dict()
            if data.get("type") == "move":
                origin, target = str(data["move"]).split("-")
                mover = (str(data["color"]), origin, target)
            elif data.get("type") == "battle":
                known, moved = self._before.get(mover[2], (False, False))
                self.battles.append(Battle(mover[0], str(data["attacker"]),
                                           str(data["defender"]), str(data["outcome"]), known, moved))
        self._before = {square.name: (game.knows(piece.color.other, piece), piece.id in game.moved)
                        for square, piece in game.pieces()}


# The benches play classic games (`bench_game`); the flag and the bombs have no rank.
RANKS = {name: kind.rank for name, kind in get_variant("classic").kinds.items()}


def worth(kind: str) -> float:
    """Material of a kind by its rank (a bomb: TRAP_VALUE; the flag: 0)."""
    return TRAP_VALUE if kind == "bomb" else RANK_VALUE.get(RANKS[kind] or 0, 0.0)


def tally(games: list[tuple[str, list[Battle]]]) -> None:
    """Print the balance per class and per attacking kind, per game, for the games given."""
    classes: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    kinds: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    spy: Counter[str] = Counter()
    for color, battles in games:
        spy_dead = False
        for battle in battles:
            ours = battle.attacker_color == color
            attacker_dies = battle.outcome in ("defender", "both")
            defender_dies = battle.outcome in ("attacker", "both")
            seen = ("known" if battle.defender_known
                    else "unknown moved" if battle.defender_moved else "unknown still")
            if ours:
                key, kind = f"we attack {seen}", battle.attacker
                taken = worth(battle.defender) * defender_dies
                lost = worth(battle.attacker) * attacker_dies
            else:
                key, kind = f"they attack our {seen}", f"{battle.attacker} (theirs)"
                taken = worth(battle.attacker) * attacker_dies
                lost = worth(battle.defender) * defender_dies
            for table, name in ((classes, key), (kinds, kind)):
                table[name][0] += 1
                table[name][1] += taken
                table[name][2] += lost
            if not ours and battle.attacker == "marshal" and defender_dies:
                spy[f"their Marshal took a piece, our Spy {'dead' if spy_dead else 'alive'}"] += 1
            if ours and battle.attacker == "spy" and battle.defender == "marshal":
                spy["our Spy took their Marshal"] += 1
            spy_dead = spy_dead or (battle.attacker == "spy" and ours and attacker_dies) or (
                battle.defender == "spy" and not ours and defender_dies)
    count = max(1, len(games))
    for title, table in (("class", classes), ("attacking kind", kinds)):
        print(f"  per game, by {title}: battles, we took, we lost, balance")
        for name, (fights, taken, lost) in sorted(table.items(), key=lambda kv: kv[1][1] - kv[1][2]):
            print(f"    {name:30s} {fights / count:6.1f} {taken / count:7.1f} {lost / count:7.1f} "
                  f"{(taken - lost) / count:+7.1f}")
    for name, times in sorted(spy.items()):
        print(f"  {name}: {times / count:.2f} a game")


CHASE_WINDOW = 16  # plies looked back from a capture for the victim's flights from its taker
MOVE = re.compile(r"^(red|blue) (\w+) ([a-z]\d+)-([a-z]\d+)$")
BATTLE = re.compile(r"^\w+ attacks (\w+): (attacker|defender|both) wins$")


class Ruling(NamedTuple):
    """One ledger ruling read: who moved from where to where, and the battle it caused."""

    color: str
    origin: str
    target: str
    outcome: str | None  # "attacker", "defender" or "both"; None when no battle was fought
    defender: str  # the defender's kind ("" without a battle)


def read_ruling(text: str) -> Ruling | None:
    """A ledger ruling's move and battle, or None for a line that is no move."""
    parts = text.split("; ")
    move = MOVE.match(parts[0])
    if move is None:
        return None
    battle = BATTLE.match(parts[1]) if len(parts) > 1 else None
    color, _, origin, target = move.groups()
    if battle is None:
        return Ruling(color, origin, target, None, "")
    return Ruling(color, origin, target, battle.group(2), battle.group(1))


def _next_to(one: str, other: str) -> bool:
    return Square.parse(one).distance(Square.parse(other)) == 1


def chases(rulings: list[str], color: str) -> tuple[int, Counter[str]]:
    """Of the pieces of `color` taken by an enemy attack (not bombs), how many in all, and, by
    kind, those that had stepped away from a square next to that same attacker in the
    CHASE_WINDOW plies before (a chase). `rulings`: a ledger line's rulings, one per ply."""
    at: dict[str, tuple[int, str]] = {}  # square -> (piece number, colour) of each piece that moved
    flights: list[tuple[int, int, int]] = []  # (ply, our piece, the enemy piece it stepped from)
    taken, chased = 0, Counter[str]()
    for ply, text in enumerate(rulings, 1):
        ruling = read_ruling(text)
        if ruling is None:
            continue
        mover_color, origin, target, outcome, defender = ruling
        piece, _ = at.pop(origin, (ply, mover_color))  # numbered by the ply of its first move
        if mover_color == color:
            flights += [(ply, piece, other) for square, (other, side) in at.items()
                        if side != color and _next_to(origin, square)]
        if outcome is None:
            at[target] = (piece, mover_color)
            continue
        victim = at.pop(target, None)  # None: a piece that never moved, so never fled
        if mover_color != color and outcome == "attacker" and defender not in ("bomb", "flag"):
            taken += 1
            if victim is not None and any((ours, theirs) == (victim[0], piece)
                                          for when, ours, theirs in flights
                                          if ply - when <= CHASE_WINDOW):
                chased[defender] += 1
        if outcome == "attacker":
            at[target] = (piece, mover_color)
        elif outcome == "defender" and victim is not None:
            at[target] = victim
    return taken, chased


SHOWN_FLOOR = 22.0  # officers from a Captain up: the pieces worth hunting once shown


def shown_then_died(rulings: list[str], setup: dict[str, dict[str, str]],
                     color: str) -> Counter[tuple[str, str, bool]]:
    """Our officers (worth SHOWN_FLOOR or more) that a battle showed and left alive: counted by
    (kind, "by attacking" or "by defending", whether they died in a later battle). `setup`: the
    record's setup, colour -> square -> kind; `rulings`: a ledger line's, one per ply."""
    board = {square: [side, kind, ""] for side, army in setup.items() for square, kind in army.items()}
    found: Counter[tuple[str, str, bool]] = Counter()
    for text in rulings:
        ruling = read_ruling(text)
        if ruling is None or ruling.origin not in board:
            continue
        target, outcome = ruling.target, ruling.outcome
        piece = board.pop(ruling.origin)
        if outcome is None or target not in board:
            board[target] = piece
            continue
        defender = board.pop(target)
        for one, role, dies in ((piece, "by attacking", outcome != "attacker"),
                                (defender, "by defending", outcome != "defender")):
            if one[0] != color:
                continue
            if dies and one[2]:
                found[(one[1], one[2], True)] += 1
            elif not dies and not one[2] and worth(one[1]) >= SHOWN_FLOOR:
                one[2] = role
        if outcome != "both":
            board[target] = piece if outcome == "attacker" else defender
    for side, kind, role in board.values():
        if side == color and role:
            found[(kind, role, False)] += 1
    return found


def read_saved(paths: list[str]) -> int:
    """Tally the games `bench_bot_losses.py --ledger` saved: per ending, the ledger and the
    material balance (ours minus theirs) every 100 plies; the think times of all."""
    games: dict[str, list[tuple[str, list[Battle]]]] = defaultdict(list)
    balance: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    think: list[float] = []
    taken_in: Counter[str] = Counter()  # ending -> our pieces their attacks took
    chased_in: dict[str, Counter[str]] = defaultdict(Counter)  # ending -> kind -> after a chase
    shown: Counter[tuple[str, str, bool]] = Counter()
    for path in paths:
        with open(path, encoding="utf-8") as saved:
            for line in saved:
                game = json.loads(line)
                ending = {"bot": "won", "opponent": "lost"}.get(game["who"], "drawn")
                games[ending].append((game["color"], [Battle(**b) for b in game["battles"]]))
                for ply, red, blue in game["material"]:
                    if ply % 100 == 0:
                        balance[ending][ply].append(red - blue if game["color"] == "red" else blue - red)
                think += game["think"]
                taken, chased = chases(game.get("rulings", []), game["color"])
                taken_in[ending] += taken
                chased_in[ending].update(chased)
                if "record" in game:
                    shown.update(shown_then_died(game["rulings"], game["record"]["setup"], game["color"]))
    for ending in ("won", "drawn", "lost"):
        print(f"the {len(games[ending])} games our bot {ending}")
        tally(games[ending])
        curve = ", ".join(f"{ply}: {sum(v) / len(v):+.0f} ({len(v)})"
                          for ply, v in sorted(balance[ending].items()))
        print(f"  material, ours minus theirs, at ply (games still on): {curve}")
        chased = chased_in[ending]
        print(f"  chases: of {taken_in[ending]} pieces of ours their attacks took, {sum(chased.values())} had "
              f"stepped away from that attacker in the {CHASE_WINDOW} plies before "
              f"({', '.join(f'{kind} {n}' for kind, n in chased.most_common())})")
    print("our officers shown in a battle they lived through, and how many died in a later one (all games):")
    for kind, role in sorted({(kind, role) for kind, role, _ in shown}, key=lambda kr: (-worth(kr[0]), kr)):
        taken, alive = shown[(kind, role, True)], shown[(kind, role, False)]
        print(f"  {kind:10s} {role:13s} {taken + alive:4d} shown, {taken:4d} died later")
    print(f"think: p50 {percentile(think, 50):.3f} s, p99 {percentile(think, 99):.3f} s, "
          f"max {max(think, default=0.0):.3f} s over {len(think)} moves")
    return 0


def main() -> int:
    """Play the games and print the ledger of the won and the lost ones (or tally saved ones)."""
    parser = one_opponent_parser(__doc__.splitlines()[0])
    parser.add_argument("--read", nargs="+", default=None, metavar="FILE",
                        help="tally games bench_bot_losses.py --ledger saved instead of playing")
    args = parser.parse_args()
    if args.read:
        return read_saved(args.read)
    spec = find_opponent(args.opponent)
    if spec is None:
        return 0  # a missing program is skipped (said above), so `make bench` goes on
    won: list[tuple[str, list[Battle]]] = []
    lost: list[tuple[str, list[Battle]]] = []
    for number in range(args.games):
        ledger = Ledger()
        game = bench_game(f"bot:{args.level}", spec, number, args.seed, args.rules, args.max_plies,
                          observer=ledger)
        print(f"game {number}: {game.who} wins, {game.result.reason}, {game.result.plies} plies",
              flush=True)
        if game.who != "nobody":
            (won if game.who == "bot" else lost).append((game.color.value, ledger.battles))
    for title, games in (("won", won), ("lost", lost)):
        print(f"bot:{args.level} against {args.opponent}, rules {args.rules}, seed {args.seed}: "
              f"the {len(games)} games it {title}")
        tally(games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
