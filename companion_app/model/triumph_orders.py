"""Attack orders and block choices built on the map block by block, checked by the engine as
they grow: the feint, the attack with its leaders and the occupation (tap the blocks that go,
say which corps go as single blocks, tap the leaders, tap where a feint ends), and the defence
leaders, the counter-attack, the advance and the regroup (tap the blocks).

The blocks offered are those the referee's listed answers move (its own rules chose them: not
moved this turn, standing where an attack may start, or riding by road); each answer as it
stands is checked by the engine's own attack rules (engine/triumph/attack.py, orders.py,
resolution.py) on the game as this tablet knows it (model/triumph_answers.known_state), and
the referee checks it again when it is sent. The listed answers stay as a shortcut.
Pure Python, no Kivy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion_app.model.triumph_answers import known_state
from engine.core.refusals import Refusal
from engine.triumph.actions import (
    Action,
    Advance,
    Attack,
    CounterAttack,
    DefenceLeaders,
    Feint,
    Occupy,
    Order,
    Regroup,
)
from engine.triumph.game import TriumphGame
from engine.triumph.mapdata import BattleMap, load_austerlitz
from engine.triumph.pieces import Position
from engine.triumph.refusals import refusal
from engine.triumph.state import TriumphState

ORDER_DECISIONS = ("feint_or_press", "attack", "occupy")  # the attacker's commands
PICK_DECISIONS = ("defence_leaders", "counter_attack", "advance", "regroup")  # blocks to name
PICK_LIMITS = {"defence_leaders": 2, "counter_attack": 2}  # the most the rules ever allow


def known_game(view: dict[str, Any], fixed_battery: str | None = None,
               battle_map: BattleMap | None = None) -> TriumphGame:
    """The game as a seat's view tells it, with this turn's commands and the attack so far:
    enough for the engine to check an attack's orders and its owner's block choices."""
    state: TriumphState = known_state(view)
    commands = view.get("commands") or {}
    state.turn.corps_commands = int(commands.get("corps") or 0)
    state.turn.independent_commands = int(commands.get("independent") or 0)
    state.turn.commanded = {str(n) for n in commands.get("commanded") or ()}
    state.turn.closed = {(int(a), int(b)) for a, b in
                         (str(p).split(">") for p in view.get("closed") or ())}
    state.turn.stormed = {int(n) for n in view.get("stormed") or ()}
    state.fixed_battery = fixed_battery
    panel, attack = view.get("attack") or {}, state.attack
    if attack is not None:
        attack.attackers = [str(u) for u in panel.get("attackers") or ()]
        attack.attack_leaders = [str(u) for u in panel.get("attack_leaders") or ()]
        attack.counter = [str(u) for u in panel.get("counter_attackers") or ()]
        attack.initial, attack.final = panel.get("initial"), panel.get("final")
        attack.winner = panel.get("winner")
        # the corps that attacked keep their commanders (a Unit Move's block was detached)
        attack.moving_commanders = sorted({c for u in attack.attackers
                                           if (c := state.units[u].commander) is not None})
        # an advance is asked only of defenders that stood in the reserve
        attack.defenders_in_reserve = attack.step == "advance"
    return TriumphGame(state, battle_map or load_austerlitz(), start={"known": True})


def _orders_of(option: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in option.get("orders") or () if isinstance(o, dict)]


@dataclass
class OrdersDraft:
    """The attacker's feint, attack or occupation being built block by block."""

    decision: str
    side: str
    game: TriumphGame
    starts: dict[str, str]  # block -> where it stands ("R93", "93>94")
    corps: dict[str, str | None]  # block -> its commander (None: detached)
    roads: dict[str, list[tuple[int, ...]]] = field(default_factory=dict)  # riders by road
    picked: list[str] = field(default_factory=list)
    alone: set[str] = field(default_factory=set)  # corps whose blocks go by Unit Moves
    road: dict[str, tuple[int, ...]] = field(default_factory=dict)  # a rider's chosen road
    leaders: list[str] = field(default_factory=list)
    wide: bool = False
    engage: str | None = None
    end: str = "approach"  # where a feint ends: "approach" or "reserve"

    @classmethod
    def start(cls, view: dict[str, Any], options: list[dict[str, Any]],
              fixed_battery: str | None = None) -> OrdersDraft:
        """A fresh draft for the pending decision: the blocks the listed answers move."""
        decision = str((view.get("awaiting") or {}).get("decision"))
        side = str((view.get("awaiting") or {}).get("side"))
        units = {str(u["id"]): u for u in view.get("units", ())}
        draft = cls(decision, side, known_game(view, fixed_battery), {}, {})
        for option in options:
            for order in _orders_of(option):
                if order.get("entry"):  # a corps coming on to attack: the listed answer only
                    continue
                moving = [order["unit"]] if order.get("type") == "unit_move" else order.get("units") or []
                for unit in map(str, moving):
                    if unit not in units or not units[unit].get("at"):
                        continue
                    draft.starts[unit] = str(units[unit]["at"])
                    draft.corps[unit] = units[unit].get("commander")
                    if order.get("road"):
                        road = tuple(int(n) for n in order["road"])
                        known = draft.roads.setdefault(unit, [])
                        if road not in known:
                            known.append(road)
        return draft

    @property
    def attack_locale(self) -> int:
        """Where the attack comes from."""
        assert self.game.state.attack is not None
        return self.game.state.attack.attack_locale

    @property
    def defence_locale(self) -> int:
        """The locale attacked."""
        assert self.game.state.attack is not None
        return self.game.state.attack.defence_locale

    def blocks(self) -> list[str]:
        """The blocks that may go, by where they stand, corps by corps."""
        return sorted(self.starts, key=lambda u: (self.starts[u], self.corps[u] or "~", u))

    def wide_border(self) -> bool:
        """Whether the border attacked across is wide (a wide attack is possible)."""
        border = self.game.map.border(self.defence_locale, self.attack_locale)
        return border is not None and border.wide

    def positions(self) -> list[str]:
        """Where the map rings: where the blocks stand, and where a feint may end."""
        found = sorted(set(self.starts.values()))
        if self.decision == "feint_or_press":
            found += [p for p in (f"R{self.attack_locale}",
                                  f"{self.attack_locale}>{self.defence_locale}") if p not in found]
        return found

    def defence_leaders(self) -> list[str]:
        """The defence leaders named so far (a narrow attack engages one of two)."""
        assert self.game.state.attack is not None
        return list(self.game.state.attack.defence_leaders)

    # -- taps -----------------------------------------------------------------------------------
    def tap(self, unit: str) -> None:
        """A block goes, or stays after all (a leader that stays leads no more)."""
        if unit not in self.starts:
            return
        if unit in self.picked:
            self.picked.remove(unit)
            if unit in self.leaders:
                self.leaders.remove(unit)
        else:
            self.picked.append(unit)
            if self.roads.get(unit) and unit not in self.road:
                self.road[unit] = self.roads[unit][0]

    def tap_position(self, position: str) -> bool:
        """A tap on the map: a feint's end, or every block standing there goes (or stays)."""
        if self.decision == "feint_or_press" and position in (
                f"R{self.attack_locale}", f"{self.attack_locale}>{self.defence_locale}"):
            self.end = "reserve" if position.startswith("R") else "approach"
            return True
        here = [u for u in self.blocks() if self.starts[u] == position]
        if not here:
            return False
        going = all(u in self.picked for u in here)
        for unit in here:
            if (unit in self.picked) == going:
                self.tap(unit)
        return True

    def lead(self, unit: str) -> None:
        """A going block leads the attack, or leads no more."""
        if unit in self.leaders:
            self.leaders.remove(unit)
        elif unit in self.picked:
            self.leaders.append(unit)

    def go_alone(self, commander: str) -> None:
        """The corps' blocks go by Unit Moves (independent commands), or back by its Corps Move."""
        self.alone ^= {commander}

    def choose_road(self, unit: str, road: tuple[int, ...]) -> None:
        """The road a block riding by road follows (every block of its command follows it)."""
        if road in self.roads.get(unit, []):
            command = self._command_of(unit)
            for other in self.picked:
                if self._command_of(other) == command:
                    self.road[other] = road

    def toggle_wide(self) -> None:
        """A wide attack across a wide border, or a narrow one."""
        self.wide = not self.wide and self.wide_border()

    def engage_with(self, unit: str) -> None:
        """The defence leader a narrow attack engages."""
        self.engage = None if self.engage == unit else unit

    # -- the answer -----------------------------------------------------------------------------
    def _command_of(self, unit: str) -> tuple[str, str]:
        commander = self.corps.get(unit)
        if commander is None or commander in self.alone:
            return ("unit", unit)
        return ("corps", commander)

    def orders(self) -> tuple[Order, ...]:
        """The commands as they stand: a Corps Move for each corps with the blocks picked
        (unless it goes block by block), a Unit Move for every other block."""
        found: list[Order] = []
        seen: set[tuple[str, str]] = set()
        for unit in self.picked:
            command = self._command_of(unit)
            if command in seen:
                continue
            seen.add(command)
            road = self.road.get(unit)
            if command[0] == "unit":
                found.append(Order("unit_move", unit=unit, road=road))
            else:
                units = tuple(u for u in self.picked if self._command_of(u) == command)
                found.append(Order("corps_move", commander=command[1], units=units, road=road))
        return tuple(found)

    def action(self) -> Action | None:
        """The answer as it stands, None while no block goes."""
        orders = self.orders()
        if not orders:
            return None
        if self.decision == "feint_or_press":
            return Feint(self.side, orders, self.end)
        if self.decision == "attack":
            engage = self.engage if not self.wide and self.engage in self.defence_leaders() \
                else None
            return Attack(self.side, orders, self.wide, tuple(self.leaders), engage)
        return Occupy(self.side, orders)

    def problem(self) -> Refusal | None:
        """What the engine's own rules say is still wrong, or None."""
        action = self.action()
        if action is None:
            return refusal("name-commands")
        return self.game.check(action)

    def answer(self) -> dict[str, Any] | None:
        """The answer to send (the referee adds the side), None while nothing goes."""
        action = self.action()
        if action is None:
            return None
        data = action.to_dict()
        data.pop("side")
        return data


@dataclass
class PickDraft:
    """The blocks a defender or an attacker names: defence leaders, counter-attackers, the
    blocks that advance, the block each attacking corps keeps."""

    decision: str
    side: str
    game: TriumphGame
    candidates: list[str]
    picked: list[str] = field(default_factory=list)
    keep: dict[str, str] = field(default_factory=dict)  # regroup: commander -> kept block

    @classmethod
    def start(cls, view: dict[str, Any], options: list[dict[str, Any]],
              fixed_battery: str | None = None) -> PickDraft:
        """A fresh choice for the pending decision among the blocks the listed answers name."""
        decision = str((view.get("awaiting") or {}).get("decision"))
        side = str((view.get("awaiting") or {}).get("side"))
        game = known_game(view, fixed_battery)
        attack = game.state.attack
        assert attack is not None, "no attack to answer"
        if decision == "defence_leaders":
            candidates = list(attack.defenders)
        elif decision == "counter_attack":
            candidates = [u for u in attack.defenders if u not in attack.defence_leaders]
        elif decision == "regroup":
            candidates = [u for u in attack.attackers if game.state.units[u].at is not None
                          and game.state.units[u].commander is not None]
        else:
            candidates = sorted({str(u) for o in options for u in o.get("units") or ()})
        return cls(decision, side, game, [u for u in candidates if u in game.state.units])

    def commander(self, unit: str) -> str | None:
        """A block's commander."""
        return self.game.state.units[unit].commander

    def tap(self, unit: str) -> None:
        """Name a block, or take it back; in a regroup, the block its corps keeps."""
        if unit not in self.candidates:
            return
        if self.decision == "regroup":
            commander = self.commander(unit)
            if commander is not None:
                self.keep[commander] = unit
            return
        if unit in self.picked:
            self.picked.remove(unit)
        elif len(self.picked) < PICK_LIMITS.get(self.decision, len(self.candidates)):
            self.picked.append(unit)

    def action(self) -> Action:
        """The answer as it stands."""
        units = tuple(self.picked)
        if self.decision == "defence_leaders":
            return DefenceLeaders(self.side, units)
        if self.decision == "counter_attack":
            return CounterAttack(self.side, units)
        if self.decision == "regroup":
            return Regroup(self.side, tuple(sorted(self.keep.items())))
        return Advance(self.side, units, self._advancing_commanders())

    def _advancing_commanders(self) -> tuple[str, ...]:
        """Every commander whose blocks in the reserve all advance goes with them."""
        state = self.game.state
        assert state.attack is not None
        reserve = Position(state.attack.defence_locale)
        going = []
        for commander in state.commanders_in(state.attack.defence_locale):
            mine = {u.id for u in state.units_at(reserve) if u.commander == commander.name}
            if commander.at == reserve and mine and mine <= set(self.picked):
                going.append(commander.name)
        return tuple(going)

    def problem(self) -> Refusal | None:
        """What the engine's own rules say is still wrong, or None."""
        return self.game.check(self.action())

    def answer(self) -> dict[str, Any]:
        """The answer to send (the referee adds the side)."""
        data = self.action().to_dict()
        data.pop("side")
        return data
