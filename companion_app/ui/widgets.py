"""Small widgets sized for fingers: big buttons, wrapping labels, the captured-pieces tray."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion_app.ui.pieces import add_sprite, draw_text

TOUCH_HEIGHT = dp(56)
SMALLEST_TEXT = sp(11)  # a shrunk label stays readable at arm's length; below this it wraps  # Android's and Apple's guidance is 48dp or more for a finger
BACKGROUND = (0.13, 0.14, 0.16, 1)
PANEL = (0.19, 0.2, 0.23, 1)
ACCENT = (0.22, 0.52, 0.35, 1)
WARN = (0.85, 0.55, 0.1, 1)
DANGER = (0.7, 0.2, 0.2, 1)
# The colour of a link's light (markup hex) by its status: the top bar's and the referee display's.
STATUS_COLORS = {"online": "81c784", "offline": "e57373", "ok": "81c784", "lost": "e57373",
                 "connecting": "ffd54f", "unpaired": "ffd54f"}


def fit_text(label: Label) -> None:
    """Keep a label's text inside it: shrink the font (a long German or Bulgarian word), else wrap.

    The font it was made with is the largest it gets; a shorter text grows back to it. Below
    SMALLEST_TEXT the text wraps over lines, centred, instead of shrinking further.
    """
    largest = label.font_size

    def refit(*_: Any) -> None:
        room = label.width - label.padding[0] - label.padding[2]
        if room <= 1 or not label.text:
            return
        label.text_size = (None, None)
        label.font_size = largest
        label.texture_update()
        while label.texture_size[0] > room and label.font_size > SMALLEST_TEXT:
            label.font_size = max(SMALLEST_TEXT, label.font_size * 0.9)
            label.texture_update()
        if label.texture_size[0] > room or label.halign != "center":
            # Left-aligned text needs its box; text still too wide wraps inside it.
            label.text_size = (room, None)

    label.halign = label.halign if label.halign in ("left", "right") else "center"
    label.bind(text=refit, size=refit)


class FitLabel(Label):
    """A one-line label whose text always fits its width (see fit_text)."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        fit_text(self)


class BigButton(Button):
    """A button a finger hits: at least 56dp high, large text that fits, no hover state."""

    def __init__(self, text: str = "", role: str = "normal", **kwargs: Any):
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", TOUCH_HEIGHT)
        kwargs.setdefault("font_size", sp(18))
        super().__init__(text=text, **kwargs)
        self.background_normal = ""
        self.set_role(role)
        fit_text(self)

    def set_role(self, role: str) -> None:
        """Color the button by what it does: normal, primary, warn, danger."""
        self.background_color = {"primary": ACCENT, "warn": WARN, "danger": DANGER}.get(
            role, (0.32, 0.34, 0.38, 1))


class WrapLabel(Label):
    """A label that wraps to its width and grows to fit its text (with collapse_empty, no text: no room)."""

    def __init__(self, collapse_empty: bool = False, **kwargs: Any):
        self.collapse_empty = collapse_empty
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("font_size", sp(17))
        kwargs.setdefault("halign", "left")
        kwargs.setdefault("valign", "middle")
        kwargs.setdefault("markup", True)
        kwargs.setdefault("height", dp(24))
        super().__init__(**kwargs)
        self.bind(width=self._wrap, texture_size=self._fit, text=self._fit)
        self._fit()

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)

    def _fit(self, *_: Any) -> None:
        if self.collapse_empty and not self.text:
            self.height = 0
        else:
            self.height = max(self.texture_size[1] + dp(6), dp(24))


class Panel(Widget):
    """A flat colored background behind a layout."""


def paint_background(widget: Widget, color=BACKGROUND) -> None:
    """Give a widget a solid background that follows its size."""
    with widget.canvas.before:
        Color(*color)
        rect = Rectangle(pos=widget.pos, size=widget.size)

    def follow(*_: Any) -> None:
        rect.pos, rect.size = widget.pos, widget.size

    widget.bind(pos=follow, size=follow)


class CapturedTray(Widget):
    """The sorting tray of the German rule booklet: the pieces one side has lost, strongest first."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(44))
        super().__init__(**kwargs)
        self.color = "red"
        self.kinds: list[str | None] = []
        self.label_for = lambda kind: kind or "?"
        self.order: list[str] = []
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, color: str, kinds: list[str | None], label_for, order: list[str]) -> None:
        """Show one side's captured pieces."""
        self.color, self.kinds, self.label_for, self.order = color, list(kinds), label_for, order
        self.redraw()

    def redraw(self, *_: Any) -> None:
        """Draw grouped pieces with a count under each group."""
        self.canvas.clear()
        groups: dict[str | None, int] = {}
        for kind in self.kinds:
            groups[kind] = groups.get(kind, 0) + 1
        rank = {k: i for i, k in enumerate(self.order)}
        ordered = sorted(groups, key=lambda k: rank.get(k, 99) if k else 100)
        size = min(self.height, dp(44))
        x = self.x
        for kind in ordered:
            if x + size > self.right:
                break
            add_sprite(self.canvas, x, self.y, size, self.color, kind, self.label_for(kind))
            if groups[kind] > 1:
                draw_text(self.canvas, f"{groups[kind]}", (x + size * 0.85, self.y + size * 0.15),
                          int(size * 0.32), (1, 1, 0.6, 1))
            x += size * 0.92


class FitBody(BoxLayout):
    """The middle of a panel: its widgets top to bottom at their own heights; it scrolls only when
    they need more room than it has, so the heading above and the buttons below never move."""

    def __init__(self, widgets, spacing: float = dp(6), **kwargs: Any):
        super().__init__(orientation="vertical", **kwargs)
        self.content = BoxLayout(orientation="vertical", size_hint_y=None, spacing=spacing)
        self.content.bind(minimum_height=self.content.setter("height"))
        for widget in widgets:
            self.content.add_widget(widget)
        self.scroller: ScrollView | None = None  # made when first needed (its stencil costs frames)
        self.below = Widget()  # the room under content that needs less than there is
        self._trigger = Clock.create_trigger(self._place, -1)
        self.bind(size=self._trigger)
        self.content.bind(height=self._trigger)
        self._place()

    def wanted_height(self) -> float:
        """The height that shows every widget without scrolling."""
        return float(self.content.height)

    def scrolls(self) -> bool:
        """True while the widgets need more room than the body has."""
        return self.scroller is not None and self.scroller.parent is self

    def to_top(self) -> None:
        """Show the first widget (a new message is written at the top)."""
        if self.scroller is not None:
            self.scroller.scroll_y = 1

    def _place(self, *_: Any) -> None:
        need_scroll = self.content.height > self.height + 1
        if need_scroll == self.scrolls() and self.content.parent is not None:
            return
        self.clear_widgets()
        if self.content.parent is not None:
            self.content.parent.remove_widget(self.content)
        if need_scroll:
            if self.scroller is None:
                self.scroller = ScrollView(do_scroll_x=False, bar_width=dp(6), scroll_type=["bars", "content"])
            self.scroller.add_widget(self.content)
            self.add_widget(self.scroller)
            self.scroller.scroll_y = 1
        else:
            self.add_widget(self.content)
            self.add_widget(self.below)


def orient(layout, side, portrait: bool, side_share: float, flexible_min: float = dp(90)) -> None:
    """Board beside the panel in landscape; in portrait the panel below takes what it needs.

    In landscape the panel gets its share of the width, or all the board, drawn square, does not
    need (a wide, low screen). In portrait a panel with a FitBody takes a fixed part of the height
    (the rest of a square board's room, at least 45 %, more if its fixed widgets need it), so
    neither its heading nor the board moves when a sentence grows: the FitBody scrolls. A panel
    without one takes the sum of its children's heights (stretchy ones get `flexible_min`).
    """
    layout.orientation = "vertical" if portrait else "horizontal"
    padding = layout.padding[0] + layout.padding[2] if len(layout.padding) == 4 else 0
    if not portrait:
        board_room = layout.height - padding
        spare = layout.width - padding - layout.spacing - board_room
        # A size hint shares the width with the board's hint of 1: f of the width is f / (1 - f).
        fraction = min(0.6, max(side_share / (1 + side_share), spare / max(layout.width, 1)))
        side.size_hint = (fraction / (1 - fraction), 1)
        return
    needed = side.padding[1] + side.padding[3] if len(side.padding) == 4 else 0
    needed += side.spacing * max(0, len(side.children) - 1)
    has_body = any(isinstance(child, FitBody) for child in side.children)
    for child in side.children:
        if isinstance(child, FitBody):
            needed += dp(90)  # what a body shows at least; it scrolls the rest
        else:
            needed += child.height if child.size_hint_y is None else flexible_min
    side.size_hint = (1, None)
    if has_body:
        share = max(layout.height - layout.width, layout.height * 0.45)
        side.height = min(max(needed, share), layout.height * 0.7)
    else:
        side.height = needed


def keep_oriented(screen) -> None:
    """Re-run `screen._orient` when the screen resizes or a panel child changes height."""
    trigger = Clock.create_trigger(screen._orient, 0)
    screen.bind(size=trigger)
    screen.layout.bind(size=trigger)  # the layout follows the screen a frame later
    for child in screen.side.children:
        child.bind(height=trigger)
        if isinstance(child, FitBody):
            child.content.bind(height=trigger)
