"""The player's notebook on the tablet: built from this seat's own views and events, nothing else.

Off by default; the referee may forbid it (tournaments: the public state's ``notebook`` is
false). The tablet keeps its seat's (view, events) history of this game and fills an
``engine.stratego.notebook.Notebook`` from it only when the player opens the notebook, so a closed
notebook costs nothing.
"""

from __future__ import annotations

from typing import Any

from engine import Color, get_variant
from engine.core.errors import ArbiterError
from engine.stratego.notebook import Notebook


class NotebookFeed:
    """One seat's history of views and events, and the notebook page made from it."""

    def __init__(self) -> None:
        self.history: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
        self.pending: list[dict[str, Any]] = []  # events since the last view
        self._page: tuple[tuple[int, str | None], dict[str, Any] | None] = ((-1, None), None)

    def take(self, kind: str, payload: dict[str, Any]) -> None:
        """An ``event`` or a ``view`` the tablet received for its seat (others are ignored)."""
        if kind == "event":
            self.pending.append(dict(payload))
        elif kind == "view":
            if self.history and payload.get("ply", 0) < self.history[-1][0].get("ply", 0) \
                    and not any(e.get("type") == "takeback" for e in self.pending):
                self.history = []  # a new game
            self.history.append((payload, self.pending))
            self.pending = []

    def page(self, seat: str | None) -> dict[str, Any] | None:
        """``Notebook.to_dict()`` of ``seat`` for the history so far (None for the display, before
        the first view, or for a history the notebook cannot read)."""
        if seat is None or not self.history:
            return None
        if self._page[0] == (len(self.history), seat):
            return self._page[1]
        view = self.history[-1][0]
        page: dict[str, Any] | None
        try:
            notebook = Notebook(get_variant(view.get("variant", "classic")), Color(seat))
            for seen, events in self.history:
                notebook.observe(seen, events)
            page = notebook.to_dict()
        except (ArbiterError, ValueError, KeyError):
            page = None  # a history the notebook cannot read (e.g. joined mid-game): no page
        self._page = ((len(self.history), seat), page)
        return page
