"""The board widget: squares, lakes, pieces, highlights, seen from either side; taps and drags."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kivy.graphics import (
    ClearBuffers,
    ClearColor,
    Color,
    Ellipse,
    Fbo,
    InstructionGroup,
    Line,
    Rectangle,
    Triangle,
)
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.widget import Widget

from companion_app.ui.pieces import draw_piece, draw_text, piece_sprite

LIGHT = (0.86, 0.80, 0.62, 1)
DARK = (0.80, 0.73, 0.53, 1)
WATER = (0.35, 0.62, 0.80, 1)
# Espionage's volcanoes: dark rock with a glowing cone, so nobody mistakes them for water.
VOLCANO_ROCK = (0.27, 0.22, 0.20, 1)
VOLCANO_CONE = (0.52, 0.30, 0.20, 1)
VOLCANO_LAVA = (1.0, 0.42, 0.08, 1)
COORDINATE_MARGIN = 0.42  # of a square, left of and under the board
COORDINATE_COLOR = (0.93, 0.9, 0.8, 1)
HIGHLIGHTS = {
    "last": (1.0, 0.86, 0.25, 0.75),
    "selected": (0.25, 0.85, 1.0, 0.8),
    "sensed": (0.30, 0.80, 0.35, 0.85),
    "expected": (0.95, 0.95, 0.95, 0.55),
    "clear": (0.95, 0.25, 0.20, 0.8),
    "fill": (0.30, 0.80, 0.35, 0.85),
    "zone": (1.0, 1.0, 1.0, 0.28),
    "battle": (0.95, 0.45, 0.1, 0.8),
    "turn-piece": (0.65, 0.35, 0.95, 0.85),
    # The computer's move: thick magenta rings at both ends, edged in black, an arrow between.
    "computer-from": (1.0, 0.2, 0.85, 1),
    "computer-to": (1.0, 0.2, 0.85, 1),  # Espionage: the piece already moved this turn
}


def parse_square(name: str) -> tuple[int, int]:
    """File and rank (0-based) of a square name like "a10"."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def square_name(file: int, rank: int) -> str:
    """The name of a square from 0-based file and rank."""
    return f"{chr(ord('a') + file)}{rank + 1}"


def draw_volcano(canvas, x: float, y: float, size: float) -> None:
    """A volcano square: dark rock, a cone and a lava crater (the board and the legend share it)."""
    canvas.add(Color(*VOLCANO_ROCK))
    canvas.add(Rectangle(pos=(x, y), size=(size, size)))
    canvas.add(Color(*VOLCANO_CONE))
    canvas.add(Triangle(points=[x + size * 0.12, y + size * 0.16, x + size * 0.88, y + size * 0.16,
                                x + size * 0.5, y + size * 0.78]))
    canvas.add(Color(*VOLCANO_LAVA))
    canvas.add(Triangle(points=[x + size * 0.38, y + size * 0.62, x + size * 0.62, y + size * 0.62,
                                x + size * 0.5, y + size * 0.78]))
    canvas.add(Ellipse(pos=(x + size * 0.40, y + size * 0.74), size=(size * 0.2, size * 0.12)))


class BoardWidget(Widget):
    """Draws a board described like the engine's PlayerView and reports taps and drags on it.

    Drawing happens only when something changes (`show`), never per frame, so a running game
    costs the renderer nothing between views.
    """

    flipped = BooleanProperty(False)
    drag_enabled = BooleanProperty(False)
    board_width = NumericProperty(10)
    board_height = NumericProperty(10)
    coordinates = BooleanProperty(True)  # a-j and 1-10 beside the board: every instruction names a square

    def __init__(self, label_for: Callable[[str | None], str] | None = None, **kwargs: Any):
        self.register_event_type("on_square_tap")
        self.register_event_type("on_square_drop")
        super().__init__(**kwargs)
        self.label_for = label_for or (lambda kind: kind[:2] if kind else "?")
        self.blocked: frozenset[str] = frozenset()
        self.volcanoes: frozenset[str] = frozenset()  # blocked squares drawn as volcanoes
        self.pieces: dict[str, dict[str, Any]] = {}
        self.highlights: dict[str, str] = {}
        self.drawn: dict[str, str] = {}  # square -> the mark drawn on its piece (tests read it)
        self.hidden_squares: set[str] = set()  # pieces temporarily lifted by a drag
        self.recognised_drawn: set[str] = set()  # squares drawn with the "recognised" mark (tests read it)
        self._drag: dict[str, Any] | None = None
        self._drag_group = InstructionGroup()
        self.canvas.after.add(self._drag_group)
        self.bind(pos=self.redraw, size=self.redraw, flipped=self.redraw)

    # -- content ------------------------------------------------------------------------------
    def show(self, *, width: int | None = None, height: int | None = None,
             blocked: Iterable[str] | None = None, volcanoes: Iterable[str] | None = None,
             pieces: Iterable[dict[str, Any]] | None = None,
             highlights: dict[str, str] | None = None) -> None:
        """Replace what the board shows (anything not given stays) and redraw once."""
        if width is not None:
            self.board_width = width
        if height is not None:
            self.board_height = height
        if blocked is not None:
            self.blocked = frozenset(blocked)
        if volcanoes is not None:
            self.volcanoes = frozenset(volcanoes)
        if pieces is not None:
            self.pieces = {p["square"]: p for p in pieces}
        if highlights is not None:
            self.highlights = dict(highlights)
        self.redraw()

    def show_view(self, view: dict[str, Any], highlights: dict[str, str] | None = None,
                  recognised: Iterable[str] = ()) -> None:
        """Show an engine PlayerView dict, with the last move highlighted.

        `recognised` names squares of enemy pieces this viewer's spies recognised (Espionage):
        they carry their rank and the "recognised" mark.
        """
        marks = {}
        if view.get("last_move"):
            for name in view["last_move"].split("-"):
                marks[name] = "last"
        marks.update(highlights or {})
        spotted = frozenset(recognised)
        self.show(width=view["width"], height=view["height"], blocked=view.get("blocked", ()),
                  volcanoes=view.get("volcanoes", ()), highlights=marks,
                  pieces=[dict(p, recognised=True) if p["square"] in spotted else p
                          for p in view.get("pieces", ())])

    # -- geometry -----------------------------------------------------------------------------
    @property
    def cell(self) -> float:
        """The side of one square in pixels (a strip left and below holds the coordinates)."""
        margin = COORDINATE_MARGIN if self.coordinates else 0
        return max(1.0, min(self.width / (self.board_width + margin),
                            self.height / (self.board_height + margin)))

    def _origin(self) -> tuple[float, float]:
        c = self.cell
        margin = c * COORDINATE_MARGIN if self.coordinates else 0
        return (self.x + (self.width - c * self.board_width - margin) / 2 + margin,
                self.y + (self.height - c * self.board_height - margin) / 2 + margin)

    def square_pos(self, name: str) -> tuple[float, float]:
        """Bottom-left corner of a square, in window coordinates."""
        file, rank = parse_square(name)
        col = self.board_width - 1 - file if self.flipped else file
        row = self.board_height - 1 - rank if self.flipped else rank
        ox, oy = self._origin()
        return ox + col * self.cell, oy + row * self.cell

    def square_center(self, name: str) -> tuple[float, float]:
        """Centre of a square, in window coordinates."""
        x, y = self.square_pos(name)
        return x + self.cell / 2, y + self.cell / 2

    def square_at(self, x: float, y: float) -> str | None:
        """The square under a window position, or None off the board."""
        ox, oy = self._origin()
        col, row = int((x - ox) // self.cell), int((y - oy) // self.cell)
        if not (0 <= col < self.board_width and 0 <= row < self.board_height):
            return None
        file = self.board_width - 1 - col if self.flipped else col
        rank = self.board_height - 1 - row if self.flipped else row
        return square_name(int(file), int(rank))

    # -- drawing ------------------------------------------------------------------------------
    def redraw(self, *_: Any) -> None:
        """Bring the canvas up to date: rebuilt when the geometry changed, else only what differs.

        The canvas is the empty board (one texture), a group of highlights, and one sprite
        rectangle per square. A move changes two or three of those rectangles; rebuilding all of
        them would re-upload every vertex buffer, which software GL pays for on the next frame.
        """
        c = self.cell
        width, height = int(self.board_width), int(self.board_height)
        ox, oy = self._origin()
        layout = (c, ox, oy, width, height, self.flipped, self.blocked, self.volcanoes)
        if layout != getattr(self, "_layout", None):
            self._layout = layout
            self.canvas.clear()
            self.canvas.add(Color(1, 1, 1, 1))
            self.canvas.add(Rectangle(texture=self._background(), pos=(ox, oy),
                                      size=(c * width, c * height)))
            if self.coordinates:
                self._draw_coordinates(self.canvas, width, height)
            self._highlight_group = InstructionGroup()
            self.canvas.add(self._highlight_group)
            self.canvas.add(Color(1, 1, 1, 1))
            self._sprites: dict[str, tuple[Rectangle, Any]] = {}
            for file in range(width):
                for rank in range(height):
                    name = square_name(file, rank)
                    rect = Rectangle(pos=self.square_pos(name), size=(0, 0))
                    self.canvas.add(rect)
                    self._sprites[name] = (rect, None)
            self._drawn_highlights: tuple[tuple[str, str], ...] | None = None
        self._update_highlights()
        self._update_pieces()

    def _update_highlights(self) -> None:
        marks = tuple(sorted(self.highlights.items()))
        if marks == self._drawn_highlights:
            return
        self._drawn_highlights = marks
        group, c = self._highlight_group, self.cell
        group.clear()
        ends = {mark: name for name, mark in marks if mark in ("computer-from", "computer-to")}
        if len(ends) == 2:
            start, end = (self.square_center(ends[k]) for k in ("computer-from", "computer-to"))
            group.add(Color(0, 0, 0, 0.9))
            group.add(Line(points=[*start, *end], width=max(3, c * 0.09)))
            group.add(Color(*HIGHLIGHTS["computer-to"]))
            group.add(Line(points=[*start, *end], width=max(2, c * 0.05)))
        for name, mark in marks:
            if mark not in HIGHLIGHTS or name not in self._sprites:
                continue
            x, y = self.square_pos(name)
            if mark in ("computer-from", "computer-to"):
                group.add(Color(0, 0, 0, 0.9))
                group.add(Line(rectangle=(x + 3, y + 3, c - 6, c - 6), width=max(4, c * 0.11)))
                group.add(Color(*HIGHLIGHTS[mark]))
                group.add(Line(rectangle=(x + 3, y + 3, c - 6, c - 6), width=max(3, c * 0.07)))
                continue
            group.add(Color(*HIGHLIGHTS[mark]))
            if mark in ("clear", "fill", "expected", "selected", "turn-piece"):
                group.add(Line(rectangle=(x + 2, y + 2, c - 4, c - 4), width=max(2, c * 0.06)))
            else:
                group.add(Rectangle(pos=(x, y), size=(c, c)))

    def _update_pieces(self) -> None:
        c = self.cell
        self.drawn = {}
        self.recognised_drawn = set()
        for name, (rect, shown) in self._sprites.items():
            piece = self.pieces.get(name)
            texture = None
            if piece is not None and name not in self.hidden_squares:
                kind = piece.get("kind")
                label = self.label_for(kind)
                self.drawn[name] = label
                texture = piece_sprite(c, piece["color"], kind, label,
                                       moved=bool(piece.get("moved")) and kind is None,
                                       known=bool(piece.get("known")) and kind is not None,
                                       faded=bool(piece.get("faded")),
                                       recognised=bool(piece.get("recognised")) and kind is not None)
                if piece.get("recognised") and kind is not None:
                    self.recognised_drawn.add(name)
            if texture is not shown:
                rect.texture = texture
                rect.size = texture.size if texture is not None else (0, 0)
                self._sprites[name] = (rect, texture)

    def _background(self):
        """The empty board (squares, lakes, coordinates, frame) drawn once into a texture."""
        c = self.cell
        width, height = int(self.board_width), int(self.board_height)
        key = (c, width, height, self.blocked, self.volcanoes, self.flipped)
        if getattr(self, "_background_key", None) == key:
            return self._background_fbo.texture
        size = (max(1, int(c * width)), max(1, int(c * height)))
        fbo = Fbo(size=size)
        with fbo:
            ClearColor(0, 0, 0, 0)
            ClearBuffers()
        ox, oy = self._origin()
        for file in range(width):
            for rank in range(height):
                name = square_name(file, rank)
                x, y = self.square_pos(name)
                if name in self.volcanoes:
                    draw_volcano(fbo, x - ox, y - oy, c)
                    continue
                fbo.add(Color(*(WATER if name in self.blocked else LIGHT if (file + rank) % 2 else DARK)))
                fbo.add(Rectangle(pos=(x - ox, y - oy), size=(c, c)))
        fbo.add(Color(0.3, 0.25, 0.15, 1))
        fbo.add(Line(rectangle=(0, 0, size[0], size[1]), width=1.5))
        fbo.draw()
        self._background_fbo, self._background_key = fbo, key
        return fbo.texture

    def _draw_coordinates(self, canvas, width: int, height: int) -> None:
        """Files under the board and ranks left of it, large and light on the dark background."""
        c = self.cell
        size = int(max(11, c * COORDINATE_MARGIN * 0.8))
        strip = c * COORDINATE_MARGIN / 2
        for file in range(width):
            x, y = self.square_pos(square_name(file, 0 if not self.flipped else height - 1))
            draw_text(canvas, chr(ord("a") + file), (x + c / 2, y - strip), size, COORDINATE_COLOR,
                      bold=True)
        for rank in range(height):
            x, y = self.square_pos(square_name(0 if not self.flipped else width - 1, rank))
            draw_text(canvas, str(rank + 1), (x - strip, y + c / 2), size, COORDINATE_COLOR, bold=True)

    # -- touch --------------------------------------------------------------------------------
    def on_touch_down(self, touch) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        square = self.square_at(*touch.pos)
        if square is None:
            return False
        touch.grab(self)
        self._drag = {"from": square, "moved": False, "piece": self.pieces.get(square)}
        return True

    def on_touch_move(self, touch) -> bool:
        if touch.grab_current is not self or self._drag is None:
            return super().on_touch_move(touch)
        drag = self._drag
        if not self.drag_enabled or drag["piece"] is None:
            return True
        if not drag["moved"] and self.square_at(*touch.pos) != drag["from"]:
            drag["moved"] = True
            self.hidden_squares.add(drag["from"])
            self.redraw()
        if drag["moved"]:
            self.draw_floating(drag["piece"], touch.pos)
        return True

    def on_touch_up(self, touch) -> bool:
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        drag, self._drag = self._drag, None
        self._drag_group.clear()
        if drag is None:
            return True
        target = self.square_at(*touch.pos) if self.collide_point(*touch.pos) else None
        if drag["moved"]:
            self.hidden_squares.discard(drag["from"])
            self.dispatch("on_square_drop", drag["from"], target)
            self.redraw()
        elif target == drag["from"]:
            self.dispatch("on_square_tap", target)
        return True

    def draw_floating(self, piece: dict[str, Any], pos: tuple[float, float]) -> None:
        """Draw a piece following the finger (lifted a little so the finger does not hide it)."""
        c = self.cell * 1.15
        self._drag_group.clear()
        draw_piece(self._drag_group, pos[0] - c / 2, pos[1] - c * 0.2, c, piece["color"],
                   piece.get("kind"), self.label_for(piece.get("kind")))

    def clear_floating(self) -> None:
        """Remove a floating piece drawn by `draw_floating`."""
        self._drag_group.clear()

    def on_square_tap(self, square: str) -> None:
        """Event: a square was tapped."""

    def on_square_drop(self, origin: str, target: str | None) -> None:
        """Event: a piece was dragged from origin to target (None: off the board)."""
