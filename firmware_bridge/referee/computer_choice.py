"""Who plays the next game: a tablet's ``new_game`` may name the computer's seat ("off": two people).

The choice is kept in the journal's game entry (``computer``, ``computer_level``), so a restarted
referee rebuilds the computer of the game it replays. A game entry without it (an older journal, a
``new_game`` that did not name it) keeps the previous game's choice; the very first game follows
the referee's configuration (``arbiter referee --computer``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

OFF = "off"  # the seat goes back to people


def refusal(seats: Mapping[str, Any], seat: str, computer: str | None) -> str | None:
    """Why the tablet of ``seat`` may not give the computer the seat ``computer`` (None: it may)."""
    if computer is None or computer == OFF:
        return None
    if computer == seat:
        return f"the computer cannot play your own seat ({seat}): choose the other seat"
    return None  # a tablet holding that seat hands it over, and is told so (service.py)


def game_entry(previous: Mapping[str, Any], computer: str | None, level: str | None) -> dict[str, str]:
    """The computer fields of a new game entry: the ones asked for, else the previous game's."""
    fields = {"computer": computer or previous.get("computer"),
              "computer_level": level or previous.get("computer_level")}
    return {name: value for name, value in fields.items() if value}


def chosen(entry: Mapping[str, Any], configured: str | None, configured_level: str) -> tuple[str | None, str]:
    """(seat or None, level) the computer plays in the game of ``entry``; the configuration if it says nothing."""
    seat = entry.get("computer", configured)
    level = entry.get("computer_level") or configured_level
    return (None if seat in (None, OFF) else seat), level
