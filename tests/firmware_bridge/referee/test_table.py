"""One game-table interface for every game: both sessions implement it, nothing stands in."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from firmware_bridge.protocol.triumph_contract import VARIANT as TRIUMPH
from firmware_bridge.referee import service
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.service import Referee, RefereeSettings
from firmware_bridge.referee.session import Session
from firmware_bridge.referee.session_core import SessionCore
from firmware_bridge.referee.table import GameTable
from firmware_bridge.referee.triumph_session import TriumphSession

MEMBERS = {"variant_name", "game_id", "seq", "phase", "seats", "computer_entry", "execute", "fresh", "answer",
           "pair", "tick", "clocks", "clock_checkpoint", "carry_on_clock", "public_state", "seat_state", "record"}
# What a board game's session has and a game without a board must not pretend to have.
BOARD_ONLY = {"variant", "volcanoes", "position", "board_input", "expected_occupancy", "board_move", "use_board"}


def members(protocol: type) -> set[str]:
    return {name for name in vars(protocol) if not name.startswith("_")}


def test_the_interface_is_exactly_what_the_referee_s_parts_ask():
    assert members(GameTable) == MEMBERS


@pytest.mark.parametrize("variant", ["classic", "espionage", TRIUMPH])
def test_both_sessions_are_game_tables(tmp_path, variant):
    journal = Journal(tmp_path / "journal.db")
    try:
        session = TriumphSession(journal) if variant == TRIUMPH else Session(journal, variant)
        assert isinstance(session, GameTable)
        assert session.variant_name == variant
        for name in MEMBERS:
            assert hasattr(session, name), name
    finally:
        journal.close()


def test_the_triumph_session_carries_no_stratego_stand_in(tmp_path):
    journal = Journal(tmp_path / "journal.db")
    try:
        session = TriumphSession(journal)
        assert [name for name in BOARD_ONLY if hasattr(session, name)] == []
        assert "board_check" not in inspect.signature(session.public_state).parameters
    finally:
        journal.close()


def test_a_session_missing_a_hook_fails_when_it_is_made_not_when_it_is_asked(tmp_path):
    class HalfAGame(SessionCore):
        variant_name = "half"  # no phase, no _apply, no views...

    with pytest.raises(TypeError, match="abstract"):
        HalfAGame(Journal(tmp_path / "journal.db"), None, lambda: 0.0)


def test_a_game_without_a_board_is_not_offered_to_the_board_side(tmp_path):
    referee = Referee(RefereeSettings("nt", tmp_path / "journal.db", "mqtt://127.0.0.1:9", variant=TRIUMPH))
    try:
        assert referee.board is None and referee.board_check() is None and referee.computer is None
        state = referee.publisher.public_state()
        assert state["board_check"] is None and state["replay"] is None and state["variant"] == TRIUMPH
    finally:
        referee.journal.close()


def test_the_service_asks_no_game_what_it_is():
    tree = ast.parse(Path(service.__file__).read_text(encoding="utf-8"))
    # isinstance/cast on what the game is (input checks like `isinstance(move, str)` are fine)
    asked = [ast.unparse(node) for node in ast.walk(tree)
             if isinstance(node, ast.Call) and ast.unparse(node.func) in ("isinstance", "cast")
             and any(word in ast.unparse(node).lower() for word in ("session", "table", "game"))]
    named = [node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
             and node.id in ("TriumphSession", "TRIUMPH", "VARIANT")]
    compared = [ast.unparse(node) for node in ast.walk(tree)
                if isinstance(node, ast.Compare) and "variant" in ast.unparse(node.left)]
    assert (asked, named, compared) == ([], [], [])
