"""Where every mark of the NT map goes at a given zoom, so that none covers another.

Marks are the locale numbers and one chip per side and position: its block count, with the
flags of the commanders standing there on its left (a flag never strays from its blocks). Their sizes are screen pixels (a finger and an eye need the same pixels at
every zoom), so the sheet room they take shrinks as the map is zoomed in; the layout is made
again for each scale. Each mark tries spots near where it belongs (a reserve's anchor, just
behind an approach's bar, a locale's printed capacity box), first inside its own locale, then
nearby; a spot is taken only if it covers no mark placed before. Pure Python, no Kivy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from companion_app.model.triumph_board import Region, Scene, TriumphBoard, inside, parse_position

# (kind, text, flag labels) -> (width, height) in pixels
Measure = Callable[[str, str, tuple[str, ...]], tuple[float, float]]
GAP = 2.0  # pixels kept free between two marks
RINGS = 14  # how far a mark may wander from its spot, in steps of about its own size


@dataclass(frozen=True)
class Chip:
    """One mark on the map: what it shows and the box it takes (sheet units, centre and size)."""

    kind: str  # "stack", "flag" (a commander without blocks) or "number"
    key: str  # unique: "stack:R63:french", "flag:Lannes", "number:63"
    position: str  # the position it belongs to: "R63", "64>63"
    text: str
    side: str | None
    x: float
    y: float
    w: float
    h: float
    flags: tuple[str, ...] = ()  # the commanders' flag labels shown on the chip
    commanders: tuple[str, ...] = ()  # their names

    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in sheet units."""
        return self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2, self.y + self.h / 2

    def overlaps(self, other: Chip, pad: float = 0.0) -> bool:
        """True when the two boxes (each grown by `pad`) share any area."""
        a, b = self.box(), other.box()
        return (a[0] - pad < b[2] + pad and b[0] - pad < a[2] + pad
                and a[1] - pad < b[3] + pad and b[1] - pad < a[3] + pad)


Box = tuple[float, float, float, float]  # left, top, right, bottom in sheet units


class _Placed:
    """The marks placed so far, bucketed on a coarse grid so a check looks at few of them."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.buckets: dict[tuple[int, int], list[Box]] = {}
        self.chips: list[Chip] = []

    def _cells(self, box: Box) -> Iterator[tuple[int, int]]:
        left, top, right, bottom = box
        for i in range(math.floor(left / self.cell), math.floor(right / self.cell) + 1):
            for j in range(math.floor(top / self.cell), math.floor(bottom / self.cell) + 1):
                yield i, j

    def free(self, box: Box, pad: float) -> bool:
        """True when the box covers no placed chip (with `pad` to spare)."""
        left, top, right, bottom = box
        for cell in self._cells(box):
            for other in self.buckets.get(cell, ()):
                if (left - pad < other[2] + pad and other[0] - pad < right + pad
                        and top - pad < other[3] + pad and other[1] - pad < bottom + pad):
                    return False
        return True

    def add(self, chip: Chip) -> None:
        """Keep a placed chip."""
        self.chips.append(chip)
        box = chip.box()
        for cell in self._cells(box):
            self.buckets.setdefault(cell, []).append(box)


def _spots(x: float, y: float, step: float, rings: int,
           along: tuple[float, float] | None = None) -> Iterator[tuple[float, float]]:
    """Spots around (x, y), nearest first; with `along`, first sideways along that direction."""
    yield x, y
    if along is not None:
        for k in range(1, rings):
            for sign in (1, -1):
                yield x + along[0] * step * k * sign, y + along[1] * step * k * sign
    for ring in range(1, rings):
        count = 8 * ring
        for k in range(count):
            angle = 2 * math.pi * k / count + (math.pi / count if ring % 2 else 0.0)
            yield x + math.cos(angle) * step * ring, y + math.sin(angle) * step * ring


def _within(box: Box, centre: tuple[float, float], region: Region) -> bool:
    left, top, right, bottom = box
    return inside(centre, region.outline) and all(
        inside(corner, region.outline)
        for corner in ((left, top), (right, top), (left, bottom), (right, bottom)))


class _Layout:
    def __init__(self, board: TriumphBoard, scale: float, measure: Measure) -> None:
        self.board, self.scale, self.measure = board, scale, measure
        self.placed = _Placed(48 / scale)
        self.pad = GAP / scale

    def chip(self, kind: str, key: str, position: str, text: str, side: str | None,
             point: tuple[float, float], flags: tuple[tuple[str, str], ...] = ()) -> Chip:
        labels = tuple(label for _, label in flags)
        width, height = self.measure(kind, text, labels)
        return Chip(kind, key, position, text, side, point[0], point[1], width / self.scale,
                    height / self.scale, labels, tuple(name for name, _ in flags))

    def place(self, template: Chip, region: Region, required: bool,
              along: tuple[float, float] | None = None) -> Chip | None:
        """Put the chip at the first free spot inside its region, else (if required) the first
        free spot nearby; None if an optional chip finds no room inside."""
        step = max(template.w, template.h) * 0.55
        half_w, half_h = template.w / 2, template.h / 2
        # a box fits inside only if its inscribed circle fits the locale's deepest one
        fits = min(half_w, half_h) <= region.clearance
        for within in (True, False) if required else (True,):
            if within and not fits:
                continue
            # an optional number only looks near its box: far away it would name the wrong place
            rings = (RINGS if within else RINGS * 3) if required else 4
            for x, y in _spots(template.x, template.y, step, rings, along):
                box = (x - half_w, y - half_h, x + half_w, y + half_h)
                if within and not _within(box, (x, y), region):
                    continue
                if self.placed.free(box, self.pad):
                    chip = replace(template, x=x, y=y)
                    self.placed.add(chip)
                    return chip
        return None


def lay_out(board: TriumphBoard, scene: Scene, scale: float, measure: Measure,
            faces: bool = False, marked: frozenset[int] = frozenset()) -> list[Chip]:
    """Every mark of the scene at `scale` (pixels per sheet unit), none covering another.

    Numbers of locales with blocks, of the attack and of `marked` locales always show; the
    others show where they fit inside their locale. With `faces`, a chip also lists the faces
    its view knows ("5 · I3 I2 +3")."""
    layout = _Layout(board, scale, measure)
    stacks = {(s.position, s.side): s for s in scene.stacks}
    busy = {parse_position(position)[0] for position, _ in stacks} | set(marked)
    busy |= {n for n in (scene.attack_locale, scene.defence_locale) if n is not None}
    busy |= {parse_position(f.position)[0] for f in scene.flags}
    for number in sorted(busy):
        region = board.regions[number]
        layout.place(layout.chip("number", f"number:{number}", f"R{number}", str(number), None,
                                 region.label_at), region, required=True)
    flags: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for flag in scene.flags:
        flags.setdefault((flag.position, flag.side), []).append((flag.name, flag.label))
    # blocks on approaches stand behind their bar, sliding along it before stepping back
    ordered = sorted(stacks.values(), key=lambda s: (">" not in s.position, s.position, s.side))
    for stack in ordered:
        locale, toward = parse_position(stack.position)
        region = board.regions[locale]
        text = str(stack.count) + (f" · {stack.label}" if faces and stack.label else "")
        along = None
        if toward is not None:
            angle = math.radians(board.bar(stack.position).angle)
            along = (math.cos(angle), math.sin(angle))
        here = tuple(flags.pop((stack.position, stack.side), ()))
        layout.place(layout.chip("stack", f"stack:{stack.position}:{stack.side}", stack.position,
                                 text, stack.side, board.point(stack.position), here),
                     region, required=True, along=along)
    for (position, side), alone in sorted(flags.items()):  # commanders without blocks
        for name, label in alone:
            layout.place(layout.chip("flag", f"flag:{name}", position, "", side,
                                     board.point(position), ((name, label),)),
                         board.regions[parse_position(position)[0]], required=True)
    for number in sorted(set(board.regions) - busy):
        region = board.regions[number]
        layout.place(layout.chip("number", f"number:{number}", f"R{number}", str(number), None,
                                 region.label_at), region, required=False)
    return layout.placed.chips


def overlapping(chips: list[Chip]) -> list[tuple[str, str]]:
    """Pairs of chips that cover each other (what a test wants empty)."""
    found = []
    ordered = sorted(chips, key=lambda c: c.box()[0])
    for i, chip in enumerate(ordered):
        right = chip.box()[2]
        for other in ordered[i + 1:]:
            if other.box()[0] >= right:
                break
            if chip.overlaps(other):
                found.append((chip.key, other.key))
    return found
