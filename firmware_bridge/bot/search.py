"""Determinized search: one sampled world at a time, our move, the relevant replies, a capture step.

For each world (every enemy piece given a kind, drawn by the notebook's beliefs) and each of our
root moves we play the move, let the opponent answer with its attacks, the escapes of the pieces
we now threaten and (`watch`) its steps next to our flag, and finish with a quiescence step: the
best capture still open to us. The values of a root move are summed over worlds, so a battle
against an unknown piece counts as the average over what that piece may be (the chance node),
weighted by the beliefs. A piece of ours lost to an enemy piece whose kind the world only guesses
weighs more than its value (`evaluation.loss_aversion`). With `deep` the opponent's quiet
approaches are answers too, and the end of each line counts the threat we cannot parry
(`leaf_value`: a fork costs a piece).

Left to the world, both sides in that line see everything: the opponent takes exactly the pieces
of ours that are weak, our capture step attacks an unknown piece only in the worlds where it is
weak. With a `Perception` (`informed_reply_value`) each side chooses by what it knows and the
world only scores the choice: the opponent by what it can know of our pieces, we by our beliefs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from firmware_bridge.bot.board import ATTACKER_WINS, BOTH_DIE, DEFENDER_WINS, EMPTY, SearchBoard
from firmware_bridge.bot.evaluation import WIN, Values, lost_value
from firmware_bridge.bot.perception import Perception

FLAG_THREAT = 200.0  # an enemy piece next to our flag that we cannot remove at once


class SearchStats:
    """How much work one decision did."""

    def __init__(self) -> None:
        self.positions = 0
        self.worlds = 0
        self.seconds = 0.0


def battle_gain(board: SearchBoard, attacker: int, defender: int, values: Values) -> float:
    """Material the attacker's side wins (negative: loses) in this battle; WIN for an objective
    or for leaving the other side without a movable piece, -WIN for being left without one.

    Only enemy pieces are hidden, so a battle with a hidden piece is one where our piece meets
    a guess: our loss there weighs `loss_aversion` more (the guess may be wrong in every world)."""
    kinds, colors, hidden = board.kind, board.color, board.hidden
    ka, kd = kinds[attacker], kinds[defender]
    outcome = board.rules.battle[ka][kd]
    side = colors[attacker]
    movers = board.mobile_count[side] - (outcome != ATTACKER_WINS)
    enemies = board.mobile_count[1 - side] - (outcome != DEFENDER_WINS and board.rules.mobile[kd])
    if movers == 0 or enemies == 0:
        # A side left without a movable piece loses when it is next to move (both: a draw), as
        # `_over` counts it for the moves of a line; the capture step must not score it as material.
        return 0.0 if movers == enemies else (WIN if movers > 0 else -WIN)
    own, theirs = values[side], values[colors[defender]]
    if outcome == ATTACKER_WINS:
        return WIN if board.rules.objective[kd] else lost_value(theirs[kd], hidden[attacker])
    if outcome == DEFENDER_WINS:
        return -lost_value(own[ka], hidden[defender])
    return lost_value(theirs[kd], hidden[attacker]) - lost_value(own[ka], hidden[defender])


def two_squares_allowed(board: SearchBoard, side: int,
                        moves: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`moves` of `side` less those its current two-squares run refuses."""
    run = board.runs[side]
    if run is None or run[4] < board.rules.limit:
        return moves
    return [m for m in moves if not board._refused(board.cells[m[0]], m[0], m[1])]


def attacks(board: SearchBoard, side: int) -> list[tuple[int, int]]:
    """Every attack `side` may make now (two-squares applied)."""
    cells, colors, kinds, squares = board.cells, board.color, board.kind, board.square
    scout = board.rules.scout
    neighbours = board.neighbours
    strike = board.rules.variant.scout_strike
    found: list[tuple[int, int]] = []
    for piece in board.movers[side]:
        origin = squares[piece]
        if origin < 0:
            continue
        if scout[kinds[piece]]:
            for ray in board.rays[origin]:
                for distance, target in enumerate(ray):
                    occupant = cells[target]
                    if occupant == EMPTY:
                        continue
                    if occupant >= 0 and colors[occupant] != side and (distance == 0 or strike):
                        found.append((origin, target))
                    break
        else:
            for target in neighbours[origin]:
                occupant = cells[target]
                if occupant >= 0 and colors[occupant] != side:
                    found.append((origin, target))
    return two_squares_allowed(board, side, found)


def best_capture(board: SearchBoard, side: int, values: Values) -> tuple[float, list[int]]:
    """The best battle gain open to `side`, and the enemy pieces it can take with profit."""
    cells = board.cells
    return world_capture(board, [(cells[o], cells[t]) for o, t in attacks(board, side)], values)


def world_capture(board: SearchBoard, pairs: list[tuple[int, int]], values: Values) -> tuple[float, list[int]]:
    """The best battle gain among `pairs` (attacker, defender pieces) as the world has them, and
    the enemy pieces taken with profit (`prudent_capture` chooses by beliefs instead)."""
    best = 0.0
    victims: list[int] = []
    for attacker, defender in pairs:
        gain = battle_gain(board, attacker, defender, values)
        if gain > 0:
            victims.append(defender)
            best = max(best, gain)
    return best, victims


def _move_gain(board: SearchBoard, undo: tuple, values: Values) -> float:
    """Material the mover won by the move just made (from `make`'s undo record)."""
    _, _, piece, defender, outcome, _, _ = undo
    if defender == EMPTY:
        return 0.0
    kinds, colors, hidden = board.kind, board.color, board.hidden
    own, theirs = values[colors[piece]], values[colors[defender]]
    if outcome == ATTACKER_WINS:
        return lost_value(theirs[kinds[defender]], hidden[piece])
    if outcome == DEFENDER_WINS:
        return -lost_value(own[kinds[piece]], hidden[defender])
    assert outcome == BOTH_DIE
    return lost_value(theirs[kinds[defender]], hidden[piece]) - lost_value(own[kinds[piece]], hidden[defender])


def _over(board: SearchBoard, mover: int) -> bool:
    """True when the move `mover` just made decided the game: it ended it, or it cost the mover
    its last movable piece while the opponent still has one (the mover then has no move on its
    next turn and loses; the search board, like the engine, does not end the game there)."""
    return board.finished or board.mobile_count[mover] == 0


def _terminal(board: SearchBoard, side: int) -> float:
    """The value for `side` of a game `_over`: a win, a loss or (both sides immobile) a draw."""
    if not board.finished:
        return WIN if board.mobile_count[side] > 0 else -WIN
    if board.winner is None:
        return 0.0
    return WIN if board.winner == side else -WIN


def counter_attacks(board: SearchBoard, side: int, before: list[tuple[int, int]], origin: int,
                    target: int) -> list[tuple[int, int]]:
    """`side`'s attacks (attacker, defender pieces) after the opponent moved origin -> target:
    those `side` had before that move (still valid ones) plus the attacks on the moved piece.

    Scout rays the move opened or closed beyond those two squares are not rescanned: this is the
    quiescence step of a shallow search, not a move generator."""
    cells, colors, kinds = board.cells, board.color, board.kind
    found = []
    for a, d in before:
        attacker, defender = cells[a], cells[d]
        if attacker >= 0 and defender >= 0 and colors[attacker] == side and colors[defender] != side:
            found.append((attacker, defender))
    defender = cells[target]
    if defender < 0 or colors[defender] == side:
        return found
    mobile, scout = board.rules.mobile, board.rules.scout
    run = board.runs[side]
    shuffler = run[0] if run is not None and run[4] >= board.rules.limit else -1
    strike = board.rules.variant.scout_strike
    for ray in board.rays[target]:
        for distance, square in enumerate(ray):
            attacker = cells[square]
            if attacker == EMPTY:
                continue
            if (attacker >= 0 and colors[attacker] == side and mobile[kinds[attacker]]
                    and (distance == 0 or (scout[kinds[attacker]] and strike))
                    and not (attacker == shuffler and board._refused(attacker, square, target))):
                found.append((attacker, defender))
            break
    return found


def capture_after(board: SearchBoard, side: int, before: list[tuple[int, int]], origin: int,
                  target: int, values: Values, chooser: Perception | None = None,
                  shown: int = -1) -> float:
    """`side`'s best battle gain after the opponent moved origin -> target (`counter_attacks`);
    with `chooser`, the world's gain of the capture our beliefs choose (`prudent_capture`)."""
    pairs = counter_attacks(board, side, before, origin, target)
    if chooser is not None:
        return prudent_capture(board, pairs, values, chooser, shown)[0]
    return world_capture(board, pairs, values)[0]


def prudent_capture(board: SearchBoard, pairs: list[tuple[int, int]], values: Values,
                    chooser: Perception, shown: int = -1) -> tuple[float, list[int]]:
    """Our capture step chosen by the notebook's beliefs, scored by the world: the world's gain
    of the attack among `pairs` (attacker, defender pieces) we expect most of, and the enemy
    pieces we expect to gain by attacking. A capture step that chose by the world would find
    the flag among the still pieces next to it in every world where one is (strategy fusion),
    and walk our officers into the bombs round it. `shown`: an enemy piece that fought in this
    line, known from then on."""
    choice, true = 0.0, 0.0
    victims = []
    for attacker, defender in pairs:
        expected = chooser.our_attack(board, attacker, defender, shown)
        if expected > 0.0:
            victims.append(defender)
            if expected > choice:
                choice, true = expected, battle_gain(board, attacker, defender, values)
    return true, victims


def flag_square(board: SearchBoard, side: int) -> int:
    """Where `side`'s flag (objective) stands, or -1."""
    objective = board.rules.objective
    for piece, square in enumerate(board.square):
        if square >= 0 and board.color[piece] == side and objective[board.kind[piece]]:
            return square
    return -1


def flag_threatened(board: SearchBoard, me: int, flag: int, values: Values) -> bool:
    """True when an enemy piece could take our flag next move and we cannot take it first."""
    if flag < 0 or board.cells[flag] < 0:
        return False
    cells, colors, kinds = board.cells, board.color, board.kind
    mobile, scout = board.rules.mobile, board.rules.scout
    threats = []
    for n in board.neighbours[flag]:
        occupant = cells[n]
        if occupant >= 0 and colors[occupant] != me and mobile[kinds[occupant]]:
            threats.append(occupant)
    if board.rules.variant.scout_strike:
        for ray in board.rays[flag]:
            for distance, square in enumerate(ray):
                occupant = cells[square]
                if occupant == EMPTY:
                    continue
                if (occupant >= 0 and colors[occupant] != me and scout[kinds[occupant]]
                        and not _can_block(board, me, ray[:distance])):
                    threats.append(occupant)
                break
    if not threats:
        return False
    removable = {cells[t] for o, t in attacks(board, me)
                 if cells[t] in threats and board.rules.battle[kinds[cells[o]]][kinds[cells[t]]] != DEFENDER_WINS}
    return any(t not in removable for t in threats)


def _nearest_pieces(board: SearchBoard, square: int) -> list[tuple[int, int, int]]:
    """The first piece along each ray from `square`: (piece, its square, empty squares between)."""
    cells = board.cells
    found = []
    for ray in board.rays[square]:
        for distance, origin in enumerate(ray):
            piece = cells[origin]
            if piece == EMPTY:
                continue
            if piece >= 0:
                found.append((piece, origin, distance))
            break
    return found


def _can_block(board: SearchBoard, me: int, line: Sequence[int]) -> bool:
    """True when a piece of ours can step onto one of the empty squares `line` (between our flag
    and a Scout that threatens it from afar) next move, a Scout of ours from along a clear ray."""
    colors, kinds = board.color, board.kind
    mobile, scout = board.rules.mobile, board.rules.scout
    return any(colors[piece] == me and mobile[kinds[piece]] and (distance == 0 or scout[kinds[piece]])
               for square in line for piece, _, distance in _nearest_pieces(board, square))


def threats(board: SearchBoard, side: int, values: Values) -> tuple[float, float, int]:
    """The two best battle gains `side` could make now against two different victims, and the
    victim of the best one (-1 when there is none)."""
    first = second = 0.0
    first_victim = -1
    cells = board.cells
    for origin, target in attacks(board, side):
        gain = battle_gain(board, cells[origin], cells[target], values)
        if gain <= 0.0:
            continue
        victim = cells[target]
        if gain > first:
            if victim != first_victim:
                second = first
            first, first_victim = gain, victim
        elif gain > second and victim != first_victim:
            second = gain
    return first, second, first_victim


def cornered(board: SearchBoard, piece: int) -> bool:
    """True when a movable piece has no move that saves it: every empty square it may step to
    (two-squares rule applied) is next to an enemy piece that beats it, and it beats no enemy
    piece it may attack. A piece that cannot move is not counted here (only a capture saves it)."""
    kinds, colors, cells = board.kind, board.color, board.cells
    kind, color = kinds[piece], colors[piece]
    if not board.rules.mobile[kind]:
        return False
    battle, mobile, neighbours = board.rules.battle, board.rules.mobile, board.neighbours
    for _, target in board.moves_of(piece):
        occupant = cells[target]
        if occupant >= 0:
            if battle[kind][kinds[occupant]] == ATTACKER_WINS:
                return False
            continue
        if not any(cells[near] >= 0 and colors[cells[near]] != color and mobile[kinds[cells[near]]]
                   and battle[kinds[cells[near]]][kind] == ATTACKER_WINS
                   for near in neighbours[target]):
            return False
    return True


def leaf_value(board: SearchBoard, me: int, capture: float, values: Values,
               corners: bool = False) -> float:
    """Our side to move at the end of the line: take our best capture and lose the opponent's
    best attack, or save the piece it threatens most and lose the second (a fork costs one).
    `corners`: a piece with no square left to flee to (`cornered`; the two-squares rule ends
    many a chase that way) cannot be saved by moving it."""
    first, second, victim = threats(board, 1 - me, values)
    if first <= 0.0:
        return capture
    if corners and cornered(board, victim):
        return capture - first
    return max(capture - first, -second)


def approaches(board: SearchBoard, side: int) -> list[tuple[int, int]]:
    """Quiet one-square moves of `side` that end next to an enemy piece (threats and forks)."""
    cells, colors, squares, neighbours = board.cells, board.color, board.square, board.neighbours
    found = []
    for piece in board.movers[side]:
        origin = squares[piece]
        if origin < 0:
            continue
        for target in neighbours[origin]:
            if cells[target] != EMPTY:
                continue
            for near in neighbours[target]:
                other = cells[near]
                if other >= 0 and colors[other] != side:
                    found.append((origin, target))
                    break
    return two_squares_allowed(board, side, found)


def flag_approaches(board: SearchBoard, side: int, flag: int) -> list[tuple[int, int]]:
    """Quiet one-square moves of `side` onto an empty square next to the enemy flag at `flag`."""
    cells, colors, mobile, kinds = board.cells, board.color, board.rules.mobile, board.kind
    found = []
    for target in board.neighbours[flag]:
        if cells[target] != EMPTY:
            continue
        for origin in board.neighbours[target]:
            piece = cells[origin]
            if piece >= 0 and colors[piece] == side and mobile[kinds[piece]]:
                found.append((origin, target))
    return two_squares_allowed(board, side, found)


def scout_lines(board: SearchBoard, side: int, flag: int) -> list[tuple[int, int]]:
    """Long moves of `side`'s Scouts onto an empty square with a clear line to the enemy flag at
    `flag`: from there a Scout takes it next move unless the line is shut or the Scout taken."""
    if not board.rules.variant.scout_strike:
        return []
    cells, colors, kinds, scout = board.cells, board.color, board.kind, board.rules.scout
    found = []
    for line in board.rays[flag]:
        for distance, square in enumerate(line):
            if cells[square] != EMPTY:
                break
            if distance == 0:
                continue  # a step next to the flag is `flag_approaches`' (and any walker's)
            found += [(origin, square) for piece, origin, _ in _nearest_pieces(board, square)
                      if colors[piece] == side and scout[kinds[piece]]]
    return two_squares_allowed(board, side, found)


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
    if board.mobile_count[opponent] <= 3 and not board.moves(opponent):
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
            value = _move_gain(board, undo, values) - capture
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
            true = _move_gain(board, undo, values) - capture
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
            value = _move_gain(board, undo, values) - informed_reply_value(
                board, me, values, stats, model, flag, deep, fought, watch, lines)
        elif replies:
            value = _move_gain(board, undo, values) - reply_value(
                board, me, values, stats, flag, deep, watch, chooser, undo[3], lines, corners)
        else:
            value = _move_gain(board, undo, values) - best_capture(board, 1 - me, values)[0]
        board.unmake(undo)
        result.append(value)
    return result
