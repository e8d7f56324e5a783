"""Arranging the setup (drag from the tray, counts, random, saved setups) and the placement guide."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.spinner import Spinner
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion_app.i18n.catalog import N_
from companion_app.i18n.texts import color_name, own_key_text, piece_words, volcano_marker_lines
from companion_app.model.computer_choice import computer_button
from companion_app.model.setup_model import SetupDraft, SetupStore
from companion_app.model.table import TableState
from companion_app.ui.board_screen import BoardScreen
from companion_app.ui.pieces import add_sprite, draw_text
from companion_app.ui.screen_game import TRAY_ORDER
from companion_app.ui.widgets import (
    BigButton,
    FitLabel,
    WrapLabel,
    fit_text,
)
from engine import get_variant


class TrayItem(Widget):
    """One kind in the setup tray: tap to choose it, or drag it onto a square."""

    def __init__(self, screen: SetupScreen, kind: str, **kwargs: Any):
        kwargs.setdefault("size_hint", (1, None))
        kwargs.setdefault("height", dp(58))
        super().__init__(**kwargs)
        self.screen, self.kind = screen, kind
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_: Any) -> None:
        """Draw the piece with the number still to place."""
        screen = self.screen
        left = screen.draft.remaining().get(self.kind, 0) if screen.draft else 0
        self.canvas.clear()
        size = min(self.height, self.width * 0.6)
        if screen.selected == self.kind:
            from kivy.graphics import Color, Rectangle
            self.canvas.add(Color(0.25, 0.85, 1.0, 0.35))
            self.canvas.add(Rectangle(pos=self.pos, size=self.size))
        add_sprite(self.canvas, self.x, self.y, size, screen.color, self.kind,
                   screen.root_app.tr.rank_label(self.kind), faded=left <= 0)
        color = (1, 1, 1, 1) if left > 0 else (0.6, 0.6, 0.6, 1)
        draw_text(self.canvas, f"×{left}", (self.x + size + (self.width - size) / 2, self.center_y),
                  int(sp(18)), color)

    def on_touch_down(self, touch) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        touch.grab(self)
        touch.ud["tray_moved"] = False
        return True

    def on_touch_move(self, touch) -> bool:
        if touch.grab_current is not self:
            return False
        if not self.collide_point(*touch.pos):
            touch.ud["tray_moved"] = True
            board = self.screen.board
            board.draw_floating({"color": self.screen.color, "kind": self.kind}, touch.pos)
        return True

    def on_touch_up(self, touch) -> bool:
        if touch.grab_current is not self:
            return False
        touch.ungrab(self)
        board = self.screen.board
        board.clear_floating()
        if touch.ud.get("tray_moved"):
            square = board.square_at(*touch.pos) if board.collide_point(*touch.pos) else None
            if square:
                self.screen.place(square, self.kind)
        else:
            self.screen.select(self.kind)
        return True


class SetupScreen(BoardScreen):
    """Arrange the army on your zone; submit when the message says nothing is wrong."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(root, "setup", side_share=0.45, side_spacing=dp(6), **kwargs)
        self.draft: SetupDraft | None = None
        self._computer_armed = False  # asked once to give the other tablet's seat to the computer
        self.color = "red"
        self.selected: str | None = None
        self.store = SetupStore()
        self.items: dict[str, TrayItem] = {}
        self.board.drag_enabled = True
        self.board.bind(on_square_tap=lambda _w, sq: self.tap(sq),
                        on_square_drop=lambda _w, a, b: self.drag(a, b))
        self.title = FitLabel(font_size=sp(22), bold=True, size_hint_y=None, height=dp(36))
        self.tray = GridLayout(cols=3, spacing=dp(4), size_hint_y=None)
        self.tray.bind(minimum_height=self.tray.setter("height"))
        self.problems = WrapLabel(font_size=sp(16))
        self.markers = WrapLabel(font_size=sp(15), color=(1, 0.72, 0.45, 1))  # Espionage's volcanoes
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        self.random_button = BigButton()
        self.clear_button = BigButton()
        self.random_button.bind(on_release=lambda *_: self.randomize())
        self.clear_button.bind(on_release=lambda *_: self.clear())
        row.add_widget(self.random_button)
        row.add_widget(self.clear_button)
        saves = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        self.name_input = TextInput(multiline=False, font_size=sp(18), size_hint_x=0.4)
        self.save_button = BigButton(size_hint_x=0.25)
        self.save_button.bind(on_release=lambda *_: self.save())
        self.load_spinner = Spinner(font_size=sp(17), size_hint_x=0.35)
        fit_text(self.load_spinner)
        self.load_spinner.bind(text=lambda _w, name: self.load(name))
        for w in (self.name_input, self.save_button, self.load_spinner):
            saves.add_widget(w)
        self.submit_button = BigButton(role="primary")
        self.submit_button.bind(on_release=lambda *_: self.submit())
        self.computer_button = BigButton(size_hint_x=0.4)  # before the game: the computer or a person
        self.computer_button.bind(on_release=lambda *_: self.choose_opponent())
        actions = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        actions.add_widget(self.computer_button)
        actions.add_widget(self.submit_button)
        self.status = WrapLabel(font_size=sp(15))
        self.key_label = WrapLabel(font_size=sp(13), color=(0.75, 0.77, 0.8, 1))
        # Random and the send button stay at the bottom; the tray opens what scrolls between them
        # and the title when the screen is short (a demo window on a small screen has no room to
        # hold the tray still as well).
        self.finish_side(self.title, self.tray, self.problems, self.markers, saves,
                         self.status, self.key_label, row, actions, top=1, bottom=2)

        self.side.bind(width=lambda *_: self._fit_tray())

    def _fit_tray(self) -> None:
        # As many kinds a row as the panel has room for (a finger needs some 60 px a kind).
        across = int(self.side.width // dp(62)) if self.side.width > 0 else 3
        self.tray.cols = max(3, min(max(1, len(self.items)), across, 10))

    # -- actions ------------------------------------------------------------------------------
    def start(self, variant: str, color: str) -> None:
        """Begin arranging a setup for this variant and seat."""
        if self.draft and self.draft.variant.name == variant and self.draft.color == color:
            return
        self.draft = SetupDraft(variant, color)
        self.color = color
        self.selected = None
        self.tray.clear_widgets()
        self.items = {}
        order = [k for k in TRAY_ORDER if k in self.draft.army()]
        order += [k for k in self.draft.army() if k not in order]
        for kind in order:
            self.items[kind] = TrayItem(self, kind)
            self.tray.add_widget(self.items[kind])
        self._fit_tray()
        self.refresh(self.root_app.state)

    def select(self, kind: str) -> None:
        """Choose the kind a tap on a square places."""
        self.selected = None if self.selected == kind else kind
        self._changed()

    def place(self, square: str, kind: str) -> None:
        """Put a piece of a kind on a square."""
        draft = self.draft
        placed = draft is not None and draft.place(square, kind)
        if placed and draft is not None and draft.remaining().get(kind, 0) <= 0 and self.selected == kind:
            self.selected = None
        self._changed()

    def tap(self, square: str) -> None:
        """A tap places the chosen kind, or takes a placed piece back to the tray."""
        if self.draft is None:
            return
        if self.selected:
            self.place(square, self.selected)
        elif square in self.draft.placed:
            self.draft.remove(square)
            self._changed()

    def drag(self, origin: str, target: str | None) -> None:
        """A placed piece dragged to another square (swap) or off the zone (back to the tray)."""
        if self.draft:
            self.draft.move(origin, target)
            self._changed()

    def randomize(self) -> None:
        """Fill the zone with a random legal setup."""
        if self.draft:
            self.draft.randomize()
            self._changed()

    def clear(self) -> None:
        """Put every piece back into the tray."""
        if self.draft:
            self.draft.clear()
            self._changed()

    def save(self) -> None:
        """Save the current arrangement under the typed name."""
        name = self.name_input.text.strip()
        if not name or self.draft is None:
            self._say(N_("Type a name for the setup first."))
            return
        self.store.save(name, self.draft)
        self._say(N_("Setup saved as {name}."), name=name)
        self._changed()

    def load(self, name: str) -> None:
        """Load a saved setup by name."""
        if self.draft is None or name not in self.store.names(self.draft.variant.name):
            return
        self.store.load(name, self.draft)
        self._say(N_("Setup {name} loaded."), name=name)
        self._changed()

    def submit(self) -> None:
        """Send the setup to the referee when nothing is wrong."""
        if self.draft is None or self.draft.problems(self.root_app.tr):
            return
        self.root_app.command("setup", {"setup": dict(self.draft.placed)})
        self._say(N_("Setup sent to the referee..."))

    def choose_opponent(self) -> None:
        """Start the game again against the computer (at the other seat), or against a person.

        When another tablet holds the other seat, the first tap only asks: a stray finger must not
        hand the other player's seat to the computer."""
        state = self.root_app.state
        choice = computer_button(state.seat, state.computer_seat)
        if not choice:
            return
        other = choice[1].get("computer")
        if other in ("red", "blue") and state.connection.get(other) == "online" and not self._computer_armed:
            self._computer_armed = True
            self._say(N_("{side}'s tablet holds that seat: tap again and the computer takes it over."),
                      side=other)
            return
        self._computer_armed = False
        self.root_app.command("new_game", choice[1])

    def _changed(self) -> None:
        self.refresh(self.root_app.state)

    def _say(self, message: str, **values: str) -> None:
        # Kept untranslated, so a language switch re-renders it too.
        self._status = (message, values)
        self._changed()

    # -- drawing ------------------------------------------------------------------------------
    def refresh(self, state: TableState) -> None:
        """Redraw board, tray and messages."""
        tr = self.root_app.tr
        draft = self.draft
        if draft is None:
            return
        variant = draft.variant
        self.face(draft.color)
        zone = {sq: "zone" for sq in draft.zone}
        pieces = [{"square": sq, "color": draft.color, "kind": kind}
                  for sq, kind in draft.placed.items()]
        volcanoes = state.volcanoes
        self.board.show(width=variant.width, height=variant.height, volcanoes=volcanoes,
                        blocked=[sq.name for sq in variant.lakes] + volcanoes, pieces=pieces,
                        highlights=zone)
        for item in self.items.values():
            item.redraw()
        self.title.text = tr("Your setup")
        problems = draft.problems(tr)
        errors = list(state.setup_errors)
        shown = 3 if self.height > self.width else 6
        if problems:
            self.problems.text = "[color=ffd54f]" + "\n".join(problems[:shown]) + "[/color]"
        else:
            self.problems.text = "[color=a5d6a7]" + tr("Your setup is complete.") + "[/color]"
        if errors:
            self.problems.text += "\n[color=ff8a80]" + "\n".join(errors) + "[/color]"
        self.markers.text = "\n".join(volcano_marker_lines(tr, state.volcano_steps, volcanoes))
        message, values = getattr(self, "_status", ("", {}))
        values = {key: color_name(tr, value) if key == "side" else value for key, value in values.items()}
        self.status.text = tr(message).format(**values) if message else ""
        self.random_button.text = tr("Random")
        self.clear_button.text = tr("Clear")
        self.save_button.text = tr("Save")
        self.name_input.hint_text = tr("Setup name")
        names = self.store.names(variant.name)
        self.load_spinner.values = names
        if self.load_spinner.text not in names:
            self.load_spinner.text = tr("Load...") if names else tr("No saved setups")
        self.submit_button.text = tr("Ready: send setup")
        self.key_label.text = own_key_text(tr, state.my_fingerprint)
        self.submit_button.disabled = bool(problems)
        choice = computer_button(state.seat, state.computer_seat)
        self.computer_button.text = (tr("Really play the computer?") if self._computer_armed
                                     else tr(choice[0]) if choice else tr("Play the computer"))
        self.computer_button.disabled = choice is None


class PlacingScreen(BoardScreen):
    """The placement guide: which piece goes on which physical square, green once sensed."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(root, "placing", **kwargs)
        self.title = FitLabel(font_size=sp(22), bold=True, size_hint_y=None, height=dp(40))
        self.progress = FitLabel(font_size=sp(30), bold=True, size_hint_y=None, height=dp(50))
        self.next_label = WrapLabel(font_size=sp(20))
        self.wait_label = WrapLabel(font_size=sp(16))
        self.finish_side(self.title, self.progress, self.next_label, self.wait_label)

    def refresh(self, state: TableState) -> None:
        """Fade what is still to place, turn sensed squares green, name the next piece."""
        tr = self.root_app.tr
        setup = state.my_setup
        view = state.view or {}
        variant = get_variant(view.get("variant") or state.variant)
        width, height = variant.width, variant.height
        volcanoes = view.get("volcanoes") or state.volcanoes
        blocked = view.get("blocked") or [s.name for s in variant.lakes] + volcanoes
        pieces, marks = [], {}
        for square, kind in setup.items():
            sensed = square in state.sensed
            pieces.append({"square": square, "color": state.seat, "kind": kind, "faded": not sensed})
            marks[square] = "sensed" if sensed else "expected"
        for square in state.sensed:
            if square not in setup and square in self._own_half(state, height):
                marks[square] = "clear"
        self.face(state.seat)
        self.board.show(width=width, height=height, blocked=blocked, pieces=pieces, highlights=marks,
                        volcanoes=volcanoes)
        done = sum(1 for sq in setup if sq in state.sensed)
        self.title.text = tr("Put your pieces on the board")
        self.progress.text = f"{done} / {len(setup)}"
        missing = [sq for sq in self._nearest_first(setup, state.seat, height) if sq not in state.sensed]
        wrong = [sq for sq, mark in marks.items() if mark == "clear"]
        lines = []
        if missing:
            sq = missing[0]
            lines.append(tr("Next: {piece} on {square}").format(
                piece=piece_words(tr, setup[sq]), square=sq))
        if wrong:
            lines.append("[color=ff8a80]" + tr("Should be empty: {squares}").format(
                squares=", ".join(sorted(wrong))) + "[/color]")
        if not missing and not wrong:
            lines.append("[color=a5d6a7]" + tr("All your pieces are in place.") + "[/color]")
        lines += volcano_marker_lines(tr, state.volcano_steps, volcanoes)
        self.next_label.text = "\n".join(lines)
        other = "blue" if state.seat == "red" else "red"
        if state.setup_status.get(other) != "ready":
            self.wait_label.text = tr("Waiting for the opponent's setup...")
        else:
            self.wait_label.text = ""

    @staticmethod
    def _own_half(state: TableState, height: int) -> set[str]:
        rows = range(0, height // 2) if state.seat == "red" else range(height - height // 2, height)
        width = get_variant(state.variant).width
        return {f"{chr(97 + f)}{r + 1}" for f in range(width) for r in rows}

    @staticmethod
    def _nearest_first(setup: dict[str, str], seat: str | None, height: int) -> list[str]:
        # Front row first, left to right from the player's seat: the order a hand fills a board.
        def key(sq: str) -> tuple[int, int]:
            file, rank = ord(sq[0]) - 97, int(sq[1:]) - 1
            if seat == "blue":
                return (rank, -file)
            return (-rank, file)
        return sorted(setup, key=key)
