"""The computer player cannot peek: it is a seat, fed exactly what that seat's tablet gets.

Two proofs. (1) The import graph: no module of the bot package except the match referee (which
may hold a Game, as the referee on the Pi does) reaches `engine.stratego.game`, `engine.stratego.records` or the
referee's session, following every import of our own code from the bot's modules (the `engine`
package's `__init__` re-exports `Game` for other users and is not part of the bot's graph).
(2) At run time: over a whole game, everything handed to the bot is plain JSON data, every enemy
kind in it is one the rules showed to that seat, and nothing reachable from the bot afterwards
is a Game.
"""

from __future__ import annotations

import ast
import gc
import json
from pathlib import Path
from typing import Any

from engine import BattleEvent, Color, Game
from firmware_bridge.bot.levels import Level
from firmware_bridge.bot.match import play_game
from firmware_bridge.bot.player import ComputerPlayer
from firmware_bridge.bot.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[3]
FORBIDDEN = ("engine.stratego.game", "engine.stratego.records", "firmware_bridge.session", "firmware_bridge.referee",
             "firmware_bridge.referee_board", "firmware_bridge.referee_command", "firmware_bridge.journal")
REFEREES = {"firmware_bridge.bot.match"}


def module_file(name: str) -> Path | None:
    path = ROOT.joinpath(*name.split("."))
    if path.with_suffix(".py").exists():
        return path.with_suffix(".py")
    if (path / "__init__.py").exists():
        return path / "__init__.py"
    return None


def imports_of(name: str) -> set[str]:
    """Our own modules that `name` imports (at any level of its code, lazily or not)."""
    path = module_file(name)
    assert path is not None, name
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.split(".")[0] in ("engine", "firmware_bridge") and module_file(m)}


def reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen or name in REFEREES:
            continue
        seen.add(name)
        todo.extend(imports_of(name))
    return seen


def bot_modules() -> list[str]:
    folder = ROOT / "firmware_bridge" / "bot"
    return sorted(f"firmware_bridge.bot.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__")


def test_no_bot_module_reaches_the_game_the_records_or_the_referee() -> None:
    players = [m for m in bot_modules() if m not in REFEREES]
    assert "firmware_bridge.bot.player" in players and "firmware_bridge.bot.ucc_bot" in players
    for module in players:
        reached = reachable(module)
        assert not reached & set(FORBIDDEN), (module, reached & set(FORBIDDEN))
    # The check itself sees a forbidden import where there is one.
    assert "engine.stratego.game" in reachable("firmware_bridge.bot.match") | imports_of("firmware_bridge.bot.match")


class RecordingSeat:
    """Wraps a seat and keeps a JSON copy of everything handed to it."""

    def __init__(self, seat: Any) -> None:
        self.seat = seat
        self.inputs: list[str] = []

    def choose_setup(self) -> dict[str, str]:
        return self.seat.choose_setup()

    def on_update(self, view: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
        self.inputs.append(json.dumps([view, events]))  # fails for anything but plain data
        return self.seat.on_update(view, events)


def test_the_bot_only_ever_sees_what_its_seat_may_know() -> None:
    bot = ComputerPlayer("classic", Color.BLUE, "easy", 3)
    bot.level = Level("quick", 1e9, 2, True, 1.0, 0.3)
    seat = RecordingSeat(bot)
    shown: set[int] = set()
    original_push = Game.push

    def push_and_track(game: Game, move: Any) -> list:
        events = original_push(game, move)
        shown.update(i for e in events if isinstance(e, BattleEvent)
                     for i in (e.attacker_id, e.defender_id))
        return events

    Game.push = push_and_track  # type: ignore[method-assign]
    try:
        result = play_game(RandomPlayer("classic", Color.RED, 3), seat, "classic", 400, 3)
    finally:
        Game.push = original_push  # type: ignore[method-assign]
    assert seat.inputs
    ended = result.reason != "ply-cap"
    for text in seat.inputs[:-1] if ended else seat.inputs:  # the end of a game reveals all
        view, events = json.loads(text)
        for piece in view["pieces"]:
            if piece["color"] == "red" and piece["kind"] is not None:
                assert piece["id"] in shown
        for event in events:
            if event["type"] == "battle":
                assert event["attacker_id"] in shown and event["defender_id"] in shown
            if event["type"] == "move" and event["color"] == "red" and event["kind"] is not None:
                assert event["piece_id"] in shown
    assert not any(isinstance(o, Game) for o in _reachable_objects(bot))


def _reachable_objects(root: object, limit: int = 200_000) -> list[object]:
    seen: dict[int, object] = {}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())
