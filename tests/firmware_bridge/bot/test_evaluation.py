"""What the bot's pieces are worth: loss aversion against guesses, the ruling piece, the Spy's
victim, intruders near our flag, and the highest piece held back while unseen."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engine import Color, Square, get_variant
from firmware_bridge.bot.board import BLUE, RED, SearchBoard, rules_for
from firmware_bridge.bot.evaluation import enclosed, kind_values, loss_aversion
from firmware_bridge.bot.player import (
    DUEL_BONUS,
    PLUG_BONUS,
    RESERVE_COST,
    STILL_COST,
    TOP_REVEAL_SHARE,
    ComputerPlayer,
)
from firmware_bridge.bot.search import SearchStats, search_world
from firmware_bridge.bot.seat import HIDDEN_MOVED, HIDDEN_STILL
from firmware_bridge.bot.tactics import battle_gain

CLASSIC = get_variant("classic")
RULES = rules_for(CLASSIC)
FULL = {"red": dict(CLASSIC.army), "blue": dict(CLASSIC.army)}


index = SearchBoard(RULES).index  # a square's name to the search board's index


def values(red: dict[str, int] | None = None, blue: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    return kind_values(RULES, {RED: red or FULL["red"], BLUE: blue or FULL["blue"]})


def test_a_marshal_lost_to_a_guessed_unmoved_piece_weighs_six_times_its_value() -> None:
    board = SearchBoard(RULES)
    marshal = board.add(index("e4"), RED, "marshal", 1)
    shown = board.add(index("e5"), BLUE, "bomb", 2)
    guessed = board.add(index("d4"), BLUE, "bomb", 3, hidden=HIDDEN_STILL)
    moved_guess = board.add(index("f4"), BLUE, "spy", 4, moved=True, hidden=HIDDEN_MOVED)
    board.add(index("a2"), RED, "scout", 5, moved=True)  # the Marshal is not Red's last movable piece
    worth = values()
    assert battle_gain(board, marshal, shown, worth) == -100.0  # a known bomb: its plain value
    assert loss_aversion(100.0, HIDDEN_STILL) == 6.0
    assert battle_gain(board, marshal, guessed, worth) == -600.0
    # The enemy side sees our loss the same way: a guessed Spy taking our Marshal gains 3 times.
    assert battle_gain(board, moved_guess, marshal, worth) == 300.0


def test_a_sergeant_fears_the_unknown_far_less_than_the_marshal() -> None:
    assert loss_aversion(9.0, HIDDEN_STILL) < 1.5 < 5.0 < loss_aversion(100.0, HIDDEN_STILL)


def test_with_the_enemy_marshal_and_general_gone_our_general_rules_the_board() -> None:
    red, blue = values()
    general = RULES.code["general"]
    assert red[general] == 80.0
    assert values(blue=dict(FULL["blue"], marshal=0))[0][general] == 80.0  # their General trades
    red_after, _ = values(blue=dict(FULL["blue"], marshal=0, general=0))
    assert red_after[general] == 120.0  # half as much again: nothing alive can beat it


def test_the_search_keeps_the_marshal_off_unmoved_unknown_pieces() -> None:
    """A Marshal beside a still unknown piece that is a bomb in some worlds and a General in the
    rest: with the loss aversion the attack scores below a quiet step, without it above."""
    worth = values()

    def attack_minus_quiet(hidden: float) -> float:
        totals = [0.0, 0.0]
        for kind, share in (("bomb", 0.2), ("general", 0.8)):
            board = SearchBoard(RULES)
            board.add(index("a1"), RED, "flag", 0)
            board.add(index("e4"), RED, "marshal", 1, moved=True)
            board.add(index("b1"), RED, "scout", 5, moved=True)  # the Marshal is not our last
            board.add(index("e5"), BLUE, kind, 2, hidden=hidden)
            board.add(index("j10"), BLUE, "flag", 3, hidden=hidden)
            board.add(index("j9"), BLUE, "sergeant", 4, moved=True)
            moves = [(index("e4"), index("e5")), (index("e4"), index("d4"))]
            found = search_world(board, RED, moves, worth, True, None, SearchStats())
            assert found is not None
            totals = [t + share * v for t, v in zip(totals, found, strict=True)]
        return totals[0] - totals[1]

    assert attack_minus_quiet(HIDDEN_STILL) < 0 < attack_minus_quiet(0.0)


def test_a_known_marshal_keeps_away_from_pieces_that_may_be_the_spy() -> None:
    bot = ComputerPlayer("classic", Color.RED, "easy", seed=1)
    board = SearchBoard(RULES)
    marshal = board.add(index("e4"), RED, "marshal", 1, moved=True)
    board.add(index("e6"), BLUE, "sergeant", 2, hidden=HIDDEN_STILL)
    beliefs = {2: {"spy": 0.05, "sergeant": 0.95}}
    danger = bot._assassin_danger(board, beliefs, known_ids={1}, me=RED)
    at_risk = danger[marshal]
    assert at_risk(index("e5"), index("e4")) == 0.25  # beside it: taken for the Spy at 0.25
    assert at_risk(index("d4"), index("e4")) == 0.0
    # Unknown to the opponent, the Marshal has nothing to fear from a waiting Spy.
    assert bot._assassin_danger(board, beliefs, known_ids=set(), me=RED) == {}


def test_our_unseen_marshal_is_the_piece_we_hold_back_until_it_is_shown() -> None:
    bot = ComputerPlayer("classic", Color.RED, "normal", seed=1)
    board = SearchBoard(RULES)
    board.add(index("a1"), RED, "flag", 1)
    marshal = board.add(index("e2"), RED, "marshal", 2)
    board.add(index("f2"), RED, "general", 3, moved=True)
    board.add(index("j10"), BLUE, "flag", 10, hidden=HIDDEN_STILL)
    assert bot._top_unseen(board, known_ids=set(), me=RED) == board.kind[marshal]
    # Shown, it no longer shields anything: nothing is held back (the General is not promoted).
    assert bot._top_unseen(board, known_ids={2}, me=RED) == -1
    # Below it, the General while it is unseen (`Level.broad` holds it back too).
    general = board.cells[index("f2")]
    assert bot._top_unseen(board, known_ids=set(), me=RED, below=board.kind[marshal]) == board.kind[general]
    assert bot._top_unseen(board, known_ids={3}, me=RED, below=board.kind[marshal]) == -1


def bonus_normal_minus_easy(pieces: list[tuple[int, str, str, str, bool, bool]],
                            moves: list[tuple[str, str]],
                            beliefs: dict[int, dict[str, float]]) -> list[float]:
    """What `normal` adds to each root move's bonus over `easy` (the terms only `normal` has, the
    garrison aside: its own tests are below), red to move; pieces: (id, colour, square, kind,
    moved, known to the other side)."""
    view = {"ply": 40, "to_move": "red", "pieces": [
        {"id": ident, "color": color, "square": square, "known": known,
         "kind": kind if color == "red" or known else None}
        for ident, color, square, kind, _, known in pieces]}
    board = SearchBoard(RULES)
    for ident, color, square, kind, moved, known in pieces:
        hidden = 0.0 if color == "red" or known else HIDDEN_MOVED if moved else HIDDEN_STILL
        board.add(index(square), RED if color == "red" else BLUE, kind, ident, moved, hidden)
    root = [(index(origin), index(target)) for origin, target in moves]
    bonus = {}
    for level in ("easy", "normal"):
        bot = ComputerPlayer("classic", Color.RED, level, seed=1)
        bot.level = replace(bot.level, garrison=False)
        bonus[level] = bot._root_bonus(board, view, root, beliefs, RED)
    return [normal - easy for normal, easy in zip(bonus["normal"], bonus["easy"], strict=True)]


def test_a_quiet_move_of_the_hidden_marshal_costs_and_showing_it_costs_more() -> None:
    pieces = [(1, "red", "a1", "flag", False, False), (2, "red", "e4", "marshal", True, False),
              (3, "red", "h4", "general", True, False), (10, "blue", "e5", "captain", True, True),
              (11, "blue", "j10", "flag", False, False)]
    quiet, attack, other = bonus_normal_minus_easy(
        pieces, [("e4", "d4"), ("e4", "e5"), ("h4", "h3")], {11: {"flag": 1.0}})
    marshal_value = 150.0  # as the board stands, nothing of the enemy's alive can beat it
    assert quiet == -RESERVE_COST
    assert attack < -0.5 * marshal_value and attack == pytest.approx(-(TOP_REVEAL_SHARE - 0.12) * marshal_value)
    assert other == -RESERVE_COST  # the unseen General is held back too while the Marshal hides


def test_the_general_walks_freely_once_it_has_been_seen() -> None:
    pieces = [(1, "red", "a1", "flag", False, False), (2, "red", "e4", "marshal", True, False),
              (3, "red", "h4", "general", True, True), (11, "blue", "j10", "flag", False, False)]
    marshal_quiet, general_quiet = bonus_normal_minus_easy(
        pieces, [("e4", "d4"), ("h4", "h3")], {11: {"flag": 1.0}})
    assert marshal_quiet == -RESERVE_COST and general_quiet == 0.0


def normal_bonus(pieces: list[tuple[int, str, str, str, bool]], moves: list[tuple[str, str]],
                 beliefs: dict[int, dict[str, float]], theirs: dict[str, int] | None = None,
                 **switches: bool) -> list[float]:
    """Root bonuses at `normal` (garrison off, `switches` set) of red's `moves`, late in a game;
    pieces: (id, colour, square, kind, known to the other side), all moved but the flags and
    bombs; `theirs`: the enemy army the notebook counts alive (None: the whole army)."""
    view = {"ply": 600, "to_move": "red", "pieces": [
        {"id": ident, "color": color, "square": square, "known": known,
         "kind": kind if color == "red" or known else None}
        for ident, color, square, kind, known in pieces]}
    board = SearchBoard(RULES)
    for ident, color, square, kind, known in pieces:
        still = kind in ("flag", "bomb")
        hidden = 0.0 if color == "red" or known else HIDDEN_STILL if still else HIDDEN_MOVED
        board.add(index(square), RED if color == "red" else BLUE, kind, ident, not still, hidden)
    bot = ComputerPlayer("classic", Color.RED, "normal", seed=1)
    bot.level = replace(bot.level, garrison=False, **switches)
    if theirs is not None:
        bot.notebook.remaining = lambda: dict(theirs)  # type: ignore[method-assign]
    root = [(index(origin), index(target)) for origin, target in moves]
    return bot._root_bonus(board, view, root, beliefs, RED)


def reserve_bonus(release: bool, theirs: dict[str, int]) -> list[float]:
    """Root bonuses of a quiet move of our unseen General (e4-d4) and its attack on a shown
    enemy Colonel (e4-e5), our Marshal dead and the enemy's army `theirs`."""
    pieces = [(1, "red", "a1", "flag", False), (3, "red", "e4", "general", False),
              (10, "blue", "e5", "colonel", True), (11, "blue", "j10", "flag", False)]
    return normal_bonus(pieces, [("e4", "d4"), ("e4", "e5")],
                        {10: {"colonel": 1.0}, 11: {"flag": 1.0}}, theirs, release=release,
                        race=False)  # the open flag would call the General home


def test_once_nothing_alive_can_beat_our_hidden_general_it_is_held_back_no_more() -> None:
    """The reserve keeps our highest piece unseen while an enemy piece may beat it; once the
    enemy's Marshal and General are dead, holding our General back only stalls a won game."""
    beaten = {kind: count for kind, count in CLASSIC.army.items() if kind not in ("marshal", "general")}
    held_quiet, held_attack = reserve_bonus(release=False, theirs=beaten)
    free_quiet, free_attack = reserve_bonus(release=True, theirs=beaten)
    assert free_quiet - held_quiet == pytest.approx(RESERVE_COST)
    assert free_attack > held_attack + 50.0  # showing it in a battle costs a small share only
    # While the enemy Marshal lives, released or not, the General stays home.
    alive = dict(CLASSIC.army)
    assert reserve_bonus(release=True, theirs=alive) == reserve_bonus(release=False, theirs=alive)


def duel_bonus(duel: bool, theirs_at: str = "e3", shown: bool = True) -> list[float]:
    """Root bonuses of our unseen Marshal (e6) stepping toward their Marshal (on our half at e3;
    `shown`: we have seen it), stepping away, and of our shown Sergeant beside it attacking it;
    our Spy alive."""
    pieces = [(1, "red", "a1", "flag", False), (2, "red", "b1", "bomb", False),
              (3, "red", "a2", "bomb", False), (4, "red", "e6", "marshal", False),
              (5, "red", "e2", "sergeant", True), (6, "red", "j1", "spy", False),
              (10, "blue", theirs_at, "marshal", shown),
              (11, "blue", "j10", "bomb", False), (12, "blue", "a10", "flag", False)]
    return normal_bonus(pieces, [("e6", "e5"), ("e6", "e7"), ("e2", "e3")],
                        {10: {"marshal": 1.0}, 11: {"bomb": 1.0}}, duel=duel, race=False)


def test_their_marshal_on_our_half_draws_our_held_back_marshal_to_trade_with_it() -> None:
    """Their known Marshal walking through our camp takes every piece it meets; our Spy could stop
    it only by striking first, so our Marshal leaves the reserve and goes to trade."""
    (toward, away, sergeant), (plain_toward, plain_away, plain_sergeant) = (
        duel_bonus(duel=True), duel_bonus(duel=False))
    assert toward - away > plain_toward - plain_away + 2.0  # drawn to the trade
    assert toward - plain_toward > RESERVE_COST  # no longer held back
    assert sergeant == pytest.approx(plain_sergeant)  # a piece that cannot trade with it is not sent


def test_their_marshal_on_its_own_half_calls_for_no_duel() -> None:
    assert duel_bonus(duel=True, theirs_at="e7") == duel_bonus(duel=False, theirs_at="e7")


def test_a_piece_we_only_believe_to_be_their_marshal_calls_for_no_duel() -> None:
    assert duel_bonus(duel=True, shown=False) == duel_bonus(duel=False, shown=False)


def test_the_trade_that_stops_their_marshal_on_our_half_earns_more_than_its_material() -> None:
    pieces = [(1, "red", "a1", "flag", False), (2, "red", "b1", "bomb", False),
              (3, "red", "a2", "bomb", False), (4, "red", "e4", "marshal", True),
              (10, "blue", "e3", "marshal", True), (11, "blue", "j10", "bomb", False),
              (12, "blue", "a10", "flag", False)]
    beliefs = {10: {"marshal": 1.0}, 11: {"bomb": 1.0}}
    trade, = normal_bonus(pieces, [("e4", "e3")], beliefs, duel=True, race=False)
    plain, = normal_bonus(pieces, [("e4", "e3")], beliefs, duel=False, race=False)
    assert trade - plain == pytest.approx(DUEL_BONUS)


def test_normal_charges_the_first_move_of_a_piece_that_never_moved() -> None:
    pieces = [(1, "red", "a1", "flag", False, False), (2, "red", "b1", "sergeant", False, False),
              (3, "red", "h4", "sergeant", True, False), (4, "red", "e2", "marshal", False, False),
              (11, "blue", "j10", "flag", False, False)]
    first_move, moved_again = bonus_normal_minus_easy(
        pieces, [("b1", "c1"), ("h4", "h3")], {11: {"flag": 1.0}})
    assert first_move == -STILL_COST < 0.0
    assert moved_again == 0.0


def open_flag_position() -> tuple[SearchBoard, list[tuple[int, int]]]:
    """Our flag on c1 between bombs, open on c2; an enemy Sergeant on c3, one step from there.
    Our moves: the Major guards c2 (e2-d2), or the Lieutenant steps elsewhere (j2-j3)."""
    board = SearchBoard(RULES)
    board.add(index("c1"), RED, "flag", 0)
    board.add(index("b1"), RED, "bomb", 1)
    board.add(index("d1"), RED, "bomb", 2)
    board.add(index("e2"), RED, "major", 3, moved=True)
    board.add(index("j2"), RED, "lieutenant", 4, moved=True)
    board.add(index("c3"), BLUE, "sergeant", 10, moved=True, hidden=HIDDEN_MOVED)
    board.add(index("j10"), BLUE, "flag", 11, hidden=HIDDEN_STILL)
    return board, [(index("e2"), index("d2")), (index("j2"), index("j3"))]


def test_watching_the_flag_the_search_guards_the_square_an_intruder_would_step_to() -> None:
    """Our flag stands open on one side, c2; an enemy Sergeant one step from there. With `watch`
    the opponent's step next to the flag is one of its replies, so guarding c2 beats a quiet move
    elsewhere; without it the search sees no difference."""
    worth = values()

    def guard_minus_elsewhere(watch: bool) -> float:
        board, moves = open_flag_position()
        found = search_world(board, RED, moves, worth, True, None, SearchStats(), watch=watch)
        assert found is not None
        return found[0] - found[1]

    assert guard_minus_elsewhere(watch=False) == 0.0
    assert guard_minus_elsewhere(watch=True) > 100.0


def walled_flag_board(b10_moved: bool = False) -> SearchBoard:
    """Blue's flag in the corner a10 behind still pieces on a9 and b10; our Major on b8 and
    our Miner on e7 (and our Marshal, shown, at home: nothing is held back in reserve)."""
    board = SearchBoard(RULES)
    board.add(index("e1"), RED, "flag", 1)
    board.add(index("j1"), RED, "marshal", 4, moved=True)
    board.add(index("b8"), RED, "major", 2, moved=True)
    board.add(index("e7"), RED, "miner", 3, moved=True)
    board.add(index("a10"), BLUE, "flag", 10, hidden=HIDDEN_STILL)
    board.add(index("a9"), BLUE, "bomb", 11, hidden=HIDDEN_STILL)
    board.add(index("b10"), BLUE, "bomb", 12, moved=b10_moved, hidden=HIDDEN_STILL)
    board.add(index("j7"), BLUE, "sergeant", 13, moved=True, hidden=HIDDEN_MOVED)
    return board


def test_a_piece_walled_in_by_still_pieces_is_enclosed_until_one_of_them_moves() -> None:
    assert enclosed(walled_flag_board(), RED) == {index("a10")}
    assert enclosed(walled_flag_board(b10_moved=True), RED) == set()


def breach_bonus(breach: bool, moves: list[tuple[str, str]]) -> list[float]:
    board = walled_flag_board()
    view = {"ply": 400, "to_move": "red", "pieces": [
        {"id": board.ident[p], "color": "red" if board.color[p] == RED else "blue",
         "square": Square(board.square[p] % CLASSIC.width, board.square[p] // CLASSIC.width).name,
         "known": board.ident[p] == 4, "kind": board.kind_name(p) if board.color[p] == RED else None}
        for p in range(len(board.kind))]}
    beliefs = {10: {"flag": 0.9, "bomb": 0.1}, 11: {"flag": 0.05, "bomb": 0.95},
               12: {"flag": 0.05, "bomb": 0.95}, 13: {"sergeant": 1.0}}
    bot = ComputerPlayer("classic", Color.RED, "normal", seed=1)
    bot.level = replace(bot.level, breach=breach)
    return bot._root_bonus(board, view, [(index(o), index(t)) for o, t in moves], beliefs, RED)


def test_a_walled_in_flag_draws_our_miner_to_its_wall_and_no_longer_holds_our_officers_beside_it() -> None:
    """Our Major beside the wall cannot reach the flag it guards, and standing there it takes
    a square a Miner needs: walled in, the flag no longer holds it. The Miner is drawn to the
    still pieces round a likely flag, to breach them."""
    leave, toward = ("b8", "c8"), ("e7", "d7")
    before = breach_bonus(False, [leave, toward])
    after = breach_bonus(True, [leave, toward])
    assert before[0] < 0.0 and after[0] > before[0]  # leaving the wall cost pull; no more
    assert after[1] > before[1] > 0.0  # the Miner walks to the wall more eagerly


Placed = tuple[int, int, str, str, bool]  # id, side, square, kind, moved


def switch_bonus(switch: str, pieces: list[Placed], moves: list[tuple[str, str]],
                 enemy_miners: bool = True) -> list[float]:
    """What turning a `Level` switch on adds to each root move's bonus at `normal` (red to
    move, ply 100; our Marshal, id 4, is the one piece the enemy has seen; enemy pieces moved
    are believed to be Sergeants, still ones the flag)."""
    board = SearchBoard(RULES)
    for ident, color, square, kind, moved in pieces:
        hidden = 0.0 if color == RED else HIDDEN_MOVED if moved else HIDDEN_STILL
        board.add(index(square), color, kind, ident, moved, hidden)
    view = {"ply": 100, "to_move": "red", "pieces": [
        {"id": ident, "color": "red" if color == RED else "blue", "square": square,
         "known": ident == 4, "kind": kind if color == RED else None}
        for ident, color, square, kind, _ in pieces]}
    beliefs = {ident: {"sergeant" if moved else "flag": 1.0}
               for ident, color, _, _, moved in pieces if color == BLUE}
    root = [(index(o), index(t)) for o, t in moves]
    found = []
    for on in (True, False):
        bot = ComputerPlayer("classic", Color.RED, "normal", seed=1)
        flags: dict[str, Any] = {switch: on}
        bot.level = replace(bot.level, **flags)
        if not enemy_miners:
            bot.notebook._facts.dead["miner"] = CLASSIC.army["miner"]
        found.append(bot._root_bonus(board, view, root, beliefs, RED))
    return [a - b for a, b in zip(*found, strict=True)]


ENEMY_FAR: list[Placed] = [(20, BLUE, "j9", "sergeant", True), (21, BLUE, "j10", "flag", False)]


def test_an_open_square_beside_our_flag_draws_the_piece_that_holds_it_best() -> None:
    """A dug bomb leaves our flag open to any walker: with `plug` the Major steps onto the hole,
    and is worth more there than the Scout, which would stop only the Spy."""
    ours: list[Placed] = [(1, RED, "c1", "flag", False), (2, RED, "b1", "bomb", False),
                          (3, RED, "d1", "bomb", False), (4, RED, "j1", "marshal", True),
                          (5, RED, "d2", "major", True), (6, RED, "b2", "scout", True)]
    major_in, major_away, scout_in = switch_bonus(
        "plug", ours + ENEMY_FAR, [("d2", "c2"), ("d2", "e2"), ("b2", "c2")])
    assert major_in > 0.6 * PLUG_BONUS
    assert major_away <= 0.0
    assert major_in > scout_in >= 0.0
