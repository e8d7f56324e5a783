"""Napoleon's Triumph in play on one tablet: time, morale and commands, the map with the own
faces, the pending decision (the command menu, or the legal answers as sentences, or whom the
tablet waits for), the physical instructions to tick off, and the army by corps."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout

from companion_app.i18n.triumph_refusals import refusal_sentence
from companion_app.i18n.triumph_tablet_texts import (
    ARMY_NAMES,
    capital,
    command_summary,
    commands_text,
    decision_text,
    destination_text,
    face_text,
    faces_text,
    hour_text,
    menu_text,
    missing_text,
    option_text,
    refusal_title,
    short_position,
    side_text,
    step_text,
    unit_text,
)
from companion_app.i18n.triumph_texts import MAP_LEGEND
from companion_app.model.table import TableState
from companion_app.model.triumph_answers import LossDraft, RetreatDraft
from companion_app.model.triumph_orders import OrdersDraft
from companion_app.model.triumph_table import SIDE_OF_SEAT, TriumphTable
from companion_app.ui.triumph_builders import TICK, build_label, fill_builder
from companion_app.ui.triumph_end import fill_end
from companion_app.ui.triumph_panel import MapPanelScreen
from companion_app.ui.widgets import BigButton

RECENT_BLOCKS = 4  # older instructions were done long ago (or never will be)


def without_side(option: dict[str, Any]) -> dict[str, Any]:
    """An option of the view as the action to send (the referee adds the seat's side)."""
    return {k: v for k, v in option.items() if k != "side"}


class TriumphScreen(MapPanelScreen):
    """The running game (and its end) for one seat."""

    def __init__(self, root: Any, **kwargs: Any):
        super().__init__(root, "triumph", **kwargs)
        self.map.on_position = self._map_position
        self.decision_buttons: list[Button] = []
        self.option_buttons: list[tuple[dict[str, Any], Button]] = []  # an answer and its button
        self.step_buttons: list[Button] = []
        self.unit_buttons: dict[str, Button] = {}
        self.destination_buttons: list[Button] = []
        self.send_button: BigButton | None = None
        self.control_buttons: list[BigButton] = []
        self.headline = ""
        self.end_lines: list[Any] = []
        self.draft_buttons: dict[str, Button] = {}
        self.draft_send: Any = None
        self.draft_problem: Any = None
        self.build_button: Any = None
        self.legend: Any = None
        self._resign_armed = False

    @property
    def table(self) -> TriumphTable:
        """The tablet's Napoleon's Triumph state."""
        return self.root_app.state.triumph

    # -- the player's taps ----------------------------------------------------------------------
    def send(self, action: dict[str, Any]) -> None:
        """Send one action to the referee (`nt` command)."""
        self.root_app.command("nt", {"action": self.table.sent_action(action)})
        self.refresh(self.root_app.state)

    def pick(self, index: int) -> None:
        """Choose a menu entry; it is sent only with "Give this command" (no stray taps)."""
        self.table.pick_entry(index)
        self.refresh(self.root_app.state)

    def toggle(self, unit: str) -> None:
        """Tick or untick a unit of the command."""
        if self.table.command is not None:
            self.table.command.toggle(unit)
        self.refresh(self.root_app.state)

    def choose(self, index: int) -> None:
        """Choose a destination by its place in the list."""
        if self.table.command is not None:
            self.table.command.choose_index(index)
        self.refresh(self.root_app.state)

    def _map_position(self, position: str) -> None:
        draft = self.table.draft
        if isinstance(draft, RetreatDraft) and position.startswith("R"):
            if draft.send_to(int(position[1:])):
                self.refresh(self.root_app.state)
            return
        if isinstance(draft, OrdersDraft):
            if draft.tap_position(position):
                self.refresh(self.root_app.state)
            return
        command = self.table.command
        if command is not None and command.choose(position):
            self.refresh(self.root_app.state)

    def send_command(self) -> None:
        """Send the command being composed."""
        command = self.table.command
        action = command.action() if command is not None else None
        if action is not None:
            self.table.cancel()
            self.send(action)

    def back(self) -> None:
        """Back to the menu."""
        self.table.cancel()
        self.refresh(self.root_app.state)

    def toggle_step(self, seq: int, index: int) -> None:
        """Mark an instruction done (or not)."""
        self.table.toggle_done(seq, index)
        self.refresh(self.root_app.state)

    def update_clocks(self, state: TableState) -> None:
        """Nothing runs here between messages."""

    # -- drawing --------------------------------------------------------------------------------
    def refresh(self, state: TableState) -> None:
        """Redraw the panel from the tablet's state."""
        tr = self.root_app.tr
        table = state.triumph
        view = table.view or {}
        self.clear()
        self.decision_buttons, self.step_buttons, self.destination_buttons = [], [], []
        self.option_buttons = []
        self.unit_buttons, self.send_button = {}, None
        if view:
            self.map.show(view)
        command = table.command
        if isinstance(table.draft, RetreatDraft):  # where the blocks may go
            self.map.highlight([f"R{n}" for n in table.draft.targets])
        elif isinstance(table.draft, OrdersDraft):  # where the blocks stand, where a feint ends
            self.map.highlight(table.draft.positions())
        elif command is not None and command.destination is not None:  # the map confirms the choice
            self.map.highlight([command.positions()[command.destination]])
        else:
            self.map.highlight(command.positions() if command is not None else [])
        side = table.side
        army = tr(ARMY_NAMES[side]) if side else ""
        if view.get("result"):  # the end of the battle has the panel to itself
            self.end_lines = fill_end(self, tr, dict(view, record=table.record) if table.record
                                      else view, side)
            self._instructions(tr, table)
            self._army(tr, table)
            return
        self.end_lines = []
        self.heading(f"{army} · {hour_text(tr, view.get('round'))}", 20)
        morale = view.get("morale") or {}
        self.line(tr("Morale: French {french} · Allies {allied}").format(
            french=morale.get("french", "?"), allied=morale.get("allied", "?")), 16)
        if view.get("to_move") == side:
            self.line(commands_text(tr, table.commands_left()), 15)
        if table.notice:  # the referee's other answers (the adapter's known texts translate)
            self.line("[color=ffd54f]" + tr(table.notice) + "[/color]", 16)
        if table.refusal:
            self.line("[color=ff8a80]" + tr("Refused ({rule}): {text}").format(
                rule=refusal_title(tr, table.refusal["rule"]),
                text=refusal_sentence(tr, table.refusal, table.units_by_id())) + "[/color]", 16)
        body = self._headline(tr, table, view)
        self._offer(tr, state)
        self._instructions(tr, table)  # the blocks on the map first: the game goes on from there
        if body:
            self._decision(tr, table)
        self._army(tr, table)
        self._controls(tr)
        self.legend = self.line("[color=b0bec5]" + tr(MAP_LEGEND) + "[/color]", 14)

    # -- takebacks and resigning (the referee refuses a takeback once anything was shown) -------
    def _offer(self, tr: Any, state: TableState) -> None:
        """The other side's takeback request with its answer, or ours waiting for one."""
        asker = state.takeback_from
        if not asker or (self.table.view or {}).get("result"):
            return
        if asker == state.seat:
            self.line(tr("You asked to take back your last command. Waiting for the answer."), 16)
            return
        self.line("[color=ffd54f]" + tr("{side} ask to take back their last command.").format(
            side=capital(side_text(tr, SIDE_OF_SEAT.get(asker)))) + "[/color]", 16)
        self.row((tr("Accept"), partial(self.root_app.command, "takeback_answer", {"accept": True}), "primary"),
                 (tr("Decline"), partial(self.root_app.command, "takeback_answer", {"accept": False}), "normal"))

    def _controls(self, tr: Any) -> None:
        self.control_buttons = self.row(
            (tr("Ask takeback"), partial(self.root_app.command, "takeback_request"), "normal"),
            (tr("Really resign?") if self._resign_armed else tr("Resign"), self.resign, "danger"))

    def resign(self) -> None:
        """Two taps, so a stray finger never ends a battle."""
        if self._resign_armed:
            self.root_app.command("resign")
        self._resign_armed = not self._resign_armed
        self.refresh(self.root_app.state)

    def _headline(self, tr: Any, table: TriumphTable, view: dict[str, Any]) -> bool:
        """Who decides what; True when this tablet has choices to show."""
        pending = table.awaiting()
        if pending is None:
            self.headline = ""
            return False
        decider, decision = pending
        mine = table.my_decision()
        attack = view.get("attack")
        self.headline = decision_text(tr, decision, attack, mine, decider)
        self.heading(("[color=ffd54f]" if mine else "[color=90caf9]") + self.headline + "[/color]", 21)
        if attack:
            self.line(tr("Attack from {start} into {defence}").format(
                start=attack.get("attack_locale"), defence=attack.get("defence_locale")), 15)
        if mine and table.sent is not None:
            self.line(tr("Sent. Waiting for the referee..."), 16)
            return False
        return mine

    def _decision(self, tr: Any, table: TriumphTable) -> None:
        pending = table.awaiting()
        assert pending is not None
        decision = pending[1]
        units = table.units_by_id()
        if decision != "command":
            if table.draft is not None:
                fill_builder(self, tr, table.draft, units)
                return
            kind = table.can_build()
            self.build_button = None
            if kind is not None:
                self.build_button = self.button(build_label(tr, kind), self.build, "primary", 52, 16)
                self.line(tr("Or choose a whole answer:"), 15)
            # standing comes before running (the defence first, the fullest first), and answers
            # that read alike are one: identical blocks of a group are interchangeable (no block
            # is ever named on the table, only its face)
            said: set[str] = set()
            for option in sorted(table.options(), key=lambda o: (o.get("type") == "retreat",
                                                                 -len(o.get("units") or ()))):
                text = option_text(tr, option, units)
                if text in said:
                    continue
                said.add(text)
                self.decision_buttons.append(self.button(
                    text, partial(self.send, without_side(option)), "normal", 52, 16))
                self.option_buttons.append((option, self.decision_buttons[-1]))
            return
        if table.command is None:
            # the commands first; ending the turn is the last choice, no larger than the others
            menu = table.menu()
            ends = [i for i, e in enumerate(menu) if e.get("type") == "end_turn"]
            grid = self.grid(2)
            for index, entry in enumerate(menu):
                if index not in ends:
                    button = BigButton(text=menu_text(tr, entry, units), height=dp(48), font_size=sp(15))
                    button.bind(on_release=lambda *_, i=index: self.pick(i))
                    grid.add_widget(button)
                    self.decision_buttons.append(button)
            for index in ends:
                button = BigButton(text=tr("End turn"), height=dp(48), font_size=sp(15), role="warn")
                button.bind(on_release=lambda *_, i=index: self.pick(i))
                grid.add_widget(button)
                self.decision_buttons.append(button)
            return
        self._composer(tr, table, units)

    def _composer(self, tr: Any, table: TriumphTable, units: dict[str, dict[str, Any]]) -> None:
        command = table.command
        assert command is not None
        self.line("[b]" + menu_text(tr, command.entry, units) + "[/b]", 17)
        action = command.action()
        if action is not None:
            self.line("[color=a5d6a7]" + command_summary(tr, action, units) + "[/color]", 16)
        else:
            self.line("[color=ffd54f]" + missing_text(tr, command.missing()) + "[/color]", 15)
        self.send_button, _ = self.row((tr("Give this command"), self.send_command, "primary"),
                                       (tr("Back"), self.back, "normal"))
        self.send_button.disabled = action is None
        if command.kind == "threat" and command.entry.get("guard"):
            self.line(tr("Announce a Guard Attack with:"), 15)
            for unit in command.entry.get("guard") or ():
                chosen = command.guard == unit
                button = self.button((TICK if chosen else "") + unit_text(tr, units.get(unit)),
                                     partial(self._guard, unit), "primary" if chosen else "normal", 44, 15)
                self.unit_buttons[unit] = button
        elif command.entry.get("units") and command.kind != "threat":
            self.line(tr("Units that go (tap to leave one behind):") if command.kind == "corps_move"
                      else tr("Tap the units that go:"), 15)
            grid = self.grid(2)
            for unit in command.entry["units"]:
                going = unit in command.picked
                text = (TICK if going else "") + unit_text(tr, units.get(unit), with_corps=False)
                if not going and command.kind == "corps_move":
                    text += " " + tr("(stays)")
                button = BigButton(text=text, height=dp(44), font_size=sp(15),
                                   role="primary" if going else "normal")
                button.bind(on_release=lambda *_, u=unit: self.toggle(u))
                grid.add_widget(button)
                self.unit_buttons[unit] = button
        if command.destinations:
            self.line(tr("Where to (on the map or here):"), 15)
            grid = self.grid(3)
            for index, dest in enumerate(command.destinations):
                chosen = index == command.destination
                button = BigButton(text=(TICK if chosen else "") + destination_text(tr, dest),
                                   height=dp(44), font_size=sp(15), role="primary" if chosen else "normal")
                button.bind(on_release=lambda *_, i=index: self.choose(i))
                grid.add_widget(button)
                self.destination_buttons.append(button)

    # -- answers built block by block ---------------------------------------------------------
    def build(self) -> None:
        """Start building the pending answer block by block."""
        self.table.build()
        self.refresh(self.root_app.state)

    def _draft_do(self, act: Any, *args: Any) -> None:
        act(*args)
        self.refresh(self.root_app.state)

    def send_draft(self) -> None:
        """Send the answer built."""
        draft = self.table.draft
        if draft is None:
            return
        answer = draft.answer()
        if answer is not None and (isinstance(draft, LossDraft) or draft.problem() is None):
            self.table.draft = None
            self.send(answer)

    def grid(self, columns: int) -> GridLayout:
        """A grid of buttons in the panel, as high as its rows."""
        grid = GridLayout(cols=columns, spacing=dp(4), size_hint_y=None, row_force_default=True,
                          row_default_height=dp(46))
        grid.bind(minimum_height=grid.setter("height"))
        self.panel.add_widget(grid)
        return grid

    def _guard(self, unit: str) -> None:
        command = self.table.command
        if command is not None:
            command.guard = None if command.guard == unit else unit
        self.refresh(self.root_app.state)

    def _instructions(self, tr: Any, table: TriumphTable) -> None:
        steps = table.steps(blocks=RECENT_BLOCKS)
        if not steps:
            return
        self.heading(tr("On the map (tap when done)"), 18)
        for seq, index, step, done in steps:
            text = (tr("Done:") + " " if done else "") + step_text(tr, step)
            button = self.button(text, partial(self.toggle_step, seq, index), "normal", 52, 16)
            if done:
                button.background_color = (0.22, 0.3, 0.24, 1)
                button.color = (0.7, 0.75, 0.7, 1)
            self.step_buttons.append(button)

    def _army(self, tr: Any, table: TriumphTable) -> None:
        corps = table.corps()
        if not corps:
            return
        self.heading(tr("Your army"), 18)
        commanded = table.commanded()
        for name, units in corps:
            faces = faces_text(tr, [u.get("face") for u in units])
            if name is None:
                places = ", ".join(f"{face_text(tr, u.get('face'))} {short_position(str(u.get('at')))}"
                                   for u in units)
                self.line(f"[b]{tr('Detached')}[/b]: {places}", 15)
                continue
            where = short_position(str((table.commander(name) or {}).get("at", "")))
            mark = " · [color=ffd54f]" + tr("commanded this turn") + "[/color]" if name in commanded else ""
            self.line(f"[b]{name}[/b] {where}{mark}: {faces}", 15)
