"""Where each Austerlitz locale sits on our schematic map, computed from the map data alone.

No printed art is used: the points come from the border graph of the engine's map data by
stress majorization (graph distances become drawing distances), turned so that the French
entry locales lie west and the Allied ones east, and so that the low locale numbers (the
north of the battlefield on the publisher's reference map: Lösch, Bosenitz) lie at the top.
Big locales are then pushed apart until no two circles overlap. The result is cached in
data/triumph_layout.json; `compute_layout()` regenerates it identically (a test checks that).
Coordinates: x and y in 0..1, y upwards (Kivy's convention), `aspect` = width / height.
"""

from __future__ import annotations

import heapq
import json
import math
import random
from functools import cache
from pathlib import Path
from typing import Any

from engine.triumph.mapdata import BattleMap, load_austerlitz

LAYOUT_FILE = Path(__file__).parent / "data" / "triumph_layout.json"
SEED = 1805
ITERATIONS = 220
SPREAD_ROUNDS = 200
ASPECT = 1.3  # the layout is drawn in a box this much wider than high
DIGITS = 4


def node_radius(capacity: int) -> float:
    """A locale's circle radius in graph units: the area grows with its capacity."""
    return 0.22 + 0.075 * math.sqrt(capacity)


def _edge_length(battle_map: BattleMap, a: int, b: int) -> float:
    """How far apart two neighbours should be drawn: room for both circles and a short line."""
    return (node_radius(battle_map.locales[a].capacity) + node_radius(battle_map.locales[b].capacity)
            + 0.2)


def _distances(battle_map: BattleMap) -> dict[int, dict[int, float]]:
    """Shortest drawn distances between all locales over every border (impassable ones too:
    they are still neighbours on the ground)."""
    result: dict[int, dict[int, float]] = {}
    for source in sorted(battle_map.locales):
        best = {source: 0.0}
        queue = [(0.0, source)]
        while queue:
            dist, here = heapq.heappop(queue)
            if dist > best[here]:
                continue
            for there in sorted(battle_map.touching(here)):
                step = dist + _edge_length(battle_map, here, there)
                if step < best.get(there, math.inf) - 1e-12:
                    best[there] = step
                    heapq.heappush(queue, (step, there))
        result[source] = best
    return result


def _stress_layout(ids: list[int], dist: dict[int, dict[int, float]], rng: random.Random
                   ) -> dict[int, list[float]]:
    """Localized stress majorization (Gansner, Koren, North 2004) from a seeded start."""
    pos = {i: [rng.uniform(-10, 10), rng.uniform(-10, 10)] for i in ids}
    pairs = {i: [(j, dist[i][j], dist[i][j] ** -2) for j in ids if j != i] for i in ids}
    for _ in range(ITERATIONS):
        for i in ids:
            xi, yi = pos[i]
            sx = sy = sw = 0.0
            for j, d, w in pairs[i]:
                xj, yj = pos[j]
                dx, dy = xi - xj, yi - yj
                norm = math.hypot(dx, dy) or 1e-9
                sx += w * (xj + d * dx / norm)
                sy += w * (yj + d * dy / norm)
                sw += w
            pos[i] = [sx / sw, sy / sw]
    return pos


def _orient(battle_map: BattleMap, pos: dict[int, list[float]]) -> None:
    """Turn the drawing so French entries lie west, Allied east, and low numbers north."""

    def centre(side: str) -> tuple[float, float]:
        points = [pos[e.locale] for e in battle_map.entries.values() if e.side == side]
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    fx, fy = centre("french")
    ax, ay = centre("allied")
    angle = -math.atan2(ay - fy, ax - fx)
    cos, sin = math.cos(angle), math.sin(angle)
    for point in pos.values():
        x, y = point
        point[0], point[1] = x * cos - y * sin, x * sin + y * cos
    north = [pos[i][1] for i in pos if i <= 40]
    south = [pos[i][1] for i in pos if i >= 130]
    if sum(north) / len(north) < sum(south) / len(south):
        for point in pos.values():
            point[1] = -point[1]


def _spread(battle_map: BattleMap, pos: dict[int, list[float]]) -> None:
    """Push overlapping circles apart (with a small gap) until none overlap."""
    ids = sorted(pos)
    radius = {i: node_radius(battle_map.locales[i].capacity) for i in ids}
    for _ in range(SPREAD_ROUNDS):
        moved = False
        for n, i in enumerate(ids):
            for j in ids[n + 1:]:
                dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
                dist = math.hypot(dx, dy) or 1e-9
                need = radius[i] + radius[j] + 0.08
                if dist < need:
                    push = (need - dist) / 2 + 1e-4
                    ux, uy = dx / dist, dy / dist
                    pos[i][0] -= ux * push
                    pos[i][1] -= uy * push
                    pos[j][0] += ux * push
                    pos[j][1] += uy * push
                    moved = True
        if not moved:
            return


def compute_layout(battle_map: BattleMap | None = None) -> dict[str, Any]:
    """The schematic layout: {"aspect", "scale", "points": {locale id: [x, y]}} in 0..1."""
    battle_map = battle_map or load_austerlitz()
    ids = sorted(battle_map.locales)
    pos = _stress_layout(ids, _distances(battle_map), random.Random(SEED))
    _orient(battle_map, pos)
    # stretch to the drawing box's proportions before removing overlaps, so circles stay round
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    stretch = math.sqrt(ASPECT * height / width)
    for point in pos.values():
        point[0] *= stretch
        point[1] /= stretch
    _spread(battle_map, pos)
    margin = max(node_radius(c.capacity) for c in battle_map.locales.values()) * 1.2
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    left, bottom = min(xs) - margin, min(ys) - margin
    width, height = max(xs) + margin - left, max(ys) + margin - bottom
    # one scale for both axes keeps circles round: x spans 0..1, y spans 0..height/width
    scale = 1 / width
    points = {str(i): [round((pos[i][0] - left) * scale, DIGITS),
                       round((pos[i][1] - bottom) / height, DIGITS)] for i in ids}
    return {"aspect": round(width / height, DIGITS), "scale": round(scale, 6),
            "source": "stress majorization of the border graph of the engine's Austerlitz data",
            "seed": SEED, "points": points}


def layout_text(layout: dict[str, Any]) -> str:
    """The layout as stored: one locale per line, in number order, so diffs stay readable."""
    head = {k: v for k, v in layout.items() if k != "points"}
    lines = [f'  "{k}": {json.dumps(v)},' for k, v in sorted(head.items())]
    points = sorted(layout["points"].items(), key=lambda item: int(item[0]))
    body = ",\n".join(f'    "{k}": {json.dumps(v)}' for k, v in points)
    return "{\n" + "\n".join(lines) + '\n  "points": {\n' + body + "\n  }\n}\n"


def write_layout() -> None:
    """Recompute the layout and store it (run after the map data changes)."""
    LAYOUT_FILE.parent.mkdir(parents=True, exist_ok=True)
    LAYOUT_FILE.write_text(layout_text(compute_layout()), encoding="utf-8")


@cache
def load_layout() -> dict[str, Any]:
    """The cached layout, as stored."""
    data: dict[str, Any] = json.loads(LAYOUT_FILE.read_text(encoding="utf-8"))
    return data


if __name__ == "__main__":
    write_layout()
