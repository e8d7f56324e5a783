"""Every ruling the rule sources leave unsure (marked M, L or ambiguous), kept in one place.

Each constant names the reading we implement; docs/rules/triumph.md gives the alternative and
the source. Change a ruling here, not in the rules code.
"""

from __future__ import annotations

# 1.9 step 2 (M): defenders blocking the defence approach must defend, and are exactly the
# defending pieces; the engine records that defence itself and asks the defender nothing.
BLOCKERS_DEFEND_AUTOMATICALLY = True

# 1.9 step 6 (M): the infantry and symbol penalties apply only against blocking defenders.
PENALTIES_ONLY_AGAINST_BLOCKERS = True

# 1.9 step 7 (M): infantry may counter-attack only when the attacker wins on the initial result.
INFANTRY_COUNTER_ONLY_WHEN_ATTACKER_WINNING = True

# 1.9 step 7 (L): two counter-attackers must share a corps; two detached units may not pair.
DETACHED_COUNTER_ATTACKERS_MAY_PAIR = False

# 1.9 step 9 (M): a tie goes to blocking defenders, else to the side naming more units, else
# to the French.
TIE_TO_FRENCH = True

# 1.9 step 10 (L): each artillery defence leader lowers the defender's loss points by one, and
# artillery defence leaders take no loss points.
ARTILLERY_DEFENCE_LEADERS_REDUCE_LOSSES = True

# 1.9 step 10 (L): loss points beyond what the named pieces can absorb are ignored.
EXCESS_LOSS_POINTS_IGNORED = True

# 1.9 step 10 (L): the defender, as owner, picks which of two unequal counter-attackers takes an
# odd loss point (the rule names who picks only for leaders).
COUNTER_ATTACK_ODD_POINT_BY_OWNER = True

# 1.9 step 11 (L, open question 5): repulsed attackers stay in the position they attacked from
# (TT moves attackers from the approach back to the reserve).
REPULSED_ATTACKERS_STAY = True

# 1.7 (L): the commands combined in one attack must all start from the same position.
ATTACK_ORDERS_SAME_POSITION = True

# 1.10 (L, open question 1): defending pieces named in this attack lose nothing more when they
# retreat (SEED (8) could be read as "units that took no combat loss lose steps too").
NAMED_DEFENDERS_SPARED_IN_RETREAT = True

# 1.10 (M): only units that retreated after combat are barred from defending again this turn.
BAR_ONLY_AFTER_COMBAT_RETREAT = True

# 1.11 (L): losses in an artillery-led attack cannot bring an army below 1 morale.
ARTILLERY_LOSSES_MORALE_FLOOR = 1

# 1.9 step 2 (L, left open by the rules; the reconstruction lets artillery that could have led
# stay in place): after a retreat before combat from a threat, the fixed battery, which never
# moves, may carry the attack out where it stands: an occupation that is its own Unit Move
# spends that command and leaves the emptied locale empty. False: such an occupation is
# refused, and when nothing but the battery could occupy, the attack ends at the retreat.
FIXED_BATTERY_HOLDS_AFTER_RETREAT = True

# 1.9 step 3 / 11 (M): the attack approach is closed for the rest of the turn after a feint or a
# repulse; an artillery-led attack closes it too, whoever wins (nobody moves either way).
CLOSE_APPROACH_AFTER_ARTILLERY_ATTACK = True

# 1.9 step 10 (L, open question 8): a Guard block that loses a step becomes line infantry.
GUARD_BECOMES_LINE_AFTER_LOSS = True

# 1.16 (M): a face revealed to the opponent is forgotten at the end of the player turn unless its
# block stands alone in its position and corps.
LONE_BLOCKS_STAY_KNOWN = True

# 1.4 (M): the French place at most 6 detachments, each at most 2 steps (over passable borders)
# from its corps' set-up locale; "next to a star locale" counts every shared border, passable
# or not (the alternative: only passable ones).
FRENCH_DETACHMENTS_MAX = 6
DETACHMENT_REACH = 2

# 1.14 (L, open question 6): a locale is controlled by a corps holding infantry or artillery
# there, traced by road to a main-road entry through no enemy-occupied locale (the entry
# included); the alternative counts any unit, detached ones too.
CONTROL_NEEDS_CORPS_FOOT_OR_GUNS = True

# 1.8 (M): a reinforcement corps enters whole by one Corps Move along its entry road (the
# alternative lets part of it enter and the rest wait off the map as detached units).
REINFORCEMENT_CORPS_ENTERS_WHOLE = True

# 1.13 (M): the elite commitment costs cannot take morale below 1; a failed Guard Attack's 3
# can (it may demoralise).
ELITE_COST_MORALE_FLOOR = 1

# 1.13 / RB 11 step 5 (M, open question 4, as TT reads it): artillery may not lead attacks
# across the same approach in consecutive rounds unless it fires down from a hill onto a
# locale that is not one (False: no such limit).
ARTILLERY_REPEAT_FIRE_LIMIT = True

# 1.9 (M, TT's ruling; open question 12): a cavalry attack by road is made by one command, a Unit
# Move or a Corps Move of cavalry only (False: several commands from one reserve along one road
# may combine, as ordinary attacks do).
ROAD_ATTACK_ONE_COMMAND = True

# 1.7 (L, open question 7): a French reinforcement commander may give a second command in the
# player turn its corps enters, and the units that entered may be moved by it (or by a Unit
# Move) a second time; the entry is their first command. False: the entry is the commander's
# one command and its units' one move of the turn, as for every other corps.
REINFORCEMENT_SECOND_COMMAND_ON_ENTRY = True
