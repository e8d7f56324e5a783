"""Threats to a flag on the search board: an enemy piece beside it that we cannot remove first,
a Scout on an open line to it, and the moves that bring either about.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge.bot.board import DEFENDER_WINS, EMPTY, SearchBoard
from firmware_bridge.bot.evaluation import Values
from firmware_bridge.bot.tactics import attacks, two_squares_allowed

FLAG_THREAT = 200.0  # an enemy piece next to our flag that we cannot remove at once


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
