"""One tablet's (or referee display's) whole UI: the top bar, the screens, and its table state.

Several roots can live in one window (the demo and the tests put two tablets side by side);
nothing here reaches for a global App or a global language.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion_app.i18n.catalog import LANGUAGES, Translator
from companion_app.i18n.texts import color_name, problem_text, referee_back_text
from companion_app.i18n.triumph_texts import army_name
from companion_app.model.table import TableState
from companion_app.model.triumph_table import SIDE_OF_SEAT, is_triumph
from companion_app.net.link import Link
from companion_app.ui.display import DisplayScreen
from companion_app.ui.overview import OverviewScreen
from companion_app.ui.screen_connect import ConnectScreen, PairingScreen
from companion_app.ui.screen_game import GameScreen
from companion_app.ui.screen_over import OverScreen
from companion_app.ui.screen_replay import ReplayScreen
from companion_app.ui.screen_setup import PlacingScreen, SetupScreen
from companion_app.ui.triumph_screen import TriumphScreen
from companion_app.ui.triumph_setup import TriumphSetupScreen
from companion_app.ui.widgets import (
    BACKGROUND,
    STATUS_COLORS,
    BigButton,
    FitLabel,
    paint_background,
)

LinkFactory = Callable[[str, str | None], Link]


class TopBar(BoxLayout):
    """Title, connection lights, language and numbering switches: one row, or on a narrow
    screen (an upright phone, a demo window) the switches in a second row under the title."""

    ONE_ROW = dp(640)  # narrower than this, the switches go under the title

    def __init__(self, root: TabletRoot, **kwargs: Any):
        super().__init__(orientation="vertical", size_hint_y=None, height=dp(52), **kwargs)
        self.root_app = root
        paint_background(self, (0.09, 0.1, 0.12, 1))
        self.title = FitLabel(font_size=sp(18), bold=True, halign="left", markup=True)
        self.status = FitLabel(font_size=sp(15), markup=True, halign="left")
        self.replay = BigButton(height=dp(48))  # a recorded game on the board
        self.replay.bind(on_release=lambda *_: root.toggle_replay())
        self.language = BigButton(height=dp(48))
        self.numbering = BigButton(height=dp(48))
        self.language.bind(on_release=lambda *_: root.next_language())
        self.numbering.bind(on_release=lambda *_: root.toggle_numbering())
        self.rows = [BoxLayout(spacing=dp(6), padding=(dp(6), dp(2))) for _ in range(2)]
        self._one_row: bool | None = None
        self.bind(width=lambda *_: self._arrange())
        self._arrange()

    def _arrange(self) -> None:
        one_row = self.width >= self.ONE_ROW
        if one_row == self._one_row:
            return
        self._one_row = one_row
        self.clear_widgets()
        for row in self.rows:
            row.clear_widgets()
        shares: tuple[tuple[Widget, float], ...] = ((self.title, 0.4), (self.status, 0.24), (self.replay, 0.12), (self.language, 0.12),
                  (self.numbering, 0.12)) if one_row else (
            (self.title, 0.6), (self.status, 0.4), (self.replay, 0.4), (self.language, 0.3),
            (self.numbering, 0.3))
        for index, (widget, share) in enumerate(shares):
            widget.size_hint_x = share
            self.rows[0 if one_row or index < 2 else 1].add_widget(widget)
        self.add_widget(self.rows[0])
        if not one_row:
            self.add_widget(self.rows[1])
        self.height = dp(52) if one_row else dp(104)

    def refresh(self, state: TableState) -> None:
        """Title and connection lights."""
        tr = self.root_app.tr
        armies = is_triumph(state.variant, state.view)  # Napoleon's Triumph: the armies' names

        def seat_name(seat: str) -> str:
            return army_name(tr, SIDE_OF_SEAT[seat]) if armies else color_name(tr, seat)
        who = (seat_name(state.seat) if state.seat else tr("Arbiter's overview")
               if state.phase == "overview" else tr("Referee display"))
        # The board's name is its owner's words, never markup.
        board = f" · {escape_markup(state.board_name)}" if state.board_name else ""
        self.title.text = f"Arbiter{board} · {who}"
        lights = []
        names = {"referee": tr("Referee"), "board": tr("Board"), "red": seat_name("red"),
                 "blue": seat_name("blue")}
        for key in ("referee", "board", "red", "blue"):
            if key in state.connection:
                value = state.connection[key]
                lights.append(f"[color={STATUS_COLORS.get(value, 'bbbbbb')}]•[/color] {names[key]}")
        if state.problem:
            lights.append(f"[color=e57373]{problem_text(tr, state.problem)}[/color]")
        if state.referee_away_s is not None:
            lights.append(f"[color=ffd54f]{referee_back_text(tr, state.referee_away_s)}[/color]")
        self.status.text = "  ".join(lights)
        self.language.text = tr.language.upper()
        self.numbering.text = "10…1" if tr.numbering == "new" else "1…10"
        self.replay.text = tr("Replay")
        self.replay.disabled = state.seat is None or state.phase not in ("setup", "placing", "over")


class TabletRoot(BoxLayout):
    """A complete tablet: pass a link factory (network or in-process) and an optional seat."""

    def __init__(self, link_factory: LinkFactory | None = None, *, tr: Translator | None = None,
                 default_address: str = "", find_boards: bool = False,
                 remember_settings: bool = False, **kwargs: Any):
        super().__init__(orientation="vertical", **kwargs)
        # The window's clear colour is the background: a full-window rectangle on top of it would
        # cost a million blended pixels per frame under software rendering.
        Window.clearcolor = BACKGROUND
        self.tr = tr or Translator()
        self.link_factory = link_factory
        self.default_address = default_address
        self.find_boards = find_boards  # browse zeroconf for boards on the connect screen
        self.remember_settings = remember_settings  # keep language and numbering for next time
        self.state = TableState()
        self.link: Link | None = None
        self.overview_address = ""  # set while (or after) watching a hall's overview
        self.latencies: list[float] = []  # seconds from a view arriving to its frame on screen
        self._pending_arrivals: list[float] = []
        self._drawn_arrivals: list[float] = []
        Window.bind(on_flip=self._on_flip)
        self.top_bar = TopBar(self)
        self.screens = ScreenManager(transition=NoTransition())
        self.screen_by_name = {}
        for cls in (ConnectScreen, PairingScreen, SetupScreen, PlacingScreen, GameScreen,
                    OverScreen, DisplayScreen, OverviewScreen, ReplayScreen, TriumphSetupScreen,
                    TriumphScreen):
            screen = cls(self)
            self.screen_by_name[screen.name] = screen
            self.screens.add_widget(screen)
        self.add_widget(self.top_bar)
        self.add_widget(self.screens)
        self._refresh_trigger = Clock.create_trigger(self.refresh, 0)
        Clock.schedule_interval(self._tick_clocks, 0.5)
        self.refresh()

    def _tick_clocks(self, _dt: float) -> None:
        # Only the clock labels change between messages; nothing else is redrawn.
        if self.state.running_clock and self.screens.current in ("game", "display"):
            self.screen_by_name[self.screens.current].update_clocks(self.state)

    # -- connection ---------------------------------------------------------------------------
    def connect(self, address: str, seat: str | None) -> None:
        """Open a link to a board; seat None watches as the public referee display."""
        if self.link_factory is None:
            raise ValueError("this app has no network support")
        self.disconnect()
        if seat == "overview":
            from companion_app.net.network import split_address

            self.overview_address = split_address(address)[0]
            self.state = TableState(phase="overview")
        else:
            self.state = TableState(seat=seat, phase="pairing" if seat else "game")
        self.link = self.link_factory(address, seat)
        self.link.open(self.deliver)
        self.refresh()

    def disconnect(self) -> None:
        """Close the link and go back to the board finder."""
        if self.link is not None:
            self.link.close()
        self.link = None
        self.state = TableState()
        self.refresh()

    def command(self, name: str, payload: dict[str, Any] | None = None) -> None:
        """Send a command to the referee (ignored while not connected)."""
        if self.link is not None:
            self.link.send(name, payload or {})

    def deliver(self, kind: str, payload: dict[str, Any]) -> None:
        """A message from the link (UI thread): update the state and redraw on the next frame."""
        if kind == "view" and "_arrived" in payload:
            self._pending_arrivals.append(payload["_arrived"])
        self.state.apply(kind, payload)
        self._refresh_trigger()

    # -- settings -----------------------------------------------------------------------------
    def toggle_replay(self) -> None:
        """Open or close the replay panel (it stays while a replay is on the board)."""
        self.state.replay_open = not self.state.replay_open
        self.refresh()

    def next_language(self) -> None:
        """Switch to the next language (EN, DE, BG)."""
        codes = list(LANGUAGES)
        self.set_language(codes[(codes.index(self.tr.language) + 1) % len(codes)])

    def set_language(self, language: str) -> None:
        """Show every text in another language."""
        self.tr.set_language(language)
        self._remember()
        self.refresh()

    def toggle_numbering(self) -> None:
        """Switch the rank numbering between new (Marshal 10) and old (Marshal 1)."""
        self.tr.numbering = "old" if self.tr.numbering == "new" else "new"
        self._remember()
        self.refresh()

    def _remember(self) -> None:
        if self.remember_settings:
            from companion_app.model import prefs

            prefs.save(language=self.tr.language, numbering=self.tr.numbering)

    # -- drawing ------------------------------------------------------------------------------
    def screen_for(self, state: TableState) -> str:
        """Which screen the state calls for."""
        if self.link is None and state.phase == "connect":
            return "connect"
        if state.phase == "overview":
            return "overview"
        if self.link is not None and (state.replay is not None or state.replay_open):
            return "replay"
        if state.seat is None:  # the referee display: its own pairing by code, then the public game
            return "pairing" if state.phase == "pairing" else "display"
        if is_triumph(state.variant, state.view) and state.phase in ("setup", "placing", "game", "over"):
            return "triumph_setup" if state.phase in ("setup", "placing") else "triumph"
        return state.phase if state.phase in self.screen_by_name else "connect"

    def refresh(self, *_: Any) -> None:
        """Show the right screen and bring it up to date."""
        state = self.state
        variant = (state.view or {}).get("variant") or state.variant
        self.tr.set_variant(variant)
        name = self.screen_for(state)
        if name == "setup" and state.view is None and state.seat:
            variant = state.variant
            self.screen_by_name["setup"].start(variant, state.seat)  # keeps the last arrangement
        if self.screens.current != name:
            self.screens.current = name
        self.screen_by_name[name].refresh(state)
        self.top_bar.refresh(state)
        self._drawn_arrivals += self._pending_arrivals
        self._pending_arrivals = []

    def _on_flip(self, *_: Any) -> None:
        # on_flip fires once the frame holding the redrawn board has been swapped to the screen.
        if self._drawn_arrivals:
            now = time.perf_counter()
            self.latencies.extend(now - a for a in self._drawn_arrivals)
            self._drawn_arrivals = []
