"""Napoleon's Triumph refusals and set-up objections in the tablet's language.

The engine sends each refusal as a stable `reason` with its `data` (engine/triumph/refusals.py)
beside the English `message`. A reason known here is written from its data, blocks by their
faces and approaches as "the approach from 64 toward 63"; an unknown one (or a refusal from an
older referee without a reason) falls back to the rule's title and the English message.
"""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_, Translator
from companion_app.i18n.triumph_tablet_texts import position_text, refusal_title, unit_text

REASON_TEXTS = {
    # the turn
    "game-over": N_("The battle is over."),
    "not-your-turn": N_("It is not your turn."),
    "other-side-decides": N_("The other side decides now."),
    # commands
    "commander-commanded": N_("{commander} has already given a command this turn."),
    "corps-commands-used": N_("Your army has used all {limit} corps commands this turn."),
    "independent-commands-used": N_("Your army has used all {limit} independent commands this "
                                    "turn."),
    "unit-moved": N_("{unit} has already moved this turn."),
    "detach-leaves-one": N_("A Detach Move leaves at least one unit with its commander."),
    "last-unit-of-corps": N_("{unit} is the last unit of {commander}'s corps: move it with a "
                             "Corps Move."),
    "corps-full": N_("A corps holds at most {limit} units."),
    # retreats
    "retreat-artillery": N_("{unit} is artillery: it is eliminated in a retreat."),
    "retreat-loses-nothing": N_("{unit} loses nothing in this retreat."),
    "retreat-steps": N_("{unit} cannot lose {steps} steps."),
    "retreat-keep-survivor": N_("{commander} can keep only one of its surviving units: "
                                "{units}."),
    "retreat-name-kept": N_("Choose the unit that stays with {commander}."),
    "retreat-not-retreating": N_("{commander} is not retreating."),
    "retreat-not-survivor": N_("{unit} does not survive the retreat."),
    "retreat-target": N_("{unit} cannot retreat to {locale}: it is not next to the defence "
                         "locale, the enemy holds it, or the attack came from there."),
    "retreat-no-room": N_("There is no room in {locale} for {unit}."),
    "retreat-while-room": N_("Every surviving unit must retreat while there is room: {units}."),
    # the advance after a feint
    "advance-one": N_("At least one of {units} advances to block the approach."),
    # losses
    "losses-exact": N_("Place exactly {points} losses."),
    # set-up objections
    "setup-allied-locale": N_("Locale {locale} is Allied: no French unit may stand there."),
    "setup-commander-locale": N_("{commander} must stand in his set-up locale {locale}."),
    "setup-no-commander": N_("{unit} belongs to no commander."),
    "setup-with-commander": N_("{unit} must stand with {commander}."),
    "setup-corps-keeps-one": N_("{commander}'s corps must keep at least one unit."),
    "setup-reinforcement-mix": N_("The reinforcement corps of {commander} needs a unit that is "
                                  "not a 2-strength infantry."),
    "setup-battery-detached": N_("The fixed battery stands detached on the map."),
    "setup-battery-blocks": N_("The fixed battery blocks an approach of its locale."),
    "setup-allied-detachments": N_("The Allies place no detachments."),
    "setup-detachment-of-reinforcement": N_("{unit} cannot come out of a reinforcement corps."),
    "setup-detachment-stars": N_("{unit} may not stand in or next to a green, red or black "
                                 "objective ({locales})."),
    "setup-no-locale": N_("There is no locale {locale}."),
    "setup-not-passable": N_("{position} is not a passable approach."),
}
# sentences with a count: (singular, plural, the datum that counts), plural entries of
# triumph.po (tests/companion_app/test_triumph_words.py checks each has its forms)
COUNTED = {
    "retreat-group-losses": ("{units} lose {due} step between them, not {given}.",
                             "{units} lose {due} steps between them, not {given}.", "due"),
    "setup-corps-size": ("{commander}'s corps has {count} unit ({least}-{most} allowed).",
                         "{commander}'s corps has {count} units ({least}-{most} allowed).",
                         "count"),
    "setup-detachments-count": ("{count} detachment (at most {limit}).",
                                "{count} detachments (at most {limit}).", "count"),
    "setup-detachment-reach": ("{unit} stands more than {reach} step from {locale}.",
                               "{unit} stands more than {reach} steps from {locale}.", "reach"),
}


def _value(tr: Translator, name: str, value: Any, units: dict[str, dict[str, Any]]) -> str:
    """One datum as the sentence says it: blocks by face, approaches in words."""
    if name == "unit":
        return unit_text(tr, units.get(str(value)), with_corps=False) if str(value) in units \
            else str(value)
    if name == "units" and isinstance(value, list):
        return ", ".join(unit_text(tr, units.get(str(u)), with_corps=False) if str(u) in units
                         else str(u) for u in value)
    if name == "position" and isinstance(value, str) and (">" in value or value.startswith("R")):
        return position_text(tr, value)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def refusal_sentence(tr: Translator, refusal: dict[str, Any],
                     units: dict[str, dict[str, Any]] | None = None) -> str:
    """A refusal ({"rule", "message", "reason"?, "data"?}) in the tablet's language."""
    reason, data = refusal.get("reason"), refusal.get("data") or {}
    units = units or {}
    values = {name: _value(tr, name, value, units) for name, value in data.items()}
    try:
        if reason in REASON_TEXTS:
            return tr(REASON_TEXTS[str(reason)]).format(**values)
        if reason in COUNTED:
            singular, plural, count = COUNTED[str(reason)]
            return tr.ngettext(singular, plural, int(data.get(count, 0))).format(**values)
    except (KeyError, ValueError, TypeError):  # data missing a name: say what the referee said
        pass
    title = refusal_title(tr, str(refusal.get("rule", "")))
    message = str(refusal.get("message", ""))
    return f"{title}: {message}" if message else title
