"""Hard facts and soft evidence about enemy pieces, read from one seat's views and events only."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from engine.core.errors import ArbiterError
from engine.stratego.combat import Outcome, resolve_battle
from engine.stratego.pieces import Color
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant

# Soft evidence: how much more likely a kind becomes when the piece behaves as that kind would.
APPROACH = 2.5  # stepped next to a piece of mine the opponent knows: likely able to beat it
# ... as far as this opponent has been honest: every approacher later shown counts as honest
# (it could beat the piece it stepped up to) or a bluff, and the factor becomes
# APPROACH x sqrt((honest + 1) / (bluffs + 1)), kept within APPROACH_RANGE. A program that only
# approaches what it can take soon gets believed; a bluffer soon does not.
APPROACH_RANGE = (1.2, 10.0)
FLEE = 2.0  # stepped away from a known piece of mine: likely unable to beat it
# Stepping next to a piece of mine the opponent does not know (a probe) says what this opponent
# probes with: every piece shown after probing, and every attacker on an unknown piece of mine,
# counts its kind in `Facts.probers`; a prober not yet shown is then weighed by how much more
# often its kind probed than its share of the army's movers (`Facts.probe_factor`),
# PROBE_PSEUDO probes in those shares making the start (no lesson before anything is shown).
PROBE_PSEUDO = 6.0
EVIDENCE_LIMIT = 1e3  # no soft evidence ever outweighs the prior by more than this


class NotebookError(ArbiterError):
    """A view or event the notebook cannot read; the notebook is unchanged."""

    code = "notebook-input"


@dataclass
class EnemyPiece:
    """What I know about one enemy piece."""

    id: int
    square: str | None  # None once captured
    start: str | None  # where it stood before its first move (None: not seen unmoved)
    allowed: set[str]  # the kinds hard facts leave (before counting the others)
    moved: bool = False
    known: str | None = None  # its kind, once shown
    idle: int = 0  # enemy turns it stood unmoved beside an empty square: it could have moved
    evidence: dict[str, float] = field(default_factory=dict)  # kind -> soft factor
    approached: list[str] = field(default_factory=list)  # kinds of mine it stepped up to, unjudged
    probed: bool = False  # stepped next to, or attacked, a piece of mine the opponent does not know


@dataclass
class MyPiece:
    """One of my own pieces and whether the opponent can know its kind."""

    id: int
    square: str | None
    kind: str
    known: bool = False  # shown in a battle (the view says so)
    betrayed: bool = False  # moved like only its kind can (a scout's long move)

    @property
    def seen(self) -> bool:
        """Whether the opponent can know its kind (shown in a battle, or betrayed by a move)."""
        return self.known or self.betrayed


@dataclass
class Facts:
    """Everything the notebook has read so far; copied whole for takebacks."""

    enemies: dict[int, EnemyPiece] = field(default_factory=dict)
    mine: dict[int, MyPiece] = field(default_factory=dict)
    dead: Counter[str] = field(default_factory=Counter)  # enemy kinds known to be captured
    unknown_dead: int = 0  # enemy pieces captured without their kind being shown
    ply: int = 0
    over: bool = False
    honest: int = 0  # approachers shown that could beat the piece of mine they stepped up to
    bluffs: int = 0  # ... that could not
    probers: Counter[str] = field(default_factory=Counter)  # kinds shown after probing ours

    def approach_factor(self) -> float:
        """How much stepping up to a known piece of mine says about strength, for this opponent."""
        low, high = APPROACH_RANGE
        learned = APPROACH * math.sqrt((self.honest + 1) / (self.bluffs + 1))
        return min(high, max(low, learned))

    def probe_factor(self, kind: str, share: float) -> float:
        """How much likelier a piece that probed ours is of `kind` (its army share among the
        movers `share`), from the kinds this opponent has probed with so far."""
        if share <= 0.0:
            return 1.0
        total = sum(self.probers.values())
        return (self.probers.get(kind, 0) + PROBE_PSEUDO * share) / ((total + PROBE_PSEUDO) * share)

    def copy(self) -> Facts:
        """A copy sharing nothing mutable (deepcopy costs ~10x more)."""
        return Facts(
            enemies={i: replace(p, allowed=set(p.allowed), evidence=dict(p.evidence),
                                approached=list(p.approached))
                     for i, p in self.enemies.items()},
            mine={i: replace(m) for i, m in self.mine.items()},
            dead=Counter(self.dead),
            unknown_dead=self.unknown_dead,
            ply=self.ply,
            over=self.over,
            honest=self.honest,
            bluffs=self.bluffs,
            probers=Counter(self.probers),
        )


class FactReader:
    """Applies views and redacted events to Facts for one viewer."""

    def __init__(self, variant: Variant, viewer: Color) -> None:
        self.variant = variant
        self.viewer = viewer
        self.enemy = viewer.other
        self.kinds = tuple(variant.army)
        self.mobile = frozenset(k for k in self.kinds if variant.kinds[k].mobile)
        self.far_movers = frozenset(k for k in self.kinds if variant.kinds[k].scout)
        self.blocked: frozenset[Square] = variant.lakes

    # -- events -----------------------------------------------------------------------------

    def apply_event(self, facts: Facts, event: dict[str, Any]) -> None:
        """Learn from one redacted event."""
        kind = event.get("type")
        if kind == "move":
            self._move(facts, event)
        elif kind == "battle":
            self._battle(facts, event)
        elif kind == "capture":
            self._capture(facts, event)
        elif kind == "reveal" and event.get("to") == self.viewer.value:
            piece = facts.enemies.get(_int(event, "piece_id"))
            if piece is not None and event.get("kind") in self.kinds:
                self._know(facts, piece, str(event["kind"]))
        elif kind == "game_end":
            facts.over = True

    def _move(self, facts: Facts, event: dict[str, Any]) -> None:
        move = _move_of(event)
        piece_id = _int(event, "piece_id")
        # The engine lets exactly the kinds with scout powers move more than one square.
        far = move.origin.distance(move.target) > 1 and bool(self.far_movers)
        if event.get("color") == self.viewer.value:
            mine = facts.mine.get(piece_id)
            if mine is not None:
                mine.square = move.target.name
                mine.betrayed = mine.betrayed or far
            return
        self._count_idle(facts, piece_id)
        piece = facts.enemies.get(piece_id)
        if piece is None:
            piece = facts.enemies[piece_id] = EnemyPiece(
                piece_id, move.origin.name, None, set(self.kinds))
        piece.moved = True  # the view's `moved` flag rules out bombs and flags
        if far:
            piece.allowed &= self.far_movers
        self._weigh_behaviour(facts, piece, move)
        piece.square = move.target.name

    def _count_idle(self, facts: Facts, mover: int) -> None:
        """The opponent moved another piece: each still piece that could have moved gains a turn."""
        taken = {p.square for p in facts.enemies.values() if p.square is not None}
        taken |= {m.square for m in facts.mine.values() if m.square is not None}
        for piece in facts.enemies.values():
            if piece.moved or piece.square is None or piece.id == mover:
                continue
            square = Square.parse(piece.square)
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                near = Square(square.file + df, square.rank + dr)
                if (self.variant.on_board(near) and near not in self.blocked
                        and near.name not in taken):
                    piece.idle += 1
                    break

    def _weigh_behaviour(self, facts: Facts, piece: EnemyPiece, move: Move) -> None:
        """Approaching a piece of mine it knows suggests strength; backing away, weakness;
        stepping up to one it does not know marks it a prober (`Facts.probe_factor`)."""
        for mine in facts.mine.values():
            if mine.square is None:
                continue
            where = Square.parse(mine.square)
            before, after = move.origin.distance(where), move.target.distance(where)
            if after == 0:
                continue  # an attack: the battle tells the truth
            if not mine.seen:
                piece.probed = piece.probed or (after == 1 and before > 1)
                continue
            if after == 1 and before > 1:
                factor = facts.approach_factor()
                self._evidence(piece, mine.kind, beats=factor, loses=1 / factor)
                piece.approached.append(mine.kind)
            elif before == 1 and after > 1:
                self._evidence(piece, mine.kind, beats=1 / FLEE, loses=FLEE)

    def _evidence(self, piece: EnemyPiece, mine: str, beats: float, loses: float) -> None:
        for kind in piece.allowed:
            outcome = resolve_battle(self.variant, kind, mine)
            factor = beats if outcome is Outcome.ATTACKER else loses if outcome is Outcome.DEFENDER else 1.0
            value = piece.evidence.get(kind, 1.0) * factor
            piece.evidence[kind] = min(EVIDENCE_LIMIT, max(1 / EVIDENCE_LIMIT, value))

    def _battle(self, facts: Facts, event: dict[str, Any]) -> None:
        attacker_id, defender_id = _int(event, "attacker_id"), _int(event, "defender_id")
        try:
            outcome = Outcome(str(event.get("outcome")))
        except ValueError:
            raise NotebookError(f"a battle event needs an outcome: {event!r}") from None
        mine_attacks = event.get("attacker_color") == self.viewer.value
        my_id, enemy_id = (attacker_id, defender_id) if mine_attacks else (defender_id, attacker_id)
        enemy_kind = event.get("defender" if mine_attacks else "attacker")
        piece = facts.enemies.get(enemy_id)
        if piece is None:
            return
        mine = facts.mine.get(my_id)
        if not mine_attacks and mine is not None and not mine.seen:
            piece.probed = True  # it attacked a piece of mine it could not know: a probe
        if enemy_kind in self.kinds:
            self._know(facts, piece, str(enemy_kind))
            return
        my_kind = event.get("attacker" if mine_attacks else "defender") or (mine.kind if mine else None)
        if my_kind not in self.variant.kinds:
            return
        # Hidden ranks (a variant whose battles do not reveal): the outcome still tells which
        # kinds could have produced it, by the variant's own combat table.
        if mine_attacks:
            fits = {k for k in piece.allowed if resolve_battle(self.variant, str(my_kind), k) is outcome}
        else:
            fits = {k for k in piece.allowed if resolve_battle(self.variant, k, str(my_kind)) is outcome}
        piece.allowed &= fits

    def _capture(self, facts: Facts, event: dict[str, Any]) -> None:
        piece_id = _int(event, "piece_id")
        if event.get("color") == self.viewer.value:
            mine = facts.mine.get(piece_id)
            if mine is not None:
                mine.square = None
            return
        piece = facts.enemies.get(piece_id)
        if piece is None or piece.square is None:
            return
        if event.get("kind") in self.kinds:
            self._know(facts, piece, str(event["kind"]))
        piece.square = None

    def _know(self, facts: Facts, piece: EnemyPiece, kind: str) -> None:
        if piece.probed and piece.known is None:
            facts.probers[kind] += 1
        piece.known = kind
        piece.allowed = {kind}
        for mine in piece.approached:  # judge its approaches now that its kind is shown
            if resolve_battle(self.variant, kind, mine) is Outcome.ATTACKER:
                facts.honest += 1
            else:
                facts.bluffs += 1
        piece.approached = []

    # -- the view ---------------------------------------------------------------------------

    def apply_view(self, facts: Facts, view: dict[str, Any]) -> None:
        """Take what the view states as settled: squares, moved flags, shown kinds, trays."""
        on_board: set[int] = set()
        seen_mine: set[int] = set()
        for entry in view["pieces"]:
            piece_id, square = int(entry["id"]), str(entry["square"])
            color, kind = entry.get("color"), entry.get("kind")
            if color == self.viewer.value:
                seen_mine.add(piece_id)
                mine = facts.mine.get(piece_id)
                if mine is None:
                    mine = facts.mine[piece_id] = MyPiece(piece_id, square, str(kind))
                mine.square, mine.known = square, bool(entry.get("known"))
                if kind is not None:
                    mine.kind = str(kind)
                continue
            on_board.add(piece_id)
            piece = facts.enemies.get(piece_id)
            moved = bool(entry.get("moved"))
            if piece is None:
                start = square if not moved else None
                piece = facts.enemies[piece_id] = EnemyPiece(piece_id, square, start, set(self.kinds))
            piece.square = square
            if moved:
                piece.moved = True
                piece.allowed &= self.mobile
            if kind in self.kinds:
                self._know(facts, piece, str(kind))
        for piece in facts.enemies.values():
            if piece.square is not None and piece.id not in on_board:
                piece.square = None
        for mine in facts.mine.values():
            if mine.id not in seen_mine:
                mine.square = None
        tray = view["captured"].get(self.enemy.value, [])
        facts.dead = Counter(str(k) for k in tray if k is not None)
        facts.unknown_dead = sum(1 for k in tray if k is None)
        self.blocked = self.variant.lakes | frozenset(Square.parse(str(s)) for s in view.get("blocked", ()))
        facts.ply = int(view.get("ply", facts.ply))
        facts.over = facts.over or view.get("result") is not None

    def check_view(self, view: Any) -> None:
        """Raise NotebookError unless `view` looks like this viewer's PlayerView.to_dict()."""
        if not isinstance(view, dict):
            raise NotebookError("the view must be a dict (PlayerView.to_dict())")
        if view.get("viewer") != self.viewer.value:
            raise NotebookError(f"this notebook is {self.viewer.value}'s, not {view.get('viewer')!r}'s")
        if view.get("variant") not in (None, self.variant.name):
            raise NotebookError(f"the view is of {view.get('variant')}, not {self.variant.name}")
        pieces, captured = view.get("pieces"), view.get("captured")
        if not isinstance(pieces, list) or not isinstance(captured, dict):
            raise NotebookError("the view needs a list of pieces and the captured trays")
        for entry in pieces:
            if not isinstance(entry, dict) or not {"id", "square", "color"} <= entry.keys():
                raise NotebookError(f"not a view piece: {entry!r}")
            try:
                Square.parse(str(entry["square"]))
                int(entry["id"])
            except ValueError:
                raise NotebookError(f"not a view piece: {entry!r}") from None


def _int(event: dict[str, Any], key: str) -> int:
    try:
        return int(event[key])
    except (KeyError, TypeError, ValueError):
        raise NotebookError(f"a {event.get('type')} event needs {key}: {event!r}") from None


def _move_of(event: dict[str, Any]) -> Move:
    try:
        return Move.parse(str(event["move"]))
    except (KeyError, ValueError):
        raise NotebookError(f"a move event needs a move such as a4-a5: {event!r}") from None
