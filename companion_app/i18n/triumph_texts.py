"""Napoleon's Triumph sentences for the map and the referee display, in the tablet's language.

Each function reads the engine's view (TriumphView.to_dict()) and says one thing about it.
(The tablet's game screen adds its own sentences; names here are chosen not to clash.)
"""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_, Translator
from companion_app.model.triumph_board import face_code

MAP_LEGEND = N_("How to read the map: 63 is locale 63 (tan: a hill; coloured dots: its "
                "objectives). 64>63 is the approach from 64 toward 63: the dark bar on their "
                "border, a long one on a wide border. A coloured chip counts one side's blocks "
                "there, its commanders' flags beside it. Red edge: impassable; X: approach closed. "
                "Pinch or drag the map to look closer.")
AWAITED = {
    "command": N_("give commands"),
    "response": N_("defend or retreat"),
    "feint_or_press": N_("feint or press the attack"),
    "defence_leaders": N_("choose the defence leaders"),
    "attack": N_("choose the attackers and their leaders"),
    "counter_attack": N_("counter-attack or not"),
    "odd_loss": N_("choose who takes the odd loss"),
    "assign_losses": N_("share out the losses"),
    "retreat": N_("retreat"),
    "occupy": N_("occupy the defence locale"),
    "regroup": N_("regroup the repulsed corps"),
    "advance": N_("advance the defenders"),
}
STEPS = {
    "response": N_("threat: the defender answers"),
    "feint_or_press": N_("the attacker feints or presses"),
    "defence_leaders": N_("the defender picks leaders"),
    "attack": N_("the attacker commits"),
    "counter_attack": N_("counter-attack?"),
    "odd_loss": N_("the odd loss"),
    "assign_losses": N_("losses"),
    "retreat": N_("the defender retreats"),
    "occupy": N_("the attacker occupies"),
    "regroup": N_("the attacker regroups"),
    "advance": N_("the defenders advance"),
}
TYPE_NAMES = {"infantry": N_("Inf"), "cavalry": N_("Cav"), "artillery": N_("Art")}


def side_name(tr: Translator, side: str | None) -> str:
    """"the French" or "the Allies" in the current language (as a sentence subject)."""
    return {"french": tr("the French"), "allied": tr("the Allies")}.get(side or "", tr("nobody"))


def army_name(tr: Translator, side: str | None) -> str:
    """"French" or "Allies" as a heading."""
    return {"french": tr("French"), "allied": tr("Allies")}.get(side or "", "")


def track_hour_text(tr: Translator, hour: int) -> str:
    """The time track's label of an hour, 24-hour in every language: 7:00 ... 16:00."""
    return f"{hour}:00"


def face_words(tr: Translator, face: dict[str, Any] | None) -> str:
    """A block's face as a player says it: "Inf-3", "Guard Inf-3", "?" when hidden."""
    if not face:
        return "?"
    name = f"{tr(TYPE_NAMES.get(face.get('type', ''), face_code(face)))}-{face.get('strength')}"
    return tr("Guard {block}").format(block=name) if face.get("guard") else name


def turn_text(tr: Translator, view: dict[str, Any]) -> str:
    """"9:00: turn of the Allies"; "Game over" once there is a result."""
    if view.get("result"):
        return tr("Game over")
    return tr("{time}: turn of {side}").format(time=track_hour_text(tr, view.get("round", 0)),
                                               side=side_name(tr, view.get("to_move")))


def waiting_text(tr: Translator, view: dict[str, Any]) -> str:
    """Who the game waits for and what they decide: "Waiting for the French: defend or retreat"."""
    awaiting = view.get("awaiting")
    if not awaiting:
        return ""
    decision = awaiting.get("decision", "")
    what = tr(AWAITED[decision]) if decision in AWAITED else decision
    return tr("Waiting for {side}: {decision}").format(side=side_name(tr, awaiting.get("side")),
                                                       decision=what)


def commands_used_text(tr: Translator, view: dict[str, Any]) -> str:
    """The commands used in the turn so far."""
    commands = view.get("commands", {})
    return tr("Commands this turn: {corps} corps, {independent} independent").format(
        corps=commands.get("corps", 0), independent=commands.get("independent", 0))


def off_map_text(tr: Translator, names: list[str]) -> str:
    """Commanders still off the map (reinforcements)."""
    return tr("Off the map: {names}").format(names=", ".join(names)) if names else ""


def attack_lines(tr: Translator, view: dict[str, Any]) -> list[str]:
    """The attack panel: where, its step, every revealed face by role, the results."""
    attack = view.get("attack")
    if not attack:
        return []
    faces = {u["id"]: u.get("face") for u in view.get("units", ())}
    lines = [tr("{side} attack from {start} into {target}").format(
        side=army_name(tr, attack.get("attacker")), start=attack.get("attack_locale"),
        target=attack.get("defence_locale"))]
    step = attack.get("step", "")
    lines.append(tr("Step: {step}").format(step=tr(STEPS[step]) if step in STEPS else step))
    roles = (("defenders", N_("Defenders")), ("defence_leaders", N_("Defence leaders")),
             ("attackers", N_("Attackers")), ("attack_leaders", N_("Attack leaders")),
             ("counter_attackers", N_("Counter-attack")))
    for key, title in roles:
        ids = attack.get(key) or []
        if ids:
            words = ", ".join(face_words(tr, faces.get(i)) for i in ids)
            lines.append(f"{tr(title)} ({len(ids)}): {words}")
    if attack.get("final") is not None:
        lines.append(tr("Result: {initial} at first, {final} in the end").format(
            initial=_signed(attack["initial"]), final=_signed(attack["final"])))
    elif attack.get("initial") is not None:
        lines.append(tr("Result so far: {initial}").format(initial=_signed(attack["initial"])))
    winner = attack.get("winner")
    if winner:
        lines.append(tr("The attacker wins") if winner == "attacker" else tr("The defender holds"))
    return lines


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)


def result_lines(tr: Translator, result: dict[str, Any] | None) -> list[str]:
    """The end of the game: who won and why."""
    if not result:
        return []
    winner = result.get("winner")
    head = (tr("{side} win").format(side=army_name(tr, winner)) if winner
            else tr("The game is drawn"))
    return [head, reason_text(tr, result)]


def reason_text(tr: Translator, result: dict[str, Any]) -> str:
    """Why the game ended, in the tablet's language (the engine's own `why` is English)."""
    reason, winner = result.get("reason"), result.get("winner")
    loser = "allied" if winner == "french" else "french"
    if reason == "demoralised":  # one sentence a side: German and Bulgarian decline the name
        return tr("The French army is demoralised." if loser == "french"
                  else "The Allied army is demoralised.")
    if reason == "objectives":
        return tr("Decided on the objectives at the end of the day.")
    if reason == "resignation":
        return _first_capital(tr("{side} resigned.").format(side=side_name(tr, loser)))
    if reason == "time":
        return _first_capital(tr("{side} ran out of time.").format(side=side_name(tr, loser)))
    if reason == "game-time":
        return tr("The agreed game time ran out.")
    if reason == "agreed":
        return tr("The players agreed to end the game.")
    return str(result.get("why") or reason or "")


def end_lines(tr: Translator, view: dict[str, Any], side: str | None) -> list[tuple[str, str]]:
    """The end of a battle as (kind, text) lines: "head" who won, "why", "morale", "objectives"
    (each army's objective locales held, when the objectives decided), "time", "saved"."""
    result = view.get("result") or {}
    winner = result.get("winner")
    if winner is None:
        head = tr("The battle ends without a winner.")
    elif winner == side:
        head = tr("You won the battle!")
    elif side is not None:
        head = tr("Your army lost the battle.")
    else:
        head = tr("{side} win").format(side=army_name(tr, winner))
    lines = [("head", head)]
    if side is not None and winner is not None and winner != side or side is None and winner:
        lines.append(("winner", tr("{side} win").format(side=army_name(tr, winner))))
    lines.append(("why", reason_text(tr, result)))
    morale = view.get("morale") or {}
    lines.append(("morale", tr("Morale at the end: French {french} · Allies {allied}").format(
        french=morale.get("french", "?"), allied=morale.get("allied", "?"))))
    control = result.get("control") or {}
    for army in ("french", "allied"):
        if army in control:
            held = ", ".join(str(n) for n in control[army]) or tr("none")
            text = (tr("Objectives the French hold: {locales}") if army == "french"
                    else tr("Objectives the Allies hold: {locales}"))
            lines.append(("objectives", text.format(locales=held)))
    if view.get("round"):
        lines.append(("time", tr("The battle ended at {time}.").format(
            time=track_hour_text(tr, int(view["round"])))))
    saved = result.get("record") or view.get("record")
    if saved:
        lines.append(("saved", tr("The battle is saved as {file}.").format(file=saved)))
    return lines


def _first_capital(text: str) -> str:
    return text[:1].upper() + text[1:]
