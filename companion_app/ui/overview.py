"""The arbiter's overview: every board of a hall on one screen, from their public states only."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion_app.i18n.texts import color_name, result_text
from companion_app.model.table import TableState
from companion_app.ui.board import BoardWidget
from companion_app.ui.widgets import BigButton, FitLabel, WrapLabel, paint_background


class BoardCard(BoxLayout):
    """One board: its name, a small public board, whose turn, and what needs the arbiter."""

    def __init__(self, screen: OverviewScreen, board: str, **kwargs: Any):
        super().__init__(orientation="vertical", padding=dp(6), spacing=dp(4), **kwargs)
        paint_background(self, (0.18, 0.19, 0.22, 1))
        self.screen, self.board_name = screen, board
        self.title = FitLabel(font_size=sp(18), bold=True, size_hint_y=None, height=dp(28))
        self.board = BoardWidget(label_for=screen.root_app.tr.rank_label)
        self.status = WrapLabel(font_size=sp(15))
        self.open_button = BigButton(height=dp(48))
        self.open_button.bind(on_release=lambda *_: screen.open_board(board))
        for w in (self.title, self.board, self.status, self.open_button):
            self.add_widget(w)

    def show(self, state: dict[str, Any]) -> None:
        """Draw the board's latest public state."""
        tr = self.screen.root_app.tr
        self.title.text = self.board_name
        view = state.get("view")
        if view:
            self.board.show_view(view)
        else:  # before the game: the empty board of the default variant
            from engine import get_variant

            lakes = [sq.name for sq in get_variant("classic").lakes]
            self.board.show(blocked=lakes, pieces=[], highlights={})
        lines = []
        if state.get("phase") == "setup" or not view:
            ready = [color_name(tr, c) for c, s in (state.get("seats") or {}).items()
                     if isinstance(s, dict) and s.get("setup_ready")]
            lines.append(tr("Setup") + (": " + ", ".join(ready) + " ✓" if ready else ""))
        elif view.get("result"):
            lines.append(result_text(tr, view["result"], None).replace("\n", " — "))
        else:
            lines.append(tr("{side} to move").format(side=color_name(tr, view.get("to_move")))
                         + f" · {tr('Move')} {view.get('ply', 0)}")
        offline = [color_name(tr, c) for c, s in (state.get("seats") or {}).items()
                   if isinstance(s, dict) and s.get("paired") and not s.get("online")]
        if offline:
            lines.append("[color=e57373]" + tr("Tablet not connected: {sides}").format(
                sides=", ".join(offline)) + "[/color]")
        check = state.get("board_check") or {}
        if check and not check.get("matches", True):
            lines.append("[color=ffd54f]" + tr("The board does not match the game:") + "[/color]")
        if state.get("draw_offer"):
            lines.append(tr("{side} offers a draw.").format(side=color_name(tr, state["draw_offer"])))
        self.status.text = "\n".join(lines)
        self.open_button.text = tr("Open referee display")


class OverviewScreen(Screen):
    """A grid of board cards, one per board that publishes on the hall broker."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(name="overview", **kwargs)
        self.root_app = root
        box = BoxLayout(orientation="vertical", padding=dp(6), spacing=dp(6))
        self.title = FitLabel(font_size=sp(22), bold=True, size_hint_y=None, height=dp(36))
        self.grid = GridLayout(cols=3, spacing=dp(8))
        box.add_widget(self.title)
        box.add_widget(self.grid)
        self.add_widget(box)
        self.cards: dict[str, BoardCard] = {}

    def open_board(self, board: str) -> None:
        """Switch to the referee display of one board."""
        address = self.root_app.overview_address.rstrip("/") + "/" + board
        self.root_app.connect(address, None)

    def refresh(self, state: TableState) -> None:
        """Add cards for new boards and redraw the others."""
        tr = self.root_app.tr
        boards = state.boards
        self.title.text = tr("Boards in this hall: {count}").format(count=len(boards))
        self.grid.cols = 1 if len(boards) <= 1 else 2 if len(boards) <= 4 else 3
        for name in sorted(boards):
            card = self.cards.get(name)
            if card is None:
                card = self.cards[name] = BoardCard(self, name)
                self.grid.add_widget(card)
            card.show(boards[name])
