"""The referee display of a Napoleon's Triumph game: the public map beside the time track,
morale, commands, the attack panel, who the game waits for, and the result.

The display screen (display.py) swaps this in for its Stratego board when the public view
says `game == "napoleons-triumph"`; it only ever holds the public view.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion_app.i18n.catalog import N_
from companion_app.i18n.texts import clock_text
from companion_app.i18n.triumph_texts import (
    MAP_LEGEND,
    army_name,
    attack_lines,
    commands_used_text,
    off_map_text,
    result_lines,
    turn_text,
    waiting_text,
)
from companion_app.model.table import TableState
from companion_app.ui.pieces import text_texture
from companion_app.ui.triumph_map import SIDE_COLORS, TriumphMap
from companion_app.ui.widgets import FitLabel, WrapLabel, paint_background
from firmware_bridge.protocol.triumph_contract import SIDE_OF_SEAT

TRIUMPH = "napoleons-triumph"
FIRST_HOUR, LAST_HOUR = 7, 16
PANEL = (0.16, 0.17, 0.2, 1)
ATTACK_WORD, ROAD_WORD = N_("attack"), N_("main road")


class TimeTrack(Widget):
    """The ten hours of the day as boxes; the current one filled in the colour of who moves."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", dp(40))
        super().__init__(**kwargs)
        self.hour: int | None = None
        self.side: str | None = None
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, hour: int | None, side: str | None) -> None:
        """Mark the current hour and the side to move."""
        self.hour, self.side = hour, side
        self.redraw()

    def redraw(self, *_: Any) -> None:
        """Ten boxes, the hours as a 24-hour clock counts them: 7 8 9 10 11 12 13 14 15 16."""
        self.canvas.clear()
        count = LAST_HOUR - FIRST_HOUR + 1
        cell = self.width / count
        for k in range(count):
            hour = FIRST_HOUR + k
            x = self.x + k * cell
            current = hour == self.hour
            with self.canvas:
                Color(*(SIDE_COLORS.get(self.side or "", (0.5, 0.5, 0.5, 1)) if current
                        else (0.26, 0.27, 0.31, 1)))
                Rectangle(pos=(x + 1, self.y), size=(cell - 2, self.height))
                if current:
                    Color(1, 0.85, 0.3, 1)
                    Line(rectangle=(x + 1, self.y, cell - 2, self.height), width=2)
            label = str(hour)
            texture = text_texture(label, int(sp(18) if current else sp(15)), current)
            w, h = texture.size
            with self.canvas:
                Color(1, 1, 1, 1 if current or self.hour is None or hour > self.hour else 0.45)
                Rectangle(texture=texture, pos=(x + (cell - w) / 2, self.center_y - h / 2),
                          size=(w, h))


class TriumphDisplay(BoxLayout):
    """The whole NT display: the map (with the attack marked) and the panel beside it."""

    def __init__(self, root: Any, **kwargs: Any):
        super().__init__(padding=dp(6), spacing=dp(8), **kwargs)
        self.root_app = root
        self.map = TriumphMap(size_hint_x=0.7)
        self.side = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_x=0.3,
                              padding=dp(6))
        paint_background(self.side, PANEL)
        # the hour and the clocks stay put; everything else scrolls when the screen is small
        self.scroll = ScrollView(do_scroll_x=False, bar_width=dp(5))
        self.body = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None)
        self.body.bind(minimum_height=self.body.setter("height"))
        self.scroll.add_widget(self.body)
        self.turn = FitLabel(font_size=sp(26), bold=True, size_hint_y=None, height=dp(44))
        self.track = TimeTrack()
        self.clocks = FitLabel(font_size=sp(22), markup=True, size_hint_y=None, height=dp(36))
        self.morale = WrapLabel(font_size=sp(19), markup=True)
        self.commands = WrapLabel(font_size=sp(16))
        self.waiting = WrapLabel(font_size=sp(20), bold=True, collapse_empty=True)
        self.attack = WrapLabel(font_size=sp(18), collapse_empty=True)
        self.result = WrapLabel(font_size=sp(22), bold=True, collapse_empty=True)
        self.notes = WrapLabel(font_size=sp(14), collapse_empty=True)
        self.legend = WrapLabel(font_size=sp(13), markup=True, color=(0.85, 0.86, 0.9, 1))
        for widget in (self.turn, self.track, self.clocks, self.scroll):
            self.side.add_widget(widget)
        for widget in (self.morale, self.commands, self.waiting, self.result, self.attack,
                       self.notes, self.legend):
            self.body.add_widget(widget)
        self.add_widget(self.map)
        self.add_widget(self.side)
        self.bind(size=self._orient)

    def _orient(self, *_: Any) -> None:
        """Beside the map on a wide screen, under it on an upright one."""
        upright = self.height > self.width
        self.orientation = "vertical" if upright else "horizontal"
        self.map.size_hint = (1, 0.62) if upright else (0.7, 1)
        self.side.size_hint = (1, 0.38) if upright else (0.3, 1)

    def refresh(self, state: TableState) -> None:
        """Redraw from the public state's view (the empty map and who is still arranging
        before the first view)."""
        tr = self.root_app.tr
        view = state.view or {}
        self.map.show(view)
        if not view:
            self._before_the_battle(tr, state)
            return
        self.turn.text = turn_text(tr, view)
        self.track.show(view.get("round"), view.get("to_move"))
        morale = view.get("morale", {})
        self.morale.text = (f"[color=6f9bff]{army_name(tr, 'french')} {morale.get('french', '?')}"
                            f"[/color]   [color=ff6e6e]{army_name(tr, 'allied')} "
                            f"{morale.get('allied', '?')}[/color]")
        self.morale.text = tr("Morale") + ":  " + self.morale.text
        self.commands.text = commands_used_text(tr, view)
        result = result_lines(tr, view.get("result"))
        self.result.text = "[color=ffd54f]" + "\n".join(result) + "[/color]" if result else ""
        waiting = waiting_text(tr, view)
        self.waiting.text = f"[color=ffd54f]{waiting}[/color]" if waiting else ""
        lines = attack_lines(tr, view)
        self.attack.text = "\n".join(["[b]" + lines[0] + "[/b]", *lines[1:]]) if lines else ""
        self.notes.text = off_map_text(tr, self.map.scene.off_map)
        self.legend.text = legend_text(tr)
        self.update_clocks(state)

    def _before_the_battle(self, tr: Any, state: TableState) -> None:
        """No view yet: the printed map stays empty and the panel says whose set-up is awaited."""
        self.turn.text = tr("Napoleon's Triumph")
        self.track.show(None, None)
        self.morale.text = self.commands.text = self.attack.text = self.result.text = ""
        self.notes.text = ""
        lines = [tr("Waiting for the set-ups:")]
        for seat in ("red", "blue"):
            word = (tr("set-up sent") if state.setup_status.get(seat) == "ready"
                    else tr("arranging the set-up"))
            lines.append(f"{army_name(tr, SIDE_OF_SEAT[seat])}: {word}")
        self.waiting.text = "[color=ffd54f]" + "\n".join(lines) + "[/color]"
        self.legend.text = legend_text(tr)
        self.update_clocks(state)

    def update_clocks(self, state: TableState) -> None:
        """The two armies' clocks (seat red plays the Allies, blue the French)."""
        tr = self.root_app.tr
        parts = [f"{army_name(tr, SIDE_OF_SEAT[seat])} {clock_text(state.clock(seat))}"
                 for seat in ("red", "blue") if state.clocks.get(seat) is not None]
        self.clocks.text = "   ".join(parts)


def legend_text(tr: Any) -> str:
    """What the map's colours and marks mean."""
    return "\n".join([
        f"[b][color=6f9bff]{army_name(tr, 'french')}[/color]   "
        f"[color=ff6e6e]{army_name(tr, 'allied')}[/color]   "
        f"[color=ffa000]{tr(ATTACK_WORD)}[/color]   [color=ffb74d]{tr(ROAD_WORD)}[/color][/b]",
        tr(MAP_LEGEND),
    ])


def show_triumph(screen: Any, state: TableState) -> None:
    """Put the NT display on the referee display screen (instead of the board) and refresh it."""
    display = getattr(screen, "triumph", None)
    if display is None:
        display = screen.triumph = TriumphDisplay(screen.root_app)
    if display.parent is None:
        screen.remove_widget(screen.layout)
        screen.add_widget(display)
    display.refresh(state)


def hide_triumph(screen: Any) -> None:
    """Give the screen its board back (the next game is not Napoleon's Triumph)."""
    display = getattr(screen, "triumph", None)
    if display is not None and display.parent is not None:
        screen.remove_widget(display)
        screen.add_widget(screen.layout)


def is_triumph(view: dict[str, Any] | None) -> bool:
    """True when a view is a Napoleon's Triumph view."""
    return view is not None and view.get("game") == TRIUMPH


def plays_triumph(state: TableState) -> bool:
    """True from the moment the public state names the variant, before any view arrives."""
    return state.variant == TRIUMPH or is_triumph(state.view)
