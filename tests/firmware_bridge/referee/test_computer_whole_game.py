"""Whole games on the simulated board, with faults: a scripted human against the computer seat."""

from __future__ import annotations

import pytest

from hardware.sim.hands import ALL_FAULTS
from tests.firmware_bridge.referee.computer_table import ComputerTable


def play_against_the_computer(table: ComputerTable, ply_cap: int) -> list[str]:
    """The human plays random legal moves; the computer's moves are made as its guidance says."""
    table.start()
    game, seat = table.session.game, table.referee.computer
    played = []
    while game.result is None and game.ply < ply_cap:
        ply = game.ply
        if game.to_move.value == table.human:
            assert seat.move is None and seat.public() is None, "no computer move in the human's turn"
            move = table.human_move()
        else:
            move = seat.move
            assert move is not None, f"the computer chose no move at ply {ply}"
            step = {"action": "move", "square": move.origin.name, "to": move.target.name, "color": seat.seat}
            assert table.referee.board_check()["plan"] == [step]
        # (seen once, in CI at ply 443 of a 446-ruling game: what the referee saw then tells why)
        assert table.play(move), (f"{move} at ply {ply} was never ruled; the referee's board check: "
                                  f"{table.referee.board_check()}; sensed: {sorted(map(str, table.board.occupied()))}")
        assert game.ply == ply + 1 and game.last_move == move, f"made {move}, ruled {table.made[-1]}"
        played.append(str(move))
        assert table.settle(), f"the board never matched after {move}: {table.referee.board_check()}"
    return played


@pytest.mark.slow  # a soak: whole games
@pytest.mark.parametrize(("variant", "computer", "level", "seed"), [
    ("barrage", "blue", "easy", 23),
    ("classic", "red", "normal", 22),
])
def test_a_human_plays_a_whole_game_against_the_computer_through_the_board_with_faults(
        tmp_path, variant, computer, level, seed):
    cap = 1000
    table = ComputerTable(tmp_path, variant, computer, level, seed, ALL_FAULTS)
    try:
        played = play_against_the_computer(table, cap)
        game = table.session.game
        assert game.result is not None or game.ply == cap
        assert len(played) == game.ply and all(made == ruled for made, ruled in table.made)
        battles = [r for r in table.rulings if any(e.get("type") == "battle" for e in r.public_events)]
        assert battles, "battles were told as usual"
        print(f"{variant}: {game.ply} plies, result {game.result}, {len(battles)} battles")
    finally:
        table.close()
