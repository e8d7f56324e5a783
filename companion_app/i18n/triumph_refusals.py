"""Napoleon's Triumph refusals and set-up objections in the tablet's language.

The engine sends each refusal as a stable `reason` with its `data` (engine/triumph/refusals.py)
beside the English `message`. Every reason of the engine's catalogue is written here from its
data (blocks by their faces, approaches as "the approach from 64 toward 63", hours as 9:00),
with de/bg in triumph.po; an unknown one (a newer referee's, or a refusal from an older referee
without a reason) falls back to the rule's title and the English message.
"""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_, Translator
from companion_app.i18n.triumph_tablet_texts import (
    DECISIONS,
    hour_text,
    position_text,
    refusal_title,
    side_text,
    unit_text,
)

REASON_TEXTS = {
    "game-over": N_("The battle is over."),
    "not-your-turn": N_("It is not your turn."),
    "no-attack-in-progress": N_("No attack is in progress: this answer is not expected now."),
    "attack-in-progress": N_("An attack is in progress: now {side} decide ({decision})."),
    "other-side-decides": N_("The other side decides now."),
    "end-reason": N_("{reason} is not a way to end a game (resignation, time, agreement, the last"
                     " hour)."),
    "not-a-commander": N_("{commander} is not a commander of your army."),
    "commander-off-map": N_("{commander} is not on the map."),
    "commander-commanded": N_("{commander} has already given a command this turn."),
    "corps-commands-used": N_("Your army has used all {limit} corps commands this turn."),
    "independent-commands-used": N_("Your army has used all {limit} independent commands this "
                                    "turn."),
    "not-a-unit": N_("{unit} is not a unit of your army."),
    "unit-off-map": N_("{unit} is still off the map (reinforcements enter with their corps)."),
    "unit-eliminated": N_("{unit} has been eliminated."),
    "unit-moved": N_("{unit} has already moved this turn."),
    "name-units": N_("Name at least one unit, each once."),
    "not-in-corps": N_("{unit} is not in {commander}'s corps."),
    "detach-leaves-one": N_("A Detach Move leaves at least one unit with its commander."),
    "last-unit-of-corps": N_("{unit} is the last unit of {commander}'s corps: move it with a "
                             "Corps Move."),
    "attach-not-on-map": N_("{unit} is not a unit of your army on the map."),
    "attach-elsewhere": N_("{unit} does not stand where {commander} stands ({at})."),
    "attach-already": N_("{unit} is already in {commander}'s corps."),
    "corps-full": N_("A corps holds at most {limit} units."),
    "attach-last-unit": N_("{unit} is the last unit of {commander}'s corps."),
    "order-last-unit": N_("{unit} is the last unit of {commander}'s corps: move it with a Corps "
                          "Move."),
    "one-command-a-turn": N_("{commander} gives one command a turn."),
    "one-move-a-turn": N_("A unit moves by one command a turn: {units}."),
    "unit-moves-take-all": N_("Single-unit moves may not take all of {commander}'s units: use a "
                              "Corps Move."),
    "batteries-combine-leading": N_("Two artillery units move together only when both lead the "
                                    "attack: {units}."),
    "no-such-locale": N_("There is no locale {locale}."),
    "not-adjacent": N_("{locale} is not across a passable border from {start}."),
    "block-own-approach": N_("From the reserve of {locale} a unit may block only a passable "
                             "approach of {locale}, not {to}."),
    "from-approach": N_("From {start} a unit may move only into the reserve of {locale} or of "
                        "{toward}, not {to}."),
    "not-passable-approach": N_("{position} is not a passable approach."),
    "enemy-locale": N_("The enemy holds {locale}: moving there is an attack (threaten it)."),
    "stormed": N_("{locale} was stormed this turn: only the victorious attackers enter it."),
    "road-closed-reserve": N_("A corps marched by road into {locale} this turn: its reserve is "
                              "closed to other moves."),
    "road-starts-in-reserve": N_("A road move starts in a reserve, not on {start}."),
    "road-ends-in-reserve": N_("A road move ends in the reserve of the last locale entered (only "
                               "cavalry may end blocking), not on {to}."),
    "entry-ends-in-reserve": N_("A road move ends in the reserve of the last locale entered, not "
                                "on {to}."),
    "cavalry-blocks-on-road": N_("Cavalry ends a road move blocking {position} only where its "
                                 "road goes on across that approach."),
    "road-ends-at-destination": N_("The road lists the locales entered and ends with the "
                                   "destination ({to}), not {road}."),
    "road-enters-once": N_("A road move enters each locale once: {road}."),
    "road-unknown-locale": N_("The road names a locale that does not exist: {road}."),
    "road-out-of-reach": N_("No connected road from {start} through {road} within reach (2 by "
                            "road, 3 by main road)."),
    "entry-road-out-of-reach": N_("No connected road from the entry {entry} through {road} within"
                                  " reach (2 by road, 3 by main road)."),
    "road-enemy-locale": N_("The enemy holds {locale}: a road move cannot enter it."),
    "road-reserve-closed": N_("The reserve of {locale} is closed this turn."),
    "road-reserve-entered": N_("A unit already moved into {locale} this turn: a corps of two or "
                               "more may not enter it by road."),
    "road-full-locale": N_("{locale} is full: a road move may not pass through it."),
    "road-halts": N_("{locale} is beside an enemy corps of two or more units: the corps must halt"
                     " there."),
    "detach-no-road": N_("A Detach Move never uses roads."),
    "road-attack-from-reserve": N_("An attack by road starts in a reserve, not on {start}."),
    "entry-attack-corps": N_("A reinforcement corps attacks as it comes on by one Corps Move of "
                             "the whole corps."),
    "ride-on-units": N_("Riding on is the command of the road attack that took {locale}: {units},"
                        " and no other unit."),
    "road-attack-road": N_("The road of an attack by road lists the locales entered up to the "
                           "attack locale {attack_locale} (the defence locale {defence_locale} "
                           "may follow it), not {road}."),
    "road-attack-reach": N_("No connected road from {start} through {road} within reach: the "
                            "cavalry needs reach left to cross into {defence_locale}."),
    "road-attack-halts": N_("{attack_locale} is beside an enemy corps of two or more units: a "
                            "corps riding by road must halt there and cannot attack on."),
    "road-attack-all-by-road": N_("The commands of an attack by road all go by road."),
    "road-attack-one-command": N_("An attack by road is one single-unit move or one Corps Move."),
    "road-attack-one-road": N_("The commands of one attack by road follow one road."),
    "road-attack-cavalry": N_("Only cavalry attacks by road: {units}."),
    "road-attack-one-reserve": N_("The commands of an attack by road start from one reserve."),
    "road-attack-must-feint": N_("The defender stands: a cavalry attack by road must be a feint."),
    "road-attack-press": N_("Only cavalry by road can carry out this attack, and a cavalry attack"
                            " by road must be a feint when the defender stands."),
    "not-a-reinforcement": N_("{commander} is not a reinforcement of your army waiting off the "
                              "map."),
    "too-early": N_("{commander} may enter from {hour} on (now it is {round})."),
    "entry-corps-commands-used": N_("Your army has used all {limit} corps commands this turn."),
    "enters-whole": N_("{commander}'s corps enters whole: {units}."),
    "not-an-entry": N_("{entry} is not an entry road of your army."),
    "entry-road": N_("The road from the entry {entry} starts at the entry locale {locale} and "
                     "ends with the destination, not {road}."),
    "threat-off-map": N_("Threaten from a locale into a locale of the map ({attack_locale} into "
                         "{defence_locale})."),
    "threat-from-enemy": N_("Your army does not hold {attack_locale}."),
    "threat-not-enemy": N_("The enemy does not hold {defence_locale}."),
    "threat-no-border": N_("{attack_locale} and {defence_locale} share no passable border."),
    "approach-closed": N_("The approach from {attack_locale} toward {defence_locale} is closed "
                          "this turn."),
    "threat-nobody": N_("No unit in {attack_locale} or on the approach from {attack_locale} "
                        "toward {defence_locale} can still be commanded to attack, and no cavalry"
                        " can ride there by road and on into {defence_locale}."),
    "blockers-must-defend": N_("The units blocking {position} must defend: {units}."),
    "blockers-defend-alone": N_("The units blocking {position} defend, and no others: {units}."),
    "name-defenders": N_("Name at least one defending unit, each once."),
    "defender-not-in-reserve": N_("{unit} does not stand in {position}."),
    "defended-elsewhere": N_("{unit} already defended another approach this turn."),
    "retreated-after-combat": N_("{unit} retreated after combat this turn."),
    "one-detached-defender": N_("At most one detached unit may defend: {units}."),
    "feint-end": N_("A feint ends on the approach or in the reserve."),
    "name-commands": N_("Name at least one command: tap the blocks that go."),
    "attack-command-kind": N_("An attack is made by single-unit moves or Corps Moves."),
    "attackers-start": N_("Attackers start in the reserve of {attack_locale} or on the approach "
                          "from {attack_locale} toward {defence_locale}."),
    "attack-one-position": N_("The commands of one attack start from one position, not from "
                              "{positions}."),
    "leader-not-defending": N_("{unit} is not a defending unit."),
    "weak-reserve-leader": N_("{unit} has strength 1: it cannot lead from the reserve."),
    "cavalry-defence-obstructed": N_("{unit} is cavalry: cavalry cannot lead the defence of an "
                                     "obstructed approach."),
    "leaders-same-type": N_("Two leaders must be of the same type: {units}."),
    "leaders-same-corps": N_("Two leaders from the reserve must be of one corps: {units}."),
    "wide-needs-wide-border": N_("A wide attack needs a wide border."),
    "leader-not-attacking": N_("{unit} is not an attacking unit."),
    "weak-attack-leader": N_("{unit} has strength 1: only artillery leads at strength 1."),
    "artillery-leads-from-approach": N_("{unit} is artillery: artillery leads only from the "
                                        "attack approach, by a single-unit move."),
    "cavalry-attack-obstructed": N_("{unit} is cavalry: cavalry cannot lead across an obstructed "
                                    "approach."),
    "guard-beside-guard": N_("A Guard unit leads only beside a Guard unit: {units}."),
    "engage-one": N_("A narrow attack engages one of the two defence leaders: name it ({units})."),
    "engage-only-narrow": N_("Choose a defence leader ({unit}) only in a narrow attack on two "
                             "defence leaders."),
    "counter-attackers-count": N_("At most two counter-attackers, each once: {units}."),
    "counter-after-artillery": N_("Nobody counter-attacks an attack led by artillery."),
    "counter-not-defending": N_("{unit} is not a defending unit outside the first line."),
    "counter-artillery": N_("{unit} is artillery: artillery never counter-attacks."),
    "counter-cavalry-obstructed": N_("{unit} is cavalry: cavalry cannot counter-attack across an "
                                     "obstructed approach."),
    "counter-infantry-losing": N_("{unit} is infantry: infantry counter-attacks only when the "
                                  "attacker is winning."),
    "counter-same-type": N_("Two counter-attackers are of one type: {units}."),
    "counter-same-corps": N_("Two counter-attackers are of one corps: {units}."),
    "counter-guard-line": N_("Guard does not counter-attack beside line infantry: {units}."),
    "odd-loss-group": N_("The odd loss falls on one of {units}."),
    "losses-on-group": N_("{unit}: the losses fall on {units}, within each unit's strength."),
    "regroup-keep": N_("Name the unit {commander}'s corps keeps (one of {units})."),
    "regroup-attackers-only": N_("Only attacking corps regroup, not {commanders}."),
    "advance-one": N_("At least one of {units} advances to block the approach."),
    "advance-commander-elsewhere": N_("{commander} is not a commander in {position}."),
    "advance-commander-whole": N_("{commander} advances only with all of his units there."),
    "advance-commander-alone": N_("{commander} cannot stay behind alone: he advances with his "
                                  "units."),
    "retreat-losses-named": N_("{unit}: the losses name retreating units and their steps."),
    "retreat-artillery": N_("{unit} is artillery: it is eliminated in a retreat."),
    "retreat-loses-nothing": N_("{unit} loses nothing in this retreat."),
    "retreat-steps": N_("{unit} cannot lose {steps} steps."),
    "retreat-keep-survivor": N_("{commander} can keep only one of its surviving units: {units}."),
    "retreat-name-kept": N_("Choose the unit that stays with {commander}."),
    "retreat-not-retreating": N_("{commander} is not retreating."),
    "retreat-not-survivor": N_("{unit} does not survive the retreat."),
    "retreat-target": N_("{unit} cannot retreat to {locale}: it is not next to the defence "
                         "locale, the enemy holds it, or the attack came from there."),
    "retreat-no-room": N_("There is no room in {locale} for {unit}."),
    "retreat-while-room": N_("Every surviving unit must retreat while there is room: {units}."),
    "guard-attacks-barred": N_("A Guard Attack of your army has failed: it may declare no more."),
    "not-a-guard": N_("{unit} is not a Guard unit of your army on the map."),
    "guard-elsewhere": N_("{unit} does not stand in the reserve of {attack_locale} or on the "
                          "approach from {attack_locale} toward {defence_locale}."),
    "guard-leaders": N_("A Guard Attack is led by Guard units only: {units}."),
    "guard-no-feint": N_("A Guard Attack cannot be a feint."),
    "artillery-fired-last-round": N_("Artillery led an attack from {attack_locale} into "
                                     "{defence_locale} last round: it may again only firing down "
                                     "from a hill."),
    "battery-never-moves": N_("{unit} is the fixed battery: it never moves."),
    "battery-attacks-only-by-fire": N_("{unit} is the fixed battery: it attacks only by leading "
                                       "with its fire."),
    "battery-never-occupies": N_("{unit} is the fixed battery: it never moves, so it does not "
                                 "occupy a locale."),
    "setup-allied-locale": N_("Locale {locale} is Allied: no French unit may stand there."),
    "setup-not-object": N_("The set-up is not in the right form."),
    "setup-commanders": N_("Place exactly these commanders: {commanders}."),
    "setup-reinforcement-off-map": N_("{commander} is a reinforcement: he starts off the map."),
    "setup-commander-locale": N_("{commander} must stand in his set-up locale {locale}."),
    "setup-units-list": N_("The set-up's units are not in the right form."),
    "setup-no-commander": N_("{unit} belongs to no commander."),
    "setup-with-commander": N_("{unit} must stand with {commander}."),
    "setup-detachment-on-map": N_("{unit}: a detachment stands on the map."),
    "setup-corps-keeps-one": N_("{commander}'s corps must keep at least one unit."),
    "setup-reinforcement-mix": N_("The reinforcement corps of {commander} needs a unit that is "
                                  "not a 2-strength infantry."),
    "setup-unit-ids": N_("Every unit needs its own name."),
    "setup-guard-flag": N_("A unit is Guard or not (true or false)."),
    "setup-order-of-battle": N_("The army must be the order of battle (missing: {missing}; not in"
                                " it: {extra})."),
    "setup-allied-battery": N_("Only the French name a fixed battery."),
    "setup-battery-artillery": N_("The fixed battery must be one French artillery unit."),
    "setup-battery-detached": N_("The fixed battery stands detached on the map."),
    "setup-battery-blocks": N_("The fixed battery blocks an approach of its locale."),
    "setup-allied-detachments": N_("The Allies place no detachments."),
    "setup-detachment-of-reinforcement": N_("{unit} cannot come out of a reinforcement corps."),
    "setup-detachment-stars": N_("{unit} may not stand in or next to a green, red or black "
                                 "objective ({locales})."),
    "setup-position": N_("{position} is not a place on the map (a locale like 63 or an approach "
                         "like 64>63)."),
    "setup-no-locale": N_("There is no locale {locale}."),
    "setup-not-passable": N_("{position} is not a passable approach."),
    "setup-together": N_("The two set-ups together break a rule: too many units in one locale."),
}
# sentences with a count: (singular, plural, the datum that counts), plural entries of
# triumph.po (tests/companion_app/test_triumph_words.py checks each has its forms)
COUNTED = {
    "independent-commands-short": ("Your army has not enough independent commands left for "
                                   "{count} single-unit move.",
                                   "Your army has not enough independent commands left for "
                                   "{count} single-unit moves.", "count"),
    "corps-commands-short": ("Your army has only {limit} corps command a turn.",
                             "Your army has only {limit} corps commands a turn.", "limit"),
    "capacity": ("{locale} holds at most {capacity} unit ({present} there, {count} moving).",
                 "{locale} holds at most {capacity} units ({present} there, {count} moving).", "capacity"),
    "occupiers-fit": ("{count} unit does not fit {locale} (room for {capacity}).",
                      "{count} units do not fit {locale} (room for {capacity}).", "count"),
    "defence-leaders-count": ("At most {limit} unit leads the defence across a narrow border.",
                              "At most {limit} units lead the defence across a wide border.", "limit"),
    "attack-leaders-count": ("At most {limit} attack leader in a narrow attack.",
                             "At most {limit} attack leaders in a wide attack.", "limit"),
    "attackers-fit": ("{count} attacker does not fit {locale} (room for {capacity}).",
                      "{count} attackers do not fit {locale} (room for {capacity}).", "count"),
    "losses-exact": ("Place exactly {points} loss point.",
                     "Place exactly {points} loss points.", "points"),
    "retreat-group-losses": ("{units} lose {due} step between them, not {given}.",
                             "{units} lose {due} steps between them, not {given}.", "due"),
    "setup-corps-size": ("{commander}'s corps has {count} unit ({least}-{most} allowed).",
                         "{commander}'s corps has {count} units ({least}-{most} allowed).", "count"),
    "setup-detachments-count": ("{count} detachment (at most {limit}).",
                                "{count} detachments (at most {limit}).", "count"),
    "setup-detachment-reach": ("{unit} stands more than {reach} step from {locale}.",
                               "{unit} stands more than {reach} steps from {locale}.", "reach"),
}

# Data a sentence deliberately does not say, and why. A refusal goes to the tablet of the
# side that acted, so its own side is "your army"; a set-up objection is to this tablet's own
# set-up. tests/companion_app/test_triumph_words.py checks that every datum the engine sends is
# either in the sentence or here.
OWN_SIDE = "side"  # the acting side: "your army"
LEFT_OUT: dict[str, set[str]] = {
    "not-your-turn": {"side"},  # the tablet knows whose turn it is
    "other-side-decides": {"side", "decision"},  # the headline names the decision awaited
    "attack-in-progress": {"actions"},  # the answers awaited are the buttons on the screen
    "no-attack-in-progress": {"action"},  # the player just chose it
    "attack-command-kind": {"kind"},  # an order type of the protocol: the sentence names the two legal ones
    "feint-end": {"end"},  # a value no button sends; the rule says both legal ones
    "detach-leaves-one": {"commander"},  # the player just chose him
    "corps-full": {"commander"},
    "detach-no-road": {"commander"},
    "counter-after-artillery": {"units"},
    "setup-battery-detached": {"unit"},  # the one battery, marked as such on the set-up screen
    "setup-battery-blocks": {"unit"},  # the blocks just tapped: none may counter-attack
    "retreat-group-losses": {"group"},  # the units are named instead ("attackers", "defenders")
    "retreat-name-kept": {"units"},  # the buttons are the units
    "defence-leaders-count": {"width"},  # the count says it: 1 across a narrow border, 2 wide
    "attack-leaders-count": {"width"},  # 1 in a narrow attack, 2 in a wide one
    "setup-position": {"problem"},  # the parser's English words; the sentence says the forms
    "setup-together": {"problem"},  # the engine's English words; capacity is the only cause
}
for _reason in ("not-a-commander", "corps-commands-used", "independent-commands-used",
                "not-a-unit", "attach-not-on-map", "independent-commands-short",
                "corps-commands-short", "not-a-reinforcement", "entry-corps-commands-used",
                "not-an-entry", "threat-from-enemy", "guard-attacks-barred", "not-a-guard"):
    LEFT_OUT.setdefault(_reason, set()).add(OWN_SIDE)
for _reason in (*REASON_TEXTS, *COUNTED):
    if _reason.startswith("setup-"):  # the objection is to this tablet's own set-up
        LEFT_OUT.setdefault(_reason, set()).add(OWN_SIDE)
POSITIONS = ("position", "positions", "start", "to", "at")  # data that may name a position


def _place(tr: Translator, value: Any) -> str:
    """A position as players say it ("the reserve of 63"); a bare locale stays a number."""
    if isinstance(value, str) and (value.startswith("R") or ">" in value):
        return position_text(tr, value)
    return str(value)


def _value(tr: Translator, name: str, value: Any, units: dict[str, dict[str, Any]]) -> str:
    """One datum as the sentence says it: blocks by face, positions, roads, hours and the
    decision awaited in words."""
    if name == "unit":
        return unit_text(tr, units.get(str(value)), with_corps=False) if str(value) in units \
            else str(value)
    if name == "units" and isinstance(value, list):
        return ", ".join(unit_text(tr, units.get(str(u)), with_corps=False) if str(u) in units
                         else str(u) for u in value)
    if name in POSITIONS:
        return ", ".join(_place(tr, v) for v in value) if isinstance(value, list) \
            else _place(tr, value)
    if name == "road" and isinstance(value, list):
        return "-".join(str(v) for v in value)
    if name == "side":
        return side_text(tr, str(value))
    if name == "decision" and value in DECISIONS:
        return tr(DECISIONS[str(value)][1])
    if name in ("hour", "round"):
        return hour_text(tr, int(value))
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
