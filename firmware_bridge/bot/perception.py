"""What each side knows of the other's pieces: the gains its choices in the search are made by.

A sampled world tells the search every enemy kind, and a search that lets both sides choose by
that world plays each world as if nobody had secrets: the opponent "sees" which of our pieces
are weak and takes exactly those, and our capture step attacks an unknown piece only in the
worlds where it is weak (strategy fusion). Neither happens at the board. So in the search each
side *chooses* by what it knows and the world only *scores* the choice:

- we choose a capture by its expected gain under the notebook's beliefs about the enemy piece;
- the opponent chooses its reply by what it can know of our pieces: a piece it has seen (or
  betrayed by a scout's long move) is that kind; any other could be, in its eyes, any kind our
  unseen pieces still are (no bomb or flag if it moved), in their proportions;
- the value of the line is then the true battle outcome in the sampled world.

Both tables are world-independent (they depend on a kind and a piece, not on the world), so they
are built once per decision and filled lazily.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from firmware_bridge.bot.board import ATTACKER_WINS, DEFENDER_WINS, SearchBoard
from firmware_bridge.bot.evaluation import WIN, Values, lost_value
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL


class Perception:
    """The gains each side's choices are made by in one decision, from its own knowledge."""

    def __init__(self, board: SearchBoard, me: int, values: Values,
                 beliefs: Mapping[int, Mapping[str, float]], known_to_opponent: set[int]) -> None:
        self.rules = board.rules
        self.me = me
        self.values = values
        code = self.rules.code
        pieces = range(len(board.kind))
        # Our view of each enemy piece (by piece index): (kind code, probability) pairs.
        self.enemy: dict[int, list[tuple[int, float]]] = {}
        for piece in pieces:
            if board.color[piece] == me:
                continue
            belief = beliefs.get(board.ident[piece]) if board.hidden[piece] else None
            if belief:
                self.enemy[piece] = [(code[k], p) for k, p in belief.items() if p > 0.0]
            else:
                self.enemy[piece] = [(board.kind[piece], 1.0)]
        # The opponent's view of each of our pieces: its kind when seen, else the kinds our
        # unseen pieces still are (movers only for a piece that moved).
        self.seen = {p for p in pieces if board.color[p] == me and board.ident[p] in known_to_opponent}
        unseen = Counter(board.kind[p] for p in pieces if board.color[p] == me
                         and board.square[p] >= 0 and p not in self.seen)
        self.pools = {moved: self._shares(unseen, moved) for moved in (False, True)}
        self._our_attack: dict[tuple[int, int], float] = {}
        self._their_attack: dict[tuple[int, int, bool], float] = {}
        self._seen_attack: dict[tuple[int, int, bool], float] = {}

    def ours(self, board: SearchBoard, piece: int, shown: int = -1) -> tuple[list[tuple[int, float]], float]:
        """What our piece may be in the opponent's eyes: (kind code, share) pairs and how much of
        a guess that is (`SearchBoard.hidden`). `shown`: a piece of ours that fought in this line."""
        if piece in self.seen or piece == shown:
            return [(board.kind[piece], 1.0)], 0.0
        moved = board.moved[piece]
        pool = self.pools[moved]
        if not pool:
            return [(board.kind[piece], 1.0)], 0.0
        return pool, HIDDEN_MOVED if moved else HIDDEN_STILL

    def _shares(self, unseen: Counter[int], moved: bool) -> list[tuple[int, float]]:
        kinds = {k: n for k, n in unseen.items() if not moved or self.rules.mobile[k]}
        total = sum(kinds.values())
        return [(k, n / total) for k, n in kinds.items()] if total else []

    def _gain(self, attacker_kind: int, defender_kind: int, side: int, guess: float) -> float:
        """What `side` (attacking with this kind) wins against this kind; its own loss dreaded
        by `loss_aversion` when the defender's kind is a guess."""
        rules, values = self.rules, self.values
        own, theirs = values[side], values[1 - side]
        outcome = rules.battle[attacker_kind][defender_kind]
        lost = lost_value(own[attacker_kind], guess)
        if outcome == ATTACKER_WINS:
            return WIN if rules.objective[defender_kind] else theirs[defender_kind]
        if outcome == DEFENDER_WINS:
            return -lost
        return theirs[defender_kind] - lost

    def our_attack(self, board: SearchBoard, attacker: int, defender: int, shown: int = -1) -> float:
        """The gain we expect attacking this enemy piece with this piece of ours (beliefs; the
        truth for `shown`, an enemy piece that fought in this line)."""
        if defender == shown:
            return self._gain(board.kind[attacker], board.kind[defender], self.me, 0.0)
        key = (attacker, defender)
        found = self._our_attack.get(key)
        if found is None:
            kind = board.kind[attacker]
            guess = board.hidden[defender]
            found = sum(p * self._gain(kind, k, self.me, guess) for k, p in self.enemy[defender])
            self._our_attack[key] = found
        return found

    def their_attack(self, board: SearchBoard, attacker: int, defender: int, shown: int = -1) -> float:
        """The gain the opponent expects attacking this piece of ours with its piece (of the
        kind the world gives it): what it can know of ours, averaged."""
        kind = board.kind[attacker]
        if defender in self.seen or defender == shown:
            return self._gain(kind, board.kind[defender], 1 - self.me, 0.0)
        key = (kind, defender, board.moved[defender])
        found = self._their_attack.get(key)
        if found is None:
            shares, guess = self.ours(board, defender)
            found = sum(p * self._gain(kind, k, 1 - self.me, guess) for k, p in shares)
            self._their_attack[key] = found
        return found

    def seen_attack(self, board: SearchBoard, attacker: int, defender: int, shown: int = -1) -> float:
        """The gain the opponent expects us to make attacking its piece with this one of ours."""
        kind = board.kind[defender]
        if attacker in self.seen or attacker == shown:
            return self._gain(board.kind[attacker], kind, self.me, 0.0)
        key = (attacker, kind, board.moved[attacker])
        found = self._seen_attack.get(key)
        if found is None:
            shares, _ = self.ours(board, attacker)
            found = sum(p * self._gain(k, kind, self.me, 0.0) for k, p in shares)
            self._seen_attack[key] = found
        return found
