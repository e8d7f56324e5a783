"""The replay panel: load a recorded game onto the board, step through it, play on from a move.

The board shows the replay's position with rings: the next move's two squares, or the squares
to fill (green) and clear (red). The panel says what to do in the tablet's language. The referee
display shows the same, without the buttons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from companion_app.i18n.replay_texts import battle_lines, replay_lines, replay_title
from companion_app.model.setup_model import app_home
from companion_app.model.table import TableState
from companion_app.ui.board_screen import BoardScreen
from companion_app.ui.widgets import BigButton, FitLabel, WrapLabel
from engine import get_variant
from firmware_bridge.protocol.crypto import CryptoError

MAX_FILE_BYTES = 200_000  # the referee reads no longer game file
ROW = dp(56)


def replay_marks(replay: dict[str, Any]) -> dict[str, str]:
    """Rings on the board: where to put and take pieces, else the next move's two squares."""
    marks: dict[str, str] = {}
    for step in replay.get("steps", ()):
        action, square = step.get("action"), step.get("square")
        if action == "move":
            marks[square] = marks[step["to"]] = "last"
        elif action in ("place", "replace"):
            marks[square] = "fill"
        elif action == "remove":
            marks[square] = "clear"
        elif action == "put_back":
            marks[square], marks[step["to"]] = "clear", "fill"
    return marks


def collapse(widget, hidden: bool, height: float = ROW) -> None:
    """Hide a row (no room, no touches) or show it at its height."""
    widget.height = 0 if hidden else height
    widget.opacity = 0 if hidden else 1
    widget.disabled = hidden


class ReplayScreen(BoardScreen):
    """A recorded game on the board: the position, what to do, and the buttons to step."""

    def __init__(self, root, **kwargs: Any):
        super().__init__(root, "replay", side_share=0.45, side_spacing=dp(6), **kwargs)
        self.title = FitLabel(font_size=sp(20), bold=True, size_hint_y=None, height=dp(34))
        self.move_label = FitLabel(font_size=sp(18), size_hint_y=None, height=dp(30))
        self.steps_label = WrapLabel(font_size=sp(16))
        self.battles_label = WrapLabel(font_size=sp(15), color=(1, 0.8, 0.5, 1), collapse_empty=True)
        self.notice = WrapLabel(font_size=sp(15), color=(1, 0.6, 0.55, 1), collapse_empty=True)
        self.controls = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(4))
        self.step_buttons = []
        for text, action in (("|<", ("jump", 0)), ("<", ("back", None)), (">", ("forward", None)),
                             (">|", ("jump", -1))):
            button = BigButton(text=text, height=ROW, font_size=sp(22), size_hint_x=0.13)
            button.bind(on_release=lambda _b, a=action: self.step(*a))
            self.controls.add_widget(button)
            self.step_buttons.append(button)
        self.ply_input = TextInput(multiline=False, font_size=sp(18), size_hint_x=0.16,
                                   input_filter="int")
        self.jump_button = BigButton(size_hint_x=0.32, height=ROW)
        self.jump_button.bind(on_release=lambda *_: self.jump_to_input())
        self.controls.add_widget(self.ply_input)
        self.controls.add_widget(self.jump_button)
        self.game_row = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(6))
        self.play_on_button = BigButton(role="primary")
        self.play_on_button.bind(on_release=lambda *_: self.root_app.command("replay_play_on"))
        self.stop_button = BigButton(role="warn")
        self.stop_button.bind(on_release=lambda *_: self.stop())
        self.game_row.add_widget(self.play_on_button)
        self.game_row.add_widget(self.stop_button)
        self.load_row = BoxLayout(size_hint_y=None, height=ROW, spacing=dp(6))
        self.path_input = TextInput(multiline=False, font_size=sp(16), size_hint_x=0.7,
                                    text=str(app_home() / "records") + "/")
        self.load_button = BigButton(size_hint_x=0.3)
        self.load_button.bind(on_release=lambda *_: self.load_file())
        self.load_row.add_widget(self.path_input)
        self.load_row.add_widget(self.load_button)
        self.close_button = BigButton()
        self.close_button.bind(on_release=lambda *_: self.close())
        self.finish_side(self.title, self.move_label, self.controls, self.steps_label,
                         self.battles_label, self.notice, self.game_row, self.load_row,
                         self.close_button, top=3, bottom=1)
        self.message = ""

    # -- actions ------------------------------------------------------------------------------
    def step(self, step: str, ply: int | None = None) -> None:
        """Forward, back, or a jump (ply -1: the last move that replays)."""
        replay = self.root_app.state.replay
        if replay is None:
            return
        if step == "jump":
            ply = replay.get("length", 0) if ply == -1 else ply
            self.root_app.command("replay_step", {"step": "jump", "ply": ply})
        else:
            self.root_app.command("replay_step", {"step": step})

    def jump_to_input(self) -> None:
        """Jump to the move number typed in the field."""
        text = self.ply_input.text.strip()
        if text.isdigit():
            self.step("jump", int(text))

    def load_file(self) -> bool:
        """Read the game file named in the path field and send it to the referee."""
        tr = self.root_app.tr
        path = Path(self.path_input.text.strip()).expanduser()
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                raise ValueError("too large")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError, ValueError):
            self.message = tr("Cannot read the game file {path}.").format(path=path)
            self.refresh(self.root_app.state)
            return False
        self.message = ""
        self.root_app.state.notice = None
        try:
            self.root_app.command("replay_load", {"text": text, "name": path.name[:120]})
        except CryptoError:  # the file does not fit one command: the referee must load it itself
            self.message = tr("This game is too long to send from a tablet: load it on the referee.")
            self.refresh(self.root_app.state)
            return False
        return True

    def stop(self) -> None:
        """End the replay (the panel stays open to load another game)."""
        self.root_app.state.replay_open = True
        self.root_app.command("replay_stop")

    def close(self) -> None:
        """Close the panel (when no replay is on)."""
        self.root_app.state.replay_open = False
        self.message = ""
        self.root_app.refresh()

    # -- drawing ------------------------------------------------------------------------------
    def refresh(self, state: TableState) -> None:
        """Show the replay's position, what to do, and the buttons that make sense now."""
        tr = self.root_app.tr
        replay = state.replay
        self.face(state.seat)
        seat, on = state.seat is not None, replay is not None
        self.notice.text = self.message or (tr(state.notice) if state.notice else "")
        self.path_input.hint_text = tr("Game file on this tablet:")
        self.load_button.text = tr("Load")
        self.jump_button.text = tr("Go to move")
        self.play_on_button.text = tr("Play on from here")
        self.stop_button.text = tr("Stop the replay")
        self.close_button.text = tr("Close")
        # The referee display shows the replay; only the tablets hold its buttons.
        for row in (self.controls, self.game_row):
            collapse(row, not (seat and on))
        collapse(self.load_row, not seat)
        collapse(self.close_button, not seat or on)
        if replay is None:
            self.title.text = tr("Replay a recorded game")
            self.move_label.text = ""
            self.steps_label.text = tr("Load a game file (our record, Gravon XML or GSN) to "
                                       "replay it on the board.")
            self.battles_label.text = ""
            self.board.show(pieces=[], highlights={})
            return
        self.title.text = replay_title(tr, replay)
        self.move_label.text = tr("Move {n} of {total}").format(n=replay.get("ply", 0),
                                                                total=replay.get("length", 0))
        self.steps_label.text = "\n".join(replay_lines(tr, replay))
        self.battles_label.text = "\n".join(battle_lines(tr, replay))
        # Play on once the board holds the position (it is read as the game from then on).
        self.play_on_button.disabled = replay.get("phase") == "placing"
        try:
            variant = get_variant(replay.get("variant", "classic"))
        except ValueError:
            variant = get_variant("classic")
        self.board.show(width=variant.width, height=variant.height,
                        blocked=[s.name for s in variant.lakes],
                        volcanoes=replay.get("volcanoes") or (),
                        pieces=[{"square": square, "color": piece[0], "kind": piece[1]}
                                for square, piece in (replay.get("position") or {}).items()],
                        highlights=replay_marks(replay))
