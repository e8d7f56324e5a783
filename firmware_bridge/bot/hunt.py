"""The hunt: the opponent walking a piece up to one of ours it has seen and beats, and the piece
of ours that cannot step away from it.

Demon of Ignorance takes most of our material this way: once it has seen one of our pieces, the
kind one rank above walks up to it and follows it until the board (an edge, a lake, our own
pieces, the two-squares rule) leaves it no square to step to. A search whose opponent answers
only with attacks never sees the step that starts the hunt, nor the piece it corners
(docs/bot.md, round twenty-five). Both are read from the battle table alone, so the search
(`search.reply_value`) prices them with its own gains.
"""

from __future__ import annotations

from firmware_bridge.bot.board import ATTACKER_WINS, BOTH_DIE, EMPTY, SearchBoard


def hunts(board: SearchBoard, side: int, prey: frozenset[int]) -> list[tuple[int, int]]:
    """Quiet one-square moves of `side` onto an empty square next to a piece in `prey` (pieces of
    the other side it has seen) that the moving piece beats."""
    cells, colors, kinds, squares = board.cells, board.color, board.kind, board.square
    neighbours, battle, mobile = board.neighbours, board.rules.battle, board.rules.mobile
    found = []
    for victim in prey:
        home = squares[victim]
        if home < 0:
            continue
        for step in neighbours[home]:
            if cells[step] != EMPTY:
                continue
            for origin in neighbours[step]:
                hunter = cells[origin]
                if (hunter >= 0 and colors[hunter] == side and mobile[kinds[hunter]]
                        and battle[kinds[hunter]][kinds[victim]] == ATTACKER_WINS):
                    found.append((origin, step))
    run = board.runs[side]
    if run is None or run[4] < board.rules.limit:
        return found
    return [(o, t) for o, t in found if not board._refused(cells[o], o, t)]


def cornered(board: SearchBoard, square: int, prey: frozenset[int]) -> list[int]:
    """The pieces in `prey` the piece on `square` beats, stands next to and will take next move
    whatever their side does: none of them has a square to step to that no enemy piece beating
    it stands next to, and no piece of their side next to the hunter beats or trades with it."""
    cells, colors, kinds = board.cells, board.color, board.kind
    neighbours, battle = board.neighbours, board.rules.battle
    hunter = cells[square]
    if hunter < 0:
        return []
    side = 1 - colors[hunter]
    around = [cells[near] for near in neighbours[square]]
    for piece in around:
        if piece >= 0 and colors[piece] == side and battle[kinds[piece]][kinds[hunter]] in (
                ATTACKER_WINS, BOTH_DIE):
            return []  # our capture step takes the hunter (or trades it off)
    return [piece for piece in around
            if piece in prey and battle[kinds[hunter]][kinds[piece]] == ATTACKER_WINS
            and not has_refuge(board, piece)]


def has_refuge(board: SearchBoard, piece: int) -> bool:
    """Whether `piece` may step to an empty square that no enemy piece beating it stands next to
    (two-squares applied; a piece that cannot move has none)."""
    cells, colors, kinds = board.cells, board.color, board.kind
    neighbours, battle = board.neighbours, board.rules.battle
    side, kind = colors[piece], kinds[piece]
    for _, target in board.moves_of(piece):
        if cells[target] != EMPTY:
            continue
        if not any(other >= 0 and colors[other] != side and battle[kinds[other]][kind] == ATTACKER_WINS
                   for other in (cells[near] for near in neighbours[target])):
            return True
    return False
