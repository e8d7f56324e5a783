"""In the search each side chooses by what it knows; the sampled world only scores the choice."""

from __future__ import annotations

from engine import get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import kind_values
from firmware_bridge.bot.perception import Perception
from firmware_bridge.bot.search import SearchStats, informed_reply_value, reply_value, search_world
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL
from tests.firmware_bridge.bot.test_evaluation import index, open_flag_position

CLASSIC = get_variant("classic")
RULES = rules_for(CLASSIC)
WORTH = kind_values(RULES, {RED: dict(CLASSIC.army), BLUE: dict(CLASSIC.army)})


OFFICERS = ("marshal", "general", "colonel")


def position(ours: str, enemy: str, others: tuple[str, ...] = OFFICERS) -> tuple[SearchBoard, int, int]:
    """Red (us) has `ours` on e4 and `others` on the second rank, all moved; Blue has `enemy`
    on e5 and is to move. Returns the board, our piece and the enemy piece."""
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    mine = board.add(index("e4"), RED, ours, 2, moved=True)
    for number, kind in enumerate(others):
        board.add(index("abcdefghij"[number] + "2"), RED, kind, 3 + number, moved=True)
    theirs = board.add(index("e5"), BLUE, enemy, 30, moved=True)
    board.add(index("j10"), BLUE, "flag", 11)
    board.add(index("j7"), BLUE, "sergeant", 12, moved=True)
    board.to_move = BLUE
    return board, mine, theirs


def opponent_value(board: SearchBoard, known: set[int],
                   beliefs: dict[int, dict[str, float]] | None = None) -> float:
    model = Perception(board, RED, WORTH, beliefs or {}, known)
    return informed_reply_value(board, RED, WORTH, SearchStats(), model)


def test_the_opponent_leaves_alone_a_piece_it_cannot_tell_from_our_officers() -> None:
    board, _, _ = position("lieutenant", "captain")
    # Seen by the world alone, its Captain takes our Lieutenant (14).
    assert reply_value(board, RED, WORTH, SearchStats()) == 14.0
    # It cannot know: our unseen movers are a Lieutenant, the Marshal, the General and a Colonel.
    assert opponent_value(board, known=set()) == 0.0
    # Once our Lieutenant has been shown, it takes it.
    assert opponent_value(board, known={2}) == 14.0


def test_the_opponent_picks_by_what_it_knows_and_the_world_scores_the_pick() -> None:
    board, mine, theirs = position("major", "captain", others=("scout",) * 8)
    model = Perception(board, RED, WORTH, {}, set())
    # Our unseen Major: in its eyes one of nine movers, eight of them Scouts its Captain beats.
    assert model.their_attack(board, theirs, mine) > 0.0
    # So it attacks, and in this world it loses its Captain: worth 22 to us.
    assert informed_reply_value(board, RED, WORTH, SearchStats(), model) == -22.0
    # Knowing our Major, it would keep its Captain away (and lose nothing).
    assert opponent_value(board, known={2}) == 0.0


def test_we_choose_a_capture_by_our_beliefs_not_by_the_world() -> None:
    """A still enemy piece in the corner, boxed in by its bomb, that we believe a bomb at 1/2
    and a Scout at 1/2, and that is a Scout in this world: beside our General it is no capture
    we would make, so in this world too the Scout is safe."""
    board = SearchBoard(RULES)
    board.add(index("j1"), RED, "flag", 1)
    general = board.add(index("a9"), RED, "general", 2, moved=True)
    scout = board.add(index("a10"), BLUE, "scout", 10, hidden=HIDDEN_STILL)
    board.add(index("b10"), BLUE, "bomb", 11)
    board.add(index("j10"), BLUE, "flag", 12, hidden=HIDDEN_STILL)
    # Not Blue's last movable piece (taking that would end the game, not win material).
    board.add(index("f10"), BLUE, "sergeant", 13, moved=True)
    board.to_move = BLUE
    doubt = {10: {"bomb": 0.5, "scout": 0.5}, 12: {"flag": 1.0}, 13: {"sergeant": 1.0}}
    model = Perception(board, RED, WORTH, doubt, set())
    assert model.our_attack(board, general, scout) < 0.0
    # Led by the world, our General takes the Scout, which cannot get away: -6 for Blue.
    assert reply_value(board, RED, WORTH, SearchStats()) == -6.0
    # Led by our beliefs, we leave it be.
    assert opponent_value(board, set(), doubt) == 0.0
    # Sure it is a Scout, we take it.
    assert opponent_value(board, set(), {10: {"scout": 1.0}, 12: {"flag": 1.0}, 13: {"sergeant": 1.0}}) == -6.0


def test_what_the_opponent_can_know_of_our_pieces() -> None:
    board = SearchBoard(RULES)
    still = board.add(index("a1"), RED, "flag", 1)
    board.add(index("b1"), RED, "bomb", 2)
    moved = board.add(index("c1"), RED, "scout", 3, moved=True)
    shown = board.add(index("d1"), RED, "miner", 4, moved=True)
    board.add(index("j10"), BLUE, "flag", 11, hidden=HIDDEN_MOVED)
    model = Perception(board, RED, WORTH, {11: {"flag": 1.0}}, known_to_opponent={4})
    code = RULES.code
    kinds, guess = model.ours(board, still)
    assert dict(kinds) == {code["flag"]: 1 / 3, code["bomb"]: 1 / 3, code["scout"]: 1 / 3}
    assert guess == HIDDEN_STILL
    assert model.ours(board, moved) == ([(code["scout"], 1.0)], HIDDEN_MOVED)  # no bomb or flag
    assert model.ours(board, shown) == ([(code["miner"], 1.0)], 0.0)
    # A piece that fights in the line is seen from then on.
    assert model.ours(board, still, shown=still) == ([(code["flag"], 1.0)], 0.0)


def test_a_piece_of_ours_that_fought_is_known_to_the_opponent_from_then_on() -> None:
    """Our unseen Captain takes a Scout beside the enemy's Major: the battle shows it, and the
    Major takes it back, though before the battle it could not tell it from our officers."""
    board, captain, _ = position("captain", "scout")
    board.add(index("e6"), BLUE, "major", 31, moved=True)
    board.to_move = RED
    model = Perception(board, RED, WORTH, {}, set())
    major = board.index_of(31)
    assert model.their_attack(board, major, captain) < 0.0  # unseen: it would leave it alone
    attack = [(index("e4"), index("e5"))]
    found = search_world(board, RED, attack, WORTH, True, None, SearchStats(), model=model)
    assert found == [6.0 - 22.0]


def test_choosing_by_what_it_knows_the_opponent_still_steps_next_to_an_open_flag() -> None:
    """The watch holds in the informed search too: our flag on c1 is open on c2 and an enemy
    Sergeant stands on c3, so guarding c2 beats a quiet move elsewhere only with the watch."""

    def guard_minus_elsewhere(watch: bool) -> float:
        board, moves = open_flag_position()
        model = Perception(board, RED, WORTH, {10: {"sergeant": 1.0}, 11: {"flag": 1.0}}, set())
        found = search_world(board, RED, moves, WORTH, True, None, SearchStats(), model=model,
                             watch=watch)
        assert found is not None
        return found[0] - found[1]

    assert guard_minus_elsewhere(watch=False) == 0.0
    assert guard_minus_elsewhere(watch=True) > 100.0


def corner_position() -> tuple[SearchBoard, int, int, int]:
    """Our General on j8 (moved) below two still enemy pieces, j9 and j10 (beside bombs on i9
    and i10), that in this world are a Sergeant and the flag. Returns the board, the General, j9
    and j10."""
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    general = board.add(index("j8"), RED, "general", 2, moved=True)
    below = board.add(index("j9"), BLUE, "sergeant", 10, hidden=HIDDEN_STILL)
    corner = board.add(index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    board.add(index("i10"), BLUE, "bomb", 12, hidden=HIDDEN_STILL)
    board.add(index("i9"), BLUE, "bomb", 14, hidden=HIDDEN_STILL)
    board.add(index("a7"), BLUE, "captain", 13, moved=True)
    board.to_move = RED
    return board, general, below, corner


# What we believe of each still piece: as often a bomb as the notebook says of such corners.
STILL_DOUBT = {10: {"bomb": 0.55, "flag": 0.15, "sergeant": 0.3},
               11: {"bomb": 0.55, "flag": 0.15, "sergeant": 0.3},
               12: {"bomb": 1.0}, 13: {"captain": 1.0}, 14: {"bomb": 1.0}}


def test_a_prudent_capture_step_does_not_find_the_flag_in_every_world_where_it_is() -> None:
    """Led by the world, the capture step after our attack takes the flag in every world where
    it stands beside the General (strategy fusion): the attack looks worth a won game. Led by
    our beliefs, the still piece behind is more likely a bomb than the flag, and the attack is
    worth the Sergeant it takes."""
    board, general, _, _ = corner_position()
    model = Perception(board, RED, WORTH, STILL_DOUBT, set())
    attack, step_aside = (index("j8"), index("j9")), (index("j8"), index("i8"))
    by_world = search_world(board, RED, [attack, step_aside], WORTH, True, None, SearchStats())
    prudent = search_world(board, RED, [attack, step_aside], WORTH, True, None, SearchStats(),
                           chooser=model)
    assert by_world is not None and prudent is not None
    assert by_world[0] > 400.0
    assert prudent[0] == WORTH[RED][RULES.code["sergeant"]]
    # Beside the still pieces after a step aside the capture step is as prudent: nothing taken.
    assert prudent[1] == 0.0


def test_a_prudent_capture_step_takes_what_it_is_sure_of() -> None:
    board, general, below, corner = corner_position()
    sure = {**STILL_DOUBT, 10: {"sergeant": 1.0}}
    model = Perception(board, RED, WORTH, sure, set())
    board.to_move = BLUE
    # Blue to move: whatever it does, we take the Sergeant we are sure of (9 for us).
    assert reply_value(board, RED, WORTH, SearchStats(), chooser=model) == -9.0
    assert model.our_attack(board, general, corner) < 0.0
