"""The end of a Napoleon's Triumph battle on a tablet: who won and why, the morale, the
objectives each army held, when it ended and where it was saved; the last instructions stay
below (blocks may still have to come off the board)."""

from __future__ import annotations

from typing import Any

from companion_app.i18n.triumph_texts import end_lines

SIZES = {"head": 26, "winner": 20, "why": 18}
COLORS = {"head": "ffd54f", "why": "ffffff", "saved": "a5d6a7"}


def fill_end(screen: Any, tr: Any, view: dict[str, Any], side: str | None) -> list[Any]:
    """Put the end of the battle in the screen's panel; the labels, in order."""
    shown = []
    for kind, text in end_lines(tr, view, side):
        color = COLORS.get(kind, "cfd8dc")
        size = SIZES.get(kind, 16)
        maker = screen.heading if kind in ("head", "winner") else screen.line
        label = maker(f"[color={color}]{text}[/color]", size)
        label.end_kind = kind  # what the line tells (for tests)
        shown.append(label)
    return shown
