"""What a person sees wrong on a screen, found in a live Kivy widget tree: for any screen of any game.

Call `layout_problems(root, where)` after the layout has settled (a frame or two after a resize
or a new text) and assert it returns nothing. Each problem is one readable line naming the
widget and its text. The checks, each usable alone:

- `overflows`: a text wider or taller than its widget (a cut word, lines hanging out);
- `spills`: a text widget reaching outside the layout that holds it (a sentence growing into
  the heading above it), unless a ScrollView holds it;
- `overlaps`: two shown texts (labels, buttons, text fields) whose boxes cross;
- `small_buttons`: a button a finger cannot hit (under 40 px either way);
- `off_screen`: a text or button not wholly inside the screen (the root's box, or `bounds`).

`box(widget)` gives a widget's box in window coordinates, to check that a heading stays put
while the sentences under it change. `shown_texts(root)` lists every text a person reads, and
`english(texts)` the ones that read as English (for a German or Bulgarian screen).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kivy.core.text import Label as CoreLabel
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

SMALLEST_BUTTON = 40  # px, either way: under it a finger misses
SLACK = 1.0  # px a text may round over its box
MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")
Box = tuple[float, float, float, float]  # x, y, width, height in window coordinates
# Words that mark a sentence as English; none of them is a German or Bulgarian word.
ENGLISH = re.compile(r"\b(the|your|you|is|not|of|to|and|with|move|moves|piece|pieces|board|referee|"
                     r"replay|turn|draw|takeback|setup|set-up|resign|lost|won|wins|back|put|take|"
                     r"offer|offers|waiting|ready|send|square|rule|game|play)\b",
                     re.IGNORECASE)


def shown(widget: Widget) -> bool:
    """True when the widget and all its parents are visible and have a size."""
    while widget is not None:
        if widget.opacity == 0 or widget.width <= 0 or widget.height <= 0:
            return False
        parent = widget.parent
        widget = parent if parent is not widget and isinstance(parent, Widget) else None
    return True


def box(widget: Widget) -> Box:
    """The widget's box in window coordinates (x, y, width, height)."""
    x, y = widget.to_window(widget.x, widget.y)
    return (x, y, widget.width, widget.height)


def steady(root: Widget, still_frames: int = 3) -> Iterator[float]:
    """Yield frames until nothing on the root moves or changes its font size for `still_frames`
    checks in a row (the layout's later passes shrink texts to fit; a loaded machine runs them
    late), at most 200 checks."""
    last, still = None, 0
    for _ in range(200):
        now = [(*box(widget), getattr(widget, "font_size", 0)) for widget in root.walk(restrict=True)]
        still = still + 1 if now == last else 0
        if still >= still_frames:
            return
        last = now
        yield 0.05


def _text_of(widget: Widget) -> str:
    if isinstance(widget, Label):
        return MARKUP.sub("", widget.text).strip()
    if isinstance(widget, TextInput):
        return (widget.text or widget.hint_text).strip()
    return ""


def _name(where: str, widget: Widget) -> str:
    text = _text_of(widget)
    shown_text = text if len(text) <= 60 else text[:57] + "..."
    return f"{where} {type(widget).__name__} {shown_text!r}".strip()


def _is_text(widget: Widget) -> bool:
    """True for a shown widget holding a text a person reads: a label, a button, a text field."""
    return isinstance(widget, (Label, TextInput)) and bool(_text_of(widget)) and shown(widget)


def _texts(root: Widget) -> Iterator[Widget]:
    return (widget for widget in root.walk(restrict=True) if _is_text(widget))


def _natural_width(label: Label) -> float:
    """The rendered text's width with no wrapping box: each line as long as it is."""
    wrap_box = label.text_size
    label.text_size = (None, None)
    label.texture_update()
    width = float(label.texture_size[0])
    label.text_size = wrap_box
    label.texture_update()
    return width


def _widest_word(label: Label) -> float:
    core = CoreLabel(font_size=label.font_size, bold=label.bold, font_name=label.font_name)
    return max((core.get_extents(word)[0] for word in MARKUP.sub("", label.text).split()), default=0)


def overflows(root: Widget, where: str = "") -> list[str]:
    """Every shown text that is wider or taller than its widget (the same as a cut or hanging text)."""
    found = []
    for widget in _texts(root):
        if isinstance(widget, TextInput):
            if widget.text:
                continue
            core = CoreLabel(font_size=widget.font_size, font_name=widget.font_name)
            room = widget.width - widget.padding[0] - widget.padding[2]
            if core.get_extents(widget.hint_text)[0] > room + SLACK:
                found.append(f"{_name(where, widget)}: the hint is wider than {room:.0f}px")
            continue
        room = widget.width - widget.padding[0] - widget.padding[2]
        if _natural_width(widget) <= room + SLACK:
            if widget.texture_size[1] > widget.height + SLACK:
                found.append(f"{_name(where, widget)}: {widget.texture_size[1]:.0f}px high "
                             f"in {widget.height:.0f}px")
            continue
        # Too long for one line: it may wrap, but no word may be cut and no line may hang out.
        widget.texture_update()
        if widget.text_size[0] is None:
            found.append(f"{_name(where, widget)}: {_natural_width(widget):.0f}px of text on one "
                         f"line in {room:.0f}px")
        elif _widest_word(widget) > room + SLACK:
            found.append(f"{_name(where, widget)}: a word is wider than the widget ({room:.0f}px)")
        elif widget.texture_size[1] > widget.height + SLACK:
            found.append(f"{_name(where, widget)}: {widget.texture_size[1]:.0f}px of lines in "
                         f"{widget.height:.0f}px")
    return found


def _inside(inner: Box, outer: Box) -> bool:
    x, y, width, height = inner
    ox, oy, owidth, oheight = outer
    return (x >= ox - SLACK and y >= oy - SLACK and x + width <= ox + owidth + SLACK
            and y + height <= oy + oheight + SLACK)


def _crossing(first: Box, second: Box) -> float:
    """How far two boxes cross (the smaller of the two overlaps; 0 when apart)."""
    across = min(first[0] + first[2], second[0] + second[2]) - max(first[0], second[0])
    up = min(first[1] + first[3], second[1] + second[3]) - max(first[1], second[1])
    return max(0.0, min(across, up))


def _scrolled(widget: Widget, root: Widget) -> bool:
    parent = widget.parent
    while parent is not None and parent is not root:
        if isinstance(parent, ScrollView):
            return True
        parent = parent.parent
    return False


def spills(root: Widget, where: str = "") -> list[str]:
    """Every shown text reaching outside the layout that holds it (a ScrollView may hold more)."""
    found = []
    for widget in _texts(root):
        parent = widget.parent
        if parent is None or widget is root or _scrolled(widget, root) or isinstance(parent, Label):
            continue
        if not _inside(box(widget), box(parent)):
            x, y, width, height = box(widget)
            px, py, pwidth, pheight = box(parent)
            found.append(f"{_name(where, widget)}: reaches outside its {type(parent).__name__} "
                         f"({x:.0f},{y:.0f} {width:.0f}x{height:.0f} in {px:.0f},{py:.0f} "
                         f"{pwidth:.0f}x{pheight:.0f})")
    return found


def _inside_of(widget: Widget, ancestor: Widget) -> bool:
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if parent is ancestor:
            return True
        parent = parent.parent
    return False


def visible_box(widget: Widget, root: Widget) -> Box | None:
    """The part of the widget's box a ScrollView holding it lets through (None: scrolled away)."""
    x, y, width, height = box(widget)
    parent = widget.parent
    while parent is not None and parent is not root and parent is not parent.parent:
        if isinstance(parent, ScrollView):
            px, py, pwidth, pheight = box(parent)
            left, bottom = max(x, px), max(y, py)
            right, top = min(x + width, px + pwidth), min(y + height, py + pheight)
            if right - left <= SLACK or top - bottom <= SLACK:
                return None
            x, y, width, height = left, bottom, right - left, top - bottom
        parent = parent.parent
    return (x, y, width, height)


def in_sight(widget: Widget, root: Widget) -> bool:
    """True when the whole widget is in the window without scrolling."""
    from kivy.core.window import Window

    whole = box(widget)
    return visible_box(widget, root) == whole and _inside(whole, (0, 0, Window.width, Window.height))


def overlaps(root: Widget, where: str = "") -> list[str]:
    """Every pair of shown texts whose visible boxes cross (one printed over the other)."""
    seen = [(widget, visible_box(widget, root)) for widget in _texts(root)]
    texts = [widget for widget, visible in seen if visible is not None]
    boxes = [visible for _, visible in seen if visible is not None]
    found = []
    for index, first in enumerate(texts):
        for other in range(index + 1, len(texts)):
            second = texts[other]
            if _inside_of(first, second) or _inside_of(second, first):
                continue  # a text inside another's widget (a badge on a button) is drawn there on purpose
            if _crossing(boxes[index], boxes[other]) > SLACK:
                found.append(f"{_name(where, first)} overlaps {_name('', second)}")
    return found


def small_buttons(root: Widget, where: str = "", smallest: float = SMALLEST_BUTTON) -> list[str]:
    """Every shown button under `smallest` px wide or high."""
    return [f"{_name(where, widget)}: a button of {widget.width:.0f}x{widget.height:.0f}px"
            for widget in root.walk(restrict=True)
            if isinstance(widget, ButtonBehavior) and shown(widget)
            and (widget.width < smallest - SLACK or widget.height < smallest - SLACK)]


def off_screen(root: Widget, where: str = "", bounds: Box | None = None) -> list[str]:
    """Every shown text or button not wholly inside `bounds` (by default the root's own box)."""
    screen = bounds or box(root)
    found = []
    for widget in root.walk(restrict=True):
        if widget is root or _scrolled(widget, root) or not (
                _is_text(widget) or isinstance(widget, ButtonBehavior) and shown(widget)):
            continue
        if not _inside(box(widget), screen):
            x, y, width, height = box(widget)
            found.append(f"{_name(where, widget)}: at {x:.0f},{y:.0f} {width:.0f}x{height:.0f}, "
                         f"off the screen {screen[2]:.0f}x{screen[3]:.0f}")
    return found


def layout_problems(root: Widget, where: str = "", bounds: Box | None = None) -> list[str]:
    """Everything above, for one screen as it is drawn now."""
    return (overflows(root, where) + spills(root, where) + overlaps(root, where)
            + small_buttons(root, where) + off_screen(root, where, bounds))


def shown_texts(root: Widget) -> list[str]:
    """Every text a person reads on the root now (labels, buttons, hints), markup taken out."""
    return [MARKUP.sub("", widget.text if isinstance(widget, Label) else widget.text or widget.hint_text)
            for widget in root.walk(restrict=True)
            if isinstance(widget, (Label, TextInput)) and shown(widget)
            and (widget.text or getattr(widget, "hint_text", ""))]


def english(texts_by_screen: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(screen, text) for each shown text that reads as English (a folder's path is no sentence)."""
    return [(screen, text) for screen, texts in texts_by_screen.items() for text in texts
            if ENGLISH.search(text) and not text.startswith("/")]
