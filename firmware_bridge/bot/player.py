"""The computer player: a seat like a tablet. It reads its view and redacted events, and answers a move.

It never receives a `Game`: what it knows of enemy pieces comes from the notebook, which reads the
same view and events. Each decision samples worlds from the notebook, searches each of them
(`search.py`) within the level's think time, adds the pull toward good fights
(`evaluation.Attraction`) and small costs (showing a high piece, walking straight back), and
checks the move against the rules the seat can see before answering.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from engine.core.errors import ArbiterError
from engine.stratego.notebook import Notebook
from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import get_variant
from firmware_bridge.bot.board import ATTACKER_WINS, BOTH_DIE, SearchBoard
from firmware_bridge.bot.defence import FlagDefence, stop_chance, stopping_share
from firmware_bridge.bot.evaluation import (
    FLAG_PULL,
    Attraction,
    distances,
    dominates,
    enclosed,
    expected_gain,
    kind_values,
)
from firmware_bridge.bot.flag_watch import flag_square
from firmware_bridge.bot.levels import LEVELS
from firmware_bridge.bot.perception import Perception
from firmware_bridge.bot.public_rules import PublicRepetition
from firmware_bridge.bot.recall_shelf import SHELF, RecallShelf
from firmware_bridge.bot.search import SearchStats, search_world
from firmware_bridge.bot.seat import COLOR_CODE, SeatMemory
from firmware_bridge.bot.setups import bot_setup

UNCOVER_COST = 6.0  # stepping off a square next to our own flag, leaving the flag open
PULL_WEIGHT = 1.0  # weight of the change in pull a move makes
URGENCY_PLIES = 500  # the pull grows by its own size every this many plies: games must end
BACK_COST = 1.5  # walking straight back to the square a piece just left
REVEAL_SHARE = 0.12  # share of an unknown high piece's value lost by showing it in a battle
# Our highest piece alive, while the opponent has not seen it (`Level.reserve`): every piece of
# ours that moves may be it, so no enemy piece can be sure of beating one, and no still piece of
# ours can be ruled out as it either. Once it is shown, the enemy's highest piece is sure of every
# piece of ours that moved, and a program that digs by elimination gets closer to our flag.
# So it stays home: a quiet move of it costs RESERVE_COST, and showing it in an attack costs
# TOP_REVEAL_SHARE of its value (instead of REVEAL_SHARE). With `Level.broad` so does our next
# kind (the General) while both are unseen: once shown, the enemy's Marshal hunts it down.
RESERVE_COST = 40.0
BROAD_FLOOR = 50.0  # the next kind is held back only while it is worth this much (a Colonel and up)
# A piece of ours that never moved may be a bomb or the flag in the opponent's eyes: every such
# piece that moves leaves fewer places for the flag, and once our officers have all been seen a
# program that counts (PeternLewis) sends its Miners at whatever never moved (`Level.still`).
STILL_COST = 4.0
TOP_REVEAL_SHARE = 0.8
# A piece of ours the opponent knows, whose assassin (the Spy, for the Marshal) is still alive:
# any hidden piece next to it that may be the assassin is taken for it with at least this
# chance (an assassin waits, unmoved, for the known target to come by), and standing there costs
# this share of the piece's value times that chance.
ASSASSIN_FLOOR = 0.25
ASSASSIN_DREAD = 1.0


# A known enemy piece on our half that nothing of ours alive beats (the assassin aside: it must
# strike first, and rarely gets to) takes what it meets; only a trade stops it (`Level.duel`).
# Our pieces that trade with it are drawn to it (DUEL_PULL, as strongly as to a sure flag: their
# Marshal took 8 to 15 pieces in a game while ours stood home), are not held back, and the trade
# earns DUEL_BONUS over its material.
DUEL_PULL = FLAG_PULL
DUEL_BONUS = 40.0


# An empty square beside our flag (a bomb there was dug, or its guard walked off) lets any walker
# in: a piece of ours standing on it must be beaten first (`Level.plug`). Each such hole draws
# our pieces as a target worth PLUG_VALUE, and stepping onto it earns PLUG_BONUS, both times the
# share of the enemy's walkers the piece stops.
PLUG_VALUE = 30.0
PLUG_BONUS = 20.0


class ComputerPlayer:
    """A computer seat: `choose_setup()` once, then `on_update(view, events)` after every ruling."""

    def __init__(self, variant_name: str, color: Color | str, level: str = "normal",
                 seed: int | None = None, opponent: str | None = None,
                 shelf: RecallShelf | None = None) -> None:
        """`opponent` names who we play (None: someone new each game); what we see of its setup
        is kept on `shelf` (this process's `SHELF` if None) for the next game."""
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; known: {', '.join(LEVELS)}")
        self.variant = get_variant(variant_name)
        self.color = Color(color)
        self.level = LEVELS[level]
        self.rng = random.Random(seed)
        self.opponent = opponent if self.level.recall else None
        self.shelf = shelf if shelf is not None else SHELF
        recollection = (self.shelf.recollection(self.opponent, self.variant)
                        if self.opponent is not None else None)
        self.notebook = Notebook(self.variant, self.color, learn_probers=self.level.probers,
                                 recall=recollection)
        self._remembered = False  # this game's sighting is on the shelf
        self.memory = SeatMemory(self.variant, self.color.value)
        self.public_rules = PublicRepetition(self.variant, self.color)
        self._distances: list[list[int]] | None = None
        self._last_view: dict[str, Any] | None = None
        self.last_stats = SearchStats()
        self._last_choice: tuple[SearchBoard, list[tuple[int, int]], list[float]] | None = None
        self.think_times: list[float] = []
        self.total_positions = 0  # search positions over the whole game (for the bench)
        self.total_search_seconds = 0.0

    def choose_setup(self) -> dict[str, str]:
        """Our setup (square name -> kind): `setups.bot_setup`."""
        return bot_setup(self.variant, self.color, self.rng)

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        """Read one seat update; when it is our turn, answer a move such as "e4-e5"."""
        self.notebook.observe(view, events)
        self.memory.observe(view, events)
        self.public_rules.observe(view, events)
        if view.get("result") is not None:
            self.close()
            return None
        if view.get("to_move") != self.color.value:
            return None
        started = time.perf_counter()
        move = self.choose_move(view)
        self.think_times.append(time.perf_counter() - started)
        return move

    def close(self) -> None:
        """The game is over, whatever ended it (a referee that stops at a ply cap or a forfeit
        sends no last view): what we saw of the opponent's setup goes on the shelf, once."""
        if self.opponent is not None and not self._remembered:
            self._remembered = True
            self.shelf.remember(self.opponent, self.variant, self.notebook.seen_setup())

    # -- deciding ---------------------------------------------------------------------------

    def choose_move(self, view: dict[str, Any]) -> str | None:
        """The move to play in this view, or None when the seat has no legal move."""
        me = COLOR_CODE[self.color.value]
        self._last_view = view
        start = time.perf_counter()
        deadline = start + self.level.think_seconds
        beliefs = self._beliefs()
        first = self.memory.board(view, self._sample_world())
        moves = self._root_moves(first, view)
        if not moves:
            return None
        if len(moves) == 1:
            return first.move_name(*moves[0])
        bonus = self._root_bonus(first, view, moves, beliefs, me)
        model = chooser = None
        if self.level.informed or self.level.prudent:
            perception = Perception(first, me, self._values(first), beliefs,
                                    set(self.notebook.known_to_opponent()))
            model = perception if self.level.informed else None
            chooser = perception if self.level.prudent else None
        totals = [0.0] * len(moves)
        stats = SearchStats()
        board = first
        while True:
            values = self._values(board)
            found = search_world(board, me, moves, values, self.level.replies,
                                 deadline if stats.worlds else None, stats, self.level.deep, model,
                                 self.level.watch, chooser, self.level.lines,
                                 self.level.corners)
            if found is None:
                break
            stats.worlds += 1
            totals = [t + v for t, v in zip(totals, found, strict=True)]
            if stats.worlds >= self.level.max_worlds or time.perf_counter() > deadline:
                break
            board = self.memory.board(view, self._sample_world())
        stats.seconds = time.perf_counter() - start
        self.last_stats = stats
        self.total_positions += stats.positions
        self.total_search_seconds += stats.seconds
        noise = self.level.noise
        scored = [
            totals[i] / stats.worlds + bonus[i] + self.rng.uniform(-noise, noise)
            for i in range(len(moves))
        ]
        best = max(range(len(moves)), key=scored.__getitem__)
        self._last_choice = (first, moves, scored)
        return first.move_name(*moves[best])

    @property
    def last_scores(self) -> dict[str, float]:
        """The root moves of the last search and their scores (named only when asked: a bench
        reads them, a game does not)."""
        if self._last_choice is None:
            return {}
        board, moves, scored = self._last_choice
        return {board.move_name(*move): score for move, score in zip(moves, scored, strict=True)}

    def _sample_world(self) -> dict[int, str]:
        try:
            world = self.notebook.sample(self.rng)
        except ArbiterError:
            return self._fallback_world()
        sharpness = self.level.sharpness
        if sharpness >= 1.0:
            return world
        # A blunter reader: swap some pairs of unknown pieces, as if the notebook were fuzzier.
        ids = list(world)
        for _ in range(int(len(ids) * (1.0 - sharpness))):
            a, b = self.rng.sample(ids, 2) if len(ids) >= 2 else (ids[0], ids[0])
            if self._may_swap(a, b, world):
                world[a], world[b] = world[b], world[a]
        return world

    def _fallback_world(self) -> dict[int, str]:
        """Should the notebook ever fail, still move: any mobile kind for each unknown piece."""
        mobile = [k for k in self.variant.army if self.variant.kinds[k].mobile]
        view = self._last_view or {"pieces": []}
        return {int(p["id"]): self.rng.choice(mobile) for p in view["pieces"]
                if p["color"] != self.color.value and p["kind"] is None}

    def _may_swap(self, a: int, b: int, world: dict[int, str]) -> bool:
        return world[b] in self.notebook.possible(a) and world[a] in self.notebook.possible(b)

    def _beliefs(self) -> dict[int, dict[str, float]]:
        try:
            return self.notebook.beliefs()
        except ArbiterError:
            return {}

    def _root_moves(self, board: SearchBoard, view: dict[str, Any]) -> list[tuple[int, int]]:
        """Our legal moves as far as the seat can tell: two-squares modelled, chase refusals (the
        view's warning and our own copy of the rules, so no transport can make us illegal) and
        moves the referee already refused at this ply left out."""
        me = COLOR_CODE[self.color.value]
        refused = set(self.memory.refused)
        warning = view.get("chase_warning") or {}
        refused.update(warning.get("refused", []))
        refused.update(self.public_rules.refused([board.move_name(*m) for m in board.moves(me)]))
        moves = [m for m in board.moves(me) if board.move_name(*m) not in refused]
        if not moves and board.runs[me] is not None:
            # Our own count of the back-and-forth may be stricter than the referee's (after a
            # takeback it is rebuilt from the view): let the referee rule rather than stall.
            saved, board.runs[me] = board.runs[me], None
            moves = [m for m in board.moves(me) if board.move_name(*m) not in refused]
            board.runs[me] = saved
        return moves

    def _values(self, board: SearchBoard) -> tuple[list[float], list[float]]:
        alive: list[dict[str, int]] = [{}, {}]
        for piece, square in enumerate(board.square):
            if square >= 0:
                side = alive[board.color[piece]]
                name = board.kind_name(piece)
                side[name] = side.get(name, 0) + 1
        return kind_values(board.rules, {0: alive[0], 1: alive[1]})

    def _walls(self, board: SearchBoard, enemy_squares: dict[int, int],
               beliefs: dict[int, dict[str, float]], me: int) -> tuple[set[int], dict[int, float]]:
        """With `Level.breach`: the enemy squares walled in by still pieces (no walker is drawn
        to them: our officers would only crowd the squares a Miner needs), and for each enemy
        square the chance that a walled neighbour is the flag (a Miner is drawn to breach it)."""
        if not self.level.breach:
            return set(), {}
        shut = enclosed(board, me)
        flag_at = {where: beliefs.get(piece_id, {}).get("flag", 0.0)
                   for piece_id, where in enemy_squares.items() if where in shut}
        breach = {where: max((flag_at.get(n, 0.0) for n in board.neighbours[where]), default=0.0)
                  for where in enemy_squares.values()}
        return shut, breach

    def _assassin_danger(self, board: SearchBoard, beliefs: dict[int, dict[str, float]],
                         known_ids: set[int], me: int) -> dict[int, Callable[[int, int], float]]:
        """Our known pieces an enemy assassin alive hunts: piece index -> the chance, at a
        square, that a hidden neighbour is that assassin (the square it leaves not counted)."""
        assassins = self.variant.combat.assassins
        if not assassins:
            return {}
        alive = self.notebook.remaining()
        result: dict[int, Callable[[int, int], float]] = {}
        cells, neighbours = board.cells, board.neighbours
        for piece in board.movers[me]:
            if board.square[piece] < 0 or board.ident[piece] not in known_ids:
                continue
            name = board.kind_name(piece)
            hunters = [a for a, target in assassins if target == name and alive.get(a, 0) > 0]
            if not hunters:
                continue

            def at_risk(square: int, leaving: int, hunters: list[str] = hunters) -> float:
                safe = 1.0
                for near in neighbours[square]:
                    other = cells[near]
                    if other < 0 or near == leaving or board.color[other] == me:
                        continue
                    belief = beliefs.get(board.ident[other], {})
                    chance = sum(belief.get(h, 0.0) for h in hunters)
                    if chance > 0.0 and len(belief) > 1:
                        safe *= 1.0 - max(chance, ASSASSIN_FLOOR)
                    elif chance > 0.0:
                        safe = 0.0  # a known assassin
                return 1.0 - safe

            result[piece] = at_risk
        return result

    def _top_unseen(self, board: SearchBoard, known_ids: set[int], me: int, below: int = -1) -> int:
        """The kind code of our highest kind alive (below the kind `below`, when given) while the
        opponent has seen no piece of it (-1 once it has, or when no single kind is highest)."""
        kinds = self.variant.kinds
        ours = [p for p in board.movers[me] if board.square[p] >= 0 and board.kind[p] != below]
        if not ours:
            return -1
        rank_of = {p: kinds[board.kind_name(p)].rank or 0 for p in ours}
        rank = max(rank_of.values())
        highest = [p for p, r in rank_of.items() if r == rank]
        if len({board.kind[p] for p in highest}) != 1 or any(board.ident[p] in known_ids for p in highest):
            return -1
        return board.kind[highest[0]]

    def _duels(self, board: SearchBoard, me: int) -> dict[int, set[int]]:
        """With `Level.duel`: the known enemy walkers on our half that nothing of ours alive beats,
        the assassin aside: square -> our kinds that trade with it."""
        if not self.level.duel:
            return {}
        rules, width, height = board.rules, self.variant.width, self.variant.height
        battle, half = rules.battle, height // 2
        assassins = {rules.code[name] for name, _ in self.variant.combat.assassins}
        ours = {board.kind[p] for p in board.movers[me] if board.square[p] >= 0}
        fighters = ours - assassins
        duels: dict[int, set[int]] = {}
        for piece in board.movers[1 - me]:
            where = board.square[piece]
            if where < 0 or board.hidden[piece]:
                continue  # taken, or its kind only guessed in this world
            rank = where // width
            if not ((rank < half) if self.color is Color.RED else (rank >= height - half)):
                continue
            enemy = board.kind[piece]
            if any(battle[k][enemy] == ATTACKER_WINS for k in fighters):
                continue
            traders = {k for k in ours if battle[k][enemy] == BOTH_DIE}
            if traders:
                duels[where] = traders
        return duels

    def _root_bonus(self, board: SearchBoard, view: dict[str, Any], moves: list[tuple[int, int]],
                    beliefs: dict[int, dict[str, float]], me: int) -> list[float]:
        """World-independent preferences: the pull toward good fights, showing less, no dithering."""
        rules = board.rules
        if self._distances is None:
            self._distances = distances(rules)
        values = self._values(board)
        width = self.variant.width
        enemy_squares: dict[int, int] = {}
        for piece in view["pieces"]:
            if piece["color"] != self.color.value:
                parsed = Square.parse(piece["square"])
                enemy_squares[int(piece["id"])] = parsed.rank * width + parsed.file
        known_ids = {int(p["id"]) for p in view["pieces"]
                     if p["color"] == self.color.value and p.get("known")}
        flag = flag_square(board, me)
        theirs = self.notebook.remaining()
        defence = FlagDefence.around(board, self.level, flag, me, self._distances, enemy_squares,
                                     beliefs, theirs)
        shut, breach = self._walls(board, enemy_squares, beliefs, me)
        cover = set(board.neighbours[flag]) if flag >= 0 else set()
        holes = {n for n in cover if board.cells[n] < 0} if self.level.plug else set()
        stops: dict[str, float] = {}
        targets: dict[str, list[tuple[int, float]]] = {}
        duels = self._duels(board, me)
        for name in {board.kind_name(board.cells[o]) for o, _ in moves}:
            found: list[tuple[int, float]] = []
            if holes:
                stops[name] = stopping_share(rules, name, theirs)
                found += [(hole, PLUG_VALUE * stops[name]) for hole in holes if stops[name] > 0]
            for piece_id, where in enemy_squares.items():
                belief = beliefs.get(piece_id)
                if belief is None or where in shut:
                    continue
                guard = defence.intruders.get(piece_id, 0.0)
                if guard and self.level.stoppers:
                    guard *= stop_chance(rules, name, belief)  # a piece it beats only feeds it
                gain = expected_gain(rules, name, belief, values, me) + guard
                if name in rules.diggers:
                    gain += FLAG_PULL * breach.get(where, 0.0)
                if gain > 0:
                    found.append((where, gain))
            code = rules.code[name]
            found += [(where, DUEL_PULL) for where, traders in duels.items() if code in traders]
            targets[name] = found
        attraction = Attraction(rules, self._distances, targets)
        weight = PULL_WEIGHT * (1.0 + int(view.get("ply", 0)) / URGENCY_PLIES)
        danger = self._assassin_danger(board, beliefs, known_ids, me)
        top = self._top_unseen(board, known_ids, me) if self.level.reserve else -1
        if self.level.release and top >= 0 and dominates(rules, rules.kinds[top], theirs):
            top = -1  # nothing alive can beat it: held back, it only stalls a game it should win
        reserved = {top} - {-1}
        if self.level.broad and top >= 0:
            second = self._top_unseen(board, known_ids, me, below=top)
            if second >= 0 and values[me][second] >= BROAD_FLOOR:
                reserved.add(second)
        for traders in duels.values():
            reserved -= traders  # held back, it waits while their piece eats ours
        result = []
        for origin, target in moves:
            piece = board.cells[origin]
            name = board.kind_name(piece)
            bonus = weight * (attraction.pull(name, target) - attraction.pull(name, origin))
            bonus += defence.step(piece, origin, target)
            if piece in danger:
                at_risk = danger[piece]
                bonus -= ASSASSIN_DREAD * values[me][board.kind[piece]] * (
                    at_risk(target, origin) - at_risk(origin, origin))
            if self.memory.last_from.get(board.ident[piece]) == target:
                bonus -= BACK_COST
            if origin in cover and target not in cover:
                bonus -= UNCOVER_COST
            if target in holes:
                bonus += PLUG_BONUS * stops.get(name, 0.0)
            if board.kind[piece] in duels.get(target, ()):
                bonus += DUEL_BONUS
            if self.level.still and not board.moved[piece]:
                bonus -= STILL_COST
            if board.kind[piece] in reserved and board.cells[target] < 0 and piece not in defence.racers:
                bonus -= RESERVE_COST
            if board.cells[target] >= 0 and board.ident[piece] not in known_ids:
                own_value = values[me][board.kind[piece]]
                if board.kind[piece] in reserved:
                    bonus -= TOP_REVEAL_SHARE * own_value
                elif own_value >= 30:
                    bonus -= REVEAL_SHARE * own_value
            result.append(bonus)
        return result
