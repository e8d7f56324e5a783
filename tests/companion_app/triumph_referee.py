"""The real referee behind the Napoleon's Triumph tablet tests: the in-process table
(companion_app/demo/local_table.py) with the referee's own `TriumphSession`, plus the few moves
the scenarios script with (a threat reached by road, an attack answered to its end).

Every command a tablet sends goes through the contract and the session exactly as over MQTT;
`play` is a command from the side the engine action names.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

from companion_app.demo.local_table import LocalTable
from engine.triumph.actions import Action, action_from_dict
from engine.triumph.game import TriumphGame
from firmware_bridge.protocol.triumph_contract import SEAT_OF_SIDE, VARIANT
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.triumph_session import TriumphSession

SECRET = "tablet-tests"


class RefereeTable(LocalTable):
    """The referee's Napoleon's Triumph session in this process; what the tablets sent is kept."""

    def __init__(self) -> None:
        super().__init__(variant=VARIANT, board="austerlitz")
        self.received: list[tuple[str, str, dict[str, Any]]] = []
        for seat in SEAT_OF_SIDE.values():  # both tablets' seats, as pairing would grant them
            self.session.pair(seat, f"local-{seat}", f"local-{seat}", seat)

    @property
    def game(self) -> TriumphGame:  # type: ignore[override]
        """The battle the session rules."""
        game = self.session.game
        assert isinstance(game, TriumphGame), "no battle yet: both set-ups come first"
        return game

    @property
    def instructions(self) -> dict[str, list[dict[str, Any]]]:
        """What the session tells each seat to do with its blocks."""
        assert isinstance(self.session, TriumphSession)
        return self.session.instructions

    def command(self, seat: str, command_type: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """A tablet's command, kept, then ruled by the session."""
        self.received.append((seat, command_type, copy.deepcopy(args or {})))
        return super().command(seat, command_type, args)

    def start(self, french: dict[str, Any], allied: dict[str, Any]) -> TriumphGame:
        """Both sides send their set-ups; the battle begins."""
        for seat, setup in (("red", allied), ("blue", french)):
            reply = super().command(seat, "setup", {"setup": setup})
            assert reply["ok"], reply
        return self.game

    def play(self, action: Action) -> None:
        """The side the action names sends it from its tablet (real ids pass through)."""
        data = action.to_dict()
        seat = SEAT_OF_SIDE[data.pop("side")]
        reply = super().command(seat, "nt", {"action": data})
        assert reply["ok"], (data, reply)


def seat_state(game: TriumphGame | None, seat: str, *, phase: str = "playing",
               setup: dict[str, Any] | None = None, instructions: list[dict[str, Any]] | None = None,
               seq: int = 0) -> dict[str, Any]:
    """One seat's snapshot of `game` as the referee's session writes it (its menu, its handles)."""
    with tempfile.TemporaryDirectory() as folder:
        session = TriumphSession(Journal(Path(folder) / "journal.db"))
        session.game = game
        session.setups = {seat: setup} if setup else {}
        state = dict(session.seat_state(seat))
        session.journal.close()
    state.update(phase=phase if game is not None else "setup", seq=seq, last_counter=seq,
                 game="nt-test", instructions=list(instructions or []))
    if setup is not None:
        state["setup"] = setup
    return state


def to_allied_threat(table: RefereeTable) -> None:
    """Liechtenstein's corps marches from 123 into 94 (by road), both sides end their turns, and
    at 8:00 the Allies threaten St. Hilaire's corps in 93 from 94; the French then decide."""
    game = table.game
    table.play(next(a for a in game.legal_actions() if a.type == "corps_move"
                    and getattr(a, "commander", "") == "Liechtenstein" and str(a.to) == "R94"))
    for data in ({"side": "allied", "type": "end_turn"}, {"side": "french", "type": "end_turn"},
                 {"side": "allied", "type": "threat", "from": 94, "into": 93}):
        table.play(action_from_dict(data))
    assert game.awaiting() == ("french", "response")


def finish_attack(table: RefereeTable) -> None:
    """Both sides answer the rest of the attack: the attacker presses and leads, the defender
    names a leader and does not counter-attack; the first legal answer elsewhere."""
    game = table.game
    while game.state.attack is not None:
        actions = game.legal_actions()
        step = game.awaiting()[1]
        if step == "feint_or_press":
            choice = next((a for a in actions if a.type == "press"), actions[0])
        elif step in ("defence_leaders", "attack"):
            choice = next((a for a in actions if len(getattr(a, "units", getattr(a, "leaders", ()))) == 1),
                          actions[0])
        else:
            choice = actions[0]
        table.play(choice)
