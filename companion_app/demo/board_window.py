"""The demo's simulated physical board: tokens moved by finger, and the board's guidance LEDs.

It changes only the simulated board (hardware.sim.board), exactly as hands change a real
one; the referee reads it through its sensor feed. Gestures:
  drag to an empty square     a move (lift, put down)
  drag onto an occupied square an attack: both lifted, the attacker put on the target
  drag off the board          take the piece off (captured)
  tap an empty square         put a piece there (pairing; putting a piece back)
  tap an occupied square      lift the piece and put it back (after a battle the defender won)
Tokens show only their colour: from above, a real piece hides its rank.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion_app.demo.system import DemoSystem
from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import color_name, device_name
from companion_app.ui.board import BoardWidget
from companion_app.ui.widgets import SMALLEST_TEXT, BigButton, paint_background
from engine import Square

ATTACK_GAP_S = 0.3  # both pieces off the board this long before the attacker lands (a real hand takes longer)
HAND_PAUSE_S = 0.12  # a hand is slower than the sensors' quiet period
# The firmware's LED colours drawn as the board widget's highlight kinds.
LED_MARKS = {"red": "clear", "green": "fill", "amber": "battle", "blue": "selected", "white": "expected"}
SQUARES_NAMED = 8  # a longer list of squares ends "and 12 more"
NAME_SHOWN = 20  # characters of a tablet's own name shown (it may be 40): the status box is small


def short_name(name: str) -> str:
    """A device's name on one line, cut to NAME_SHOWN characters."""
    name = " ".join(name.split())
    return name if len(name) <= NAME_SHOWN else name[:NAME_SHOWN - 1].rstrip() + "…"


class BoardWindow(BoxLayout):
    """The simulated board of a DemoSystem, with LEDs, a status line and two helper buttons."""

    def __init__(self, system: DemoSystem, tr: Translator | None = None, **kwargs: Any):
        super().__init__(orientation="vertical", spacing=dp(4), padding=dp(4), **kwargs)
        paint_background(self, (0.1, 0.1, 0.11, 1))
        self.system = system
        self.tr = tr or Translator("en")
        self.title = Label(text=self.tr("Simulated board"), font_size=sp(18), bold=True,
                           size_hint_y=None, height=dp(30))
        self.board = BoardWidget(label_for=lambda kind: "")
        self.board.drag_enabled = True
        self.board.bind(on_square_tap=lambda _w, sq: self.tap(sq),
                        on_square_drop=lambda _w, a, b: self.drop(a, b))
        # A fixed height: the board above must not jump when the text changes length.
        self.status = Label(font_size=sp(15), size_hint_y=None, height=dp(160), halign="left",
                            valign="top", markup=True)
        self.status.bind(size=lambda label, size: setattr(label, "text_size", size))
        buttons = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        self.place_button = BigButton(text=self.tr("Put both setups on the board"), role="primary")
        self.place_button.bind(on_release=lambda *_: self.place_setups())
        buttons.add_widget(self.place_button)
        for w in (self.title, self.board, self.status, buttons):
            self.add_widget(w)
        self.busy = False  # an attack's hand sequence is running
        self._poll = Clock.schedule_interval(self.refresh, 0.1)
        self.refresh()

    # -- gestures -----------------------------------------------------------------------------
    def tap(self, square: str) -> None:
        """Put a piece on an empty square, or lift and put back the one standing there."""
        board, sq = self.system.board, Square.parse(square)
        if self.busy:
            return
        if sq in board.occupied():
            self.busy = True
            tag = board.lift(sq)
            Clock.schedule_once(lambda _dt: self._put(sq, tag), HAND_PAUSE_S)
        else:
            board.place(sq)
        self.refresh()

    def drop(self, origin: str, target: str | None) -> None:
        """A token dragged: a move, an attack, or off the board."""
        board = self.system.board
        if self.busy:
            return
        start = Square.parse(origin)
        if start not in board.occupied():
            return
        if target is None:
            tag = board.remove(start)
            self.system.colors.pop(tag, None)
        else:
            end = Square.parse(target)
            if end == start:
                return
            attacker = board.lift(start)
            if end in board.occupied():
                self.busy = True
                Clock.schedule_once(lambda _dt: self._lift_defender(end, attacker), HAND_PAUSE_S)
            else:
                Clock.schedule_once(lambda _dt: self._put(end, attacker), HAND_PAUSE_S)
                self.busy = True
        self.refresh()

    def _lift_defender(self, square: Square, attacker: int) -> None:
        defender = self.system.board.lift(square)
        self.system.board.discard(defender)  # set aside; put back by a tap if it wins
        self.refresh()
        Clock.schedule_once(lambda _dt: self._put(square, attacker), ATTACK_GAP_S)

    def _put(self, square: Square, tag: int) -> None:
        self.system.board.place(square, tag)
        self.busy = False
        self.refresh()

    def place_setups(self) -> None:
        """Put every submitted setup on the board at once (what both players do by hand)."""
        self.system.place_setups()
        self.refresh()

    # -- drawing ------------------------------------------------------------------------------
    def refresh(self, *_: Any) -> None:
        """Draw the tokens (coloured by the public game), the LEDs and the status line."""
        system = self.system
        referee = system.referee
        variant = system.variant
        colors: dict[str, str] = {}
        game = referee.stratego.game if referee else None
        if game is not None:
            for square, piece in game.pieces():
                colors[square.name] = piece.color.value
        replay = referee.replay.public() if referee else None
        if replay is not None:  # a recorded game on the board: its pieces' colours are public
            colors.update({name: piece[0] for name, piece in replay["position"].items()})
        tokens = system.board.tokens()
        pieces = []
        for square, tag in tokens.items():
            # A token the game does not know yet is drawn in the colour of the half it stands on.
            half = "red" if square.rank < variant.height // 2 else "blue"
            color = colors.get(square.name) or system.colors.get(tag) or half
            pieces.append({"square": square.name, "color": color, "kind": None})
        marks = {sq.name: LED_MARKS.get(colour, "expected") for sq, colour in system.board.leds.items()
                 if colour in LED_MARKS}
        self.board.show(width=variant.width, height=variant.height,
                        blocked=[s.name for s in variant.lakes], pieces=pieces, highlights=marks)
        self.status.text = self._status_text()
        self._fit_status()
        setups = referee.stratego.setups if referee else {}
        self.place_button.disabled = (not setups or game is not None and game.ply > 0) and not (
            replay is not None and replay["phase"] == "placing")

    def _fit_status(self) -> None:
        """Shrink the status text until it fits its fixed box (a long list of squares)."""
        label = self.status
        # Measured without the box's height: a text_size of the box's size clips the texture to
        # the box, so the text always seemed to fit while its last line (a code to type) was cut.
        label.text_size = (label.width, None)
        label.font_size = sp(15)
        label.texture_update()
        while label.texture_size[1] > label.height and label.font_size > SMALLEST_TEXT:
            label.font_size = max(SMALLEST_TEXT, label.font_size * 0.9)
            label.texture_update()
        label.text_size = label.size

    def _status_text(self) -> str:
        """What to do next on this board, in the gestures this window understands (in the
        demo's language)."""
        tr = self.tr
        referee = self.system.referee
        if referee is None:
            return tr("Starting...")
        lines = []
        # The console's part: each pending request by name and key, with its code (never sent).
        for request in referee.desk.pending.values():
            who = device_name(tr, request.seat)
            if request.name:  # the name the asking device gave itself: its words, not markup
                who = f"{who} ({escape_markup(short_name(request.name))})"
            if request.code:
                lines.append(tr("{who}, key {fingerprint}: type the code [b]{code}[/b].").format(
                    who=who, fingerprint=request.fingerprint, code=request.code))
            else:
                lines.append(tr("{who}: tap the two squares the tablet shows to put tokens there.").format(
                    who=who))
        check = referee.board_check() or {}
        if check and not check.get("matches", True):
            lines += self._fix_lines(check)
        game = referee.stratego.game
        setups = referee.stratego.setups
        if setups and (game is None or game.ply == 0) and (check.get("fill") or not lines):
            lines.append(tr("The button below puts every sent setup on the board at once."))
        if game is not None and game.result is None and not lines:
            lines.append(tr("{side} to move: drag a token (onto another to attack).").format(
                side=color_name(tr, game.to_move.value)))
        return "\n".join(lines)

    def _fix_lines(self, check: dict[str, Any]) -> list[str]:
        """The board check's squares to clear, fill and swap, as gestures on this window."""
        tr = self.tr
        lines = []
        for key in ("clear", "fill", "wrong"):
            squares = check.get(key) or []
            if not squares:
                continue
            named = f"[b]{', '.join(squares[:SQUARES_NAMED])}[/b]"
            if len(squares) > SQUARES_NAMED:
                named = tr("{squares} and {count} more").format(squares=named,
                                                                 count=len(squares) - SQUARES_NAMED)
            if key == "clear":
                words = tr.ngettext("Drag off the board the token on {squares}.",
                                    "Drag off the board the tokens on {squares}.", len(squares))
            elif key == "fill":
                words = tr.ngettext("Tap to put a token on {squares}.",
                                    "Tap to put tokens on {squares}.", len(squares))
            else:
                words = tr.ngettext("Tap to lift and put back the right piece on {squares}.",
                                    "Tap to lift and put back the right pieces on {squares}.",
                                    len(squares))
            lines.append(words.format(squares=named))
        return lines

    def stop(self) -> None:
        """Stop refreshing."""
        self._poll.cancel()
