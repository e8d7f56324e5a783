"""Finding the board (zeroconf or a typed address), choosing a seat, and pairing at the board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from companion_app.i18n.catalog import N_
from companion_app.i18n.texts import color_name, own_key_text
from companion_app.model.table import TableState
from companion_app.ui.widgets import BigButton, FitLabel, WrapLabel

if TYPE_CHECKING:
    from companion_app.net.network import BoardFinder


def scrolling(box: BoxLayout) -> ScrollView:
    """A column that scrolls when the window is shorter than its content (a phone held sideways)."""
    box.size_hint_y = None
    box.bind(minimum_height=box.setter("height"))
    view = ScrollView(do_scroll_x=False)
    view.add_widget(box)
    return view


class ConnectScreen(Screen):
    """Boards found on the network, an address field, and the seat to take."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(name="connect", **kwargs)
        self.root_app = root
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
        self.title = FitLabel(font_size=sp(30), bold=True, size_hint_y=None, height=dp(56))
        self.found_label = WrapLabel(font_size=sp(18))
        self.found_box = BoxLayout(orientation="vertical", spacing=dp(6), size_hint_y=None)
        self.found_box.bind(minimum_height=self.found_box.setter("height"))
        self.address_label = WrapLabel(font_size=sp(18))
        self.address = TextInput(multiline=False, font_size=sp(22), size_hint_y=None,
                                 height=dp(56), text=root.default_address)
        # Three seats side by side; on a narrow screen one above the other.
        seats = GridLayout(cols=3, size_hint_y=None, height=dp(64), spacing=dp(10))
        self.seats = seats
        box.bind(width=lambda _box, width: self._fit_seats(width))
        self.seat_buttons = {}
        for seat, role in (("red", "danger"), ("blue", "normal"), ("display", "normal")):
            button = BigButton(role=role, height=dp(64))
            if seat == "blue":
                button.background_color = (0.16, 0.33, 0.75, 1)
            button.bind(on_release=lambda _b, s=seat: self.choose(s))
            self.seat_buttons[seat] = button
            seats.add_widget(button)
        self.overview_button = BigButton()
        self.overview_button.bind(on_release=lambda *_: self.choose("overview"))
        self.error = WrapLabel(font_size=sp(17), color=(1, 0.55, 0.5, 1))
        for w in (self.title, self.found_label, self.found_box, self.address_label, self.address,
                  seats, self.overview_button, self.error):
            box.add_widget(w)
        self.add_widget(scrolling(box))
        self.found: dict[str, str] = {}
        self.finder: BoardFinder | None = None  # made on entering: needs the network layer

    def _fit_seats(self, width: float) -> None:
        self.seats.cols = 3 if width >= dp(560) else 1
        rows = 3 // self.seats.cols
        self.seats.height = dp(64) * rows + dp(10) * (rows - 1)

    def on_enter(self, *_: Any) -> None:
        """Look for boards on the network while this screen shows (needs the network layer)."""
        if self.root_app.link_factory is None or not self.root_app.find_boards:
            return
        if self.finder is None:
            from companion_app.net.network import BoardFinder

            self.finder = BoardFinder(self.add_found)
        self.finder.start()

    def on_leave(self, *_: Any) -> None:
        """Stop looking once a board was chosen."""
        if self.finder is not None:
            self.finder.stop()

    def add_found(self, name: str, address: str) -> None:
        """A board announced itself on the network (called on the UI thread)."""
        if self.found.get(name) == address:
            return
        self.found[name] = address
        button = BigButton(text=f"{name}  ({address})")
        button.bind(on_release=lambda *_: setattr(self.address, "text", address))
        self.found_box.add_widget(button)
        self.refresh(self.root_app.state)

    def choose(self, seat: str) -> None:
        """Connect to the typed board and ask for a seat (or watch as the referee display)."""
        address = self.address.text.strip()
        if not address:
            self.error.text = self.root_app.tr("Type the board's address first.")
            return
        try:
            self.root_app.connect(address, None if seat == "display" else seat)
        except (OSError, ValueError) as exc:
            self.error.text = self.root_app.tr("Cannot connect: {reason}").format(reason=exc)

    def refresh(self, state: TableState) -> None:
        """Texts in the current language."""
        tr = self.root_app.tr
        if self.finder is None and self.manager is not None and self.manager.current == self.name:
            self.on_enter()
        self.title.text = tr("Find your board")
        self.found_label.text = (tr("Boards on this network:") if self.found
                                 else tr("Looking for boards on this network..."))
        self.address_label.text = tr("Or type the board's address:")
        self.address.hint_text = "192.168.1.20:1883/kitchen"
        self.seat_buttons["red"].text = tr("Play Red")
        self.seat_buttons["blue"].text = tr("Play Blue")
        self.seat_buttons["display"].text = tr("Referee display")
        self.overview_button.text = tr("Arbiter's overview of all boards on this broker")


def pairing_refusal_text(tr, pairing: dict[str, Any], display: bool = False) -> str:
    """Why the referee did not give this tablet its seat (with `display`: did not pair this referee
    display), in the tablet's language ("" if it did not say)."""
    reason, data = pairing.get("reason") or "", pairing.get("data") or {}
    if reason == "computer-seat":
        return tr("The computer plays {side} in this game. To play {side} yourself, press "
                  "“Play a person” on the other tablet.").format(side=color_name(tr, pairing.get("seat")))
    if reason == "wrong-code" and isinstance(data.get("tries_left"), int):
        count = data["tries_left"]
        return tr.ngettext("Wrong code: {count} try left.", "Wrong code: {count} tries left.",
                           count).format(count=count)
    if reason == "seat-locked" and isinstance(data.get("minutes"), int):
        minutes = data["minutes"]
        return tr.ngettext("Too many wrong codes: try again in {count} minute.",
                           "Too many wrong codes: try again in {count} minutes.", minutes).format(count=minutes)
    if pairing.get("bad_code"):
        return tr("The code has six digits, 0 to 9.")
    if display and reason in DISPLAY_REASONS:
        return tr(DISPLAY_REASONS[reason])
    if reason in PAIRING_REASONS:
        return tr(PAIRING_REASONS[reason])
    if not pairing.get("message"):
        return ""
    # An older referee says it in English only: the tablet's own sentence instead.
    return tr("The referee did not pair this display: press Back and try again.") if display else tr(
        "The referee did not give this tablet the seat: press Back and try again.")


PAIRING_REASONS = {
    "wrong-code": N_("Wrong code: type it again."),  # a referee that does not count the tries
    "too-many-codes": N_("Too many wrong codes: press Back and ask for the seat again."),
    "no-code": N_("This tablet was asked for no code, or it expired: press Back and try again."),
    "busy": N_("Many tablets are asking for this seat right now: press Back and try again in a few minutes."),
}
# The same for the referee display, which asks for no seat.
DISPLAY_REASONS = {
    "too-many-codes": N_("Too many wrong codes: press Back and pair this display again."),
    "busy": N_("Many displays are asking to be paired right now: press Back and try again in a few minutes."),
}


class PairingScreen(Screen):
    """Proving you sit at the board: put a piece on the named square, or type the code (the
    referee display: the code its console shows)."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(name="pairing", **kwargs)
        self.root_app = root
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
        self.title = FitLabel(font_size=sp(28), bold=True, size_hint_y=None, height=dp(50))
        self.instruction = WrapLabel(font_size=sp(22), halign="center")
        self.square = FitLabel(font_size=sp(72), bold=True, size_hint_y=None, height=dp(96))
        self.code_label = WrapLabel(font_size=sp(17), halign="center", collapse_empty=True)
        self.code = TextInput(multiline=False, font_size=sp(28), size_hint_y=None, height=dp(60),
                              input_filter="int")
        self.send_code = BigButton(role="primary")
        self.send_code.bind(on_release=lambda *_: self.root_app.command(
            "pair", {"code": self.code.text.strip()}))
        self.cancel = BigButton()
        self.cancel.bind(on_release=lambda *_: self.back())
        self.message = WrapLabel(font_size=sp(17), halign="center", color=(1, 0.55, 0.5, 1))  # a refusal
        self.key_label = WrapLabel(font_size=sp(14), halign="center", color=(0.75, 0.77, 0.8, 1))
        code_row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(8))
        self.send_code.size_hint_x = 0.4
        code_row.add_widget(self.code)
        code_row.add_widget(self.send_code)
        for w in (self.title, self.instruction, self.square, self.message, self.code_label, code_row,
                  self.cancel, self.key_label):
            box.add_widget(w)
        self.add_widget(scrolling(box))

    def back(self) -> None:
        """Give up pairing: back to the board finder, or, for a board's display opened from the
        hall's overview, back to the overview (as the display's own Back does)."""
        root = self.root_app
        if root.state.seat is None and root.overview_address:
            root.connect(root.overview_address, "overview")
        else:
            root.disconnect()

    def refresh(self, state: TableState) -> None:
        """Show the challenge the referee chose."""
        tr = self.root_app.tr
        pairing = state.pairing or {}
        display = state.seat is None  # the referee display: a code only, no seat, no key of its own
        self.title.text = tr("Pair this display") if display else tr("Take your seat")
        squares = pairing.get("squares")
        if display:  # it asks for the console's code, and for nothing else
            self.instruction.text = tr("Type the code the referee's console shows for this display:")
            self.square.text = ""
        elif pairing.get("lost"):
            self.instruction.text = (tr("The computer plays your seat now: the other tablet chose to "
                                        "play the computer. Press Back to watch or to choose again.")
                                     if pairing.get("reason") == "computer" else
                                     tr("Another tablet now holds your seat: this one sends nothing more."))
            self.square.text = ""
        elif squares:  # the tablet chose them: covering both proves the player sits at the board
            self.instruction.text = tr("Put a piece on each of these two squares of the board:")
            self.square.text = "  ".join(str(s) for s in squares)
        elif pairing.get("method") == "approval":
            self.instruction.text = tr("The tablet holding this seat must approve this one "
                                       "(or the referee's console). Your key: {fingerprint}").format(
                fingerprint=pairing.get("fingerprint") or state.my_fingerprint or "")
            self.square.text = ""
        elif pairing.get("method") == "code":
            self.instruction.text = tr("Type the code the referee gives out for this seat, then press "
                                       "Send code.")
            self.square.text = ""
        else:
            self.instruction.text = tr("Waiting for the referee...")
            self.square.text = ""
        # The display's instruction already asks for the code, and so does a seat's code challenge
        # (a game without a board); otherwise it is the way for a table without a board.
        self.code_label.text = "" if display or pairing.get("method") == "code" else tr(
            "No board attached? Type the code the referee's console shows for this tablet:")
        self.square.height = 0 if display else dp(96)  # no squares to cover: no room kept for them
        self.send_code.text = tr("Send code")
        self.cancel.text = tr("Back")
        self.message.text = pairing_refusal_text(tr, pairing, display) or (tr(
            "This board's referee has a new key (a new or reset referee): pair again.")
            if state.referee_new else "")
        self.key_label.text = "" if display else own_key_text(tr, state.my_fingerprint)
