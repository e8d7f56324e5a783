"""The referee display: the public game beside the board. It only ever holds the public view."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp

from companion_app.i18n.catalog import N_
from companion_app.i18n.texts import (
    battle_text,
    clock_text,
    color_name,
    computer_move_text,
    device_name,
    guidance_lines,
    pass_text,
    refusal_text,
    result_text,
    seat_keys_text,
    takeback_lines,
    volcano_marker_lines,
)
from companion_app.model.table import TableState
from companion_app.ui.board_screen import BoardScreen, game_marks
from companion_app.ui.screen_game import TRAY_ORDER, Legend, turn_count
from companion_app.ui.triumph_display import hide_triumph, plays_triumph, show_triumph
from companion_app.ui.widgets import (
    STATUS_COLORS,
    BigButton,
    CapturedTray,
    FitLabel,
    WrapLabel,
)

# "unpaired": our broker link is up, but until the display is paired it cannot check (so does not
# read) anything the referee publishes: whether the referee is there is not known yet.
STATE_WORDS = {"online": N_("connected"), "offline": N_("not connected"), "ok": N_("connected"),
               "lost": N_("not connected"), "connecting": N_("connecting..."),
               "unpaired": N_("waiting to be paired")}


class DisplayScreen(BoardScreen):
    """Whose turn, clocks, the public board, the last battle, refusals, board guidance, links."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(root, "display", side_share=0.4, spacing=dp(10), **kwargs)
        self.turn = FitLabel(font_size=sp(34), bold=True, size_hint_y=None, height=dp(56), halign="center")
        self.clocks = FitLabel(font_size=sp(30), markup=True, size_hint_y=None, height=dp(48))
        # Empty ones take no room, so an upright display keeps its room for the board.
        self.phase = WrapLabel(font_size=sp(18), collapse_empty=True)
        self.battle = WrapLabel(font_size=sp(19), collapse_empty=True)
        self.refusal = WrapLabel(font_size=sp(19), collapse_empty=True)
        self.guidance = WrapLabel(font_size=sp(19), collapse_empty=True)
        self.trays = {c: CapturedTray() for c in ("red", "blue")}
        self.links = WrapLabel(font_size=sp(16), markup=True)
        self.keys = WrapLabel(font_size=sp(14), color=(0.8, 0.82, 0.86, 1), collapse_empty=True)
        self.back = BigButton(height=0, opacity=0)
        self.back.bind(on_release=lambda *_: self.root_app.connect(self.root_app.overview_address,
                                                                   "overview"))
        self.legend = Legend()
        self.finish_side(self.turn, self.clocks, self.legend, self.phase, self.battle, self.refusal,
                         self.guidance, self.trays["red"], self.trays["blue"], self.keys,
                         self.links, self.back, top=2, bottom=1)

    def refresh(self, state: TableState) -> None:
        """Redraw from the public state."""
        tr = self.root_app.tr
        view = state.view
        if plays_triumph(state):  # Napoleon's Triumph has its own map and panel, from the start
            show_triumph(self, state)
            return
        hide_triumph(self)
        self.face(None)
        if view is not None:
            self.board.show_view(view, game_marks(state, view))
            self.legend.show(tr("Volcano: no piece may enter") if view.get("volcanoes") else "", "",
                             "red")
            if view.get("result"):
                self.turn.text = result_text(tr, view["result"], None).split("\n")[0]
            else:
                # The display's big letters take the count of moves on a line of its own.
                count = turn_count(tr, view).removeprefix(" · ")
                self.turn.text = tr("{side} to move").format(
                    side=color_name(tr, view.get("to_move"))) + ("\n" + count if count else "")
            self.turn.height = dp(96) if "\n" in self.turn.text else dp(56)
            for color in ("red", "blue"):
                self.trays[color].show(color, view.get("captured", {}).get(color, []),
                                       tr.rank_label, TRAY_ORDER)
        else:
            self.turn.text = tr("Waiting for the game to start")
        self.update_clocks(state)
        self.phase.text = self._phase_text(state)
        self.battle.text = battle_text(tr, state.battle, None) if state.battle else ""
        self.refusal.text = ("[color=ff8a80]" + refusal_text(tr, state.refusal) + "[/color]"
                             if state.refusal else "")
        self.guidance.text = self._guidance_text(state)
        lines = []
        names = {"referee": tr("Referee"), "board": tr("Board"), "red": device_name(tr, "red"),
                 "blue": device_name(tr, "blue")}
        for key in ("referee", "board", "red", "blue"):
            value = state.connection.get(key)
            if value:
                word = tr(STATE_WORDS.get(value, value))
                color = STATUS_COLORS.get(value, "e57373")
                lines.append(f"[color={color}]•[/color] {names[key]}: {word}")
        self.links.text = "\n".join(lines)
        self.keys.text = seat_keys_text(tr, state.fingerprints, state.referee_fingerprint)
        from_overview = bool(self.root_app.overview_address)
        self.back.text = tr("Back to the overview")
        self.back.opacity, self.back.disabled = (1, False) if from_overview else (0, True)
        self.back.height = dp(48) if from_overview else 0

    def update_clocks(self, state: TableState) -> None:
        """The clocks, run down locally between the referee's updates (called every second)."""
        tr = self.root_app.tr
        clocks = [f"{color_name(tr, c)} {clock_text(state.clock(c))}"
                  for c in ("red", "blue") if state.clocks.get(c) is not None]
        self.clocks.text = "   ".join(clocks)
        if getattr(self, "triumph", None) is not None:
            self.triumph.update_clocks(state)

    def _phase_text(self, state: TableState) -> str:
        tr = self.root_app.tr
        if state.phase == "setup" or (state.view is None and state.setup_status):
            parts = []
            for color in ("red", "blue"):
                status = state.setup_status.get(color)
                word = tr("setup ready") if status == "ready" else tr("arranging the setup")
                parts.append(f"{color_name(tr, color)}: {word}")
            return "\n".join(parts + volcano_marker_lines(tr, state.volcano_steps, state.volcanoes))
        if state.view and state.view.get("result"):
            return result_text(tr, state.view["result"], None)
        lines = [pass_text(tr, color, None) for color in state.passed]
        if state.takeback_from:
            lines.append(tr("{side} asks to take back the last move.").format(
                side=color_name(tr, state.takeback_from)))
        if state.taken_back:
            lines += takeback_lines(tr, state.taken_back, state.restore, None)
        return "\n".join(lines)

    def _guidance_text(self, state: TableState) -> str:
        tr = self.root_app.tr
        computer = computer_move_text(tr, state.computer_move, state.view)
        if not state.guidance:
            return f"[b]{computer}[/b]" if computer else ""
        lines = [tr("The board does not match the game:")]
        lines += guidance_lines(tr, state.guidance, state.board_steps)
        return "[color=ffd54f]" + "\n".join(lines) + "[/color]" + (f"\n[b]{computer}[/b]" if computer else "")
