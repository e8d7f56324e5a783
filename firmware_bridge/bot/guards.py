"""Which of our pieces an enemy can take without a risk it can see, and which friend deters it.

A careful opponent attacks a piece of ours only when, by what it knows, it surely wins and none
of our pieces beside the victim could take its attacker back. What it knows: a piece of ours it
has seen is that kind; any other that moved is one of the movable kinds we have not shown; one
that never moved may still be a bomb, which no attacker is sure of. So once our Marshal is
shown, the enemy Marshal is sure of every piece of ours that moved, and only a friend beside it
that may (in the opponent's eyes) be our Spy, or is our Marshal, keeps it off. The 2012 program
PeternLewis plays exactly by this (its "ATTACK WEAKER" rule), and its Marshal and General took
most of the pieces we lost to it.

`Exposure` prices that risk for one decision: for each of our pieces, the chance that an enemy
piece within a few steps is of a kind sure to beat it (by the notebook's beliefs) and that no
friend beside it deters that kind, weighted by how near the enemy piece stands. A move's
`change` is the value at risk after it less the value at risk before it, over the moving piece
and the friends it leaves or joins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from firmware_bridge.bot.board import ATTACKER_WINS, DEFENDER_WINS, SearchBoard

# How much a hunter at 1, 2, 3 steps counts: it needs one move to come beside its victim, and
# we get a move in between.
NEARNESS = (0.0, 0.6, 0.3, 0.1)


class Exposure:
    """The value of our pieces an enemy could take without a risk it can see, for one decision."""

    def __init__(self, board: SearchBoard, me: int, values: list[float],
                 beliefs: Mapping[int, Mapping[str, float]], known_to_opponent: set[int],
                 distances: list[list[int]]) -> None:
        rules = board.rules
        self.board = board
        self.me = me
        self.values = values
        self.distances = distances
        code = rules.code
        self.seen = {p for p in range(len(board.kind))
                     if board.color[p] == me and board.square[p] >= 0
                     and board.ident[p] in known_to_opponent}
        unseen = Counter(board.kind[p] for p in range(len(board.kind))
                         if board.color[p] == me and board.square[p] >= 0 and p not in self.seen)
        self.moved_pool = frozenset(k for k in unseen if rules.mobile[k])
        self.still_pool = frozenset(unseen)
        # Enemy pieces that may walk: (square, [(kind code, probability)]).
        self.hunters: list[tuple[int, list[tuple[int, float]]]] = []
        for piece in range(len(board.kind)):
            if board.color[piece] == me or board.square[piece] < 0:
                continue
            belief = beliefs.get(board.ident[piece]) if board.hidden[piece] else None
            kinds = ([(code[k], p) for k, p in belief.items() if p > 0.0 and rules.mobile[code[k]]]
                     if belief else [(board.kind[piece], 1.0)] if rules.mobile[board.kind[piece]] else [])
            if kinds:
                self.hunters.append((board.square[piece], kinds))
        self._near: dict[int, list[tuple[float, list[tuple[int, float]]]]] = {}
        self._sure: dict[frozenset[int], frozenset[int]] = {}
        self._deters: dict[frozenset[int], frozenset[int]] = {}

    def pool(self, piece: int, moved: bool) -> frozenset[int]:
        """The kinds our piece may be in the opponent's eyes."""
        if piece in self.seen:
            return frozenset((self.board.kind[piece],))
        return self.moved_pool if moved else self.still_pool

    def sure_beaters(self, pool: frozenset[int]) -> frozenset[int]:
        """Enemy kinds that beat every kind of this pool (a possible bomb: none)."""
        found = self._sure.get(pool)
        if found is None:
            battle, mobile = self.board.rules.battle, self.board.rules.mobile
            found = frozenset(k for k in range(len(battle)) if mobile[k] and pool
                              and all(battle[k][j] == ATTACKER_WINS for j in pool))
            self._sure[pool] = found
        return found

    def deterred(self, pool: frozenset[int]) -> frozenset[int]:
        """Enemy kinds a friend of this pool might take back (or trade with) after their attack."""
        found = self._deters.get(pool)
        if found is None:
            battle, mobile = self.board.rules.battle, self.board.rules.mobile
            found = frozenset(k for k in range(len(battle))
                              if any(mobile[j] and battle[j][k] != DEFENDER_WINS for j in pool))
            self._deters[pool] = found
        return found

    def _hunters_near(self, square: int) -> list[tuple[float, list[tuple[int, float]]]]:
        found = self._near.get(square)
        if found is None:
            row = self.distances[square]
            found = []
            for where, kinds in self.hunters:
                steps = row[where]
                if 0 < steps < len(NEARNESS):
                    found.append((NEARNESS[steps], kinds))
            self._near[square] = found
        return found

    def at_risk(self, piece: int, square: int, moved: bool, friends: list[frozenset[int]]) -> float:
        """The share of this piece's value at risk on `square`, guarded by friends of these pools."""
        sure = self.sure_beaters(self.pool(piece, moved))
        if not sure:
            return 0.0
        guarded: frozenset[int] = frozenset().union(*(self.deterred(f) for f in friends)) if friends else frozenset()
        safe = 1.0
        for nearness, kinds in self._hunters_near(square):
            chance = sum(p for k, p in kinds if k in sure and k not in guarded)
            if chance > 0.0:
                safe *= 1.0 - nearness * min(1.0, chance)
        return 1.0 - safe

    def change(self, origin: int, target: int) -> float:
        """Value at risk after this quiet move less before it (the mover and the friends beside
        the square it leaves or the square it enters)."""
        board = self.board
        mover = board.cells[origin]
        affected = {mover}
        for square in (*board.neighbours[origin], *board.neighbours[target]):
            other = board.cells[square]
            if other >= 0 and board.color[other] == self.me:
                affected.add(other)
        before = after = 0.0
        for piece in affected:
            if not board.rules.mobile[board.kind[piece]]:
                continue
            value = self.values[board.kind[piece]]
            here = board.square[piece]
            moved = board.moved[piece]
            before += value * self.at_risk(piece, here, moved, self._friends(here, -1, -1, mover))
            if piece == mover:
                there, moved_after = target, True
            else:
                there, moved_after = here, moved
            after += value * self.at_risk(piece, there, moved_after,
                                          self._friends(there, origin, target, mover))
        return after - before

    def _friends(self, square: int, vacated: int, entered: int, mover: int) -> list[frozenset[int]]:
        """The pools of our pieces beside `square` (after the mover went from `vacated` to
        `entered`, when those are given)."""
        board = self.board
        pools = []
        for near in board.neighbours[square]:
            if near == vacated:
                continue
            other = mover if near == entered else board.cells[near]
            if other < 0 or board.color[other] != self.me:
                continue
            moved = True if other == mover and entered >= 0 else board.moved[other]
            pools.append(self.pool(other, moved))
        return pools
