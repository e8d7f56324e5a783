"""One name per command and per event, from the tablet through the contract and the session to
the journal: the vocabulary is the only place the names are written."""

from __future__ import annotations

import json

from engine.stratego.events import EVENT_TYPES
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.client import SeatClient
from firmware_bridge.protocol.vocabulary import (
    COMMAND_ARGUMENTS,
    OLD_RULING_NAMES,
    RULINGS,
    Command,
    EventType,
    JournalEntry,
    Phase,
    ruling_kind,
)
from firmware_bridge.referee.rulings import SEAT_ANNOUNCEMENTS


def test_the_contract_takes_exactly_the_commands_of_the_vocabulary():
    assert set(contract.COMMAND_TYPES) == {c.value for c in Command}
    assert set(contract.COMMAND_ARGS) == set(Command)
    assert set(contract.PHASES) == {p.value for p in Phase}


def test_the_typed_arguments_of_each_command_are_the_ones_the_contract_checks():
    for command, arguments in COMMAND_ARGUMENTS.items():
        assert arguments.__required_keys__ == set(contract.COMMAND_ARGS[command]), command
        assert arguments.__optional_keys__ == set(contract.OPTIONAL_COMMAND_ARGS.get(command, {})), command
    assert set(COMMAND_ARGUMENTS) == set(Command)


def test_the_seat_client_has_one_method_per_command_named_like_it():
    assert all(callable(getattr(SeatClient, command.value, None)) for command in Command)


def test_every_event_the_engine_makes_travels_under_its_own_name():
    assert set(EVENT_TYPES) <= {e.value for e in EventType}


def test_a_ruling_is_journalled_under_the_event_it_announces():
    assert SEAT_ANNOUNCEMENTS <= RULINGS
    assert {EventType.MOVE, EventType.REFUSAL, EventType.TAKEBACK, EventType.GAME_END,
            EventType.GAME_START} <= RULINGS
    assert not {k.value for k in JournalEntry} & {k.value for k in RULINGS}


def test_journals_of_older_versions_are_read_under_the_new_names():
    assert ruling_kind("offer") is EventType.DRAW_OFFER
    assert ruling_kind("end") is EventType.GAME_END
    assert ruling_kind("draw_offer") is EventType.DRAW_OFFER
    assert ruling_kind("game") is None and ruling_kind("reply") is None and ruling_kind("battle") is None
    assert set(OLD_RULING_NAMES.values()) <= RULINGS
    assert not set(OLD_RULING_NAMES) & {k.value for k in EventType}, "an old name never means another event"


def test_on_the_wire_a_name_is_its_plain_string():
    body = contract.command("red", "c1", 3, Command.OFFER_DRAW)
    assert json.loads(json.dumps(body))["type"] == "offer_draw"
    assert Command.OFFER_DRAW == "offer_draw" and EventType.DRAW_OFFER == "draw_offer"
