"""The "Play the computer" / "Play a person" button: its label and the ``new_game`` it sends."""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_


def computer_button(seat: str | None, computer_seat: str | None) -> tuple[str, dict[str, Any]] | None:
    """(untranslated label, new_game payload) for this tablet's seat; None on the referee display."""
    if seat not in ("red", "blue"):
        return None
    other = "blue" if seat == "red" else "red"
    if computer_seat == other:
        return N_("Play a person"), {"computer": "off"}
    return N_("Play the computer"), {"computer": other}
