"""The Napoleon's Triumph map as a Kivy widget: the printed board's locales and approach bars,
a view's blocks and flags on them, pinch to zoom and drag to pan.

What goes where comes from companion_app.model (triumph_board: the shapes and the scene;
triumph_chips: where each mark goes without covering another); this file paints it and turns
finger gestures into zoom, pan and taps on positions ("R63", "64>63").
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.graphics import (
    Color,
    InstructionGroup,
    Line,
    Mesh,
    PopMatrix,
    PushMatrix,
    Rectangle,
    RoundedRectangle,
    Scale,
    Translate,
    Triangle,
)
from kivy.graphics.stencil_instructions import StencilPop, StencilPush, StencilUnUse, StencilUse
from kivy.graphics.tesselator import TYPE_POLYGONS, WINDING_ODD, Tesselator
from kivy.metrics import dp, sp
from kivy.uix.widget import Widget

from companion_app.model.triumph_board import Scene, TriumphBoard, inside, parse_position
from companion_app.model.triumph_chips import Chip, lay_out
from companion_app.ui.pieces import text_texture
from engine.triumph.board_geometry import Point

GROUND = (0.80, 0.78, 0.68, 1)
FIELD = (0.95, 0.93, 0.85, 1)
HILL = (0.85, 0.74, 0.55, 1)
INK = (0.25, 0.23, 0.2, 1)
BAR = (0.2, 0.18, 0.15, 1)
IMPASSABLE = (0.62, 0.22, 0.16, 1)
MAIN_ROAD = (0.93, 0.55, 0.1, 0.9)
ROAD = (0.75, 0.62, 0.35, 0.8)
SIDE_COLORS = {"french": (0.16, 0.33, 0.78, 1), "allied": (0.80, 0.15, 0.15, 1)}
STAR_COLORS = {"blue": (0.2, 0.45, 1, 1), "red": (0.95, 0.2, 0.2, 1),
               "green": (0.15, 0.7, 0.25, 1), "black": (0.05, 0.05, 0.05, 1)}
ATTACK = (1.0, 0.6, 0.0, 1)
DEFENCE = (0.9, 0.0, 0.3, 1)
HIGHLIGHT = (0.1, 0.75, 0.3, 1)
STORMED = (0.45, 0.05, 0.35, 0.9)
MAX_ZOOM = 6.0
FACES_AT = 2.2  # from this zoom on, a chip also lists the faces its view knows


class TriumphMap(Widget):
    """The printed map showing one view; `on_position(pos)` is called when a locale or a marked
    approach is tapped, `highlight(positions)` rings legal destinations. One finger drags the
    map, two pinch it, a mouse wheel zooms, a double tap shows the whole board again."""

    def __init__(self, on_position: Callable[[str], None] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.board = TriumphBoard()
        self.on_position = on_position
        self.view: dict[str, Any] = {}
        self.scene = Scene([], [])
        self.highlighted: list[str] = []
        self.drawn: dict[str, str] = {}  # what each mark says (for tests)
        self.chips: list[Chip] = []  # the marks as laid out at the last redraw
        self.zoom = 1.0
        self.centre: Point = (self.board.width / 2, self.board.height / 2)
        self._touches: dict[Any, tuple[float, float]] = {}
        self._meshes = {n: _tesselate(r.outline) for n, r in self.board.regions.items()}
        self._measured: dict[tuple[str, str], tuple[float, float]] = {}
        self._closed_edges = [_shared_edge(self.board, a, b) for a, b in self.board.closed_borders]
        self._board_group: InstructionGroup | None = None  # the board, built once
        self._ink = InstructionGroup()  # where the drawing methods add their instructions
        self._translate, self._scale = Translate(0, 0), Scale(1, 1, 1)
        self._frames: list[Rectangle] = []
        self._lines: list[tuple[Line, float, float]] = []
        self._drawn_scale = 0.0
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

    def reset_view(self) -> None:
        """The whole board again."""
        self.zoom, self.centre = 1.0, (self.board.width / 2, self.board.height / 2)
        self.redraw()

    # -- geometry -----------------------------------------------------------------------------
    @property
    def scale(self) -> float:
        """Pixels per sheet unit at the current zoom."""
        fit = min(self.width / self.board.width, self.height / self.board.height)
        return max(fit, 1e-6) * self.zoom

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        """A sheet point (y south) in window pixels (y up)."""
        scale = self.scale
        return (self.center_x + (x - self.centre[0]) * scale,
                self.center_y - (y - self.centre[1]) * scale)

    def to_sheet(self, px: float, py: float) -> Point:
        """A window point on the sheet."""
        scale = self.scale
        return (self.centre[0] + (px - self.center_x) / scale,
                self.centre[1] - (py - self.center_y) / scale)

    def position_at(self, px: float, py: float) -> str | None:
        """The position under a window point: a marked approach's bar, else a locale."""
        marked = {p for p in self.highlighted if ">" in p}
        marked |= {s.position for s in self.scene.stacks if ">" in s.position}
        x, y = self.to_sheet(px, py)
        # a legal destination on an approach's bar first, then a chip, then the locale
        on_bar = self.board.position_at(x, y, {p for p in self.highlighted if ">" in p})
        if on_bar is not None and ">" in on_bar:
            return on_bar
        for chip in self.chips:  # a finger on a chip standing in its own locale: its position
            left, top, right, bottom = chip.box()
            own = self.board.regions[parse_position(chip.position)[0]].outline
            if (chip.kind != "number" and left <= x <= right and top <= y <= bottom
                    and inside((chip.x, chip.y), own)):
                return chip.position
        return self.board.position_at(x, y, marked, dp(20) / self.scale)

    def _clamp(self) -> None:
        self.zoom = min(MAX_ZOOM, max(1.0, self.zoom))
        half_w = self.width / 2 / self.scale
        half_h = self.height / 2 / self.scale
        x = min(max(self.centre[0], min(half_w, self.board.width / 2)),
                max(self.board.width - half_w, self.board.width / 2))
        y = min(max(self.centre[1], min(half_h, self.board.height / 2)),
                max(self.board.height - half_h, self.board.height / 2))
        self.centre = (x, y)

    def zoom_at(self, factor: float, px: float, py: float) -> None:
        """Zoom by `factor`, keeping the sheet point under (px, py) where it is."""
        before = self.to_sheet(px, py)
        self.zoom *= factor
        self._clamp()
        after = self.to_sheet(px, py)
        self.centre = (self.centre[0] + before[0] - after[0], self.centre[1] + before[1] - after[1])
        self._clamp()
        self.redraw()

    def pan(self, dx: float, dy: float) -> None:
        """Move the map with a finger by (dx, dy) pixels."""
        scale = self.scale
        self.centre = (self.centre[0] - dx / scale, self.centre[1] + dy / scale)
        self._clamp()
        self.redraw()

    # -- gestures -----------------------------------------------------------------------------
    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return bool(super().on_touch_down(touch))
        if getattr(touch, "is_mouse_scrolling", False):
            factor = 1.2 if touch.button == "scrolldown" else 1 / 1.2
            self.zoom_at(factor, *touch.pos)
            return True
        if getattr(touch, "is_double_tap", False) and self.zoom > 1.0:
            self.reset_view()
            touch.ud["triumph_map_done"] = True
        touch.grab(self)
        self._touches[touch.uid] = touch.pos
        touch.ud["triumph_map_start"] = touch.pos
        return True

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_move(touch))
        previous = self._touches.get(touch.uid, touch.pos)
        if len(self._touches) >= 2:
            others = [p for uid, p in self._touches.items() if uid != touch.uid]
            anchor = others[0]
            before = math.dist(previous, anchor) or 1.0
            after = math.dist(touch.pos, anchor) or 1.0
            middle = ((touch.pos[0] + anchor[0]) / 2, (touch.pos[1] + anchor[1]) / 2)
            self.zoom_at(after / before, *middle)
            touch.ud["triumph_map_moved"] = True
        else:
            start = touch.ud.get("triumph_map_start", touch.pos)
            if touch.ud.get("triumph_map_moved") or math.dist(start, touch.pos) > dp(10):
                touch.ud["triumph_map_moved"] = True
                self.pan(touch.pos[0] - previous[0], touch.pos[1] - previous[1])
        self._touches[touch.uid] = touch.pos
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        alone = len(self._touches) == 1
        self._touches.pop(touch.uid, None)
        if alone and not touch.ud.get("triumph_map_moved") and not touch.ud.get("triumph_map_done"):
            position = self.position_at(*touch.pos)
            if position is not None and self.on_position is not None:
                self.on_position(position)
        return True

    # -- drawing ------------------------------------------------------------------------------
    def redraw(self, *_: Any) -> None:
        """Place the board (drawn once, in sheet units, under a transform that follows zoom and
        pan), then paint the view's marks and every chip where it was laid."""
        if self._board_group is None:
            self._build_canvas()
        self.drawn = {}
        self._ink.clear()
        if self.width < 10 or self.height < 10:
            self._translate.xy, self._scale.xyz = (-1e6, -1e6), (1e-6, 1e-6, 1)
            return
        self._clamp()
        for rect in self._frames:
            rect.pos, rect.size = self.pos, self.size
        scale = self.scale
        self._translate.xy = (self.center_x - self.centre[0] * scale,
                              self.center_y + self.centre[1] * scale)
        self._scale.xyz = (scale, -scale, 1)
        if scale != self._drawn_scale:  # lines keep their pixel widths at every zoom
            for line, least, sheet in self._lines:
                line.width = max(least / scale, sheet)
            self._drawn_scale = scale
        self._attack()
        self._closed_and_stormed()
        self._highlights()
        self._chips()

    def _build_canvas(self) -> None:
        """The canvas once: a stencil to the widget's box, the ground, the board under its
        transform, and a group for what each view puts on it."""
        canvas = self.canvas
        frames = [Rectangle(pos=self.pos, size=self.size) for _ in range(3)]
        self._frames = frames
        canvas.add(StencilPush())  # nothing of a zoomed map spills over the panel beside it
        canvas.add(frames[0])
        canvas.add(StencilUse())
        canvas.add(Color(*GROUND))
        canvas.add(frames[1])
        canvas.add(PushMatrix())
        canvas.add(self._translate)
        canvas.add(self._scale)
        self._board_group = InstructionGroup()
        self._ink = self._board_group
        self._regions()
        self._roads()
        self._bars()
        canvas.add(self._board_group)
        canvas.add(PopMatrix())
        self._ink = InstructionGroup()
        canvas.add(self._ink)
        canvas.add(StencilUnUse())
        canvas.add(frames[2])
        canvas.add(StencilPop())

    def _sheet_points(self, points: tuple[Point, ...] | list[Point]) -> list[float]:
        return [coordinate for point in points for coordinate in point]

    def _board_line(self, points: list[float], least: float, sheet: float, **kwargs: Any) -> None:
        """A line of the board, `least` pixels wide at the least, else `sheet` units."""
        line = Line(points=points, width=sheet, **kwargs)
        self._lines.append((line, least, sheet))
        self._ink.add(line)

    def _screen_points(self, points: tuple[Point, ...] | list[Point]) -> list[float]:
        flat: list[float] = []
        for x, y in points:
            flat.extend(self.to_screen(x, y))
        return flat

    def _regions(self) -> None:
        for number, region in self.board.regions.items():
            self._ink.add(Color(*(HILL if region.hill else FIELD)))
            for vertices, indices in self._meshes[number]:
                self._ink.add(Mesh(vertices=vertices, indices=indices, mode="triangle_fan"))
            self._ink.add(Color(*INK))
            self._board_line(self._sheet_points(region.outline), 1.0, 2.2, close=True)
        self._ink.add(Color(*IMPASSABLE))  # where nothing may cross: the shared edge in red
        for edge in self._closed_edges:
            if len(edge) >= 2:
                self._board_line(self._sheet_points(edge), 1.5, 3.5)

    def _roads(self) -> None:
        for road in self.board.roads:
            self._ink.add(Color(*(MAIN_ROAD if road.main else ROAD)))
            self._board_line(self._sheet_points(road.points), 1.0, 6 if road.main else 3)

    def _bars(self) -> None:
        self._ink.add(Color(*BAR))
        for bar in self.board.bars:
            self._board_line(self._sheet_points(bar.ends), 1.2, 9 if bar.wide else 6)

    def _outline(self, locale: int, color: tuple[float, ...], width: float) -> None:
        self._ink.add(Color(*color))
        self._ink.add(Line(points=self._screen_points(self.board.regions[locale].outline),
                             close=True, width=width))

    def _attack(self) -> None:
        scene = self.scene
        if scene.attack_locale is None or scene.defence_locale is None:
            return
        width = max(2.0, dp(2.5))
        self._outline(scene.attack_locale, ATTACK, width)
        self._outline(scene.defence_locale, DEFENCE, width)
        start = self.board.regions[scene.attack_locale].anchor
        try:
            via = self.board.bar(f"{scene.defence_locale}>{scene.attack_locale}").centre
        except KeyError:  # an attack by road from afar: straight at the defence locale
            via = self.board.regions[scene.defence_locale].anchor
        (ax, ay), (bx, by) = self.to_screen(*start), self.to_screen(*via)
        self._ink.add(Color(*ATTACK))
        self._ink.add(Line(points=[ax, ay, bx, by], width=width * 1.4))
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        head = max(dp(12), width * 4)
        self._ink.add(Triangle(points=[bx + ux * head * 0.4, by + uy * head * 0.4,
                                         bx - ux * head - uy * head * 0.6,
                                         by - uy * head + ux * head * 0.6,
                                         bx - ux * head + uy * head * 0.6,
                                         by - uy * head - ux * head * 0.6]))
        self.drawn["attack"] = f"{scene.attack_locale}>{scene.defence_locale}"

    def _closed_and_stormed(self) -> None:
        for position in self.scene.closed:
            try:
                bar = self.board.bar(position)
            except (KeyError, ValueError, AssertionError):
                continue
            x, y = self.to_screen(*bar.centre)
            size = max(dp(6), bar.length * self.scale * 0.3)
            self._ink.add(Color(0, 0, 0, 1))
            for sign in (1, -1):
                self._ink.add(Line(points=[x - size, y - sign * size, x + size, y + sign * size],
                                     width=max(1.5, dp(2))))
            self.drawn[f"closed:{position}"] = "x"
        for locale in self.scene.stormed:
            if locale in self.board.regions:
                self._outline(locale, STORMED, max(2.0, dp(3)))
                self.drawn[f"stormed:{locale}"] = "stormed"

    def _highlights(self) -> None:
        for position in self.highlighted:
            locale, toward = parse_position(position)
            if toward is None:
                self._outline(locale, HIGHLIGHT, max(2.0, dp(3)))
            else:
                bar = self.board.bar(position)
                ends = bar.ends()
                shift = (bar.inward[0] * 8, bar.inward[1] * 8)
                self._ink.add(Color(*HIGHLIGHT))
                self._ink.add(Line(points=self._screen_points(
                    [(p[0] + shift[0], p[1] + shift[1]) for p in ends]), width=max(3.0, dp(4))))
            self.drawn.setdefault(f"highlight:{position}", "ring")

    # -- chips ----------------------------------------------------------------------------------
    def _font(self, kind: str) -> int:
        return int(sp(11) if kind == "number" else sp(12))

    def _text_size(self, text: str, kind: str) -> tuple[float, float]:
        key = (text, kind)
        if key not in self._measured:
            self._measured[key] = text_texture(text, self._font(kind), kind != "number").size
        return self._measured[key]

    def measure(self, kind: str, text: str, flags: tuple[str, ...]) -> tuple[float, float]:
        """A chip's size in pixels: its text with room around it, a pennant per flag on its
        left, a dot per objective star after a number."""
        if kind == "number":
            w, h = self._text_size(text, kind)
            return w + dp(6) + len(self.board.regions[int(text)].stars) * dp(7), h + dp(2)
        pennants = sum(self._text_size(label, "flag")[0] + dp(10) for label in flags)
        height = self._text_size("8", kind)[1] + dp(6)
        if kind == "flag":
            return pennants, height
        w, _ = self._text_size(text, kind)
        return pennants + max(w + dp(10), dp(22)), max(height, dp(22))

    def _chips(self) -> None:
        marked = frozenset(parse_position(p)[0] for p in self.highlighted)
        self.chips = lay_out(self.board, self.scene, self.scale, self.measure,
                             faces=self.zoom >= FACES_AT, marked=marked)
        for chip in self.chips:
            left, top, right, bottom = chip.box()
            x, y = self.to_screen(left, bottom)
            w, h = (right - left) * self.scale, (bottom - top) * self.scale
            if chip.kind == "number":
                self._number(chip, x, y, w, h)
                continue
            self._leader(chip)
            x = self._pennants(chip, x, y, h)
            if chip.kind == "stack":
                self._stack(chip, x, y, w - (x - self.to_screen(left, bottom)[0]), h)

    def _leader(self, chip: Chip) -> None:
        """A chip pushed out of its locale by the crowd points back at where it belongs."""
        locale = parse_position(chip.position)[0]
        if inside((chip.x, chip.y), self.board.regions[locale].outline):
            return
        (cx, cy), (px, py) = self.to_screen(chip.x, chip.y), self.to_screen(*self.board.point(chip.position))
        self._ink.add(Color(*INK))
        self._ink.add(Line(points=[cx, cy, px, py], width=1.2))
        self._ink.add(RoundedRectangle(pos=(px - dp(3), py - dp(3)), size=(dp(6), dp(6)),
                                         radius=[dp(3)]))

    def _label(self, text: str, x: float, y: float, w: float, h: float, size: int, bold: bool,
               color: tuple[float, ...]) -> None:
        texture = text_texture(text, size, bold)
        tw, th = texture.size
        self._ink.add(Color(*color))
        self._ink.add(Rectangle(texture=texture, pos=(x + (w - tw) / 2, y + (h - th) / 2),
                                  size=(tw, th)))

    def _number(self, chip: Chip, x: float, y: float, w: float, h: float) -> None:
        region = self.board.regions[int(chip.text)]
        stars = len(region.stars)
        self._ink.add(Color(1, 1, 1, 0.78))
        self._ink.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[dp(3)]))
        text_w = w - stars * dp(7)
        self._label(chip.text, x, y, text_w, h, self._font("number"), False, INK)
        for k, star in enumerate(region.stars):
            cx, cy, r = x + text_w + dp(7) * k + dp(3), y + h / 2, dp(3)
            self._ink.add(Color(*STAR_COLORS[star]))
            self._ink.add(RoundedRectangle(pos=(cx - r, cy - r), size=(2 * r, 2 * r), radius=[r]))
        self.drawn[chip.key] = chip.text

    def _pennants(self, chip: Chip, x: float, y: float, h: float) -> float:
        """The chip's flags from its left edge; returns where the blocks' box starts."""
        color = SIDE_COLORS[chip.side or "french"]
        for name, label in zip(chip.commanders, chip.flags, strict=True):
            w = self._text_size(label, "flag")[0] + dp(10)
            self._ink.add(Color(*INK))  # the pole, then the cloth with a golden hem
            self._ink.add(Rectangle(pos=(x, y), size=(dp(2), h)))
            self._ink.add(Color(*color))
            self._ink.add(Rectangle(pos=(x + dp(2), y + h * 0.15), size=(w - dp(3), h * 0.85)))
            self._ink.add(Color(1, 0.85, 0.3, 1))
            self._ink.add(Line(rectangle=(x + dp(2), y + h * 0.15, w - dp(3), h * 0.85), width=1.0))
            self._label(label, x + dp(2), y + h * 0.15, w - dp(3), h * 0.85, self._font("flag"), True,
                        (1, 1, 1, 1))
            self.drawn[f"flag:{name}"] = chip.position
            x += w
        return x

    def _stack(self, chip: Chip, x: float, y: float, w: float, h: float) -> None:
        self._ink.add(Color(*SIDE_COLORS[chip.side or "french"]))  # blocks seen from above
        self._ink.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[dp(4)]))
        self._ink.add(Color(1, 1, 1, 1))
        self._ink.add(Line(rounded_rectangle=(x, y, w, h, dp(4)), width=1.0))
        self._label(chip.text, x, y, w, h, self._font("stack"), True, (1, 1, 1, 1))
        self.drawn[chip.position] = f"{chip.side}:{chip.text}"


def _shared_edge(board: TriumphBoard, a: int, b: int) -> list[Point]:
    """The corners of a's outline that lie on b's: the edge the two locales share."""
    near = board.regions[b].outline
    return [p for p in board.regions[a].outline if min(math.dist(p, q) for q in near) < 12]


def _tesselate(outline: tuple[Point, ...]) -> list[tuple[list[float], list[int]]]:
    """A locale's outline cut into fans Kivy can fill (outlines may be concave)."""
    tess = Tesselator()
    flat: list[float] = []
    for x, y in outline:
        flat += [x, y]
    tess.add_contour(flat)
    if not tess.tesselate(WINDING_ODD, TYPE_POLYGONS):
        return []
    return [(list(vertices), list(indices)) for vertices, indices in tess.meshes]
