"""Napoleon's Triumph set-up: the side's army by corps, starting from the standard set-up; move a
unit to another corps or (French) detach it to a position, then send it to the referee."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from companion_app.i18n.triumph_refusals import refusal_sentence
from companion_app.i18n.triumph_tablet_texts import (
    ARMY_NAMES,
    face_text,
    short_position,
)
from companion_app.model.table import TableState
from companion_app.model.triumph_setup import TriumphSetupDraft
from companion_app.model.triumph_table import SIDE_OF_SEAT
from companion_app.ui.triumph_panel import MapPanelScreen
from companion_app.ui.widgets import BigButton, WrapLabel


def draft_view(draft: TriumphSetupDraft) -> dict[str, Any]:
    """The draft as a view of the side's own pieces, for the map."""
    units = [{"id": u["id"], "side": draft.side, "at": u.get("at"), "commander": u.get("commander"),
              "face": {"type": u["type"], "strength": u["strength"], "guard": bool(u.get("guard"))}}
             for u in draft.units if u.get("at")]
    commanders = [{"name": name, "side": draft.side, "at": draft.where(name),
                   "units": sum(1 for u in draft.units if u.get("commander") == name)}
                  for name in draft.commanders()]
    return {"game": "napoleons-triumph", "viewer": draft.side, "units": units,
            "commanders": commanders, "round": 7, "awaiting": None, "result": None}


class TriumphSetupScreen(MapPanelScreen):
    """Arrange and send one side's set-up; after acceptance, wait for the other side."""

    def __init__(self, root: Any, **kwargs: Any):
        super().__init__(root, "triumph_setup", **kwargs)
        self.draft: TriumphSetupDraft | None = None
        self.selected: str | None = None
        self.position_input = TextInput(multiline=False, hint_text="R65", font_size=sp(18),
                                        size_hint_x=0.35)
        self.map.on_position = self._map_position

    def begin(self, seat: str | None, accepted: dict[str, Any] | None) -> None:
        """Begin from the standard set-up of the seat's side (or the accepted one); keeps a draft
        already begun for that side."""
        side = SIDE_OF_SEAT.get(seat or "")
        if side is None:
            return
        if accepted is not None and (self.draft is None or self.draft.setup != accepted):
            self.draft = TriumphSetupDraft(side, accepted)
        elif self.draft is None or self.draft.side != side:
            self.draft = TriumphSetupDraft(side)
            self.selected = None

    # -- the player's taps ----------------------------------------------------------------------
    def _select(self, unit_id: str) -> None:
        self.selected = None if self.selected == unit_id else unit_id
        self.refresh(self.root_app.state)

    def _to_corps(self, commander: str) -> None:
        if self.draft is not None and self.selected is not None:
            self.draft.move_to_corps(self.selected, commander)
            self.selected = None
        self.refresh(self.root_app.state)

    def _map_position(self, position: str) -> None:
        if self.draft is not None and self.draft.side == "french":  # the Allies detach nothing
            self.position_input.text = position
            self._detach()

    def _detach(self) -> None:
        position = self.position_input.text.strip()
        if self.draft is not None and self.selected is not None and position:
            self.draft.detach(self.selected, position if not position.isdigit() else f"R{position}")
            self.selected = None
        self.refresh(self.root_app.state)

    def _battery(self) -> None:
        if self.draft is not None and self.selected is not None:
            self.draft.set_battery(self.selected)
            self.selected = None
        self.refresh(self.root_app.state)

    def standard(self) -> None:
        """Start again from the standard set-up."""
        if self.draft is not None:
            self.draft = TriumphSetupDraft(self.draft.side)
            self.selected = None
        self.root_app.state.setup_errors = []  # the refusal was about the set-up just dropped
        self.root_app.state.setup_refusals = []
        self.refresh(self.root_app.state)

    def submit(self) -> None:
        """Send the set-up to the referee."""
        if self.draft is not None:
            self.root_app.state.setup_errors = []
            self.root_app.state.setup_refusals = []
            self.root_app.command("setup", {"setup": self.draft.to_setup()})

    # -- drawing --------------------------------------------------------------------------------
    def refresh(self, state: TableState) -> None:
        """Redraw the army, the checks and the buttons."""
        tr = self.root_app.tr
        accepted = state.triumph.setup is not None and state.phase == "placing"
        self.begin(state.seat, state.triumph.setup if accepted else None)
        draft = self.draft
        self.clear()
        if draft is None:
            return
        self.map.show(draft_view(draft))
        army = tr(ARMY_NAMES[draft.side])
        self.heading(tr("Your set-up: {army}").format(army=army), 22)
        if accepted:
            self.line("[color=a5d6a7]" + tr("The referee accepted your set-up.") + "[/color]", 18)
            self.heading(tr("Waiting for the other side to send its set-up."), 18)
        else:
            self._controls(tr, state, draft)
        for commander, units in draft.corps():
            self._corps(tr, draft, commander, units, locked=accepted)

    def _controls(self, tr: Any, state: TableState, draft: TriumphSetupDraft) -> None:
        hint = (tr("Tap a unit, then a corps to move it there, or a place on the map (or type "
                   "it) to detach it.") if draft.side == "french"
                else tr("Tap a unit, then a corps to move it there."))
        self.line(hint, 15)
        problem = draft.problem()
        objection = draft.objection()
        units = {str(u.get("id")): u for u in draft.units}  # how refusals name the blocks
        if objection is not None:
            self.line("[color=ffd54f]" + tr("Not allowed yet:") + " "
                      + refusal_sentence(tr, objection, units) + "[/color]", 15)
        else:
            self.line("[color=a5d6a7]" + tr("Your set-up follows the rules.") + "[/color]", 15)
        worded = {str(r.get("message")): r for r in state.setup_refusals if r.get("reason")}
        for error in state.setup_errors:
            # the referee's message is English: say it from its reason, or point at the objection
            if objection is not None and error == objection["message"]:
                said = tr("The referee refused your set-up for this reason.")
            elif error in worded:
                said = tr("The referee refused your set-up:") + " " + refusal_sentence(tr, worded[error], units)
            else:
                said = tr("The referee refused your set-up:") + " " + error
            self.line("[color=ff8a80]" + said + "[/color]", 15)
        self.submit_button, _ = self.row((tr("Send set-up"), self.submit, "primary"),
                                         (tr("Standard set-up"), self.standard, "normal"))
        self.submit_button.disabled = problem is not None
        if self.selected is None:
            return
        chosen = face_text(tr, draft.unit(self.selected))
        self.line("[color=ffd54f]" + tr("{unit} chosen: tap a corps to move it there.").format(
            unit=chosen) + "[/color]", 15)
        if draft.side != "french":
            return
        box = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(6))
        if self.position_input.parent is not None:
            self.position_input.parent.remove_widget(self.position_input)
        box.add_widget(self.position_input)
        detach = BigButton(text=tr("Detach here"), height=dp(52), font_size=sp(16))
        detach.bind(on_release=lambda *_: self._detach())
        box.add_widget(detach)
        if draft.unit(self.selected).get("type") == "artillery":
            battery = BigButton(text=tr("Fixed battery"), height=dp(52), font_size=sp(16))
            battery.bind(on_release=lambda *_: self._battery())
            box.add_widget(battery)
        self.panel.add_widget(box)

    def _corps(self, tr: Any, draft: TriumphSetupDraft, commander: str | None,
               units: list[dict[str, Any]], locked: bool) -> None:
        where = draft.where(commander) if commander is not None else None
        if commander is None:
            title = tr("Detached")
        elif where is None:
            title = tr("{commander}, off the map (reinforcement): {count} units").format(
                commander=commander, count=len(units))
        else:
            title = tr("{commander} at {place}: {count} units").format(
                commander=commander, place=short_position(where), count=len(units))
        if commander is not None and self.selected is not None and not locked:
            row = BoxLayout(size_hint_y=None, height=dp(44), spacing=dp(6))
            row.add_widget(WrapLabel(text=f"[b]{title}[/b]", font_size=sp(16), size_hint_y=1))
            move = BigButton(text=tr("Move it here"), role="warn", height=dp(44), font_size=sp(15),
                             size_hint_x=0.4)
            move.bind(on_release=lambda *_, c=commander: self._to_corps(c))
            row.add_widget(move)
            self.panel.add_widget(row)
        else:
            self.line(f"[b]{title}[/b]", 16)
        grid = GridLayout(cols=4, spacing=dp(4), size_hint_y=None, row_force_default=True,
                          row_default_height=dp(44))
        grid.bind(minimum_height=grid.setter("height"))
        # Columns from the width: a German "Garde-Infanterie 3" needs about 110dp a button.
        grid.bind(width=lambda *_: setattr(grid, "cols", max(2, min(4, int(grid.width // dp(110))))))
        for unit in units:
            label = face_text(tr, unit)
            if commander is None:
                label += " " + short_position(str(unit.get("at")))
                if draft.setup.get("fixed_battery") == unit["id"]:
                    label += " " + tr("(fixed battery)")
            chosen = unit["id"] == self.selected
            button = BigButton(text=label, height=dp(44), font_size=sp(14),
                               role="primary" if chosen else "normal")
            button.disabled = locked
            button.bind(on_release=lambda *_, u=unit["id"]: self._select(u))
            grid.add_widget(button)
        self.panel.add_widget(grid)
