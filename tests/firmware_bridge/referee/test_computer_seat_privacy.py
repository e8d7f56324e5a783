"""The computer seat never holds a Game: what it imports, and what its player is handed at run time."""

from __future__ import annotations

import ast
import gc
import json
import types
from pathlib import Path

from engine import Game
from firmware_bridge.bot import ComputerPlayer
from firmware_bridge.referee.session import Session
from tests.firmware_bridge.referee.computer_table import ComputerTable
from tests.firmware_bridge.referee.test_computer_whole_game import play_against_the_computer

ROOT = Path(__file__).resolve().parents[3]
OURS = ("engine", "firmware_bridge", "hardware", "companion_app")


def imports_of(module: str) -> list[tuple[str, str | None]]:
    """(module, name) pairs a module of ours imports, read from its source."""
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.exists():
        path = ROOT / module.replace(".", "/") / "__init__.py"
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
    return found


def closure(start: str) -> dict[str, list[tuple[str, str | None]]]:
    """Every module of ours ``start`` imports, directly or not (package __init__ files aside)."""
    seen: dict[str, list[tuple[str, str | None]]] = {}
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen[module] = imports_of(module)
        for name, item in seen[module]:
            if name.split(".")[0] not in OURS:
                continue
            submodule = f"{name}.{item}"
            if item and (ROOT / (submodule.replace(".", "/") + ".py")).exists():
                todo.append(submodule)
            elif name.count(".") or (ROOT / name / "__init__.py").exists() and name != "engine":
                todo.append(name)
    return seen


def test_the_computer_player_imports_no_game_and_no_session():
    modules = closure("firmware_bridge.bot.player")
    assert "firmware_bridge.bot.search" in modules and "engine.stratego.notebook" in {m.rsplit(".", 1)[0] for m in modules}
    for module, imported in modules.items():
        for name, item in imported:
            assert name != "engine.stratego.game" and item != "Game", f"{module} imports a Game"
            assert not name.startswith("firmware_bridge.referee"), f"{module} imports the referee"


def test_the_computer_seat_imports_no_game_and_no_session():
    for name, item in imports_of("firmware_bridge.referee.computer_seat"):
        assert item not in ("Game", "Session") and name not in ("engine.stratego.game", "firmware_bridge.referee.session")


class SpyPlayer(ComputerPlayer):
    """The real player, checking what it is handed against what the seat's tablet gets."""

    table: ComputerTable  # set on the class by the test
    handed: list
    shown_enemies: int  # enemy ranks seen in views (revealed by battles): the check above ran

    def on_update(self, view, events):
        seat_state = self.table.session.seat_state(self.color.value)
        assert view == seat_state["view"], "the view is the seat's own, as its tablet gets it"
        assert json.loads(json.dumps([view, events])) == [view, events], "plain data, as it travels"
        game = self.table.session.game
        for piece in view["pieces"]:
            if piece["color"] != self.color.value and piece["kind"] is not None:
                assert game.knows(self.color, game.piece(piece["id"])), "only enemy ranks the rules showed"
                self.shown_enemies += 1
        self.handed.extend(events)
        return super().on_update(view, events)


def reachable_instances(root: object, kinds: tuple[type, ...]) -> list[object]:
    """Instances of ``kinds`` reachable from ``root`` through data (modules, classes and code aside)."""
    skip = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.CodeType)
    seen, todo, found = {id(root)}, [root], []
    while todo:
        item = todo.pop()
        if isinstance(item, kinds):
            found.append(item)
        for child in gc.get_referents(item):
            if id(child) not in seen and not isinstance(child, skip):
                seen.add(id(child))
                todo.append(child)
    return found


def test_at_run_time_the_player_gets_only_its_seats_view_and_events_and_holds_no_game(tmp_path):
    players: list[SpyPlayer] = []

    def make(variant: str, color: str, level: str, seed: int | None) -> SpyPlayer:
        player = SpyPlayer(variant, color, "easy", 3)
        player.handed, player.shown_enemies = [], 0
        players.append(player)
        return player

    table = ComputerTable(tmp_path, "barrage", "blue", seed=9)
    SpyPlayer.table = table  # on the class: the spy's checks must not give the player a way in
    table.referee.computer.make_player = make
    try:
        play_against_the_computer(table, 60)
        (player,) = players
        heard = [e for r in table.rulings if r.game == table.session.game_id for e in r.seat_events["blue"]]
        assert player.handed and player.handed == heard[:len(player.handed)], "exactly its seat's events, in order"
        assert player.shown_enemies > 0, "battles showed some enemy ranks, and only those"
        assert reachable_instances(player, (Game, Session)) == []
        assert reachable_instances(table.referee, (Game,)), "the search above does find a Game where one is"
    finally:
        table.close()
