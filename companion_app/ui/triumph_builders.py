"""The panel of an answer built block by block on the NT tablet: a retreat, a loss allocation,
a feint, an attack or an occupation, the blocks a player names (defence leaders,
counter-attackers, the advance, the regroup). The drafts live in companion_app/model
(triumph_answers.py, triumph_orders.py); this module only lays their buttons out and words
what the engine says is still wrong."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp, sp

from companion_app.i18n.catalog import N_
from companion_app.i18n.triumph_refusals import refusal_sentence
from companion_app.i18n.triumph_tablet_texts import capital, option_text, short_position, unit_text
from companion_app.model.triumph_answers import LossDraft, RetreatDraft
from companion_app.model.triumph_orders import OrdersDraft, PickDraft
from companion_app.ui.widgets import BigButton

TICK = "\u2022 "  # the font has no check mark
ORDERS_HOW = {
    "feint_or_press": N_("Tap the blocks that feint, then where they stop: on the approach or "
                         "in the reserve (on the map or below)."),
    "attack": N_("Tap the blocks that attack, then the ones that lead."),
    "occupy": N_("Tap the blocks that move into {locale} (a tap on the map takes every block "
                 "standing there)."),
}
PICK_HOW = {
    "defence_leaders": N_("Tap up to two blocks to lead the defence (none is an answer too)."),
    "counter_attack": N_("Tap up to two blocks to counter-attack (none is an answer too)."),
    "advance": N_("Tap the blocks that advance to block the approach."),
    "regroup": N_("Tap the block each corps keeps; the others stand detached."),
}
BUILD_LABELS = {
    "retreat": N_("Plan the retreat block by block, on the map"),
    "losses": N_("Place the losses block by block"),
    "orders": N_("Build the orders block by block, on the map"),
    "pick": N_("Choose the blocks one by one"),
}


def build_label(tr: Any, kind: str) -> str:
    """The button that starts building an answer of this kind."""
    return tr(BUILD_LABELS[kind])


def fill_builder(screen: Any, tr: Any, draft: Any, units: dict[str, dict[str, Any]]) -> None:
    """The draft's blocks in the screen's panel; what is still wrong, and Send / Back, in its
    footer, in sight however many blocks the draft lists."""
    screen.draft_buttons = {}
    if isinstance(draft, RetreatDraft):
        ready, label = _retreat(screen, tr, draft, units), tr("Send this retreat")
    elif isinstance(draft, LossDraft):
        ready, label = _losses(screen, tr, draft, units), tr("Send these losses")
    elif isinstance(draft, OrdersDraft):
        ready, label = _orders(screen, tr, draft, units), tr("Send this answer")
    elif isinstance(draft, PickDraft):
        ready, label = _pick(screen, tr, draft, units), tr("Send this answer")
    else:
        return
    screen.draft_send, _ = screen.row((label, screen.send_draft, "primary"),
                                      (tr("Back"), screen.back, "normal"), footer=True)
    screen.draft_send.disabled = not ready


def _said(screen: Any, tr: Any, problem: Any, units: dict[str, dict[str, Any]],
          fine: str) -> bool:
    """The engine's verdict on the draft as a line; True when nothing is wrong."""
    if problem is None:
        text = "[color=a5d6a7]" + fine + "[/color]"
    else:
        text = "[color=ffd54f]" + refusal_sentence(tr, {
            "rule": problem.rule, "message": problem.message, "reason": problem.reason,
            "data": problem.data}, units) + "[/color]"
    screen.draft_problem = screen.line(text, 15, footer=True)
    return problem is None


def _do(screen: Any, act: Any, *args: Any) -> Any:
    return partial(screen._draft_do, act, *args)


def _grid_button(screen: Any, grid: Any, text: str, action: Any, chosen: bool) -> BigButton:
    button = BigButton(text=(TICK if chosen else "") + text, height=dp(44), font_size=sp(15),
                       role="primary" if chosen else "normal")
    button.bind(on_release=lambda *_: action())
    grid.add_widget(button)
    return button


# -- a retreat and a loss allocation -------------------------------------------------------------
def _retreat(screen: Any, tr: Any, draft: RetreatDraft, units: dict[str, dict[str, Any]]) -> bool:
    screen.line(tr("Tap a block, then a green locale on the map to send it there. "
                   "Each block that must take losses has a button for one more step."), 15)
    for unit in draft.plan.units:
        _retreat_unit(screen, tr, draft, unit, units)
    return _said(screen, tr, draft.problem(), units, tr("This retreat follows the rules."))


def _retreat_unit(screen: Any, tr: Any, draft: RetreatDraft, unit: str,
                  units: dict[str, dict[str, Any]]) -> None:
    face = unit_text(tr, units.get(unit), with_corps=False)
    lost = draft.losses.get(unit, 0)
    if unit in draft.plan.artillery:
        state = tr("eliminated (artillery does not retreat)")
    elif lost >= draft.strength(unit):
        state = tr("eliminated")
    else:
        where = draft.to.get(unit)
        state = (tr("loses {steps}").format(steps=lost) + " · " if lost else "") + (
            tr("to {locale}").format(locale=where) if where else tr("not placed yet"))
    kept = [n for n, u in draft.keep.items() if u == unit]
    if kept:
        state += " · " + tr("keeps {commander}").format(commander=kept[0])
    chosen = draft.selected == unit
    screen.draft_buttons[unit] = screen.button(
        ("▶ " if chosen else "") + f"{face} · {state}", _do(screen, draft.tap_unit, unit),
        "primary" if chosen else "normal", 48, 15)
    if not chosen:
        return
    actions = []
    if draft.loses(unit):
        actions.append((tr("One more step lost"), _do(screen, draft.add_loss, unit), "normal"))
    commander = (units.get(unit) or {}).get("commander")
    if commander in draft.plan.commanders and unit in draft.survivors():
        actions.append((tr("Keeps {commander}").format(commander=commander),
                        _do(screen, draft.keep_with, commander, unit), "normal"))
    if actions:
        screen.row(*actions)


def _losses(screen: Any, tr: Any, draft: LossDraft, units: dict[str, dict[str, Any]]) -> bool:
    screen.line(tr("Tap a block once for each step it loses."), 15)
    for unit in draft.group:
        lost = draft.allocation.get(unit, 0)
        text = tr("{unit}: {steps} lost").format(
            unit=unit_text(tr, units.get(unit), with_corps=False), steps=lost)
        screen.draft_buttons[unit] = screen.button(text, _do(screen, draft.add_loss, unit),
                                                   "primary" if lost else "normal", 48, 15)
    screen.draft_problem = screen.line(
        tr("Steps left to place: {left}").format(left=draft.left()), 15)
    return draft.answer() is not None


# -- the attacker's orders -----------------------------------------------------------------------
def _orders(screen: Any, tr: Any, draft: OrdersDraft, units: dict[str, dict[str, Any]]) -> bool:
    screen.line(tr(ORDERS_HOW[draft.decision]).format(locale=draft.defence_locale), 15)
    for unit in draft.blocks():
        going = unit in draft.picked
        state = tr("goes") if going else tr("stays")
        if unit in draft.leaders:
            state += " · " + tr("leads")
        where = short_position(draft.starts[unit])
        screen.draft_buttons[unit] = screen.button(
            (TICK if going else "") + f"{unit_text(tr, units.get(unit))} ({where}) · {state}",
            _do(screen, draft.tap, unit), "primary" if going else "normal", 48, 15)
    corps = sorted({c for u in draft.picked if (c := draft.corps.get(u)) is not None})
    if corps:
        grid = screen.grid(1)
        for commander in corps:
            text = (tr("{commander}: block by block (independent commands)")
                    if commander in draft.alone
                    else tr("{commander}: by one Corps Move")).format(commander=commander)
            screen.draft_buttons[f"corps:{commander}"] = _grid_button(
                screen, grid, text, _do(screen, draft.go_alone, commander), False)
    for unit in draft.picked:  # a rider with more than one road: which one
        if len(draft.roads.get(unit, [])) > 1:
            grid = screen.grid(3)
            for road in draft.roads[unit]:
                text = tr("by road {road}").format(road="-".join(map(str, road)))
                _grid_button(screen, grid, text, _do(screen, draft.choose_road, unit, road),
                             draft.road.get(unit) == road)
            break
    if draft.decision == "feint_or_press":
        grid = screen.grid(2)
        for end, words in (("approach", tr("end in the approach")),
                           ("reserve", tr("end in the reserve"))):
            screen.draft_buttons[f"end:{end}"] = _grid_button(
                screen, grid, capital(words), _do(screen, setattr, draft, "end", end),
                draft.end == end)
    if draft.decision == "attack":
        _attack_choices(screen, tr, draft, units)
    answer = draft.answer()
    fine = option_text(tr, answer, units) if answer else ""
    return _said(screen, tr, draft.problem(), units, fine)


def _attack_choices(screen: Any, tr: Any, draft: OrdersDraft,
                    units: dict[str, dict[str, Any]]) -> None:
    """Who leads, how wide, and which defence leader a narrow attack engages."""
    if draft.picked:
        screen.line(tr("Leaders (tap):"), 15)
        grid = screen.grid(2)
        for unit in draft.picked:
            screen.draft_buttons[f"lead:{unit}"] = _grid_button(
                screen, grid, unit_text(tr, units.get(unit), with_corps=False),
                _do(screen, draft.lead, unit), unit in draft.leaders)
    if draft.wide_border():
        grid = screen.grid(2)
        screen.draft_buttons["wide"] = _grid_button(
            screen, grid, tr("Wide attack"), _do(screen, draft.toggle_wide), draft.wide)
    leaders = draft.defence_leaders()
    if len(leaders) == 2 and not draft.wide:
        screen.line(tr("Engage one defence leader:"), 15)
        grid = screen.grid(2)
        for unit in leaders:
            _grid_button(screen, grid, unit_text(tr, units.get(unit), with_corps=False),
                         _do(screen, draft.engage_with, unit), draft.engage == unit)


# -- blocks named one by one ---------------------------------------------------------------------
def _pick(screen: Any, tr: Any, draft: PickDraft, units: dict[str, dict[str, Any]]) -> bool:
    screen.line(tr(PICK_HOW[draft.decision]), 15)
    for unit in draft.candidates:
        chosen = unit in draft.picked or unit in draft.keep.values()
        screen.draft_buttons[unit] = screen.button(
            (TICK if chosen else "") + unit_text(tr, units.get(unit)),
            _do(screen, draft.tap, unit), "primary" if chosen else "normal", 48, 15)
    return _said(screen, tr, draft.problem(), units, option_text(tr, draft.answer(), units))
