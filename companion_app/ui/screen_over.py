"""The end of the game: every rank revealed, the reason, a move-by-move replay, record export."""

from __future__ import annotations

import json
import time
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout

from companion_app.i18n.texts import result_text
from companion_app.model.computer_choice import computer_button
from companion_app.model.replay import Replay
from companion_app.model.setup_model import app_home
from companion_app.model.table import TableState
from companion_app.ui.board_screen import BoardScreen
from companion_app.ui.widgets import (
    BigButton,
    FitLabel,
    WrapLabel,
)


class OverScreen(BoardScreen):
    """Game over: the revealed board, why it ended, replay and export."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(root, "over", **kwargs)
        self.replay: Replay | None = None
        self._replay_revision = -1
        self.index = 0
        self.result = WrapLabel(font_size=sp(26), halign="center", bold=True)
        self.move_label = FitLabel(font_size=sp(20), size_hint_y=None, height=dp(36))
        controls = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
        for text, step in (("|<", -10**6), ("<", -1), (">", 1), (">|", 10**6)):
            button = BigButton(text=text, height=dp(64), font_size=sp(24))
            button.bind(on_release=lambda _b, s=step: self.step(s))
            controls.add_widget(button)
        self.export_button = BigButton(role="primary")
        self.export_button.bind(on_release=lambda *_: self.export())
        self.export_label = WrapLabel(font_size=sp(14))
        self.new_game_button = BigButton()
        self.new_game_button.bind(on_release=lambda *_: self.root_app.command("new_game"))
        self.computer_button = BigButton()  # the next game against the computer, or a person
        self.computer_button.bind(on_release=lambda *_: self.choose_opponent())
        self.finish_side(self.result, self.move_label, controls, self.export_button,
                         self.export_label, self.new_game_button, self.computer_button, bottom=2)

    def choose_opponent(self) -> None:
        """A new game against the computer (at the other seat), or against a person again."""
        choice = computer_button(self.root_app.state.seat, self.root_app.state.computer_seat)
        if choice:
            self.root_app.command("new_game", choice[1])

    def step(self, delta: int) -> None:
        """Move the replay forwards or backwards."""
        if self.replay is None:
            return
        self.index = max(0, min(len(self.replay.positions) - 1, self.index + delta))
        self.refresh(self.root_app.state)

    def export(self) -> str | None:
        """Write the game record as JSON into the app's records folder; returns the path."""
        tr = self.root_app.tr
        record = self.replay.record() if self.replay else None
        if not record:
            self.export_label.text = tr("This tablet missed part of the game; the record is incomplete.")
            return None
        folder = app_home() / "records"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / time.strftime("game-%Y%m%d-%H%M%S.json")
        path.write_text(json.dumps(record, indent=1), encoding="utf-8")
        self.export_label.text = tr("Saved: {path}").format(path=path)
        return str(path)

    def refresh(self, state: TableState) -> None:
        """Show the revealed position at the replay index, and the result."""
        tr = self.root_app.tr
        view = state.view or {}
        if not state.history:
            self.replay, self._replay_revision = None, -1
        elif self.replay is None or self._replay_revision != len(state.history):
            try:
                self.replay = Replay(state.history, state.kinds_by_id)
                self.index = len(self.replay.positions) - 1
                self._replay_revision = len(state.history)
            except (ValueError, KeyError, TypeError):
                self.replay = None
        self.face(state.seat)
        if self.replay is not None:
            position, last = self.replay.positions[self.index], self.replay.last_move(self.index)
            pieces = [{"square": sq, "color": c, "kind": k} for sq, (c, k) in position.items()]
            marks = {sq: "last" for sq in last.split("-")} if last else {}
            self.board.show(width=self.replay.width, height=self.replay.height,
                            blocked=self.replay.blocked, volcanoes=self.replay.volcanoes,
                            pieces=pieces, highlights=marks)
            self.move_label.text = tr("Move {n} of {total}").format(
                n=self.index, total=len(self.replay.positions) - 1)
        elif view:
            self.board.show_view(view)
        result = view.get("result") or {}
        self.result.text = result_text(tr, result, state.seat) if result else tr("Game over")
        self.export_button.text = tr("Export game record")
        self.new_game_button.text = tr("New game")
        self.new_game_button.disabled = state.seat is None
        choice = computer_button(state.seat, state.computer_seat)
        self.computer_button.text = tr(choice[0]) if choice else tr("Play the computer")
        self.computer_button.disabled = choice is None
