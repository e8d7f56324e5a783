"""How the helpers of the engine see a game: two narrow faces of `TriumphGame`.

The rules' handlers (attack, resolution, elite, reinforcements, ...) act on a `RulingGame`:
the state being changed, the map, and the events being recorded. Listing, views, the menu,
redaction and instructions read a `ReadGame`, which can also check actions and say what the
game waits for. `game.py` imports the helpers; no helper imports `game.py`, so the package has
no import cycle, type-only imports included (tests/test_layers.py holds it).
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.core.refusals import Refusal
from engine.triumph.actions import Action
from engine.triumph.events import Event
from engine.triumph.mapdata import BattleMap
from engine.triumph.state import TriumphState


class RulingGame(Protocol):
    """What a rule's handler acts on while an action is applied."""

    @property
    def state(self) -> TriumphState: ...
    @property
    def map(self) -> BattleMap: ...

    def emit(self, event: Event) -> None: ...


class ReadGame(RulingGame, Protocol):
    """What listing, views, the menu, redaction and instructions read of a game."""

    @property
    def handle_secret(self) -> str: ...
    @property
    def result(self) -> dict[str, Any] | None: ...

    def awaiting(self) -> tuple[str, str] | None: ...
    def check(self, action: Action) -> Refusal | None: ...
    def legal_actions(self) -> list[Action]: ...
    def before_last(self) -> tuple[TriumphState, list[Event]] | None: ...
