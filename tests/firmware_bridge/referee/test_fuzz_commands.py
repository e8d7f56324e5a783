"""Fuzzing what the referee accepts: junk never crashes it, and a bad message changes no game.

Every message goes the way a real one goes: bytes through the contract's parser, and what the
contract lets through into the real session. Hypothesis builds the junk: wrong types, unknown
fields, deep nesting, NaN, huge numbers and strings, wrong versions, and commands that are
well formed but not allowed now (illegal moves, moves out of turn, accepting no offer).
"""

from __future__ import annotations

import contextlib
import json
import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Color, Move, get_variant, random_setup
from firmware_bridge.protocol import contract
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import CommandError, Session

VARIANT = "barrage"
COMMAND_TYPES = list(contract.COMMAND_ARGS)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                      st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=20)
square = st.builds(lambda f, r: f"{f}{r}", st.sampled_from("abcdefghijkz"), st.integers(0, 12))


@st.composite
def well_formed_commands(draw: st.DrawFn) -> dict:
    """Commands the contract takes, most of which the rules do not allow at this moment."""
    kind = draw(st.sampled_from(COMMAND_TYPES))
    args: dict = {}
    if kind == "move":
        args = {"move": f"{draw(square)}-{draw(square)}"}
    elif kind == "setup":
        args = {"setup": {"a1": "flag"}}
    return {"v": 1, "id": draw(st.text(min_size=1, max_size=10)), "seat": draw(st.sampled_from(["red", "blue"])),
            "counter": draw(st.integers(0, 10**6)), "type": kind, "args": args}


@st.composite
def junk_commands(draw: st.DrawFn) -> dict:
    """Commands from nearly right to nonsense."""
    seat = draw(st.sampled_from(["red", "blue", "green", ""]))
    kind = draw(st.one_of(st.sampled_from(COMMAND_TYPES), st.text(max_size=12)))
    args: object = draw(st.one_of(
        st.builds(lambda a, b: {"move": f"{a}-{b}"}, square, square),
        st.builds(lambda s: {"setup": s}, st.dictionaries(square, st.sampled_from(
            ["marshal", "flag", "bomb", "scout", "dragon", ""]), max_size=12)),
        st.just({}),
        st.dictionaries(st.text(max_size=10), json_value, max_size=3),
        json_value,
    ))
    body = {"v": draw(st.sampled_from([1, 1, 1, 0, 2, True, "1"])),
            "id": draw(st.one_of(st.text(min_size=1, max_size=10), st.integers())),
            "seat": seat, "counter": draw(st.one_of(st.integers(-5, 10**6), st.floats())),
            "type": kind, "args": args}
    if draw(st.booleans()):
        body[draw(st.text(max_size=6))] = draw(json_value)
    return body


def game_state(session: Session) -> tuple:
    """What a bad command must not change (the seat's command counter may advance: by design)."""
    game = session.game
    return (session.game_id, session.seq, session.phase, session.draw_offer, session.takeback_offer,
            None if game is None else (game.hash, game.ply, game.to_move, game.result))


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> Session:
    """A game under way: both setups in, a few moves played."""
    session = Session(Journal(tmp_path_factory.mktemp("fuzz") / "journal.db"), VARIANT)
    session.pair("red", "r" * 44, "tab-r")
    session.pair("blue", "b" * 44, "tab-b")
    rng = random.Random(5)
    for seat in ("red", "blue"):
        setup = random_setup(get_variant(VARIANT), Color(seat), rng)
        reply, _ = session.execute(seat, {"v": 1, "id": f"s-{seat}", "seat": seat, "counter": 1,
                                          "type": "setup", "args": {"setup": {s.name: k for s, k in setup.items()}}})
        assert reply["ok"]
    for counter in range(2, 8):
        seat = session.game.to_move.value
        move = str(rng.choice(session.game.legal_moves()))
        assert session.execute(seat, {"v": 1, "id": f"m{counter}", "seat": seat, "counter": counter,
                                      "type": "move", "args": {"move": move}})[0]["ok"]
    return session


def is_bad_for(session: Session, command: dict) -> bool:
    """A well-formed command the rules do not allow now (the fuzzer's other half of junk)."""
    kind, seat = command["type"], command["seat"]
    if kind == "move":
        game = session.game
        return game.to_move.value != seat or game.check(Move.parse(command["args"]["move"])) is not None
    return kind in ("setup", "accept_draw", "decline_draw", "accept_takeback", "decline_takeback",
                    "new_game")  # no offer is pending, the game runs, setups are over


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(well_formed_commands(), junk_commands()))
def test_a_bad_command_changes_nothing_of_the_game(session: Session, body: dict):
    before = game_state(session)
    raw = json.dumps(body, allow_nan=True).encode()
    try:
        command = contract.validate("command", json.loads(raw))
    except contract.ContractError:
        assert game_state(session) == before
        return
    if command["seat"] not in contract.SEATS or not is_bad_for(session, command):
        return  # a good command: it may change the game, that is what it is for
    record = session.seats[command["seat"]]
    command = {**command, "counter": record.last_counter + 1}
    try:
        reply, rulings = session.execute(command["seat"], command)
    except CommandError:
        reply, rulings = {"ok": False}, []
    assert not reply["ok"] and rulings == []
    assert game_state(session) == before


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(sorted(contract.PUBLIC_SCHEMAS)),
       raw=st.one_of(st.binary(max_size=300), json_value.map(lambda v: json.dumps(v).encode())))
def test_junk_on_a_public_topic_is_a_contract_error_and_nothing_else(kind: str, raw: bytes):
    topic = f"{contract.ROOT}/kitchen/{'presence/x' if kind == 'presence' else kind}"
    with contextlib.suppress(contract.ContractError):  # anything else escaping fails the test
        contract.decode_public(topic, raw)


def test_deep_nesting_and_oversized_payloads_are_refused_before_parsing():
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(contract.ContractError):
        contract.decode("hello", deep)
    with pytest.raises(contract.ContractError, match="exceeds"):
        contract.decode("hello", b" " * (10 * 1024 * 1024))


def test_nan_is_no_counter_and_no_version():
    for field in ("counter", "v"):
        body = {"v": 1, "id": "x", "seat": "red", "counter": 3, "type": "resign", "args": {}}
        body[field] = math.nan
        with pytest.raises(contract.ContractError):
            contract.validate("command", json.loads(json.dumps(body)))
