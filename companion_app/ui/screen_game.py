"""The game screen: the board from your side, what happened, clocks, trays, draw/resign/takeback."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion_app.i18n.catalog import RANKED_KINDS
from companion_app.i18n.texts import (
    battle_text,
    clock_text,
    color_name,
    computer_move_text,
    guidance_lines,
    notebook_lines,
    pass_text,
    refusal_text,
    reveal_text,
    takeback_lines,
    warning_text,
)
from companion_app.model.table import TableState
from companion_app.ui.board import draw_volcano
from companion_app.ui.board_screen import BoardScreen, game_marks, turn_piece_square
from companion_app.ui.pieces import draw_piece
from companion_app.ui.widgets import (
    BigButton,
    CapturedTray,
    FitLabel,
    WrapLabel,
)

TRAY_ORDER = list(RANKED_KINDS) + ["bomb", "flag"]


def spies_recognise(variant: str) -> bool:
    """True in a variant where the only enemy ranks known during play are a spy's (Espionage)."""
    try:
        from engine import get_variant

        found = get_variant(variant)
    except (ImportError, ValueError):
        return False
    return bool(found.recognizers) and not found.battle_reveals


def recognised_squares(view: dict[str, Any], seat: str | None) -> list[str]:
    """Squares of enemy pieces the viewer's spies recognised (their rank is in the view)."""
    if seat is None or view.get("result") or not spies_recognise(view.get("variant", "")):
        return []
    return [p["square"] for p in view.get("pieces", ()) if p["color"] != seat and p.get("kind")]


def turn_count(tr, view: dict[str, Any]) -> str:
    """" · move 2 of 2" in a variant of several moves a turn (Espionage), else nothing."""
    per_turn = view.get("moves_per_turn", 1)
    if view.get("result") or per_turn < 2:
        return ""
    number = per_turn - view.get("moves_left_in_turn", per_turn) + 1
    return " · " + tr("move {number} of {total}").format(number=number, total=per_turn)


class Legend(BoxLayout):
    """Espionage's marks explained: the volcano and the spy's recognition, icon and words."""

    def __init__(self, **kwargs: Any):
        super().__init__(size_hint_y=None, height=0, opacity=0, spacing=dp(6), **kwargs)
        self.icons = [Widget(size_hint_x=None, width=dp(30)), Widget(size_hint_x=None, width=dp(30))]
        self.labels = [WrapLabel(font_size=sp(14)), WrapLabel(font_size=sp(14))]
        for icon, label in zip(self.icons, self.labels, strict=True):
            self.add_widget(icon)
            self.add_widget(label)
            icon.bind(pos=self._draw, size=self._draw)

    def show(self, volcano: str, recognised: str, enemy: str) -> None:
        """Show the two entries (an empty text hides the legend)."""
        self.labels[0].text, self.labels[1].text = volcano, recognised
        self.enemy = enemy
        self.opacity = 1 if volcano else 0
        self.height = dp(40) if volcano else 0
        self._draw()

    def _draw(self, *_: Any) -> None:
        for index, icon in enumerate(self.icons):
            icon.canvas.clear()
            size = min(icon.width, icon.height, dp(30))
            x, y = icon.x, icon.center_y - size / 2
            if not self.labels[index].text:
                continue
            if index == 0:
                draw_volcano(icon.canvas, x, y, size)
            else:
                draw_piece(icon.canvas, x, y, size, getattr(self, "enemy", "blue"), "colonel", "4",
                           recognised=True)


class GameScreen(BoardScreen):
    """The running game for one seat (or, with seat None, the public referee display)."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(root, "game", side_spacing=dp(6), painted=False, **kwargs)
        # Without sensors the players move on the tablet: drag a piece, or tap it and its target.
        self.board.bind(on_square_drop=lambda _w, a, b: self._move(a, b),
                        on_square_tap=lambda _w, sq: self._tap(sq))
        self.selected: str | None = None

        self.turn_label = FitLabel(font_size=sp(26), bold=True, size_hint_y=None, height=dp(44))
        clocks = BoxLayout(size_hint_y=None, height=dp(40))
        self.clock_labels = {c: FitLabel(font_size=sp(22), markup=True) for c in ("red", "blue")}
        clocks.add_widget(self.clock_labels["red"])
        clocks.add_widget(self.clock_labels["blue"])
        self.game_clock = FitLabel(font_size=sp(15), size_hint_y=None, height=0)

        self.message = WrapLabel(font_size=sp(17), valign="top")
        self.clock_row = clocks

        self.offer_row = BoxLayout(size_hint_y=None, height=0, spacing=dp(6), opacity=0)
        self.offer_label = WrapLabel(font_size=sp(16))
        self.accept_button = BigButton(role="primary")
        self.decline_button = BigButton(role="danger")
        self.accept_button.bind(on_release=lambda *_: self._answer(True))
        self.decline_button.bind(on_release=lambda *_: self._answer(False))
        self.offer_row.add_widget(self.accept_button)
        self.offer_row.add_widget(self.decline_button)

        self.trays = {c: CapturedTray() for c in ("red", "blue")}
        self.tray_labels = {c: FitLabel(font_size=sp(14), size_hint_y=None, height=dp(20),
                                     halign="left") for c in ("red", "blue")}
        self.score_label = FitLabel(font_size=sp(16), size_hint_y=None, height=dp(24), markup=True)

        # Four buttons side by side; upright (a narrow side panel) two rows of two.
        buttons = GridLayout(cols=4, size_hint_y=None, height=dp(56), spacing=dp(6))
        self.draw_button = BigButton()
        self.takeback_button = BigButton()
        self.resign_button = BigButton(role="danger")
        self.draw_button.bind(on_release=lambda *_: root.command("draw_offer"))
        self.takeback_button.bind(on_release=lambda *_: root.command("takeback_request"))
        self.resign_button.bind(on_release=lambda *_: self._confirm_resign())
        # The player's notebook (off by default; the referee may forbid it): companion_app/model/notebook_feed.py
        self.notebook_button = BigButton()
        self.notebook_button.bind(on_release=lambda *_: self._toggle_notebook())
        for b in (self.draw_button, self.takeback_button, self.resign_button, self.notebook_button):
            buttons.add_widget(b)
        self.buttons = buttons

        trays = BoxLayout(size_hint_y=None, height=dp(66), spacing=dp(8))
        for color in ("red", "blue"):
            column = BoxLayout(orientation="vertical", spacing=dp(2))
            column.add_widget(self.tray_labels[color])
            column.add_widget(self.trays[color])
            trays.add_widget(column)
        self.legend = Legend()
        # The heading and the buttons stay put; what happened scrolls between them when it is long.
        self.finish_side(self.turn_label, clocks, self.game_clock, self.legend, self.message,
                         self.offer_label, trays, self.score_label, self.offer_row, buttons,
                         top=3, bottom=2)
        self._resign_armed = False
        self._answering = False  # an offer from the other side is on screen
        self._last_view_id: Any = None

    def _fit_buttons(self) -> None:
        # Answering an offer replaces the four buttons at their height, so the panel keeps its
        # height and its heading its place.
        height = dp(56) * 2 + dp(6) if self.buttons.cols == 2 else dp(56)
        self.buttons.height = 0 if self._answering else height
        self.offer_row.height = height if self._answering else 0

    def _orient(self, *args: Any) -> None:
        upright = self.height > self.width
        self.buttons.cols = 2 if upright else 4
        self._fit_buttons()
        super()._orient(*args)

    # -- commands -----------------------------------------------------------------------------
    def _toggle_notebook(self) -> None:
        state = self.root_app.state
        state.notebook_open = not state.notebook_open and state.notebook_allowed
        self.refresh(state)

    def _confirm_resign(self) -> None:
        # Two taps, so a stray finger never ends a game.
        if self._resign_armed:
            self._resign_armed = False
            self.root_app.command("resign")
        else:
            self._resign_armed = True
        self.refresh(self.root_app.state)

    def _own_piece(self, square: str) -> bool:
        state = self.root_app.state
        view = state.view or {}
        return any(p["square"] == square and p["color"] == state.seat for p in view.get("pieces", ()))

    def _move(self, origin: str, target: str | None) -> None:
        """A piece dragged on the tablet: ask the referee for that move (where moves come from tablets)."""
        self.selected = None
        if target and target != origin and self.root_app.state.my_turn() and self._own_piece(origin):
            self.root_app.command("move", {"move": f"{origin}-{target}"})
        self.refresh(self.root_app.state)

    def _tap(self, square: str) -> None:
        if not self.root_app.state.my_turn():
            return
        if self._own_piece(square):
            self.selected = None if self.selected == square else square
            self.refresh(self.root_app.state)
        elif self.selected:
            self._move(self.selected, square)

    def _answer(self, accept: bool) -> None:
        state = self.root_app.state
        if state.draw_offer_from and state.draw_offer_from != state.seat:
            self.root_app.command("draw_answer", {"accept": accept})
        elif state.takeback_from and state.takeback_from != state.seat:
            self.root_app.command("takeback_answer", {"accept": accept})

    # -- drawing ------------------------------------------------------------------------------
    def refresh(self, state: TableState) -> None:
        """Bring every widget up to date with the table state."""
        tr = self.root_app.tr
        view = state.view
        if view is None:
            return
        seat = state.seat
        self.face(seat)
        self.board.drag_enabled = state.my_turn()
        picked = {self.selected: "selected"} if self.selected else {}
        refused = str((state.refusal or {}).get("move") or "")
        if "-" in refused:
            picked.update({sq: "selected" for sq in refused.split("-")})
        highlights = game_marks(state, view, picked)
        view_id = (id(view), tuple(sorted(highlights.items())), tr.language, tr.numbering)
        if view_id != self._last_view_id:
            self._last_view_id = view_id
            self.board.show_view(view, highlights, recognised_squares(view, seat))
        if view.get("volcanoes"):
            self.legend.show(tr("Volcano: no piece may enter"),
                             tr("Recognised by your spy") if seat else "",
                             "blue" if seat == "red" else "red")
        else:
            self.legend.show("", "", "blue")

        to_move = view.get("to_move")
        if view.get("result"):
            self.turn_label.text = tr("Game over")
        elif seat is not None and to_move == seat:
            self.turn_label.text = tr("Your turn")
        else:
            self.turn_label.text = tr("{side} to move").format(side=color_name(tr, to_move))
        self.turn_label.text += turn_count(tr, view)
        self.turn_label.color = (1, 0.55, 0.5, 1) if to_move == "red" else (0.6, 0.75, 1, 1)

        self.update_clocks(state)

        notebook = state.notebook_open and state.notebook_allowed and seat is not None
        message = ("\n".join(notebook_lines(tr, state.notebook.page(seat))) if notebook
                   else self._message_text(state))
        if message != self.message.text:
            self.message.text = message
            self.body.to_top()  # what just happened comes first
        self.notebook_button.text = tr("Notebook")
        self.notebook_button.set_role("primary" if notebook else "normal")
        self.notebook_button.disabled = not state.notebook_allowed
        self.notebook_button.opacity = 1 if state.notebook_allowed else 0.3
        self._refresh_offer(state)
        self._refresh_trays(state, view)
        self.draw_button.text = tr("Offer draw")
        self.takeback_button.text = tr("Ask takeback")
        self.resign_button.text = tr("Really resign?") if self._resign_armed else tr("Resign")
        self.buttons.disabled = not seat or bool(view.get("result")) or not self.buttons.height

    def update_clocks(self, state: TableState) -> None:
        """The clocks, run down locally between the referee's updates (called every second)."""
        tr = self.root_app.tr
        for color, label in self.clock_labels.items():
            text = clock_text(state.clock(color))
            name = color_name(tr, color)
            running = state.running_clock == color
            label.text = f"[b]{name} {text}[/b]" if running else f"{name} {text}"
        has_clocks = any(state.clocks.get(c) is not None for c in ("red", "blue"))
        self.clock_row.opacity = 1 if has_clocks else 0
        self.clock_row.height = dp(40) if has_clocks else 0
        game = state.clock("game")
        self.game_clock.text = tr("Game time left: {time}").format(time=clock_text(game)) if game else ""
        self.game_clock.height = dp(22) if game else 0

    def _message_text(self, state: TableState) -> str:
        tr = self.root_app.tr
        parts: list[str] = []
        if state.refusal:
            parts.append("[color=ff8a80]" + refusal_text(tr, state.refusal) + "[/color]")
        if state.taken_back:
            parts.append("\n".join(takeback_lines(tr, state.taken_back, state.restore, state.seat)))
        if state.battle:
            parts.append(battle_text(tr, state.battle, state.seat))
        for reveal in state.reveals:
            parts.append("[color=4dd0c8]" + reveal_text(tr, reveal) + "[/color]")
        for color in state.passed:
            parts.append("[b]" + pass_text(tr, color, state.seat) + "[/b]")
        turn_piece = turn_piece_square(state.view or {})
        if turn_piece and state.my_turn():
            parts.append(tr("Second move: a different piece than the one on {square}.").format(
                square=turn_piece))
        guidance = guidance_lines(tr, state.guidance, state.board_steps)
        if guidance and not state.taken_back:
            parts.append("\n".join(guidance))
        if computer := computer_move_text(tr, state.computer_move, state.view, state.seat):
            parts.append("[b]" + computer + "[/b]")
        for warning in state.warnings:
            parts.append("[color=ffd54f]" + warning_text(tr, warning) + "[/color]")
        if state.declined_by and state.declined_by != state.seat:
            parts.append(tr("{side} declined the draw.").format(side=color_name(tr, state.declined_by)))
        if state.takeback_declined_by and state.takeback_declined_by != state.seat:
            parts.append(tr("{side} declined to take the move back.").format(
                side=color_name(tr, state.takeback_declined_by)))
        if state.notice:
            parts.append(tr(state.notice))
        if not parts and state.view and state.view.get("last_move"):
            parts.append(tr("Last move: {move}").format(move=state.view["last_move"]))
        return "\n\n".join(parts)

    def _refresh_offer(self, state: TableState) -> None:
        tr = self.root_app.tr
        text = ""
        incoming = False
        if state.draw_offer_from:
            if state.draw_offer_from == state.seat:
                text = tr("You offered a draw. Waiting for the answer.")
            else:
                text = tr("{side} offers a draw.").format(side=color_name(tr, state.draw_offer_from))
                incoming = state.seat is not None
        elif state.takeback_from:
            if state.takeback_from == state.seat:
                text = tr("You asked to take back the last move. Waiting for the answer.")
            else:
                text = tr("{side} asks to take back the last move.").format(
                    side=color_name(tr, state.takeback_from))
                incoming = state.seat is not None
        self.offer_label.text = text
        self.offer_row.opacity = 1 if incoming else 0
        self.offer_row.disabled = not incoming
        self.buttons.opacity = 0 if incoming or not state.seat else 1
        self._answering = incoming
        self._fit_buttons()
        self.accept_button.text = tr("Accept")
        self.decline_button.text = tr("Decline")

    def _refresh_trays(self, state: TableState, view: dict[str, Any]) -> None:
        tr = self.root_app.tr
        captured = view.get("captured", {})
        for color in ("red", "blue"):
            kinds = captured.get(color, [])
            self.tray_labels[color].text = tr("{side} lost: {count}").format(
                side=color_name(tr, color), count=len(kinds))
            self.trays[color].show(color, kinds, tr.rank_label, TRAY_ORDER)
        # Material each side has won: the value of the opponent's captured pieces.
        red_points = tr.material(captured.get("blue", []))
        blue_points = tr.material(captured.get("red", []))
        lead = red_points - blue_points
        if lead == 0:
            self.score_label.text = tr("Material: even")
        else:
            side = "red" if lead > 0 else "blue"
            self.score_label.text = tr("Material: {side} +{points}").format(
                side=color_name(tr, side), points=abs(lead))
