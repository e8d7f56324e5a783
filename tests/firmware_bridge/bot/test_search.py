"""The bot's search: a game decided inside a line counts as won or lost, not as material."""

from __future__ import annotations

from engine import get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import WIN, Values, kind_values
from firmware_bridge.bot.flag_watch import FLAG_THREAT, flag_threatened
from firmware_bridge.bot.search import SearchStats, search_world
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL
from firmware_bridge.bot.tactics import battle_gain, cornered

CLASSIC = get_variant("classic")
RULES = rules_for(CLASSIC)


def generals_face_to_face(ours: dict[str, str], theirs: dict[str, str],
                          theirs_hidden: float = 0.0) -> tuple[SearchBoard, Values]:
    """Each side's General face to face on e4 (ours) and e5 (theirs; `theirs_hidden`: how much of
    a guess it is to us), the flags far apart, and more pieces of each side (square -> kind,
    all moved; theirs unknown to us); with the values of what is alive."""
    board = SearchBoard(RULES)
    board.add(board.index("a1"), RED, "flag", 0)
    board.add(board.index("e4"), RED, "general", 1, moved=True)
    board.add(board.index("e5"), BLUE, "general", 10, moved=True, hidden=theirs_hidden)
    board.add(board.index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    alive = [{"general": 1, "flag": 1}, {"general": 1, "flag": 1}]
    for side, extra, first in ((RED, ours, 2), (BLUE, theirs, 12)):
        for number, (square, kind) in enumerate(extra.items()):
            hidden = HIDDEN_MOVED if side == BLUE else 0.0
            board.add(board.index(square), side, kind, first + number, moved=True, hidden=hidden)
            alive[side][kind] = alive[side].get(kind, 0) + 1
    return board, kind_values(RULES, {RED: alive[RED], BLUE: alive[BLUE]})


def move_values(board: SearchBoard, worth: Values, moves: list[str]) -> list[float]:
    """What the search gives each of our moves (such as "e4-e5") in this world."""
    pairs = [(board.index(origin), board.index(target))
             for origin, target in (move.split("-") for move in moves)]
    found = search_world(board, RED, pairs, worth, True, None, SearchStats())
    assert found is not None
    return found


def fight(board: SearchBoard, worth: Values, attacker: str, defender: str) -> float:
    """What the capture step gives the battle of the pieces on these two squares."""
    return battle_gain(board, board.cells[board.index(attacker)], board.cells[board.index(defender)], worth)


def test_trading_our_last_movable_piece_while_the_enemy_keeps_one_loses_the_game() -> None:
    board, worth = generals_face_to_face(ours={}, theirs={"j8": "spy"})
    trade, step_aside = move_values(board, worth, ["e4-e5", "e4-d4"])
    assert trade == -WIN  # we would have no move on our next turn
    assert step_aside > -WIN


def test_the_opponent_does_not_trade_its_last_movable_piece_either() -> None:
    """Their last movable piece, a General we have not seen (in this world), faces our General;
    we also have a Scout. Its trade would weigh as a gain to it (our General lost to a guess), but
    it would lose it the game: our General may stay (the Scout moves instead), and stepping aside
    gains nothing."""
    board, worth = generals_face_to_face(ours={"b2": "scout"}, theirs={}, theirs_hidden=HIDDEN_MOVED)
    stay, step_aside = move_values(board, worth, ["b2-b3", "e4-d4"])
    assert stay >= step_aside


def test_the_capture_step_counts_taking_their_last_movable_piece_as_the_game() -> None:
    """Our Marshal takes their General, their last movable piece: they cannot move next turn."""
    board, worth = generals_face_to_face(ours={"f5": "marshal"}, theirs={})
    assert fight(board, worth, "f5", "e5") == WIN
    board, worth = generals_face_to_face(ours={"f5": "marshal"}, theirs={"j8": "spy"})
    assert 0 < fight(board, worth, "f5", "e5") < WIN  # the Spy still moves: material


def test_the_capture_step_counts_trading_our_last_movable_piece_as_lost_or_drawn() -> None:
    board, worth = generals_face_to_face(ours={}, theirs={"j8": "spy"})
    assert fight(board, worth, "e4", "e5") == -WIN  # their Spy moves on, we cannot
    board, worth = generals_face_to_face(ours={}, theirs={})
    assert fight(board, worth, "e4", "e5") == 0.0  # neither side can move: a draw


def scout_over_open_file() -> SearchBoard:
    """Our flag in the corner a1 behind a bomb on b1, the a-file open above it; our Captain on
    b3 (one step from the file), our Sergeant far off on j2; an enemy Scout on e7 whose rank is
    clear to a7, from where it would strike down the file."""
    board = SearchBoard(RULES)
    board.add(board.index("a1"), RED, "flag", 0)
    board.add(board.index("b1"), RED, "bomb", 1)
    board.add(board.index("b3"), RED, "captain", 2, moved=True)
    board.add(board.index("j2"), RED, "sergeant", 3, moved=True)
    board.add(board.index("e7"), BLUE, "scout", 10, moved=True, hidden=HIDDEN_MOVED)
    board.add(board.index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    return board


def test_a_scout_that_reaches_an_open_line_to_our_flag_is_an_answer_we_must_be_able_to_shut() -> None:
    """With `lines`, the search sees the Scout fly onto the a-file: walking the Captain away
    from it (b3-c3) leaves nothing that can shut the file in time, so it loses to a quiet move
    elsewhere (j2-j3) by the flag; without `lines` the two are alike."""
    worth = kind_values(RULES, {RED: dict(CLASSIC.army), BLUE: dict(CLASSIC.army)})
    index = SearchBoard(RULES).index
    pairs = [(index(origin), index(target)) for origin, target in (("b3", "c3"), ("j2", "j3"))]
    gaps = {}
    for lines in (False, True):
        found = search_world(scout_over_open_file(), RED, pairs, worth, True, None, SearchStats(),
                             watch=True, lines=lines)
        assert found is not None
        gaps[lines] = found[1] - found[0]
    assert gaps[False] == 0.0
    assert gaps[True] >= FLAG_THREAT


def test_a_scout_on_an_open_line_to_our_flag_is_no_threat_while_we_can_shut_the_line() -> None:
    board = scout_over_open_file()
    board.make(board.index("e7"), board.index("a7"))  # the Scout on the file
    worth = kind_values(RULES, {RED: dict(CLASSIC.army), BLUE: dict(CLASSIC.army)})
    assert not flag_threatened(board, RED, board.index("a1"), worth)  # the Captain steps to a3
    board.make(board.index("b3"), board.index("c3"))
    assert flag_threatened(board, RED, board.index("a1"), worth)


def major_chased_by_marshal(run: int) -> tuple[SearchBoard, Values]:
    """Our known Major on f2 beside their known Marshal on f3; our bombs on f1, g1 and h2 make
    g2 a pocket (its only other way out is f2 itself); e2 is open. `run`: how many moves our Major
    has made back and forth between f2 and g2."""
    board = SearchBoard(RULES)
    board.add(board.index("a1"), RED, "flag", 0)
    board.add(board.index("f2"), RED, "major", 1, moved=True)
    for ident, square in enumerate(("f1", "g1", "h2"), start=2):
        board.add(board.index(square), RED, "bomb", ident)
    board.add(board.index("b1"), RED, "scout", 5, moved=True)
    board.add(board.index("f3"), BLUE, "marshal", 10, moved=True)
    board.add(board.index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    if run:
        board.set_run(RED, 1, {board.index("f2"), board.index("g2")}, run)
    alive = {"flag": 1, "major": 1, "bomb": 3, "scout": 1}
    return board, kind_values(RULES, {RED: alive, BLUE: {"marshal": 1, "flag": 1}})


def deep_values(board: SearchBoard, worth: Values, moves: list[str], corners: bool) -> list[float]:
    """What the deep search gives each of our moves, counting cornered pieces or not."""
    pairs = [(board.index(origin), board.index(target))
             for origin, target in (move.split("-") for move in moves)]
    found = search_world(board, RED, pairs, worth, True, None, SearchStats(), deep=True,
                         corners=corners)
    assert found is not None
    return found


def test_a_chased_piece_whose_two_squares_run_is_spent_cannot_flee_back_into_its_pocket() -> None:
    board, worth = major_chased_by_marshal(run=2)
    pocket, open_square = deep_values(board, worth, ["f2-g2", "f2-e2"], corners=True)
    # f2-g2 is the Major's third move between f2 and g2: when the Marshal follows to g3, the
    # rule refuses g2-f2, and the bombs close the pocket.
    assert open_square == 0.0
    assert pocket == -worth[RED][RULES.code["major"]]  # the Major is lost
    blind = deep_values(board, worth, ["f2-g2", "f2-e2"], corners=False)
    assert blind[0] == blind[1]  # without counting corners, both flights look safe


def test_a_fresh_run_leaves_the_way_back_open() -> None:
    board, worth = major_chased_by_marshal(run=0)
    pocket, open_square = deep_values(board, worth, ["f2-g2", "f2-e2"], corners=True)
    assert pocket == open_square


def test_a_piece_is_cornered_only_when_every_way_out_is_refused_or_guarded() -> None:
    board, _ = major_chased_by_marshal(run=0)
    major = board.index_of(1)
    assert not cornered(board, major)  # e2 and g2 are open
    board.add(board.index("e2"), RED, "bomb", 6)
    board.add(board.index("h3"), BLUE, "colonel", 12, moved=True)
    assert not cornered(board, major)  # g2 is next to a bomb of ours, nothing that beats a Major
    board.make(board.index("h3"), board.index("g3"))
    assert cornered(board, major)  # g2 is next to their Colonel now
    assert not cornered(board, board.index_of(2))  # a bomb is not cornered: it never flees


def marshal_in_a_pocket(run: int) -> tuple[SearchBoard, Values]:
    """Our Marshal, our last movable piece, on j1 in a pocket our bombs on h1, i2 and j3 make:
    its only squares are j1, j2 and i1. `run`: its moves back and forth between j1 and j2."""
    board = SearchBoard(RULES)
    board.add(board.index("a1"), RED, "flag", 0)
    board.add(board.index("j1"), RED, "marshal", 1, moved=True)
    for ident, square in enumerate(("h1", "i2", "j3"), start=2):
        board.add(board.index(square), RED, "bomb", ident)
    board.add(board.index("e8"), BLUE, "sergeant", 10, moved=True, hidden=HIDDEN_MOVED)
    board.add(board.index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    if run:
        board.set_run(RED, 1, {board.index("j1"), board.index("j2")}, run)
    alive = {"flag": 1, "marshal": 1, "bomb": 3}
    return board, kind_values(RULES, {RED: alive, BLUE: {"sergeant": 1, "flag": 1}})


def test_a_move_that_leaves_us_no_legal_move_next_turn_loses_the_game() -> None:
    """The two-squares rule refuses a fourth move between j1 and j2: after a third, the Marshal
    has no legal move left, and a side with no legal move loses."""
    board, worth = marshal_in_a_pocket(run=2)
    shuffle, aside = move_values(board, worth, ["j1-j2", "j1-i1"])
    assert shuffle == -WIN
    assert aside > -WIN / 2


def test_with_its_run_fresh_the_marshal_may_step_either_way() -> None:
    board, worth = marshal_in_a_pocket(run=0)
    shuffle, aside = move_values(board, worth, ["j1-j2", "j1-i1"])
    assert shuffle == aside
