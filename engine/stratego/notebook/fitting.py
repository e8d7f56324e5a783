"""The arithmetic of beliefs: which kinds stay possible, proportional fitting and world sampling.

Pieces are rows, kinds are columns; `allowed[p]` is the set of column indices the hard facts
leave piece p, `counts[k]` how many pieces of kind k are alive. A world is a complete
assignment of one kind per piece with every kind used exactly `counts[k]` times: a bipartite
matching of pieces into kind slots. Everything here is plain lists (the engine has no numpy).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence

IPF_ROUNDS = 60
IPF_TOLERANCE = 1e-6


def find_world(allowed: Sequence[Sequence[int]], counts: Sequence[int],
               order: Sequence[int] | None = None) -> list[int] | None:
    """One complete assignment (kind index per piece), or None when none exists."""
    assigned = [-1] * len(allowed)
    left = list(counts)
    holders: list[list[int]] = [[] for _ in counts]
    for piece in order if order is not None else range(len(allowed)):
        if not _augment(piece, allowed, assigned, left, holders, None):
            return None
    return assigned


def _take(piece: int, kind: int, assigned: list[int], left: list[int],
          holders: list[list[int]]) -> None:
    assigned[piece] = kind
    left[kind] -= 1
    holders[kind].append(piece)


def _augment(piece: int, allowed: Sequence[Sequence[int]], assigned: list[int], left: list[int],
             holders: list[list[int]], rng: random.Random | None) -> bool:
    """Give `piece` a kind, moving other pieces to other kinds along a shortest path if needed."""
    start = list(allowed[piece])
    if rng is not None:
        rng.shuffle(start)
    for kind in start:
        if left[kind] > 0:
            _take(piece, kind, assigned, left, holders)
            return True
    # Breadth-first over kinds: reach a kind with a free slot by moving holders along.
    parent: dict[int, tuple[int, int] | None] = {kind: None for kind in start}
    queue = deque(start)
    while queue:
        kind = queue.popleft()
        for holder in holders[kind]:
            for other in allowed[holder]:
                if other in parent:
                    continue
                parent[other] = (holder, kind)
                if left[other] > 0:
                    _shift_along(other, parent, assigned, left, holders)
                    target = kind
                    while parent[target] is not None:
                        step = parent[target]
                        assert step is not None
                        target = step[1]
                    _take(piece, target, assigned, left, holders)
                    return True
                queue.append(other)
    return False


def _shift_along(free_kind: int, parent: dict[int, tuple[int, int] | None], assigned: list[int],
                 left: list[int], holders: list[list[int]]) -> None:
    """Move each holder on the path one kind along, ending in `free_kind`'s free slot."""
    kind = free_kind
    step = parent[kind]
    while step is not None:
        holder, from_kind = step
        holders[from_kind].remove(holder)
        left[from_kind] += 1
        _take(holder, kind, assigned, left, holders)
        kind = from_kind
        step = parent[kind]


def close_allowed(allowed: Sequence[Sequence[int]], counts: Sequence[int]) -> list[list[int]] | None:
    """Keep only the kinds each piece has in at least one complete world (None: no world)."""
    world = find_world(allowed, counts)
    if world is None:
        return None
    kinds = len(counts)
    # Kind a reaches kind b when some holder of a could take b instead: a chain of such moves
    # frees a slot of b for a piece now holding b, so that piece may take a.
    reach = [[False] * kinds for _ in range(kinds)]
    edges: list[set[int]] = [set() for _ in range(kinds)]
    for piece, kind in enumerate(world):
        for other in allowed[piece]:
            if other != kind:
                edges[kind].add(other)
    spare = [counts[k] - world.count(k) for k in range(kinds)]
    for source in range(kinds):
        seen = {source}
        queue = deque([source])
        while queue:
            kind = queue.popleft()
            for other in edges[kind]:
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        for kind in seen:
            reach[source][kind] = True
    closed = []
    for piece, own in enumerate(world):
        closed.append([
            kind for kind in allowed[piece]
            if kind == own or reach[kind][own] or any(
                spare[s] > 0 and reach[kind][s] for s in range(kinds))
        ])
    return closed


def fit(weights: list[list[float]], counts: Sequence[float],
        rounds: int = IPF_ROUNDS, tolerance: float = IPF_TOLERANCE) -> list[list[float]]:
    """Iterative proportional fitting: rows sum to 1, column k to counts[k]; zeros stay zero."""
    rows = [list(row) for row in weights]
    kinds = len(counts)
    # Only the cells above zero take part (zeros stay zero), and a row with one cell is settled.
    cells = [[k for k in range(kinds) if row[k] > 0] for row in rows]
    open_rows = [(row, ks) for row, ks in zip(rows, cells, strict=True) if len(ks) > 1]
    fixed = [0.0] * kinds
    for row, ks in zip(rows, cells, strict=True):
        if len(ks) == 1:
            row[ks[0]] = 1.0
            fixed[ks[0]] += 1.0
    targets = [counts[k] - fixed[k] for k in range(kinds)]
    for _ in range(rounds):
        columns = [0.0] * kinds
        for row, ks in open_rows:
            for k in ks:
                columns[k] += row[k]
        factors = [targets[k] / columns[k] if columns[k] > 0 and targets[k] > 0 else 0.0
                   for k in range(kinds)]
        worst = 0.0
        for row, ks in open_rows:
            total = 0.0
            for k in ks:
                row[k] *= factors[k]
                total += row[k]
            if total > 0:
                worst = max(worst, abs(total - 1.0))
                inverse = 1.0 / total
                for k in ks:
                    row[k] *= inverse
        if worst < tolerance:
            break
    return rows


def sample_world(beliefs: Sequence[Sequence[float]], allowed: Sequence[Sequence[int]],
                 counts: Sequence[int], rng: random.Random) -> list[int]:
    """One complete assignment drawn roughly by the beliefs; never fails when a world exists.

    Pieces with the fewest possible kinds go first. Each draw weighs a kind by the piece's
    belief times (slots left / belief mass still expected for it), which keeps the scarce kinds
    from running out; a piece left with no free kind gets one by shifting earlier pieces along
    an augmenting path, so the draw always completes.
    """
    pieces = len(allowed)
    kinds = len(counts)
    order = sorted(range(pieces), key=lambda p: (len(allowed[p]), rng.random()))
    expected = [0.0] * kinds
    for row in beliefs:
        for k in range(kinds):
            expected[k] += row[k]
    assigned = [-1] * pieces
    left = list(counts)
    holders: list[list[int]] = [[] for _ in range(kinds)]
    for piece in order:
        row = beliefs[piece]
        options = allowed[piece]
        weights = []
        total = 0.0
        for k in options:
            mass = expected[k]
            w = row[k] * left[k] / mass if left[k] > 0 and mass > 1e-12 else 0.0
            if left[k] > 0 and w <= 0.0:
                w = 1e-9  # possible but believed unlikely: still drawable
            weights.append(w)
            total += w
        for k in options:
            expected[k] -= row[k]
        if total > 0:
            pick = rng.random() * total
            for k, w in zip(options, weights, strict=True):
                pick -= w
                if pick <= 0 and w > 0:
                    _take(piece, k, assigned, left, holders)
                    break
            else:
                k = next(k for k, w in zip(options, weights, strict=True) if w > 0)
                _take(piece, k, assigned, left, holders)
        elif not _augment(piece, allowed, assigned, left, holders, rng):
            _force(piece, assigned, left, holders)
    return assigned


def _force(piece: int, assigned: list[int], left: list[int], holders: list[list[int]]) -> None:
    """No world exists (inconsistent input): any kind with a slot left, else the commonest."""
    kind = max(range(len(left)), key=lambda k: left[k])
    _take(piece, kind, assigned, left, holders)
