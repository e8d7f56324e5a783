"""One-move tactics on the search board: what each side may attack, what a battle wins, the
capture step that ends a line, and the threats we cannot parry there.

A battle with a hidden enemy piece is one where our piece meets a guess, so our loss there weighs
more (`evaluation.loss_aversion`). At the end of a line our side is to move: it takes its best
capture or saves the piece the opponent threatens most, and loses the rest (`leaf_value`: a fork
costs a piece, and so does a piece with no square left to flee to, `cornered`).
"""

from __future__ import annotations

from firmware_bridge.bot.board import ATTACKER_WINS, BOTH_DIE, DEFENDER_WINS, EMPTY, SearchBoard
from firmware_bridge.bot.evaluation import WIN, Values, lost_value
from firmware_bridge.bot.perception import Perception


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


def move_gain(board: SearchBoard, undo: tuple, values: Values) -> float:
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
