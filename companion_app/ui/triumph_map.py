"""The Napoleon's Triumph map as a Kivy widget: our schematic of the locales with a view's blocks.

What is drawn where comes from companion_app.model.triumph_board (no Kivy there); this file
only paints it and turns taps into positions ("R63", "64>63").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle
from kivy.metrics import dp, sp
from kivy.uix.widget import Widget

from companion_app.model.triumph_board import Scene, TriumphBoard, parse_position
from companion_app.ui.pieces import text_texture
from companion_app.ui.triumph_layout import load_layout

GROUND = (0.86, 0.84, 0.74, 1)
NODE = (0.96, 0.95, 0.89, 1)
HILL = (0.80, 0.70, 0.52, 1)
INK = (0.25, 0.23, 0.2, 1)
WIDE = (0.35, 0.32, 0.28, 1)
IMPASSABLE = (0.62, 0.22, 0.16, 1)
MAIN_ROAD = (0.93, 0.55, 0.1, 1)
ROAD = (0.98, 0.93, 0.55, 1)
SIDE_COLORS = {"french": (0.16, 0.33, 0.78, 1), "allied": (0.80, 0.15, 0.15, 1)}
STAR_COLORS = {"blue": (0.2, 0.45, 1, 1), "red": (0.95, 0.2, 0.2, 1),
               "green": (0.15, 0.7, 0.25, 1), "black": (0.05, 0.05, 0.05, 1)}
ATTACK = (1.0, 0.6, 0.0, 1)
DEFENCE = (0.9, 0.0, 0.3, 1)
HIGHLIGHT = (0.1, 0.75, 0.3, 1)
STORMED = (0.45, 0.05, 0.35, 0.9)


class TriumphMap(Widget):
    """The schematic map showing one view; `on_position(pos)` is called when a locale or an
    approach is tapped, `highlight(positions)` rings legal destinations."""

    def __init__(self, on_position: Callable[[str], None] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.board = TriumphBoard(load_layout())
        self.on_position = on_position
        self.view: dict[str, Any] = {}
        self.scene = Scene([], [])
        self.highlighted: list[str] = []
        self.drawn: dict[str, str] = {}  # position -> what its mark says (for tests)
        self.bind(pos=self.redraw, size=self.redraw)

    # -- API ----------------------------------------------------------------------------------
    def show(self, view: dict[str, Any]) -> None:
        """Draw a view (TriumphView.to_dict(), public or a seat's)."""
        self.view = view
        self.scene = self.board.scene(view)
        self.redraw()

    def highlight(self, positions: list[str]) -> None:
        """Ring these positions (legal destinations); an empty list clears the rings."""
        self.highlighted = list(positions)
        self.redraw()

    # -- geometry -----------------------------------------------------------------------------
    def box(self) -> tuple[float, float, float]:
        """(left, bottom, width) of the map drawn as large as fits, centred."""
        width = min(self.width, self.height * self.board.aspect)
        height = width / self.board.aspect
        return self.x + (self.width - width) / 2, self.y + (self.height - height) / 2, width

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """A map point (width units) in window pixels."""
        left, bottom, width = self.box()
        return left + x * width, bottom + y * width

    def position_at(self, px: float, py: float) -> str | None:
        """The position under a window point (the reserve, or a marked approach)."""
        left, bottom, width = self.box()
        marked = {p for p in self.highlighted if ">" in p}
        marked |= {s.position for s in self.scene.stacks if ">" in s.position}
        # a finger gets at least 24dp around a small locale's centre (the nearest edge wins)
        return self.board.position_at((px - left) / width, (py - bottom) / width, marked, 1.3,
                                      dp(24) / width)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        position = self.position_at(*touch.pos)
        if position is None:
            return False
        if self.on_position is not None:
            self.on_position(position)
        return True

    # -- drawing ------------------------------------------------------------------------------
    def redraw(self, *_: Any) -> None:
        """Paint the ground, borders, roads, locales, then the view's marks and blocks."""
        self.canvas.clear()
        self.drawn = {}
        if self.width < 10 or self.height < 10:
            return
        left, bottom, width = self.box()
        canvas = self.canvas
        canvas.add(Color(*GROUND))
        canvas.add(Rectangle(pos=(left, bottom), size=(width, width / self.board.aspect)))
        unit = width / 1000  # line widths follow the map's size
        self._borders(unit)
        self._nodes(width)
        self._attack(width, unit)
        for stack in self.scene.stacks:
            self._stack(stack, width)
        self._flags(width)
        self._closed_and_stormed(width, unit)
        self._highlights(width, unit)
        self._occupied_numbers(width)

    def _line(self, a: int, b: int, color: tuple[float, ...], line_width: float) -> None:
        na, nb = self.board.nodes[a], self.board.nodes[b]
        self.canvas.add(Color(*color))
        self.canvas.add(Line(points=[*self.to_screen(na.x, na.y), *self.to_screen(nb.x, nb.y)],
                             width=line_width))

    def _borders(self, unit: float) -> None:
        for border in self.board.borders:
            if border.kind == "impassable":
                self._dashes(border.a, border.b, unit)
            else:
                wide = border.kind == "wide"
                self._line(border.a, border.b, WIDE if wide else INK,
                           max(1.0, unit * (4.5 if wide else 1.3)))
        for road in self.board.roads:
            self._line(road.a, road.b, MAIN_ROAD if road.main else ROAD,
                       max(1.0, unit * (2.4 if road.main else 1.1)))

    def _dashes(self, a: int, b: int, unit: float) -> None:
        (x1, y1), (x2, y2) = (self.to_screen(n.x, n.y) for n in (self.board.nodes[a],
                                                                 self.board.nodes[b]))
        self.canvas.add(Color(*IMPASSABLE))
        pieces = 7
        for k in range(0, pieces, 2):
            t1, t2 = k / pieces, (k + 1) / pieces
            self.canvas.add(Line(points=[x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1,
                                         x1 + (x2 - x1) * t2, y1 + (y2 - y1) * t2],
                                 width=max(1.0, unit * 2)))

    def _nodes(self, width: float) -> None:
        """Every locale: its circle (tan for a hill, with a peak), stars, and free ones' numbers."""
        occupied = {parse_position(s.position)[0] for s in self.scene.stacks
                    if s.position.startswith("R")}
        for node in self.board.nodes.values():
            cx, cy = self.to_screen(node.x, node.y)
            r = node.radius * width
            self.canvas.add(Color(*(HILL if node.hill else NODE)))
            self.canvas.add(Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r)))
            self.canvas.add(Color(*INK))
            self.canvas.add(Line(circle=(cx, cy, r), width=1.0))
            if node.hill:  # a small peak on the rim, besides the hill's colour
                self.canvas.add(Color(*INK))
                self.canvas.add(Triangle(points=[cx - r * 0.35, cy - r * 0.95, cx + r * 0.35,
                                                 cy - r * 0.95, cx, cy - r * 0.55]))
            for k, star in enumerate(node.stars):
                angle = math.radians(60 + 25 * k)
                sx, sy = cx + r * math.cos(angle), cy + r * math.sin(angle)
                dot = max(3.0, r * 0.28)
                self.canvas.add(Color(1, 1, 1, 1))
                self.canvas.add(Ellipse(pos=(sx - dot - 1, sy - dot - 1),
                                        size=(2 * dot + 2, 2 * dot + 2)))
                self.canvas.add(Color(*STAR_COLORS[star]))
                self.canvas.add(Ellipse(pos=(sx - dot, sy - dot), size=(2 * dot, 2 * dot)))
            if node.id not in occupied:  # occupied ones get their number on top, later
                self._text(str(node.id), (cx, cy), max(sp(11), r * 0.85), INK, bold=False)

    def _occupied_numbers(self, width: float) -> None:
        """The numbers of occupied locales, left of their circle (the blocks take the middle),
        drawn over everything so that rings and labels never hide them."""
        occupied = {parse_position(s.position)[0] for s in self.scene.stacks
                    if s.position.startswith("R")}
        for locale in sorted(occupied):
            node = self.board.nodes[locale]
            cx, cy = self.to_screen(node.x, node.y)
            texture = text_texture(str(locale), int(sp(11)), True)
            self._text(str(locale), (cx - node.radius * width - texture.size[0] / 2 + 3, cy),
                       sp(11), INK, back=(1, 1, 1, 0.9))

    def _text(self, text: str, center: tuple[float, float], size: float,
              color: tuple[float, ...], bold: bool = True, back: tuple[float, ...] | None = None
              ) -> None:
        texture = text_texture(text, int(size), bold)
        w, h = texture.size
        x, y = center[0] - w / 2, center[1] - h / 2
        if back is not None:
            self.canvas.add(Color(*back))
            self.canvas.add(RoundedRectangle(pos=(x - 2, y), size=(w + 4, h), radius=[3]))
        self.canvas.add(Color(*color))
        self.canvas.add(Rectangle(texture=texture, pos=(x, y), size=(w, h)))

    def _stack(self, stack: Any, width: float) -> None:
        x, y = self.to_screen(stack.x, stack.y)
        locale, other = parse_position(stack.position)
        r = self.board.nodes[locale].radius * width
        side = max(r * (0.95 if other is None else 0.8), sp(16))
        self.canvas.add(Color(*SIDE_COLORS[stack.side]))  # a block seen from above
        self.canvas.add(RoundedRectangle(pos=(x - side / 2, y - side / 2), size=(side, side),
                                         radius=[side * 0.18]))
        self.canvas.add(Color(1, 1, 1, 1))
        self.canvas.add(Line(rounded_rectangle=(x - side / 2, y - side / 2, side, side,
                                                side * 0.18), width=1.0))
        self._text(str(stack.count), (x, y), max(sp(11), side * 0.7), (1, 1, 1, 1))
        label = stack.label
        if label:  # under the locale's circle (or under an approach's block)
            below = (y - max(r, side / 2) - sp(6)) if other is None else y - side / 2 - sp(6)
            self._text(label, (x, below), sp(10), (1, 1, 1, 1), back=(0.1, 0.1, 0.1, 0.8))
        self.drawn[stack.position] = f"{stack.side}:{stack.count}" + (f" {label}" if label else "")

    def _flags(self, width: float) -> None:
        per_position: dict[str, int] = {}
        for flag in self.scene.flags:
            locale, _ = parse_position(flag.position)
            x, y = self.to_screen(*self.board.point(flag.position))
            r = self.board.nodes[locale].radius * width
            k = per_position.get(flag.position, 0)
            per_position[flag.position] = k + 1
            texture = text_texture(flag.label, int(sp(11)), True)
            w, h = texture.size
            # flags fly above their locale, the pole on the circle's top, several stacked up
            pole_x = x - (w + 4) / 2
            base_y = y + r + 2 + k * (h + 2)
            self.canvas.add(Color(*SIDE_COLORS[flag.side]))
            self.canvas.add(Rectangle(pos=(pole_x, base_y), size=(w + 4, h)))
            self.canvas.add(Color(*INK))
            self.canvas.add(Line(points=[pole_x, y + r * 0.8, pole_x, base_y + h], width=1.2))
            self.canvas.add(Color(1, 1, 1, 1))
            self.canvas.add(Rectangle(texture=texture, pos=(pole_x + 2, base_y), size=(w, h)))
            self.drawn[f"flag:{flag.name}"] = flag.position

    def _attack(self, width: float, unit: float) -> None:
        scene = self.scene
        if scene.attack_locale is None or scene.defence_locale is None:
            return
        a, d = self.board.nodes[scene.attack_locale], self.board.nodes[scene.defence_locale]
        (ax, ay), (dx, dy) = self.to_screen(a.x, a.y), self.to_screen(d.x, d.y)
        line = max(2.0, unit * 3)
        self.canvas.add(Color(*ATTACK))
        self.canvas.add(Line(points=[ax, ay, dx, dy], width=line * 1.5))
        # the arrow head sits on the defence locale's rim
        length = math.hypot(dx - ax, dy - ay) or 1
        ux, uy = (dx - ax) / length, (dy - ay) / length
        tip = (dx - ux * d.radius * width, dy - uy * d.radius * width)
        head = max(8.0, d.radius * width * 0.8)
        self.canvas.add(Triangle(points=[tip[0], tip[1],
                                         tip[0] - ux * head - uy * head * 0.6,
                                         tip[1] - uy * head + ux * head * 0.6,
                                         tip[0] - ux * head + uy * head * 0.6,
                                         tip[1] - uy * head - ux * head * 0.6]))
        self.canvas.add(Line(circle=(ax, ay, a.radius * width + line * 1.5), width=line))
        self.canvas.add(Color(*DEFENCE))
        self.canvas.add(Line(circle=(dx, dy, d.radius * width + line * 1.5), width=line))
        self.drawn["attack"] = f"{scene.attack_locale}>{scene.defence_locale}"

    def _closed_and_stormed(self, width: float, unit: float) -> None:
        for position in self.scene.closed:
            try:
                x, y = self.to_screen(*self.board.point(position))
            except (KeyError, ValueError):
                continue
            size = max(5.0, self.board.nodes[parse_position(position)[0]].radius * width * 0.45)
            self.canvas.add(Color(0, 0, 0, 1))
            for sign in (1, -1):
                self.canvas.add(Line(points=[x - size, y - sign * size, x + size, y + sign * size],
                                     width=max(1.5, unit * 2.5)))
            self.drawn[f"closed:{position}"] = "x"
        for locale in self.scene.stormed:
            node = self.board.nodes.get(locale)
            if node is None:
                continue
            cx, cy = self.to_screen(node.x, node.y)
            r = node.radius * width
            self.canvas.add(Color(*STORMED))
            self.canvas.add(Line(circle=(cx, cy, r * 0.92), width=max(2.0, unit * 3)))
            self.drawn[f"stormed:{locale}"] = "stormed"

    def _highlights(self, width: float, unit: float) -> None:
        for position in self.highlighted:
            locale, other = parse_position(position)
            x, y = self.to_screen(*self.board.point(position))
            r = self.board.nodes[locale].radius * width * (1.15 if other is None else 0.6)
            self.canvas.add(Color(*HIGHLIGHT))
            self.canvas.add(Line(circle=(x, y, r), width=max(2.0, unit * 3)))
            self.drawn.setdefault(f"highlight:{position}", "ring")
