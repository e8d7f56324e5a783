"""The hunt: the opponent walks up to a piece of ours it has seen and beats, and a piece of ours
with no square left to step to is lost."""

from __future__ import annotations

from engine import get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import Values, kind_values, lost_value
from firmware_bridge.bot.hunt import cornered, has_refuge, hunts
from firmware_bridge.bot.search import SearchStats, search_world
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL

RULES = rules_for(get_variant("classic"))


def board_of(ours: dict[str, str], theirs: dict[str, str]) -> tuple[SearchBoard, dict[str, int]]:
    """Red's pieces `ours` and blue's `theirs` (square -> kind, all moved but bombs and flags);
    the piece index of each square."""
    board = SearchBoard(RULES)
    at = {}
    for side, pieces, first in ((RED, ours, 0), (BLUE, theirs, 100)):
        for number, (square, kind) in enumerate(pieces.items()):
            still = kind in ("bomb", "flag")
            hidden = 0.0 if side == RED else (HIDDEN_STILL if still else HIDDEN_MOVED)
            at[square] = board.add(board.index(square), side, kind, first + number,
                                   moved=not still, hidden=hidden)
    return board, at


def values_of(board: SearchBoard) -> Values:
    """The kind values of the pieces on `board`."""
    alive: list[dict[str, int]] = [{}, {}]
    for piece, square in enumerate(board.square):
        if square >= 0:
            name = RULES.kinds[board.kind[piece]]
            alive[board.color[piece]][name] = alive[board.color[piece]].get(name, 0) + 1
    return kind_values(RULES, {RED: alive[RED], BLUE: alive[BLUE]})


# Game 20 of round twenty-four against Demon of Ignorance: our Colonel, seen, beside their General
# on c7, with the lake on c6 and our own pieces on a6 and b5.
POCKET = {"b7": "colonel", "a6": "sergeant", "b5": "bomb", "a1": "flag", "j1": "marshal"}
HUNTERS = {"c7": "general", "j10": "flag", "a10": "bomb", "f10": "scout"}


def test_the_general_walks_up_only_to_the_pieces_of_ours_it_has_seen_and_beats() -> None:
    board, at = board_of({"b7": "colonel", "e7": "major", "d9": "marshal", "a1": "flag"},
                         {"c8": "general", "j10": "flag"})
    seen = frozenset({at["b7"], at["e7"], at["d9"]})
    steps = {board.move_name(*move) for move in hunts(board, BLUE, seen)}
    # Next to the Colonel (b8, c7); none of its steps reaches the Major on e7, and the Marshal it
    # on d9 it does not beat is no prey whatever it knows (c9 and d8 are next to it).
    assert steps == {"c8-b8", "c8-c7"}
    assert {board.move_name(*move) for move in hunts(board, BLUE, frozenset({at["e7"]}))} == set()
    assert {board.move_name(*move) for move in hunts(board, BLUE, frozenset({at["d9"]}))} == set()
    # A piece it has not seen is not hunted.
    assert hunts(board, BLUE, frozenset()) == []


def test_a_seen_piece_between_the_lake_and_its_own_pieces_is_cornered_by_the_piece_above_it() -> None:
    board, at = board_of({"b6": "colonel", "a6": "sergeant", "b5": "bomb", "a1": "flag"},
                         {"b7": "general", "j10": "flag"})
    colonel = at["b6"]
    assert not has_refuge(board, colonel)
    assert cornered(board, board.index("b7"), frozenset({colonel})) == [colonel]
    # Unseen, it is no prey; with a square free (a6 empty) it escapes.
    assert cornered(board, board.index("b7"), frozenset()) == []
    open_board, open_at = board_of({"b6": "colonel", "b5": "bomb", "a1": "flag"},
                                   {"b7": "general", "j10": "flag"})
    assert has_refuge(open_board, open_at["b6"])
    assert cornered(open_board, open_board.index("b7"), frozenset({open_at["b6"]})) == []


def test_a_hunter_next_to_a_piece_of_ours_that_beats_it_corners_nothing() -> None:
    board, at = board_of({"b6": "colonel", "a6": "sergeant", "b5": "bomb", "a7": "marshal",
                          "a1": "flag"}, {"b7": "general", "j10": "flag"})
    assert cornered(board, board.index("b7"), frozenset({at["b6"], at["a7"]})) == []


def test_stepping_into_the_pocket_beside_the_lake_costs_the_seen_colonel_when_the_hunt_is_read() -> None:
    board, at = board_of(POCKET, HUNTERS)
    worth = values_of(board)
    moves = [(board.index("b7"), board.index(square)) for square in ("b6", "b8")]
    blind = search_world(board, RED, moves, worth, True, None, SearchStats())
    read = search_world(board, RED, moves, worth, True, None, SearchStats(),
                        prey=frozenset({at["b7"]}))
    assert blind is not None and read is not None
    # Without the hunt both flights look safe: the General cannot attack either square at once.
    assert blind[0] == blind[1]
    # Read, the pocket costs the Colonel (the General steps c7-b7 and nothing of ours can move it),
    # lost to a piece whose kind is our guess (`loss_aversion`).
    colonel = lost_value(worth[RED][RULES.code["colonel"]], HIDDEN_MOVED)
    assert read[0] == blind[0] - colonel
    assert read[1] == blind[1]
