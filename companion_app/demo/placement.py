"""Where the demo's windows go on the computer's screen: all of them on it, side by side where they fit.

On a laptop of 1366x768 or wider the windows lie side by side; a larger screen gets larger windows
in the same places. A narrower screen (the 1024x600 or 800x480 touch screen of a Raspberry Pi)
puts them side by side in equal columns while each is at least `NARROWEST` wide; where that is
too narrow, they overlap like a fanned hand of cards: each keeps its size on the laptop, and
their left edges spread over the screen so every title bar shows. Sizes and positions are of
each window's inside; `TITLE_BAR` is left above each for the window manager's title bar,
`TASK_BAR` under the screen for a panel or dock.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from dataclasses import dataclass

SMALLEST_SCREEN = (1366, 768)
TITLE_BAR = 32
TASK_BAR = 48
NARROWEST = 340  # the narrowest window the app is laid out for (a demo tablet is 355 on the laptop)


@dataclass(frozen=True)
class Place:
    """A window's inside: its top-left corner on the screen and its size, in pixels."""

    x: int
    y: int
    width: int
    height: int

    def overlaps(self, other: Place) -> bool:
        """True when the two windows, title bars included, cover a common pixel."""
        return (self.x < other.x + other.width and other.x < self.x + self.width
                and self.y - TITLE_BAR < other.y + other.height and other.y - TITLE_BAR < self.y + self.height)

    def inside(self, screen: tuple[int, int]) -> bool:
        """True when the window and its title bar lie on the screen, above the task bar."""
        return (self.x >= 0 and self.y - TITLE_BAR >= 0 and self.x + self.width <= screen[0]
                and self.y + self.height <= screen[1] - TASK_BAR)


def screen_size() -> tuple[int, int]:
    """The screen's size: ARBITER_SCREEN ("1366x768"), else the X server's, else the smallest planned."""
    given = os.environ.get("ARBITER_SCREEN", "")
    if "x" in given:
        width, _, height = given.partition("x")
        if width.isdigit() and height.isdigit():
            return int(width), int(height)
    found = _x11_screen_size()
    return found if found else SMALLEST_SCREEN


def _x11_screen_size() -> tuple[int, int] | None:
    name = ctypes.util.find_library("X11")
    if not name or not os.environ.get("DISPLAY"):
        return None
    try:
        x11 = ctypes.CDLL(name)
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        display = x11.XOpenDisplay(None)
        if not display:
            return None
        x11.XDefaultScreen.argtypes = [ctypes.c_void_p]
        x11.XDisplayWidth.argtypes = x11.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        screen = x11.XDefaultScreen(display)
        size = (int(x11.XDisplayWidth(display, screen)), int(x11.XDisplayHeight(display, screen)))
        x11.XCloseDisplay(display)
        return size if size[0] > 0 and size[1] > 0 else None
    except (OSError, AttributeError):
        return None


def _columns(screen: tuple[int, int], shares: tuple[float, ...]) -> list[tuple[int, int]]:
    """(x, width) of columns taking these shares of the screen's width; on a screen narrower than
    the smallest laptop, equal columns if each is NARROWEST wide or more, else columns of the
    laptop's widths fanned out over the screen."""
    width = screen[0]
    if width < SMALLEST_SCREEN[0]:
        equal = width // len(shares)
        if equal >= NARROWEST:  # still room side by side, in equal columns
            return [(index * equal, equal) for index in range(len(shares))]
        return _fanned(width, [min(width, int(SMALLEST_SCREEN[0] * share)) for share in shares])
    edges = [0]
    for share in shares:
        edges.append(edges[-1] + int(width * share))
    edges[-1] = width
    return [(edges[i], edges[i + 1] - edges[i]) for i in range(len(shares))]


def _fanned(screen_width: int, widths: list[int]) -> list[tuple[int, int]]:
    """(x, width) of overlapping columns whose left edges are spread evenly, the last one ending at
    the screen's right edge."""
    step = (screen_width - widths[-1]) / max(1, len(widths) - 1)
    return [(min(int(index * step), screen_width - column), column) for index, column in enumerate(widths)]


def _stack(x: int, width: int, screen: tuple[int, int], count: int) -> list[Place]:
    """`count` windows one above the other filling a column's height."""
    room = screen[1] - TASK_BAR
    each = room // count
    return [Place(x, index * each + TITLE_BAR, width, each - TITLE_BAR) for index in range(count)]


def stratego_places(screen: tuple[int, int], seats: list[str]) -> dict[str, Place]:
    """The board window on the left, then each tablet of `seats`, then the referee display, side
    by side at full height (upright windows, as a tablet is held at the table; a seat the
    computer holds has no tablet, so the others are wider)."""
    board, *others = _columns(screen, (0.22, *[0.78 / (len(seats) + 1)] * (len(seats) + 1)))
    places = {"board": _stack(*board, screen, 1)[0]}
    for name, column in zip([*seats, "display"], others, strict=True):
        places[name] = _stack(*column, screen, 1)[0]
    return places


def triumph_places(screen: tuple[int, int]) -> dict[str, Place]:
    """The pairing codes above the referee display on the left, the two tablets beside them."""
    left, red, blue = _columns(screen, (0.25, 0.375, 0.375))
    room = screen[1] - TASK_BAR
    codes = Place(left[0], TITLE_BAR, left[1], 200)
    display = Place(left[0], codes.y + codes.height + TITLE_BAR, left[1],
                    room - codes.height - 2 * TITLE_BAR)
    return {"codes": codes, "display": display, "red": _stack(*red, screen, 1)[0],
            "blue": _stack(*blue, screen, 1)[0]}
