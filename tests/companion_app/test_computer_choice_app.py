"""The tablet's "Play the computer" / "Play a person" button and the new_game it sends."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion_app.model.computer_choice import computer_button
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator, contract_command
from firmware_bridge.protocol import contract


def tablet_state(seat: str, computer: str | None) -> TableState:
    """A tablet's state after the referee's public snapshot saying who the computer plays."""
    state = TableState(seat=seat)
    ContractTranslator(state.apply, seat).public_state({"seats": {}, "computer": computer})
    return state


def sent(screen_class, state: TableState) -> list[tuple[str, dict]]:
    """What pressing the button of ``screen_class`` sends, on a tablet in ``state``."""
    commands: list[tuple[str, dict]] = []
    root_app = SimpleNamespace(state=state, command=lambda name, payload: commands.append((name, payload)))
    screen_class.choose_opponent(SimpleNamespace(root_app=root_app))
    return commands


@pytest.mark.parametrize("seat, other", [("red", "blue"), ("blue", "red")])
def test_against_a_person_the_button_gives_the_other_seat_to_the_computer(seat, other):
    state = tablet_state(seat, None)
    label, payload = computer_button(state.seat, state.computer_seat)
    assert label == "Play the computer"
    assert contract_command("new_game", payload) == ("new_game", {"computer": other})
    contract.command(seat, "x1", 1, "new_game", computer=other, level="easy")  # the contract takes it


def test_against_the_computer_the_button_gives_the_seat_back_to_a_person():
    state = tablet_state("red", "blue")
    assert state.computer_seat == "blue"
    label, payload = computer_button(state.seat, state.computer_seat)
    assert label == "Play a person"
    assert contract_command("new_game", payload) == ("new_game", {"computer": "off"})


def test_the_referee_display_has_no_such_button():
    assert computer_button(None, "blue") is None


def test_the_setup_and_end_screens_send_new_game_with_the_computer():
    from companion_app.ui.screen_over import OverScreen
    from companion_app.ui.screen_setup import SetupScreen

    for screen in (SetupScreen, OverScreen):
        assert sent(screen, tablet_state("red", None)) == [("new_game", {"computer": "blue"})]
        assert sent(screen, tablet_state("red", "blue")) == [("new_game", {"computer": "off"})]


def test_a_seat_another_tablet_holds_goes_to_the_computer_only_on_a_second_tap():
    from companion_app.ui.screen_setup import SetupScreen

    state = tablet_state("red", None)
    state.apply("connection", {"blue": "online"})  # Blue's tablet is at the table
    commands: list[tuple[str, dict]] = []
    screen = SimpleNamespace(root_app=SimpleNamespace(state=state, command=lambda *sent: commands.append(sent)),
                             _computer_armed=False, _said=[])
    screen._say = lambda message, **values: screen._said.append((message, values))
    SetupScreen.choose_opponent(screen)
    assert commands == [] and screen._said[0][1] == {"side": "blue"}  # it asks first
    SetupScreen.choose_opponent(screen)
    assert commands == [("new_game", {"computer": "blue"})]
