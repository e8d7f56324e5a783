"""Every refusal of the Napoleon's Triumph engine: a stable reason key, its rule and its sentence.

A refusal is `Refusal(rule, message, reason, data)` (engine/core/refusals.py). `rule` names the
rule of our reading (`arbiter check`'s contract), `message` is the English sentence, `reason`
says which sentence it is and `data` holds what it speaks of (unit ids, locales, positions as
"R108" / "108>95", commanders, sides, counts), so that a tablet can say the same in German or
Bulgarian. `REASONS` is the whole catalogue: one entry per sentence, its template written with
the names of its data (a list is written joined by ", ").
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

from engine.core.errors import ArbiterError
from engine.core.refusals import Refusal

# reason -> (rule, English template over the refusal's data)
REASONS: dict[str, tuple[str, str]] = {
    # the turn and the decision awaited (game.py, attack.py)
    "game-over": ("nt-turn", "the game is over"),
    "not-your-turn": ("nt-turn", "it is the {side} player's turn"),
    "no-attack-in-progress": ("nt-turn", "no attack is in progress: {action} is not expected"),
    "attack-in-progress": ("nt-turn", "an attack is in progress: the {side} player must decide "
                                      "{decision} ({actions})"),
    "other-side-decides": ("nt-turn", "the {side} player decides {decision}"),
    "end-reason": ("nt-end", "{reason} is not a way to end a game (resignation, time, agreed, "
                             "game-time)"),
    # commands (commands.py, orders.py)
    "not-a-commander": ("nt-commands", "{commander} is not a commander of the {side} army"),
    "commander-off-map": ("nt-commands", "{commander} is not on the map"),
    "commander-commanded": ("nt-commands", "{commander} has already given a command this turn"),
    "corps-commands-used": ("nt-commands", "the {side} army has used all {limit} corps commands "
                                           "this turn"),
    "independent-commands-used": ("nt-commands", "the {side} army has used all {limit} "
                                                 "independent commands this turn"),
    "not-a-unit": ("nt-commands", "{unit} is not a unit of the {side} army"),
    "unit-off-map": ("nt-commands", "{unit} is off the map (reinforcements enter in M2)"),
    "unit-eliminated": ("nt-commands", "{unit} has been eliminated"),
    "unit-moved": ("nt-commands", "{unit} has already moved this turn"),
    "name-units": ("nt-commands", "name at least one unit, each once"),
    "not-in-corps": ("nt-commands", "{unit} is not in {commander}'s corps"),
    "detach-leaves-one": ("nt-commands", "a Detach Move leaves at least one unit with its "
                                         "commander"),
    "last-unit-of-corps": ("nt-commands", "{unit} is the last unit of {commander}'s corps: move "
                                          "it with a Corps Move"),
    "attach-not-on-map": ("nt-commands", "{unit} is not a unit of the {side} army on the map"),
    "attach-elsewhere": ("nt-commands", "{unit} does not stand in {commander}'s position {at}"),
    "attach-already": ("nt-commands", "{unit} is already in {commander}'s corps"),
    "corps-full": ("nt-commands", "a corps holds at most {limit} units"),
    "attach-last-unit": ("nt-commands", "{unit} is the last unit of {commander}'s corps"),
    "order-last-unit": ("nt-commands", "{unit} is the last unit of its corps: use a Corps Move"),
    "one-command-a-turn": ("nt-commands", "{commander} gives one command a turn"),
    "one-move-a-turn": ("nt-commands", "a unit moves by one command a turn"),
    "unit-moves-take-all": ("nt-commands", "Unit Moves may not take all of {commander}'s units: "
                                           "use a Corps Move"),
    "independent-commands-short": ("nt-commands", "not enough independent commands left for "
                                                  "{count} Unit Moves"),
    "corps-commands-short": ("nt-commands", "the {side} army has only {limit} corps commands a "
                                            "turn"),
    "batteries-combine-leading": ("nt-commands", "two artillery Unit Moves combine only when "
                                                 "both batteries lead the attack"),
    # movement (movement.py)
    "no-such-locale": ("nt-movement", "there is no locale {locale}"),
    "not-adjacent": ("nt-movement", "{locale} is not across a passable border from {start}"),
    "block-own-approach": ("nt-movement", "from R{locale} a unit may block only a passable "
                                          "approach of {locale}"),
    "from-approach": ("nt-movement", "from {start} a unit may move only to R{locale} or "
                                     "R{toward}"),
    "not-passable-approach": ("nt-movement", "{position} is not a passable approach"),
    "enemy-locale": ("nt-movement", "{locale} is held by the enemy: moving there is an attack "
                                    "(threaten it)"),
    "stormed": ("nt-movement", "{locale} was stormed this turn: only the victorious attackers "
                               "enter it"),
    "capacity": ("nt-capacity", "{locale} holds at most {capacity} units ({present} there, "
                                "{count} moving)"),
    # roads (movement.py, reinforcements.py, road_attacks.py)
    "road-closed-reserve": ("nt-road", "a corps marched by road into {locale} this turn: its "
                                       "reserve is closed to other moves"),
    "road-starts-in-reserve": ("nt-road", "a road move starts in a reserve"),
    "road-ends-in-reserve": ("nt-road", "a road move ends in the reserve of the last locale "
                                        "entered (only cavalry may end blocking)"),
    "entry-ends-in-reserve": ("nt-road", "a road move ends in the reserve of the last locale "
                                         "entered"),
    "cavalry-blocks-on-road": ("nt-road", "cavalry ends a road move blocking {position} only "
                                          "where its road goes on across that approach"),
    "road-ends-at-destination": ("nt-road", "the road must list the locales entered, ending "
                                            "with the destination"),
    "road-enters-once": ("nt-road", "a road move enters each locale once"),
    "road-unknown-locale": ("nt-road", "the road names a locale that does not exist"),
    "road-out-of-reach": ("nt-road", "no connected road from {start} through {road} within "
                                     "reach (2 by road, 3 by main road)"),
    "entry-road-out-of-reach": ("nt-road", "no connected road from entry {entry} through {road} "
                                           "within reach (2 by road, 3 by main road)"),
    "road-enemy-locale": ("nt-road", "{locale} is held by the enemy: a road move cannot enter "
                                     "it"),
    "road-reserve-closed": ("nt-road", "the reserve of {locale} is closed this turn"),
    "road-reserve-entered": ("nt-road", "a unit already moved into {locale} this turn: a corps "
                                        "of two or more may not enter it by road"),
    "road-full-locale": ("nt-road", "{locale} is full: a road move may not pass through it"),
    "road-halts": ("nt-road", "{locale} is beside an enemy corps of two or more units: the "
                              "corps must halt there"),
    "detach-no-road": ("nt-road", "a Detach Move never uses roads"),
    "road-attack-from-reserve": ("nt-road", "an attack by road starts in a reserve"),
    "entry-attack-corps": ("nt-reinforcement", "a reinforcement corps attacks as it comes on by "
                                               "one Corps Move of the whole corps"),
    "ride-on-units": ("nt-road", "riding on is the command of the road attack that took "
                                 "{locale}: {units}, and no other unit"),
    "road-attack-road": ("nt-road", "the road of an attack by road lists the locales entered up "
                                    "to the attack locale {attack_locale} (the defence locale "
                                    "{defence_locale} may follow it)"),
    "road-attack-reach": ("nt-road", "no connected road from {start} through {road} within "
                                     "reach: the cavalry needs reach left to cross into "
                                     "{defence_locale}"),
    "road-attack-halts": ("nt-road", "{attack_locale} is beside an enemy corps of two or more "
                                     "units: a corps riding by road must halt there and cannot "
                                     "attack on"),
    "road-attack-all-by-road": ("nt-road", "the commands of an attack by road all go by road"),
    "road-attack-one-command": ("nt-road", "an attack by road is one Unit Move or one Corps "
                                           "Move"),
    "road-attack-one-road": ("nt-road", "the commands of one attack by road follow one road"),
    "road-attack-cavalry": ("nt-road", "only cavalry attacks by road"),
    "road-attack-one-reserve": ("nt-road", "the commands of an attack by road start from one "
                                           "reserve"),
    "road-attack-must-feint": ("nt-road", "the defender stands: a cavalry attack by road must "
                                          "be a feint"),
    "road-attack-press": ("nt-road", "only cavalry by road can carry out this attack, and a "
                                     "cavalry attack by road must be a feint when the defender "
                                     "stands"),
    # reinforcements (reinforcements.py)
    "not-a-reinforcement": ("nt-reinforcement", "{commander} is not a {side} reinforcement "
                                                "waiting off the map"),
    "too-early": ("nt-reinforcement", "{commander} may enter from {hour}:00 on (now "
                                      "{round}:00)"),
    "entry-corps-commands-used": ("nt-commands", "the {side} army has used all {limit} corps "
                                                 "commands"),
    "enters-whole": ("nt-reinforcement", "{commander}'s corps enters whole: {units}"),
    "not-an-entry": ("nt-reinforcement", "{entry} is not a {side} entry road"),
    "entry-road": ("nt-reinforcement", "the road starts at the entry locale {locale} and ends "
                                       "with the destination"),
    # the threat and the defence (attack.py)
    "threat-off-map": ("nt-attack", "threaten from a locale into a locale of the map"),
    "threat-from-enemy": ("nt-attack", "the {side} army does not occupy {attack_locale}"),
    "threat-not-enemy": ("nt-attack", "{defence_locale} is not held by the enemy"),
    "threat-no-border": ("nt-attack", "{attack_locale} and {defence_locale} share no passable "
                                      "border"),
    "approach-closed": ("nt-attack", "the approach {attack_locale}>{defence_locale} is closed "
                                     "this turn"),
    "threat-nobody": ("nt-attack", "no unit in R{attack_locale} or "
                                   "{attack_locale}>{defence_locale} can still be commanded to "
                                   "attack, and no cavalry can ride there by road and on into "
                                   "{defence_locale}"),
    "blockers-must-defend": ("nt-retreat", "defenders blocking the approach must defend"),
    "blockers-defend-alone": ("nt-defend", "the units blocking {position} defend, and no "
                                           "others: {units}"),
    "name-defenders": ("nt-attack", "name at least one defending unit, each once"),
    "defender-not-in-reserve": ("nt-attack", "{unit} is not a unit in {position}"),
    "defended-elsewhere": ("nt-attack", "{unit} already defended another approach this turn"),
    "retreated-after-combat": ("nt-attack", "{unit} retreated after combat this turn"),
    "one-detached-defender": ("nt-attack", "at most one detached unit may defend"),
    # feints, orders, occupation (attack.py, orders.py, resolution.py)
    "feint-end": ("nt-attack", "a feint ends on the approach or in the reserve"),
    "name-commands": ("nt-attack", "name at least one command"),
    "attack-command-kind": ("nt-attack", "attacks are made by unit_move or corps_move, not "
                                         "{kind}"),
    "attackers-start": ("nt-attack", "attackers start in R{attack_locale} or on "
                                     "{attack_locale}>{defence_locale}"),
    "attack-one-position": ("nt-attack", "the commands of one attack start from one position"),
    "occupiers-fit": ("nt-capacity", "{count} units do not fit {locale} (capacity {capacity})"),
    # leaders and the declaration (attack.py)
    "defence-leaders-count": ("nt-leaders", "at most {limit} defence leader(s) across a {width} "
                                            "border"),
    "leader-not-defending": ("nt-leaders", "{unit} is not a defending unit"),
    "weak-reserve-leader": ("nt-leaders", "{unit} has strength 1: it cannot lead from the "
                                          "reserve"),
    "cavalry-defence-obstructed": ("nt-leaders", "cavalry cannot lead the defence of an "
                                                 "obstructed approach"),
    "leaders-same-type": ("nt-leaders", "two leaders must be of the same type"),
    "leaders-same-corps": ("nt-leaders", "two leaders from the reserve must be of one corps"),
    "wide-needs-wide-border": ("nt-attack", "a wide attack needs a wide border"),
    "attack-leaders-count": ("nt-leaders", "at most {limit} attack leader(s) in a {width} "
                                           "attack"),
    "leader-not-attacking": ("nt-leaders", "{unit} is not an attacking unit"),
    "weak-attack-leader": ("nt-leaders", "{unit} has strength 1: only artillery leads at "
                                         "strength 1"),
    "artillery-leads-from-approach": ("nt-leaders", "artillery leads only from the attack "
                                                    "approach, by a Unit Move"),
    "cavalry-attack-obstructed": ("nt-leaders", "cavalry cannot lead across an obstructed "
                                                "approach"),
    "guard-beside-guard": ("nt-leaders", "a Guard unit leads only beside a Guard unit"),
    "attackers-fit": ("nt-capacity", "{count} attackers do not fit {locale} (capacity "
                                     "{capacity})"),
    "engage-one": ("nt-leaders", "a narrow attack engages one of the two defence leaders: name "
                                 "it"),
    "engage-only-narrow": ("nt-leaders", "engage only in a narrow attack on two defence "
                                         "leaders"),
    # steps 7-11 (resolution.py)
    "counter-attackers-count": ("nt-counter-attack", "at most two counter-attackers, each once"),
    "counter-after-artillery": ("nt-counter-attack", "nobody counter-attacks an artillery-led "
                                                     "attack"),
    "counter-not-defending": ("nt-counter-attack", "{unit} is not a defending unit that is not "
                                                   "leading"),
    "counter-artillery": ("nt-counter-attack", "artillery never counter-attacks"),
    "counter-cavalry-obstructed": ("nt-counter-attack", "cavalry cannot counter-attack across "
                                                        "an obstructed approach"),
    "counter-infantry-losing": ("nt-counter-attack", "infantry counter-attacks only when the "
                                                     "attacker is winning"),
    "counter-same-type": ("nt-counter-attack", "two counter-attackers are of one type"),
    "counter-same-corps": ("nt-counter-attack", "two counter-attackers are of one corps"),
    "counter-guard-line": ("nt-counter-attack", "Guard does not counter-attack beside line "
                                                "infantry"),
    "odd-loss-group": ("nt-attack", "the odd loss point falls on one of {units}"),
    "losses-on-group": ("nt-attack", "{unit}: losses fall on {units}, within each unit's "
                                     "strength"),
    "losses-exact": ("nt-attack", "spread exactly {points} loss point(s)"),
    "regroup-keep": ("nt-attack", "name the unit {commander}'s corps keeps (one of {units})"),
    "regroup-attackers-only": ("nt-attack", "only attacking corps regroup"),
    "advance-one": ("nt-attack", "at least one of {units} advances to block the approach"),
    "advance-commander-elsewhere": ("nt-attack", "{commander} is not a commander in {position}"),
    "advance-commander-whole": ("nt-attack", "{commander} advances only with all its units "
                                             "there"),
    "advance-commander-alone": ("nt-attack", "{commander} cannot stay behind alone: it advances "
                                             "with its units"),
    # retreats (retreat.py)
    "retreat-losses-named": ("nt-retreat", "{unit}: losses name retreating units and steps"),
    "retreat-artillery": ("nt-retreat", "{unit} is artillery: it is eliminated"),
    "retreat-loses-nothing": ("nt-retreat", "{unit} loses nothing in this retreat"),
    "retreat-steps": ("nt-retreat", "{unit} cannot lose {steps} steps"),
    "retreat-group-losses": ("nt-retreat", "the {group} lose {due} step(s) between them, not "
                                           "{given}"),
    "retreat-keep-survivor": ("nt-retreat", "{commander} can keep only one of its surviving "
                                            "units"),
    "retreat-name-kept": ("nt-retreat", "name the unit {commander}'s corps keeps"),
    "retreat-not-retreating": ("nt-retreat", "{commander} is not retreating"),
    "retreat-not-survivor": ("nt-retreat", "{unit} is not a surviving retreating unit"),
    "retreat-target": ("nt-retreat", "{unit} cannot retreat to {locale}: not adjacent, held by "
                                     "the enemy or the attack locale"),
    "retreat-no-room": ("nt-retreat", "{locale} has no room for {unit}"),
    "retreat-while-room": ("nt-retreat", "every surviving unit must retreat while there is "
                                         "room"),
    # elite units and artillery (elite.py, artillery.py)
    "guard-attacks-barred": ("nt-guard", "a Guard Attack of the {side} army has failed: it may "
                                         "declare no more"),
    "not-a-guard": ("nt-guard", "{unit} is not a Guard unit of the {side} army on the map"),
    "guard-elsewhere": ("nt-guard", "{unit} does not stand in R{attack_locale} or "
                                    "{attack_locale}>{defence_locale}"),
    "guard-leaders": ("nt-guard", "a Guard Attack is led by Guard units only"),
    "guard-no-feint": ("nt-guard", "a Guard Attack cannot be a feint"),
    "artillery-fired-last-round": ("nt-artillery", "artillery led an attack across "
                                                   "{attack_locale}>{defence_locale} last round: "
                                                   "it may again only firing down from a hill"),
    "battery-never-moves": ("nt-fixed-battery", "the fixed battery never moves"),
    "battery-attacks-only-by-fire": ("nt-fixed-battery", "the fixed battery attacks only by "
                                                         "leading with its fire"),
    "battery-never-occupies": ("nt-fixed-battery", "the fixed battery never moves: it does not "
                                                   "occupy a locale"),
    # set-up objections (setup.py; written after "<side> set-up: ")
    "setup-allied-locale": ("nt-setup", "locale {locale} is Allied: no French piece may stand "
                                        "there"),
    "setup-not-object": ("nt-setup", "must be an object"),
    "setup-commanders": ("nt-setup", "commanders must place exactly {commanders}"),
    "setup-reinforcement-off-map": ("nt-setup", "{commander} is a reinforcement: he starts off "
                                                "the map (null)"),
    "setup-commander-locale": ("nt-setup", "{commander} must stand in his set-up locale "
                                           "{locale}"),
    "setup-units-list": ("nt-setup", "units must be a list of objects"),
    "setup-no-commander": ("nt-setup", "{unit} belongs to no {side} commander"),
    "setup-with-commander": ("nt-setup", "{unit} must stand with {commander}"),
    "setup-detachment-on-map": ("nt-setup", "{unit}: a detachment stands on the map"),
    "setup-corps-size": ("nt-setup", "{commander}'s corps has {count} units ({least}-{most} "
                                     "allowed)"),
    "setup-corps-keeps-one": ("nt-setup", "{commander}'s corps must keep at least one unit"),
    "setup-reinforcement-mix": ("nt-setup", "the reinforcement corps of {commander} needs a unit "
                                            "that is not a 2-strength infantry"),
    "setup-unit-ids": ("nt-setup", "unit ids must be distinct strings"),
    "setup-guard-flag": ("nt-setup", "guard is true or false"),
    "setup-order-of-battle": ("nt-setup", "the army must be the order of battle (missing: "
                                          "{missing}; not in it: {extra})"),
    "setup-allied-battery": ("nt-setup", "only the French name a fixed battery"),
    "setup-battery-artillery": ("nt-setup", "the fixed battery must name one French artillery "
                                            "unit"),
    "setup-battery-detached": ("nt-setup", "the fixed battery stands detached on the map"),
    "setup-battery-blocks": ("nt-setup", "the fixed battery blocks an approach of its locale"),
    "setup-allied-detachments": ("nt-setup", "the Allies place no detachments"),
    "setup-detachments-count": ("nt-setup", "{count} detachments (at most {limit})"),
    "setup-detachment-of-reinforcement": ("nt-setup", "{unit} cannot come out of a "
                                                      "reinforcement corps"),
    "setup-detachment-reach": ("nt-setup", "{unit} stands more than {reach} steps from "
                                           "{locale}"),
    "setup-detachment-stars": ("nt-setup", "{unit} may not stand in or next to a green, red or "
                                           "black star locale ({locales})"),
    "setup-position": ("nt-setup", "{problem}"),
    "setup-no-locale": ("nt-setup", "no locale {locale}"),
    "setup-not-passable": ("nt-setup", "{position} is not a passable approach"),
    "setup-together": ("nt-setup", "{problem}"),
}


class Refused(ArbiterError):
    """Raised inside an action handler; `push` turns it into IllegalMove after restoring state."""

    code = "illegal"  # each one carries its rule as its code

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message, code=refusal.rule)
        self.refusal = refusal


def refusal(key: str, **data: Any) -> Refusal:
    """The refusal whose reason is `key`, speaking of `data` (JSON-safe: ids, locales,
    position strings; a sequence becomes a list)."""
    rule, template = REASONS[key]
    data = {name: list(value) if isinstance(value, Sequence) and not isinstance(value, str)
            else value for name, value in data.items()}
    # listing legal actions builds many refusals: str.format_map keeps that cheap
    written = {name: ", ".join(map(str, value)) if isinstance(value, list) else value
               for name, value in data.items()}
    return Refusal(rule, template.format_map(written), key, data)


def refused(key: str, **data: Any) -> Refused:
    """The exception that refuses an action for the reason `key`."""
    return Refused(refusal(key, **data))


def template_fields(reason: str) -> set[str]:
    """The data a reason's sentence speaks of."""
    return {name for _, name, _, _ in string.Formatter().parse(REASONS[reason][1]) if name}
