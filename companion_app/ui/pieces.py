"""Drawing pieces with Kivy graphics: colored blocks with a rank, bombs and flags as shapes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle

SIDE_COLORS = {"red": (0.78, 0.16, 0.16, 1), "blue": (0.16, 0.33, 0.75, 1)}
SIDE_DARK = {"red": (0.45, 0.07, 0.07, 1), "blue": (0.07, 0.16, 0.42, 1)}
WHITE = (1, 1, 1, 1)
GOLD = (1.0, 0.82, 0.2, 1)
SPY_EYE = (0.10, 0.85, 0.80, 1)  # the "recognised by your spy" mark (Espionage)


@lru_cache(maxsize=512)
def text_texture(text: str, font_size: int, bold: bool = True):
    """A cached texture of a short text; rebuilding label textures per frame is the slow part."""
    label = CoreLabel(text=text, font_size=max(font_size, 6), bold=bold)
    label.refresh()
    return label.texture


def draw_text(canvas, text: str, center: tuple[float, float], font_size: int,
              color=WHITE, bold: bool = True) -> None:
    """Draw a centred text onto a canvas."""
    texture = text_texture(text, int(font_size), bold)
    w, h = texture.size
    canvas.add(Color(*color))
    canvas.add(Rectangle(texture=texture, pos=(center[0] - w / 2, center[1] - h / 2), size=(w, h)))


def draw_piece(canvas, x: float, y: float, size: float, color: str, kind: str | None,
               label: str, *, moved: bool = False, known: bool = False, faded: bool = False,
               recognised: bool = False) -> None:
    """One piece filling a square at (x, y): block, rank or symbol, and its public marks.

    `recognised` marks an enemy piece one of your spies recognised (Espionage): a teal border
    and an eye in the corner, so it is never confused with a piece shown in a battle.

    `known` marks an own piece the opponent has seen (a gold border, as de Boer's "Strategy" rules show it);
    `moved` marks an unknown enemy piece that has moved, so it is neither a bomb nor a flag.
    """
    pad = size * 0.08
    px, py, ps = x + pad, y + pad, size - 2 * pad
    alpha = 0.6 if faded else 1.0
    base = SIDE_COLORS.get(color, (0.5, 0.5, 0.5, 1))
    canvas.add(Color(base[0], base[1], base[2], alpha))
    canvas.add(RoundedRectangle(pos=(px, py), size=(ps, ps), radius=[ps * 0.18]))
    dark = SIDE_DARK.get(color, (0.2, 0.2, 0.2, 1))
    canvas.add(Color(dark[0], dark[1], dark[2], alpha))
    canvas.add(Line(rounded_rectangle=(px, py, ps, ps, ps * 0.18), width=max(1.0, size * 0.02)))
    cx, cy = px + ps / 2, py + ps / 2
    if kind == "bomb":
        _draw_bomb(canvas, cx, cy, ps)
    elif kind == "flag":
        _draw_flag(canvas, cx, cy, ps)
    else:
        draw_text(canvas, label, (cx, cy), int(ps * (0.5 if len(label) < 2 else 0.4)),
                  (1, 1, 1, alpha))
    if known:
        canvas.add(Color(*GOLD))
        canvas.add(Line(rounded_rectangle=(px, py, ps, ps, ps * 0.18), width=max(1.5, size * 0.05)))
    if recognised:
        canvas.add(Color(*SPY_EYE))
        canvas.add(Line(rounded_rectangle=(px, py, ps, ps, ps * 0.18), width=max(1.5, size * 0.05)))
        r = ps * 0.13
        ex, ey = px + ps * 0.05, py + ps * 0.95 - 2 * r
        canvas.add(Color(1, 1, 1, 1))
        canvas.add(Ellipse(pos=(ex, ey), size=(2.4 * r, 2 * r)))
        canvas.add(Color(*SPY_EYE))
        canvas.add(Ellipse(pos=(ex + 0.7 * r, ey + 0.5 * r), size=(r, r)))
        canvas.add(Color(0.05, 0.05, 0.05, 1))
        canvas.add(Ellipse(pos=(ex + 0.95 * r, ey + 0.75 * r), size=(0.5 * r, 0.5 * r)))
    if moved:
        # A small white arrowhead in the corner: "this one has moved" (so no bomb, no flag).
        m = ps * 0.16
        top, right = py + ps - 0.6 * m, px + ps - 0.6 * m
        canvas.add(Color(1, 1, 1, 0.95))
        canvas.add(Triangle(points=[right - 2 * m, top - 1.3 * m, right, top - 1.3 * m,
                                    right - m, top]))


def _draw_bomb(canvas, cx: float, cy: float, ps: float) -> None:
    r = ps * 0.26
    canvas.add(Color(0.08, 0.08, 0.08, 1))
    canvas.add(Ellipse(pos=(cx - r, cy - r * 1.15), size=(2 * r, 2 * r)))
    canvas.add(Line(points=[cx + r * 0.5, cy + r * 0.6, cx + r * 1.1, cy + r * 1.3],
                    width=max(1.2, ps * 0.03)))
    canvas.add(Color(*GOLD))
    canvas.add(Ellipse(pos=(cx + r * 1.0, cy + r * 1.2), size=(r * 0.45, r * 0.45)))


def _draw_flag(canvas, cx: float, cy: float, ps: float) -> None:
    h = ps * 0.6
    pole_x, base_y = cx - ps * 0.16, cy - h / 2
    canvas.add(Color(0.95, 0.95, 0.95, 1))
    canvas.add(Line(points=[pole_x, base_y, pole_x, base_y + h], width=max(1.2, ps * 0.035)))
    canvas.add(Color(*GOLD))
    canvas.add(Triangle(points=[pole_x, base_y + h, pole_x, base_y + h * 0.5,
                                pole_x + ps * 0.42, base_y + h * 0.75]))


# -- sprites ------------------------------------------------------------------------------------
# Software GL (Mesa's llvmpipe) pays per draw call: a piece drawn from five instructions every
# frame costs more than the whole rest of the window. Each look of a piece is therefore drawn
# once into a texture and then shown with a single Rectangle.
_SPRITES: dict[tuple, Any] = {}  # key -> the Fbo the sprite was drawn in


def piece_sprite(size: float, color: str, kind: str | None, label: str, *, moved: bool = False,
                 known: bool = False, faded: bool = False, recognised: bool = False):
    """A cached texture of one piece drawn at `size` pixels."""
    from kivy.graphics import ClearBuffers, ClearColor, Fbo

    px = max(8, int(round(size)))
    key = (px, color, kind, label, moved, known, faded, recognised)
    cached = _SPRITES.get(key)
    if cached is not None:
        return cached.texture
    if len(_SPRITES) > 600:  # sizes change when the window does; old sprites go
        _SPRITES.clear()
    fbo = Fbo(size=(px, px))
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
    draw_piece(fbo, 0, 0, px, color, kind, label, moved=moved, known=known, faded=faded,
               recognised=recognised)
    fbo.draw()
    _SPRITES[key] = fbo
    return fbo.texture


def add_sprite(canvas, x: float, y: float, size: float, color: str, kind: str | None, label: str,
               **marks: bool) -> None:
    """Draw a piece as one textured rectangle."""
    texture = piece_sprite(size, color, kind, label, **marks)
    canvas.add(Color(1, 1, 1, 1))
    canvas.add(Rectangle(texture=texture, pos=(x, y), size=texture.size))
