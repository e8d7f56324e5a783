"""Who plays the next game: the checks and the journal fields of a new_game naming the computer."""

from __future__ import annotations

import pytest

from firmware_bridge.bot import LEVELS
from firmware_bridge.protocol import contract
from firmware_bridge.referee import computer_choice
from firmware_bridge.referee.computer_seat import CLIENT
from firmware_bridge.referee.seats import Seat


def test_the_contract_knows_the_bots_levels_and_only_the_two_seats_or_off():
    assert tuple(LEVELS) == contract.COMPUTER_LEVELS
    contract.command("red", "a", 1, "new_game", computer="off", level="strong")
    for args in ({"computer": "green"}, {"computer": "Blue"}, {"level": "godlike"}, {"computer": 1}):
        with pytest.raises(contract.ContractError):
            contract.command("red", "a", 1, "new_game", **args)


def test_the_computer_takes_the_other_seat_never_yours():
    tablet, computer = Seat("k1", "tablet-1", "Anna"), Seat("k2", CLIENT, "computer")
    assert computer_choice.refusal({"red": tablet}, "red", "blue") is None
    assert computer_choice.refusal({"red": tablet, "blue": computer}, "red", "blue") is None
    assert "your own seat" in computer_choice.refusal({"red": tablet}, "red", "red")
    # A tablet holding the other seat hands it over (the service tells it so).
    assert computer_choice.refusal({"red": tablet, "blue": Seat("k3", "tablet-2", "Boris")}, "red", "blue") is None
    assert computer_choice.refusal({"red": tablet, "blue": Seat("k3", "tablet-2")}, "red", "off") is None


def test_a_game_entry_keeps_the_choice_until_a_new_game_names_another():
    first = computer_choice.game_entry({}, "blue", "easy")
    assert first == {"computer": "blue", "computer_level": "easy"}
    assert computer_choice.game_entry(first, None, None) == first
    assert computer_choice.game_entry(first, "off", None) == {"computer": "off", "computer_level": "easy"}
    assert computer_choice.game_entry({}, None, None) == {}


def test_the_configuration_counts_until_a_game_entry_says_otherwise():
    assert computer_choice.chosen({}, "red", "normal") == ("red", "normal")
    assert computer_choice.chosen({}, None, "normal") == (None, "normal")
    assert computer_choice.chosen({"computer": "blue", "computer_level": "easy"}, "red", "normal") == ("blue", "easy")
    assert computer_choice.chosen({"computer": "off"}, "red", "strong") == (None, "strong")
