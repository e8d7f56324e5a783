"""Determinized search: one sampled world at a time, our move, the relevant replies, a capture step.

For each world (every enemy piece given a kind, drawn by the notebook's beliefs) and each of our
root moves we play the move, let the opponent answer with its attacks, the escapes of the pieces
we now threaten and (`watch`) its steps next to our flag, and finish with a quiescence step: the
best capture still open to us. The values of a root move are summed over worlds, so a battle
against an unknown piece counts as the average over what that piece may be (the chance node),
weighted by the beliefs. A piece of ours lost to an enemy piece whose kind the world only guesses
weighs more than its value (`evaluation.loss_aversion`). With `deep` the opponent's quiet
approaches are answers too, and the end of each line counts the threat we cannot parry
(`tactics.leaf_value`: a fork costs a piece). What a single move attacks, wins or threatens is
`tactics.py`; threats to a flag are `flag_watch.py`.

Left to the world, both sides in that line see everything: the opponent takes exactly the pieces
of ours that are weak, our capture step attacks an unknown piece only in the worlds where it is
weak. With a `Perception` (`informed_reply_value`) each side chooses by what it knows and the
world only scores the choice: the opponent by what it can know of our pieces, we by our beliefs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from firmware_bridge.bot.board import EMPTY, SearchBoard
from firmware_bridge.bot.evaluation import WIN, Values
from firmware_bridge.bot.flag_watch import (
    FLAG_THREAT,
    flag_approaches,
    flag_square,
    flag_threatened,
    scout_lines,
)
from firmware_bridge.bot.perception import Perception
from firmware_bridge.bot.tactics import (
    approaches,
    attacks,
    battle_gain,
    best_capture,
    capture_after,
    counter_attacks,
    leaf_value,
    move_gain,
    prudent_capture,
    world_capture,
)


class SearchStats:
    """How much work one decision did."""

    def __init__(self) -> None:
        self.positions = 0
        self.worlds = 0
        self.seconds = 0.0


def _over(board: SearchBoard, mover: int) -> bool:
    """True when the move `mover` just made decided the game: it ended it, or it cost the mover
    its last movable piece while the opponent still has one (the mover then has no move on its
    next turn and loses; the search board, like the engine, does not end the game there)."""
    return board.finished or board.mobile_count[mover] == 0


def _stuck(board: SearchBoard, side: int) -> bool:
    """True when `side` has no legal move: no movable piece can step anywhere, or the two-squares
    rule refuses the last moves it has (a lone piece shuffling in a pocket). That side loses when
    it is next to move. Only counted with few movable pieces left, where it happens."""
    return board.mobile_count[side] <= 3 and not board.moves(side)


def _terminal(board: SearchBoard, side: int) -> float:
    """The value for `side` of a game `_over`: a win, a loss or (both sides immobile) a draw."""
    if not board.finished:
        return WIN if board.mobile_count[side] > 0 else -WIN
    if board.winner is None:
        return 0.0
    return WIN if board.winner == side else -WIN


def opponent_replies(board: SearchBoard, opponent: int, victims: list[int],
                     deep: bool, flag: int = -1, lines: bool = False) -> list[tuple[int, int]] | None:
    """The answers the search gives the opponent: its attacks, the escapes of the pieces we
    threaten (`victims`), its steps next to our flag (when `flag` is given), with `lines` its
    Scouts' moves onto an open line to our flag, and, `deep`, all its quiet approaches; None when
    it cannot move at all."""
    replies = attacks(board, opponent)
    for victim in victims:
        replies.extend(board.moves_of(victim))
    if deep:
        replies.extend(approaches(board, opponent))
    elif flag >= 0:
        replies.extend(flag_approaches(board, opponent, flag))
    if lines and flag >= 0 and board.cells[flag] >= 0:
        replies.extend(scout_lines(board, opponent, flag))
    if _stuck(board, opponent):
        return None
    return replies


def reply_value(board: SearchBoard, me: int, values: Values, stats: SearchStats,
                flag: int = -1, deep: bool = False, watch: bool = False,
                chooser: Perception | None = None, shown: int = -1, lines: bool = False,
                corners: bool = False) -> float:
    """The opponent (to move) answers as well as it can; value for it, after our capture step.

    `deep`: its quiet approaches count too, and at the end of each line we cannot parry two
    threats at once (`leaf_value`; `corners`: nor save a piece with no square to flee to).
    `watch`: its steps next to our flag count (`deep` has them), with `lines` its Scouts' moves
    onto an open line to our flag too.
    `chooser`: our capture step chooses by our beliefs (`prudent_capture`); `shown` is then the
    enemy piece that fought at the root."""
    opponent = 1 - me
    before = attacks(board, me)
    cells = board.cells
    pairs = [(cells[o], cells[t]) for o, t in before]
    mine, victims = (prudent_capture(board, pairs, values, chooser, shown) if chooser is not None
                     else world_capture(board, pairs, values))
    # A quiet move elsewhere leaves our best capture open (and, deep, the threats it has now).
    best = -leaf_value(board, me, mine, values, corners) if deep else -mine
    if flag_threatened(board, me, flag, values):
        best += FLAG_THREAT
    replies = opponent_replies(board, opponent, victims, deep, flag if watch else -1, lines)
    if replies is None:
        return -WIN  # it cannot move and loses
    if _stuck(board, me):
        return WIN  # whatever it plays elsewhere, we have no legal move next and lose
    for origin, target in replies:
        undo = board.make(origin, target)
        stats.positions += 1
        if _over(board, opponent):
            value = _terminal(board, opponent)
        else:
            fought = undo[2] if undo[3] != EMPTY else shown  # its attacker is known from now on
            capture = capture_after(board, me, before, origin, target, values, chooser, fought)
            if deep:
                capture = leaf_value(board, me, capture, values, corners)
            value = move_gain(board, undo, values) - capture
            if flag_threatened(board, me, flag, values):
                value += FLAG_THREAT
        board.unmake(undo)
        if value > best:
            best = value
    return best


def _our_capture(board: SearchBoard, me: int, pairs: list[tuple[int, int]], values: Values,
                 model: Perception, shown: tuple[int, int] = (-1, -1)) -> tuple[float, float, list[int]]:
    """Our capture step among these attacks: the true gain of the capture we would choose by our
    beliefs, the gain the opponent fears from us by what it knows, and the pieces it sees at risk.
    `shown`: our piece and the enemy piece that fought in this line (both sides know them)."""
    choice = true = feared = 0.0
    victims = []
    ours_shown, theirs_shown = shown
    for attacker, defender in pairs:
        expected = model.our_attack(board, attacker, defender, theirs_shown)
        if expected > choice:
            choice, true = expected, battle_gain(board, attacker, defender, values)
        seen = model.seen_attack(board, attacker, defender, ours_shown)
        if seen > feared:
            feared = seen
        if expected > 0.0 or seen > 0.0:
            victims.append(defender)
    return true, feared, victims


def _informed_leaf(board: SearchBoard, me: int, capture: float, feared: float, values: Values,
                   model: Perception, shown: int = -1) -> tuple[float, float]:
    """`leaf_value` with the opponent's next attacks those that look good to it: (our true
    value, the value it expects of us) at the end of the line, our side to move."""
    cells = board.cells
    picks = []
    for origin, target in attacks(board, 1 - me):
        attacker, victim = cells[origin], cells[target]
        seen = model.their_attack(board, attacker, victim, shown)
        if seen > 0.0:
            picks.append((seen, battle_gain(board, attacker, victim, values), victim))
    if not picks:
        return capture, feared
    picks.sort(reverse=True)
    seen_first, true_first, first_victim = picks[0]
    other = next((pick for pick in picks[1:] if pick[2] != first_victim), None)
    seen_second, true_second = (other[0], other[1]) if other is not None else (0.0, 0.0)
    return (max(capture - true_first, -true_second), max(feared - seen_first, -seen_second))


def informed_reply_value(board: SearchBoard, me: int, values: Values, stats: SearchStats,
                         model: Perception, flag: int = -1, deep: bool = False,
                         shown: tuple[int, int] = (-1, -1), watch: bool = False,
                         lines: bool = False) -> float:
    """The opponent (to move) picks the answer that looks best by what it can know of our pieces
    (`model`); the value for it of that answer in this world, after our capture step (chosen by
    our beliefs, scored by the world). Ties go to the answer truly better for it. `deep`: its
    quiet approaches count too, and the end of each line counts the threats it would carry out
    that we cannot parry at once (`_informed_leaf`). `shown`: our piece and the enemy piece that
    fought at the root, known to both sides from then on. `watch`: its steps next to our flag
    count (`deep` has them)."""
    opponent = 1 - me
    cells = board.cells
    before = attacks(board, me)
    true_capture, feared, victims = _our_capture(
        board, me, [(cells[o], cells[t]) for o, t in before], values, model, shown)
    if deep:
        true_capture, feared = _informed_leaf(board, me, true_capture, feared, values, model,
                                              shown[0])
    exposed = FLAG_THREAT if flag_threatened(board, me, flag, values) else 0.0
    best_seen, best_true = exposed - feared, exposed - true_capture  # a quiet move elsewhere
    replies = opponent_replies(board, opponent, victims, deep, flag if watch else -1, lines)
    if replies is None:
        return -WIN  # it cannot move and loses
    if _stuck(board, me):
        return WIN  # whatever it plays elsewhere, we have no legal move next and lose
    for origin, target in replies:
        attacker, defender = cells[origin], cells[target]
        seen = model.their_attack(board, attacker, defender, shown[0]) if defender >= 0 else 0.0
        fought = (defender, attacker) if defender >= 0 else shown
        undo = board.make(origin, target)
        stats.positions += 1
        if _over(board, opponent):
            true = _terminal(board, opponent)
        else:
            pairs = counter_attacks(board, me, before, origin, target)
            capture, fear, _ = _our_capture(board, me, pairs, values, model, fought)
            if deep:
                capture, fear = _informed_leaf(board, me, capture, fear, values, model, fought[0])
            true = move_gain(board, undo, values) - capture
            seen -= fear
            if flag_threatened(board, me, flag, values):
                true += FLAG_THREAT
                seen += FLAG_THREAT
        board.unmake(undo)
        if seen > best_seen or (seen == best_seen and true > best_true):
            best_seen, best_true = seen, true
    return best_true


def search_world(board: SearchBoard, me: int, moves: Sequence[tuple[int, int]], values: Values,
                 replies: bool, deadline: float | None, stats: SearchStats,
                 deep: bool = False, model: Perception | None = None,
                 watch: bool = False, chooser: Perception | None = None,
                 lines: bool = False, corners: bool = False) -> list[float] | None:
    """The value of each root move in this world; None when the deadline passed before the end.

    With `model` both sides choose by what they know (`perception.py`), not by the world; with
    `chooser` only our capture step does (`prudent_capture`); `watch`: the opponent's steps next
    to our flag are among its replies; `corners`: with `deep`, a cornered piece of ours at the
    end of a line is lost (`leaf_value`; the informed search does not count it)."""
    result: list[float] = []
    flag = flag_square(board, me)
    for index, (origin, target) in enumerate(moves):
        if deadline is not None and index % 8 == 7 and time.perf_counter() > deadline:
            return None
        undo = board.make(origin, target)
        stats.positions += 1
        if _over(board, me):
            value = _terminal(board, me)
        elif replies and model is not None:
            fought = (undo[2], undo[3]) if undo[3] != EMPTY else (-1, -1)
            value = move_gain(board, undo, values) - informed_reply_value(
                board, me, values, stats, model, flag, deep, fought, watch, lines)
        elif replies:
            value = move_gain(board, undo, values) - reply_value(
                board, me, values, stats, flag, deep, watch, chooser, undo[3], lines, corners)
        else:
            value = move_gain(board, undo, values) - best_capture(board, 1 - me, values)[0]
        board.unmake(undo)
        result.append(value)
    return result
