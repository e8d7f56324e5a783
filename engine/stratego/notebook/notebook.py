"""The notebook: for every enemy piece still on the board, what it can still be, from one seat's view."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.stratego.notebook.facts import EnemyPiece, FactReader, Facts, NotebookError
from engine.stratego.notebook.fitting import close_allowed, fit, sample_world
from engine.stratego.notebook.library import LIBRARY_SHARE, MOVED, SetupLibrary, owner_index
from engine.stratego.notebook.prior import SetupPrior
from engine.stratego.notebook.recall import Recollection, Sighting
from engine.stratego.pieces import Color
from engine.stratego.squares import Square
from engine.stratego.variants import Variant

# A still piece that could have moved for N enemy turns: bomb and flag x (1 + N / 40), at most x6.
IDLE_TURNS = 40
IDLE_LIMIT = 6.0
# A still piece: flag weight x (1 + 2 x the sum of its neighbours' bomb probabilities). (The
# converse, bombs beside a likely flag, made the true flag less likely in measured games.)
FLAG_AMONG_BOMBS = 2.0
SNAPSHOTS = 64  # states kept for takebacks
# Before any piece has shown itself the opponent is taken to set up like people do with this
# weight, plain army shares with the rest; every shown kind and every first move then weighs the
# two readings by how well each foresaw it (`style_weight`), so a program that sets up unlike
# people soon gets beliefs that no longer trust the human habits.
STYLE_PRIOR = 0.7


@dataclass(frozen=True)
class _Table:
    """One fitted state: rows are enemy pieces (captured ones of unknown kind last)."""

    ids: list[int]  # on-board enemy piece ids, the first rows
    rows: list[list[float]]
    allowed: list[list[int]]
    counts: list[int]
    possible: dict[int, frozenset[str]]  # by piece id, for the bot's many look-ups


class Notebook:
    """One player's belief tracker: hard facts about enemy pieces and probabilities over them."""

    def __init__(self, variant: Variant, viewer: Color, prior: SetupPrior | None = None,
                 learn_probers: bool = False, library: bool = True,
                 recall: Recollection | None = None) -> None:
        self.variant = variant
        self.learn_probers = learn_probers  # weigh unshown probers by what this opponent probes with
        self.viewer = Color(viewer)
        self.enemy = self.viewer.other
        self.prior = prior if prior is not None else SetupPrior.human(variant, self.enemy)
        if self.prior.color is not self.enemy or self.prior.variant != variant.name:
            raise NotebookError(
                f"the prior must be of {self.enemy.value}'s setups in {variant.name}, not of "
                f"{self.prior.color.value}'s in {self.prior.variant}", "notebook-prior")
        self.plain = SetupPrior.uniform(variant, self.enemy)  # the other reading: army shares
        # Whole setups people made, read by what the enemy has shown (classic: the archive's).
        self.library = SetupLibrary.classic(variant) if library and variant.name == "classic" else None
        self._reading: tuple[frozenset[tuple[int, str]], list[dict[str, float]]] | None = None
        self._start_indices: dict[str, int | None] = {}
        # The setups this opponent showed in earlier games (none: a new opponent).
        self.recall = recall if recall is not None and recall.setups else None
        if self.recall is not None and self.recall.variant.name != variant.name:
            raise NotebookError(f"a recollection of {self.recall.variant.name} games cannot read "
                                f"{variant.name}", "notebook-prior")
        self.kinds: tuple[str, ...] = tuple(variant.army)
        self._index = {kind: i for i, kind in enumerate(self.kinds)}
        self._immobile = [not variant.kinds[k].mobile for k in self.kinds]
        movers = sum(n for k, n in variant.army.items() if variant.kinds[k].mobile)
        self._mover_share = {k: (n / movers if variant.kinds[k].mobile else 0.0)
                             for k, n in variant.army.items()}
        self._reader = FactReader(variant, self.viewer)
        self._facts = Facts()
        self._history: list[tuple[int, Facts]] = []
        self._table: _Table | None = None

    # -- reading ------------------------------------------------------------------------------

    def observe(self, view: dict[str, Any], events: list[dict[str, Any]]) -> None:
        """One seat update: the new view dict and the redacted events that led to it (may be [])."""
        self._reader.check_view(view)
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise NotebookError("events must be a list of redacted event dicts")
        # Work on a copy: input that fails half-way leaves the notebook as it was. Stored facts
        # are never changed afterwards, so the history can keep them as they are.
        if any(event.get("type") == "takeback" for event in events):
            facts = self._before_ply(int(view.get("ply", 0))).copy()
        else:
            facts = self._facts.copy()
            for event in events:
                # A ruling delivered twice (a resend, a reconnection) is read once: its events
                # carry the ply the notebook's last view already stood at.
                if _ply_of(event, facts.ply + 1) > facts.ply:
                    self._reader.apply_event(facts, event)
        self._reader.apply_view(facts, view)
        self._facts = facts
        self._history.append((facts.ply, facts))
        del self._history[:-SNAPSHOTS]
        self._table = None

    def _before_ply(self, ply: int) -> Facts:
        """The facts as they were when the game last stood at `ply` (for a takeback)."""
        while self._history and self._history[-1][0] > ply:
            self._history.pop()
        return self._history[-1][1] if self._history else self._facts

    # -- hard facts ---------------------------------------------------------------------------

    def remaining(self) -> dict[str, int]:
        """Enemy kinds still alive (the army less the captured pieces whose kind was shown)."""
        dead = self._facts.dead
        return {kind: max(0, count - dead.get(kind, 0)) for kind, count in self.variant.army.items()}

    def possible(self, piece_id: int) -> frozenset[str]:
        """The kinds hard facts still allow for an enemy piece on the board."""
        try:
            return self._fitted().possible[piece_id]
        except KeyError:
            raise NotebookError(f"no enemy piece {piece_id} on the board", "unknown-piece") from None

    def known_to_opponent(self) -> list[int]:
        """My piece ids on the board whose kind the opponent knows (shown, or a scout's long move)."""
        return sorted(m.id for m in self._facts.mine.values()
                      if m.square is not None and m.seen)

    # -- probabilities ------------------------------------------------------------------------

    def style_weight(self) -> float:
        """How far this opponent sets up as the prior foresees (1) rather than by plain army
        shares (0): the posterior weight of the prior, from every kind shown on the square it
        started on and every first move (a piece that moves is no bomb or flag)."""
        log_odds = math.log(STYLE_PRIOR / (1.0 - STYLE_PRIOR))
        immobile = [kind for kind, still in zip(self.kinds, self._immobile, strict=True) if still]
        for piece in self._facts.enemies.values():
            if piece.start is None or (piece.known is None and not piece.moved):
                continue
            habit, plain = self.prior.at(piece.start), self.plain.at(piece.start)
            if piece.known is not None:
                ours, theirs = habit.get(piece.known, 0.0), plain.get(piece.known, 0.0)
            else:
                ours = 1.0 - sum(habit.get(kind, 0.0) for kind in immobile)
                theirs = 1.0 - sum(plain.get(kind, 0.0) for kind in immobile)
            log_odds += math.log(max(ours, 1e-6)) - math.log(max(theirs, 1e-6))
        log_odds = max(-30.0, min(30.0, log_odds))
        return 1.0 / (1.0 + math.exp(-log_odds))

    def beliefs(self) -> dict[int, dict[str, float]]:
        """Enemy piece id on the board -> kind -> probability (possible kinds only)."""
        table = self._fitted()
        return {
            piece_id: {self.kinds[k]: table.rows[row][k] for k in table.allowed[row]}
            for row, piece_id in enumerate(table.ids)
        }

    def sample(self, rng: random.Random) -> dict[int, str]:
        """One whole world (a kind per enemy piece on the board) true to the hard facts and counts."""
        table = self._fitted()
        world = sample_world(table.rows, table.allowed, table.counts, rng)
        return {piece_id: self.kinds[world[row]] for row, piece_id in enumerate(table.ids)}

    def _fitted(self) -> _Table:
        if self._table is None:
            self._table = self._fit()
        return self._table

    def _fit(self) -> _Table:
        facts = self._facts
        on_board = sorted((p for p in facts.enemies.values() if p.square is not None),
                          key=lambda p: p.id)
        ghosts = [p for p in facts.enemies.values() if p.square is None and p.known is None]
        # Captured pieces whose kind was never shown still hold one kind each: they stay in the
        # fit as extra rows so that the counts add up (none in variants whose battles reveal).
        ghosts = ghosts[:facts.unknown_dead]
        unnamed = facts.unknown_dead - len(ghosts)
        pieces: list[EnemyPiece | None] = [*on_board, *ghosts, *([None] * unnamed)]
        remaining = self.remaining()
        counts = [remaining[k] for k in self.kinds]
        allowed = [
            sorted(self._index[k] for k in (p.allowed if p is not None else self.kinds))
            for p in pieces
        ]
        closed = close_allowed(allowed, counts) if sum(counts) == len(pieces) else None
        if closed is not None:
            allowed = closed
        trust = self.style_weight()
        shown = self._shown()
        reading = self._library_reading(shown)
        new_setups: dict[str | None, dict[str, float]] = {}  # by start square, for this fit

        def new_setup(start: str | None) -> dict[str, float]:
            if start not in new_setups:
                new_setups[start] = self._new_setup(start, trust, reading)
            return new_setups[start]

        recalled = self._recalled(shown, new_setup)
        weights = [self._weights(p, allowed[i], new_setup, recalled) for i, p in enumerate(pieces)]
        rows = fit(weights, counts)
        if "flag" in self._index and "bomb" in self._index and not facts.over:
            self._flag_among_bombs(on_board, weights, rows)
            rows = fit(weights, counts)
        possible = {p.id: frozenset(self.kinds[k] for k in allowed[i]) for i, p in enumerate(on_board)}
        return _Table([p.id for p in on_board], rows, allowed, counts, possible)

    def _library_reading(self, shown: list[tuple[EnemyPiece, int, str]]) -> list[dict[str, float]] | None:
        """The library's kinds per square given what the enemy showed where it started (cached
        until something new is shown)."""
        if self.library is None:
            return None
        key = frozenset((index, seen) for _, index, seen in shown)
        if self._reading is None or self._reading[0] != key:
            self._reading = (key, self.library.reading(key))
        return self._reading[1]

    def _start_index(self, start: str | None) -> int | None:
        """A start square in the enemy's own coordinates (None: none, or outside its setup rows)."""
        if start is None:
            return None
        if start not in self._start_indices:
            self._start_indices[start] = owner_index(self.variant, self.enemy, Square.parse(start))
        return self._start_indices[start]

    def _shown(self) -> list[tuple[EnemyPiece, int, str]]:
        """Enemy pieces that showed something where they started: (piece, owner index, its kind
        or MOVED for a first move)."""
        return [(piece, index, piece.known or MOVED)
                for piece in self._facts.enemies.values()
                if (piece.known is not None or piece.moved)
                and (index := self._start_index(piece.start)) is not None]

    def seen_setup(self) -> Sighting:
        """What this game showed of the enemy's setup, by owner index (for a `Recollection`)."""
        sighting: list[str | None] = [None] * (self.variant.setup_rows * self.variant.width)
        for _, index, seen in self._shown():
            sighting[index] = seen
        return tuple(sighting)

    def _recalled(self, shown: list[tuple[EnemyPiece, int, str]],
                  new_setup: Callable[[str | None], dict[str, float]]
                  ) -> list[tuple[Sighting, float]] | None:
        """The remembered setups with their chance of being this game's, given what was shown."""
        if self.recall is None:
            return None
        starts = {index: piece.start for piece, index, _ in shown}
        return self.recall.reading([(index, seen) for _, index, seen in shown],
                                   lambda index: new_setup(starts[index]))

    def _new_setup(self, start: str | None, trust: float,
                   reading: list[dict[str, float]] | None) -> dict[str, float]:
        """A square's kinds in a setup not remembered: the prior (with the library's reading)
        mixed with army shares by the style weight."""
        habit, plain = self.prior.at(start), self.plain.at(start)
        index = self._start_index(start)
        if reading is not None and index is not None:
            here = reading[index]
            habit = {kind: LIBRARY_SHARE * here.get(kind, 0.0) + (1 - LIBRARY_SHARE) * chance
                     for kind, chance in habit.items()}
        return {kind: trust * habit.get(kind, 0.0) + (1.0 - trust) * plain.get(kind, 0.0)
                for kind in self.kinds}

    def _weights(self, piece: EnemyPiece | None, allowed: list[int],
                 new_setup: Callable[[str | None], dict[str, float]],
                 recalled: list[tuple[Sighting, float]] | None) -> list[float]:
        row = [0.0] * len(self.kinds)
        start = piece.start if piece is not None else None
        index = self._start_index(start)
        chances = new_setup(start)
        if recalled and index is not None and self.recall is not None:
            chances = self._mixed(chances, index, recalled, self.recall)
        still = 1.0
        if piece is not None and not piece.moved:
            still = min(IDLE_LIMIT, 1.0 + piece.idle / IDLE_TURNS)
        for k in allowed:
            kind = self.kinds[k]
            value = max(chances.get(kind, 0.0), 1e-6)
            if piece is not None:
                value *= piece.evidence.get(kind, 1.0)
                if self.learn_probers and piece.probed and piece.known is None:
                    value *= self._facts.probe_factor(kind, self._mover_share[kind])
            if self._immobile[k]:
                value *= still
            row[k] = value
        return row

    @staticmethod
    def _mixed(chances: dict[str, float], index: int, recalled: list[tuple[Sighting, float]],
               recall: Recollection) -> dict[str, float]:
        """A square's kinds mixed over the remembered setups by their chance, a new one for the rest."""
        by_memory: dict[str | None, float] = {}
        for setup, weight in recalled:
            by_memory[setup[index]] = by_memory.get(setup[index], 0.0) + weight
        fresh = 1.0 - sum(by_memory.values())
        mixed = {kind: fresh * chance for kind, chance in chances.items()}
        for remembered, weight in by_memory.items():
            for kind, chance in recall.kind_chances(remembered, chances).items():
                mixed[kind] = mixed.get(kind, 0.0) + weight * chance
        return mixed

    def _flag_among_bombs(self, on_board: list[EnemyPiece], weights: list[list[float]],
                           rows: list[list[float]]) -> None:
        """Flags stand among bombs: a still piece beside likely bombs is likelier the flag."""
        flag, bomb = self._index["flag"], self._index["bomb"]
        bomb_at = {p.square: rows[i][bomb] for i, p in enumerate(on_board)}
        for i, piece in enumerate(on_board):
            if piece.moved or piece.square is None:
                continue
            square = Square.parse(piece.square)
            around = [Square(square.file + df, square.rank + dr).name
                      for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            weights[i][flag] *= 1.0 + FLAG_AMONG_BOMBS * sum(bomb_at.get(s, 0.0) for s in around)

    # -- for the tablet -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The notebook for the tablet: each enemy piece's chances, their army left, what they know."""
        table = self._fitted()
        facts = self._facts
        pieces = []
        for row, piece_id in enumerate(table.ids):
            enemy = facts.enemies[piece_id]
            chances = sorted(((self.kinds[k], round(table.rows[row][k], 3)) for k in table.allowed[row]),
                             key=lambda item: (-item[1], item[0]))
            pieces.append({"id": piece_id, "square": enemy.square, "known": enemy.known,
                           "moved": enemy.moved, "kinds": dict(chances)})
        mine = facts.mine
        return {
            "viewer": self.viewer.value,
            "variant": self.variant.name,
            "ply": facts.ply,
            "style": round(self.style_weight(), 3),
            "pieces": pieces,
            "remaining": self.remaining(),
            "known_to_opponent": [
                {"id": i, "square": mine[i].square, "kind": mine[i].kind}
                for i in self.known_to_opponent()
            ],
        }

    def __repr__(self) -> str:
        alive = Counter(p.square is not None for p in self._facts.enemies.values())[True]
        return f"<Notebook {self.viewer.value} ply={self._facts.ply} enemies={alive}>"


def _ply_of(event: dict[str, Any], default: int) -> int:
    try:
        return int(event.get("ply", default))
    except (TypeError, ValueError):
        raise NotebookError(f"an event's ply must be a number: {event!r}") from None
