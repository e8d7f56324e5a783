"""The shape both Napoleon's Triumph screens share: the map beside a scrolling panel (the map
above it when the tablet is upright) with a footer that never scrolls away, and the panel's small
building blocks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from companion_app.ui.triumph_map import TriumphMap
from companion_app.ui.widgets import ACCENT, DANGER, WARN, BigButton, WrapLabel, paint_background

PANEL_BACKGROUND = (0.16, 0.17, 0.2, 1)


class WrapButton(Button):
    """A full-width button for a sentence: the text wraps and the button grows to hold it."""

    def __init__(self, text: str = "", role: str = "normal", least: float = 52, **kwargs: Any):
        kwargs.setdefault("font_size", sp(16))
        super().__init__(text=text, size_hint_y=None, height=dp(least), halign="left",
                         valign="middle", padding=(dp(12), dp(8)), **kwargs)
        self.least = dp(least)
        self.background_normal = ""
        self.background_color = {"primary": ACCENT, "warn": WARN, "danger": DANGER}.get(
            role, (0.32, 0.34, 0.38, 1))
        self.bind(width=self._wrap, texture_size=self._grow)

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width - dp(24), None)

    def _grow(self, *_: Any) -> None:
        self.height = max(self.least, self.texture_size[1] + dp(16))


class MapPanelScreen(Screen):
    """A screen of the map and a scrolling panel; subclasses fill `self.panel` in `refresh`.

    Below the panel, `self.footer` holds what must stay in sight however long the panel grows: an
    answer's verdict and its Send button (on a 1024x600 tablet they were a long scroll down)."""

    def __init__(self, root: Any, name: str, **kwargs: Any):
        super().__init__(name=name, **kwargs)
        self.root_app = root
        self.layout = BoxLayout(padding=dp(6), spacing=dp(8))
        self.map = TriumphMap()
        self.side = BoxLayout(orientation="vertical", size_hint_x=0.9)
        paint_background(self.side, PANEL_BACKGROUND)
        self.scroll = ScrollView(do_scroll_x=False, bar_width=dp(6))
        self.panel = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6),
                               padding=(dp(8), dp(8)))
        self.panel.bind(minimum_height=self.panel.setter("height"))
        self.scroll.add_widget(self.panel)
        self.footer = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6),
                                padding=(dp(8), 0, dp(8), dp(8)))
        self.footer.bind(minimum_height=self.footer.setter("height"))
        self.side.add_widget(self.scroll)
        self.side.add_widget(self.footer)
        self.layout.add_widget(self.map)
        self.layout.add_widget(self.side)
        self.add_widget(self.layout)
        self.bind(size=self._orient)

    def _orient(self, *_: Any) -> None:
        upright = self.height > self.width
        self.layout.orientation = "vertical" if upright else "horizontal"
        self.side.size_hint = (1, 1.2) if upright else (0.9, 1)

    def clear(self) -> None:
        """Empty the panel and the footer before drawing them anew."""
        self.panel.clear_widgets()
        self.footer.clear_widgets()

    # -- building blocks ------------------------------------------------------------------------
    def heading(self, text: str, size: float = 20) -> WrapLabel:
        """A bold line of the panel."""
        label = WrapLabel(text=text, font_size=sp(size), bold=True)
        self.panel.add_widget(label)
        return label

    def line(self, text: str, size: float = 16, footer: bool = False) -> WrapLabel:
        """A wrapping line of the panel, or of the footer (markup allowed)."""
        label = WrapLabel(text=text, font_size=sp(size))
        (self.footer if footer else self.panel).add_widget(label)
        return label

    def button(self, text: str, action: Callable[[], None], role: str = "normal",
               height: float = 52, size: float = 16) -> WrapButton:
        """A full-width button that wraps long sentences."""
        button = WrapButton(text=text, role=role, least=height, font_size=sp(size))
        button.bind(on_release=lambda *_: action())
        self.panel.add_widget(button)
        return button

    def row(self, *buttons: tuple[str, Callable[[], None], str],
            footer: bool = False) -> list[BigButton]:
        """Buttons side by side: (text, action, role) each, in the panel or the footer."""
        box = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
        made = []
        for text, action, role in buttons:
            button = BigButton(text=text, role=role, height=dp(52), font_size=sp(16))
            button.bind(on_release=lambda *_, a=action: a())
            box.add_widget(button)
            made.append(button)
        (self.footer if footer else self.panel).add_widget(box)
        return made
