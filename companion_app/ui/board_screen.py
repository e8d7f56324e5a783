"""The shape every table screen shares: the board beside a panel, or above it when upright."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion_app.model.table import TableState
from companion_app.ui.board import BoardWidget
from companion_app.ui.widgets import FitBody, keep_oriented, orient, paint_background

SIDE_BACKGROUND = (0.16, 0.17, 0.2, 1)


class BoardScreen(Screen):
    """A screen of the board and a panel; subclasses fill the panel, then call `finish_side`."""

    def __init__(self, root, name: str, side_share: float = 0.42, spacing: float = dp(8),
                 side_spacing: float = dp(8), painted: bool = True, **kwargs: Any):
        super().__init__(name=name, **kwargs)
        self.root_app = root
        self.side_share = side_share
        self.layout = BoxLayout(padding=dp(6), spacing=spacing)
        self.board = BoardWidget(label_for=root.tr.rank_label)
        self.side = BoxLayout(orientation="vertical", spacing=side_spacing, size_hint_x=side_share)
        if painted:
            paint_background(self.side, SIDE_BACKGROUND)
        self.layout.add_widget(self.board)
        self.layout.add_widget(self.side)
        self.add_widget(self.layout)

    def finish_side(self, *widgets, top: int = 1, bottom: int = 0) -> None:
        """Put the panel's widgets in, top to bottom, and keep the layout fitted to the screen.

        The first `top` widgets (the heading) and the last `bottom` ones (the buttons) keep their
        place; those between go into a FitBody that scrolls when the panel is too short for them.
        """
        cut = len(widgets) - bottom
        self.body = FitBody(widgets[top:cut], spacing=self.side.spacing)
        for widget in (*widgets[:top], self.body, *widgets[cut:]):
            self.side.add_widget(widget)
        keep_oriented(self)

    def flexible_min(self) -> float:
        """The height a stretchy panel child gets when the screen is upright."""
        return dp(90)

    def _orient(self, *_: Any) -> None:
        orient(self.layout, self.side, self.height > self.width, self.side_share, self.flexible_min())

    def face(self, seat: str | None) -> None:
        """Draw the board from this seat's side (Blue's from the top), marks in the current numbering."""
        self.board.label_for = self.root_app.tr.rank_label
        self.board.flipped = seat == "blue"


def turn_piece_square(view: dict[str, Any]) -> str | None:
    """Where the piece already moved this turn stands (a turn of two moves), if it still does."""
    per_turn = view.get("moves_per_turn", 1)
    left = view.get("moves_left_in_turn", per_turn)
    last = view.get("last_move") or ""
    if per_turn < 2 or left >= per_turn or view.get("result") or "-" not in last:
        return None
    target = last.split("-")[1]
    piece = next((p for p in view.get("pieces", ()) if p["square"] == target), None)
    return target if piece is not None and piece["color"] == view.get("to_move") else None


def game_marks(state: TableState, view: dict[str, Any], picked: dict[str, str] | None = None) -> dict[str, str]:
    """Squares to mark in a game: the last battle, squares the player picked, the piece moved this
    turn, and the board check's squares to clear or fill (later ones win a square)."""
    marks: dict[str, str] = {}
    if state.battle and state.battle.square:
        marks[state.battle.square] = "battle"
    marks.update(picked or {})
    turn_piece = turn_piece_square(view)
    if turn_piece:
        marks[turn_piece] = "turn-piece"
    if state.guidance:
        marks.update({sq: "clear" for sq in state.guidance["clear"]})
        marks.update({sq: "fill" for sq in state.guidance["fill"]})
    move = state.computer_move  # rings on the computer's move: the piece, and where it goes
    if move and isinstance(move.get("square"), str) and isinstance(move.get("to"), str):
        marks[move["square"]], marks[move["to"]] = "computer-from", "computer-to"
    return marks
