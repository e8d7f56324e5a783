"""Napoleon's Triumph sentences in the tablet's language: faces, positions, decisions, options,
menu entries, instruction steps and the rules' refusal titles.

Commanders keep their names as printed on the map (Bessières, St. Hilaire, Kollowrath, ...).
"""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_, Translator
from companion_app.i18n.triumph_texts import reason_text

SIDE_NAMES = {"french": N_("the French"), "allied": N_("the Allies")}
ARMY_NAMES = {"french": N_("French"), "allied": N_("Allies")}

# A decision of the attack sequence: the line the deciding tablet shows, then the other one's.
DECISIONS = {
    "command": (N_("Your turn: choose a command"), N_("{side} give their commands")),
    "response": (N_("Threat on {defence}: defend or retreat"), N_("defend or retreat")),
    "feint_or_press": (N_("Attack on {defence}: feint or press on"), N_("feint or press on")),
    "defence_leaders": (N_("Choose up to two units to lead the defence of {defence}"),
                        N_("choose defence leaders")),
    "attack": (N_("Attack on {defence}: choose the attacking commands and leaders"),
               N_("choose the attack")),
    "counter_attack": (N_("The attack on {defence} is winning: counter-attack?"),
                       N_("counter-attack or not")),
    "odd_loss": (N_("Which unit takes the odd loss?"), N_("choose who takes the odd loss")),
    "assign_losses": (N_("Share out the losses"), N_("share out the losses")),
    "retreat": (N_("Retreat from {defence}"), N_("retreat")),
    "occupy": (N_("{defence} is empty: occupy it?"), N_("occupy or not")),
    "regroup": (N_("Regroup: the unit each corps keeps"), N_("regroup")),
    "advance": (N_("Advance into the approach?"), N_("advance or not")),
}

# The rules' names in the referee's refusals ("nt-road: ...").
RULE_TITLES = {
    "nt-commands": N_("Commands"),
    "nt-movement": N_("Movement"),
    "nt-road": N_("Road movement"),
    "nt-capacity": N_("Capacity"),
    "nt-attack": N_("Attack"),
    "nt-leaders": N_("Leaders"),
    "nt-counter-attack": N_("Counter-attack"),
    "nt-retreat": N_("Retreat"),
    "nt-artillery": N_("Artillery"),
    "nt-guard": N_("Guard Attack"),
    "nt-fixed-battery": N_("Fixed battery"),
    "nt-reinforcement": N_("Reinforcements"),
    "nt-setup": N_("Set-up"),
    "nt-turn": N_("Turn"),
}


def face_text(tr: Translator, face: dict[str, Any] | None) -> str:
    """A block's face: "Infantry 3", "Guard Infantry 3", "Cavalry 2"; "a hidden block"."""
    if not face:
        return tr("a hidden block")
    strength = face.get("strength")
    if face.get("guard"):
        return tr("Guard Infantry {strength}").format(strength=strength)
    kind = {"infantry": tr("Infantry {strength}"), "cavalry": tr("Cavalry {strength}"),
            "artillery": tr("Artillery {strength}")}.get(str(face.get("type")), "{strength}")
    return kind.format(strength=strength)


def faces_text(tr: Translator, faces: list[dict[str, Any] | None]) -> str:
    """Several faces, strongest first, equal ones counted: "Infantry 3, Infantry 2 ×3"."""
    counts: dict[str, int] = {}
    for face in sorted(faces, key=lambda f: (-(f or {}).get("strength", 0), str((f or {}).get("type")))):
        text = face_text(tr, face)
        counts[text] = counts.get(text, 0) + 1
    return ", ".join(text if n == 1 else f"{text} \u00d7{n}" for text, n in counts.items())


def position_text(tr: Translator, position: str) -> str:
    """"R63" as "the reserve of 63", "64>63" as "the approach from 64 toward 63"."""
    if position.startswith("R"):
        return tr("the reserve of {locale}").format(locale=position[1:])
    locale, _, toward = position.partition(">")
    return tr("the approach from {locale} toward {toward}").format(locale=locale, toward=toward)


def short_position(position: str) -> str:
    """A position as on the map: "63" for a reserve, "64>63" for an approach."""
    return position[1:] if position.startswith("R") else position


def flag_text(tr: Translator, commander: str) -> str:
    """"Lannes' flag" (the English possessive of a name ending in s drops the s)."""
    return tr("{commander}'s flag").format(commander=commander).replace("s's flag", "s' flag")


def side_text(tr: Translator, side: str | None) -> str:
    """"the French" or "the Allies"."""
    return tr(SIDE_NAMES.get(side or "", "")) if side in SIDE_NAMES else ""


def unit_text(tr: Translator, unit: dict[str, Any] | None, with_corps: bool = True) -> str:
    """A unit of the view: its face (or "a hidden block"), and its corps or "detached"."""
    if unit is None:
        return tr("a hidden block")
    face = face_text(tr, unit.get("face"))
    if not with_corps:
        return face
    if unit.get("commander"):
        return tr("{face} of {commander}").format(face=face, commander=unit["commander"])
    return tr("{face}, detached").format(face=face)


def units_text(tr: Translator, ids: list[Any], units: dict[str, dict[str, Any]],
               with_corps: bool = False) -> str:
    """Several units by id: "Infantry 3, Cavalry 2 ×2" (with their corps: one by one)."""
    if not with_corps:
        return faces_text(tr, [(units.get(str(u)) or {}).get("face") for u in ids])
    return ", ".join(unit_text(tr, units.get(str(u)), with_corps) for u in ids)


def decision_text(tr: Translator, decision: str, attack: dict[str, Any] | None, mine: bool,
                  side: str | None) -> str:
    """The headline of the pending decision: what to do, or whom the tablet waits for."""
    own, other = DECISIONS.get(decision, (decision, decision))
    defence = str((attack or {}).get("defence_locale", ""))
    if mine:
        return tr(own).format(defence=defence, side=side_text(tr, side))
    if decision == "command":
        return tr("Waiting: {what}").format(what=tr(other).format(side=capital(side_text(tr, side))))
    return tr("Waiting for {side}: {what}").format(side=side_text(tr, side), what=tr(other))


def orders_text(tr: Translator, orders: list[dict[str, Any]], units: dict[str, dict[str, Any]]) -> str:
    """The commands of a feint, attack or occupation: "Lannes with Infantry 3, Infantry 2"."""
    parts = []
    for order in orders:
        if order.get("type") == "unit_move":
            parts.append(unit_text(tr, units.get(str(order.get("unit")))))
        else:
            parts.append(tr("{commander} with {units}").format(
                commander=order.get("commander"), units=units_text(tr, order.get("units", []), units)))
    return "; ".join(parts)


def _losses(tr: Translator, losses: dict[str, int], units: dict[str, dict[str, Any]]) -> str:
    return ", ".join(tr("{unit} loses {steps}").format(unit=unit_text(tr, units.get(u), False),
                                                        steps=n) for u, n in losses.items() if n)


def option_text(tr: Translator, option: dict[str, Any], units: dict[str, dict[str, Any]]) -> str:
    """One legal answer to a decision of the attack sequence, as a sentence."""
    kind = option.get("type")
    named = lambda key: units_text(tr, option.get(key) or [], units)  # noqa: E731
    if kind == "defend":
        return tr("Defend with {units}").format(units=named("units"))
    if kind == "retreat":
        places: dict[str, list[str]] = {}
        for unit, locale in (option.get("to") or {}).items():
            places.setdefault(str(locale), []).append(unit)
        where = "; ".join(tr("{units} to {locale}").format(units=units_text(tr, us, units), locale=loc)
                          for loc, us in places.items())
        text = tr("Retreat: {moves}").format(moves=where) if where else tr("Retreat (nothing is left)")
        if option.get("losses"):
            text += ". " + tr("Losses: {losses}").format(losses=_losses(tr, option["losses"], units))
        return text
    if kind == "press":
        return tr("Press on with the attack")
    if kind == "feint":
        end = tr("end in the approach") if option.get("end") == "approach" else tr("end in the reserve")
        return tr("Feint with {orders} ({end})").format(
            orders=orders_text(tr, option.get("orders") or [], units), end=end)
    if kind == "defence_leaders":
        if not option.get("units"):
            return tr("No defence leaders")
        return tr("Lead the defence with {units}").format(units=named("units"))
    if kind == "attack":
        text = tr("Attack with {orders}").format(orders=orders_text(tr, option.get("orders") or [], units))
        if option.get("wide"):
            text += ", " + tr("wide")
        if option.get("leaders"):
            text += ", " + tr("led by {units}").format(units=named("leaders"))
        if option.get("engage"):
            text += ", " + tr("engaging {unit}").format(unit=unit_text(tr, units.get(option["engage"]), False))
        return text
    if kind == "counter_attack":
        if not option.get("units"):
            return tr("No counter-attack")
        return tr("Counter-attack with {units}").format(units=named("units"))
    if kind == "odd_loss":
        return tr("{unit} takes the odd loss").format(unit=unit_text(tr, units.get(str(option.get("unit")))))
    if kind == "assign_losses":
        return tr("Losses: {losses}").format(losses=_losses(tr, option.get("allocation") or {}, units))
    if kind == "occupy":
        return tr("Occupy with {orders}").format(orders=orders_text(tr, option.get("orders") or [], units))
    if kind == "regroup":
        keeps = ", ".join(tr("{commander} keeps {unit}").format(
            commander=c, unit=unit_text(tr, units.get(u), False)) for c, u in (option.get("keep") or {}).items())
        return tr("Regroup: {keeps}").format(keeps=keeps)
    if kind == "advance":
        text = tr("Advance {units}").format(units=named("units"))
        if option.get("commanders"):
            text += " " + tr("with {commanders}").format(commanders=", ".join(option["commanders"]))
        return text
    if kind == "end_turn":
        return tr("End turn")
    return str(kind)


def menu_text(tr: Translator, entry: dict[str, Any], units: dict[str, dict[str, Any]]) -> str:
    """One entry of the command menu, as a button's words."""
    kind = entry.get("type")
    if kind == "end_turn":
        return tr("End turn")
    if kind == "corps_move" and entry.get("entry"):
        return tr("{commander} enters at {entry}").format(commander=entry.get("commander"),
                                                         entry=entry["entry"])
    if kind == "corps_move":
        return tr("Move the corps of {commander}").format(commander=entry.get("commander"))
    if kind == "detach_move":
        return tr("Detach units from {commander}").format(commander=entry.get("commander"))
    if kind == "unit_move":
        first = units.get(str((entry.get("units") or [""])[0])) or {}
        return tr("Move one unit at {position}").format(position=short_position(str(first.get("at", "?"))))
    if kind == "attach":
        return tr("Attach a unit to {commander}").format(commander=entry.get("commander"))
    if kind == "threat":
        text = tr("Threaten {into} from {start}").format(into=entry.get("into"), start=entry.get("from"))
        if entry.get("guard"):
            text += " " + tr("(Guard Attack possible)")
        return text
    return str(kind)


def destination_text(tr: Translator, dest: Any) -> str:
    """A destination of the menu, short for a button: "reserve 63", "approach from 64 toward
    63", "reserve 63 by road (64-63)"."""
    if isinstance(dest, dict):
        road = "-".join(str(n) for n in dest.get("road", ()))
        return tr("{position} by road ({road})").format(position=destination_text(tr, str(dest.get("to"))),
                                                        road=road)
    position = str(dest)
    if position.startswith("R"):
        return tr("reserve {locale}").format(locale=position[1:])
    locale, _, toward = position.partition(">")
    return tr("approach from {locale} toward {toward}").format(locale=locale, toward=toward)


def command_summary(tr: Translator, action: dict[str, Any], units: dict[str, dict[str, Any]]) -> str:
    """The command about to be given, as a sentence."""
    kind = action.get("type")
    end = position_text(tr, str(action.get("to", "")))
    if action.get("road"):
        end += " " + tr("by road ({road})").format(road="-".join(str(n) for n in action["road"]))
    if kind == "corps_move":
        return tr("{commander} with {units} to {end}").format(
            commander=action.get("commander"), units=units_text(tr, action.get("units") or [], units), end=end)
    if kind == "detach_move":
        return tr("{units} of {commander} to {end}, detached").format(
            commander=action.get("commander"), units=units_text(tr, action.get("units") or [], units), end=end)
    if kind == "unit_move":
        return tr("{unit} to {end}").format(unit=unit_text(tr, units.get(str(action.get("unit")))), end=end)
    if kind == "attach":
        return tr("{unit} joins the corps of {commander}").format(
            unit=unit_text(tr, units.get(str(action.get("unit")))), commander=action.get("commander"))
    if kind == "threat":
        text = tr("Threaten {into} from {start}").format(into=action.get("into"), start=action.get("from"))
        if action.get("guard"):
            text += ", " + tr("with a Guard Attack by {unit}").format(
                unit=unit_text(tr, units.get(str(action["guard"])), False))
        return text
    return tr("End your turn")


def capital(text: str) -> str:
    """The text with its first letter upper-case (the rest untouched: "The Allies")."""
    return text[:1].upper() + text[1:]


def missing_text(tr: Translator, missing: str | None) -> str:
    """What the player still has to choose for the command being composed."""
    return {"units": tr("Tick the units that go."), "unit": tr("Choose the unit."),
            "destination": tr("Choose where to go (on the map or below)."),
            }.get(missing or "", "")


def step_text(tr: Translator, step: dict[str, Any]) -> str:
    """One physical instruction for the player's own blocks."""
    kind = step.get("step")
    commander = step.get("commander")
    faces = faces_text(tr, step.get("faces") or [])
    if kind == "move":
        values = {"faces": faces, "start": short_position(str(step.get("from"))),
                  "end": position_text(tr, str(step.get("to")))}
        if step.get("flag") and commander:
            return tr("Move {flag} and your {faces} from {start} to {end}").format(
                flag=flag_text(tr, commander), **values)
        if commander:
            return tr("Move your {faces} of {commander} from {start} to {end}").format(
                commander=commander, **values)
        return tr("Move your {faces} from {start} to {end}").format(**values)
    if kind == "enter":
        return tr("Bring {flag} and your {faces} onto the map at {entry}, to {end}").format(
            flag=flag_text(tr, str(commander)), faces=faces, entry=step.get("entry"),
            end=position_text(tr, str(step.get("to"))))
    at = short_position(str(step.get("at")))
    if kind == "replace":
        values = {"before": face_text(tr, step.get("before")), "after": face_text(tr, step.get("after")),
                  "at": at}
        if commander:
            return tr("Replace one {before} of {commander} at {at} with one {after}").format(
                commander=commander, **values)
        return tr("Replace the {before} at {at} with one {after}").format(**values)
    if kind == "remove":
        face = face_text(tr, step.get("face"))
        if commander:
            return tr("Remove one {face} of {commander} at {at}").format(face=face, commander=commander, at=at)
        return tr("Remove the {face} at {at}").format(face=face, at=at)
    if kind == "remove_flag":
        return tr("Take {flag} off the map at {at}").format(flag=flag_text(tr, str(commander)), at=at)
    if kind == "show":
        return tr("Show your {faces} at {at} to your opponent").format(faces=faces, at=at)
    if kind == "attach":
        return tr("Your {face} at {at} joins the corps of {commander}").format(
            face=face_text(tr, step.get("face")), at=at, commander=commander)
    return str(kind)


def refusal_title(tr: Translator, rule: str) -> str:
    """The rule a refusal names, as a title ("Road movement")."""
    return tr(RULE_TITLES[rule]) if rule in RULE_TITLES else rule


def commands_text(tr: Translator, left: dict[str, int | None]) -> str:
    """This turn's commands left: "Corps commands left: 3 of 5 · Independent commands left: 2 of 3"
    (the French: "unlimited, 4 of 6 commanders used")."""
    used, limit = left.get("corps_used") or 0, left.get("corps_limit")
    if limit is None:
        corps = tr("Corps commands: unlimited ({used} of {commanders} commanders used)").format(
            used=used, commanders=left.get("commanders"))
    else:
        corps = tr("Corps commands left: {left} of {limit}").format(left=max(0, limit - used), limit=limit)
    single = left.get("independent_limit") or 0
    independent = tr("Independent commands left: {left} of {limit}").format(
        left=max(0, single - (left.get("independent_used") or 0)), limit=single)
    return f"{corps} · {independent}"


def hour_text(tr: Translator, round_: int | None) -> str:
    """The time track, 24-hour as every language writes it: round 7 is 7:00, 13 is 13:00."""
    return "" if round_ is None else f"{round_}:00"


def result_line(tr: Translator, result: dict[str, Any] | None, side: str | None) -> str:
    """The end of the game for this tablet."""
    if not result:
        return ""
    winner = result.get("winner")
    head = tr("You won!") if winner == side else tr("{side} won.").format(
        side=capital(side_text(tr, winner)))
    return f"{head} ({reason_text(tr, result)})"
