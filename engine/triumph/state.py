"""The whole game state as plain data: pieces, morale, time, per-turn marks and the attack."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.triumph.actions import Order
from engine.triumph.pieces import Commander, Position, Unit


@dataclass(frozen=True)
class RoadMarch:
    """Cavalry that took a locale by road this turn and may ride on along its road (our
    reading 1.9, open question 12): its command, where the road began and what it entered."""

    units: tuple[str, ...]
    commander: str | None  # the commander of a Corps Move; None for a Unit Move
    start: int | None  # the reserve the road began in (None: it came on by `entry`)
    entry: str | None  # the entry road of a reinforcement corps attacking as it came on
    path: tuple[int, ...]  # the locales entered so far; the riders stand in the last one


@dataclass
class TurnState:
    """What resets at the end of every player turn (1.5)."""

    corps_commands: int = 0
    independent_commands: int = 0
    commanded: set[str] = field(default_factory=set)  # commanders that gave their command
    moved: set[str] = field(default_factory=set)  # units moved by a command
    closed: set[tuple[int, int]] = field(default_factory=set)  # (attack, defence) locales
    stormed: set[int] = field(default_factory=set)
    road_closed: set[int] = field(default_factory=set)  # reserves a 2+ corps road move entered
    stopped_in: set[int] = field(default_factory=set)  # reserves a unit moved into and stopped
    defended: dict[str, int] = field(default_factory=dict)  # unit -> attack locale it faced
    retreated: set[str] = field(default_factory=set)  # units that retreated after combat
    revealed: set[str] = field(default_factory=set)  # faces shown to the opponent this turn
    road_march: RoadMarch | None = None  # cavalry that may ride on (closed by any other order)

    def copy(self) -> TurnState:
        """An independent copy (every set and dict copied)."""
        return TurnState(**{f.name: _copied(getattr(self, f.name)) for f in fields(self)})


@dataclass
class AttackState:
    """An attack in progress (1.9): who attacks what, what is known so far, what comes next."""

    attacker: str
    defender: str
    attack_locale: int
    defence_locale: int
    step: str = "response"
    blocked: bool = False  # the defenders block the defence approach
    defenders: list[str] = field(default_factory=list)
    defenders_in_reserve: bool = False
    defence_leaders: list[str] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    attackers: list[str] = field(default_factory=list)
    moving_commanders: list[str] = field(default_factory=list)
    start: Position | None = None
    attack_leaders: list[str] = field(default_factory=list)
    wide: bool = False
    counter: list[str] = field(default_factory=list)
    initial: int | None = None
    final: int | None = None
    winner: str | None = None  # "attacker" or "defender"
    points: dict[str, int] = field(default_factory=dict)  # loss points of step 10 by role
    left: dict[str, int] = field(default_factory=dict)  # loss points not yet spread, by role
    lost: dict[str, int] = field(default_factory=dict)  # steps lost in this attack, by side
    queue: list[str] = field(default_factory=list)  # the decisions still to come
    feint: bool = False
    riding_on: bool = False  # the orders are the open road march riding on (road_marches.py)
    before_combat: bool = False
    artillery_led: bool = False
    guard_attack: bool = False

    def copy(self) -> AttackState:
        """An independent copy (every list and dict copied; orders are immutable)."""
        return AttackState(**{f.name: _copied(getattr(self, f.name)) for f in fields(self)})


@dataclass
class TriumphState:
    """Everything needed to go on with a game; copied whole for undo."""

    units: dict[str, Unit]
    commanders: dict[str, Commander]
    morale: dict[str, int]
    round: int
    to_move: str
    turn: TurnState = field(default_factory=TurnState)
    attack: AttackState | None = None
    result: tuple[str | None, str] | None = None
    known: set[str] = field(default_factory=set)  # revealed faces remembered past a turn end
    combats: list[dict[str, Any]] = field(default_factory=list)
    turns_played: int = 0
    reinforcements_entered: bool = False
    fixed_battery: str | None = None  # the French artillery unit that never moves (1.4)
    elite_committed: set[str] = field(default_factory=set)  # "side:guard", "side:heavy_cavalry"
    guard_attacks_barred: set[str] = field(default_factory=set)  # sides whose Guard Attack failed
    # (attack locale, defence locale) -> the round artillery last led an attack across it
    artillery_fire: dict[tuple[int, int], int] = field(default_factory=dict)
    # A read-only lookup of pieces by locale, set only while legal actions are listed (nothing
    # moves then); None otherwise, so that a stale index can never be read.
    index: dict[int, list[Unit]] | None = field(default=None, repr=False, compare=False)
    occupants: dict[int, str] | None = field(default=None, repr=False, compare=False)

    @contextmanager
    def indexed(self) -> Iterator[None]:
        """Within the block, look pieces up by locale (the state must not change meanwhile)."""
        self.index, self.occupants = {}, {}
        for unit in self.units.values():
            if unit.at is not None:
                self.index.setdefault(unit.at.locale, []).append(unit)
                self.occupants[unit.at.locale] = unit.side
        for commander in self.commanders.values():
            if commander.at is not None:
                self.occupants.setdefault(commander.at.locale, commander.side)
        try:
            yield
        finally:
            self.index, self.occupants = None, None

    def copy(self) -> TriumphState:
        """An independent copy for trying an action and for undo (faster than deepcopy)."""
        return TriumphState(
            units={k: replace(u) for k, u in self.units.items()},
            commanders={k: replace(c) for k, c in self.commanders.items()},
            morale=dict(self.morale), round=self.round, to_move=self.to_move,
            turn=self.turn.copy(), attack=self.attack.copy() if self.attack else None,
            result=self.result, known=set(self.known),
            combats=[{k: dict(v) if isinstance(v, dict) else v for k, v in c.items()}
                     for c in self.combats],
            turns_played=self.turns_played, reinforcements_entered=self.reinforcements_entered,
            fixed_battery=self.fixed_battery, elite_committed=set(self.elite_committed),
            guard_attacks_barred=set(self.guard_attacks_barred),
            artillery_fire=dict(self.artillery_fire))

    def units_at(self, position: Position) -> list[Unit]:
        """Units standing in one position, in id order."""
        return [u for u in self.units.values() if u.at == position]

    def units_in(self, locale: int, side: str | None = None) -> list[Unit]:
        """Units anywhere in a locale (reserve and approaches), optionally of one side."""
        if self.index is not None:
            return [u for u in self.index.get(locale, ()) if side is None or u.side == side]
        return [u for u in self.units.values()
                if u.at is not None and u.at.locale == locale and (side is None or u.side == side)]

    def commanders_in(self, locale: int) -> list[Commander]:
        """Commanders anywhere in a locale."""
        return [c for c in self.commanders.values() if c.at is not None and c.at.locale == locale]

    def occupant(self, locale: int) -> str | None:
        """The side occupying a locale (a unit or a commander there), or None."""
        if self.occupants is not None:
            return self.occupants.get(locale)
        for unit in self.units.values():
            if unit.at is not None and unit.at.locale == locale:
                return unit.side
        for commander in self.commanders.values():
            if commander.at is not None and commander.at.locale == locale:
                return commander.side
        return None

    def corps(self, commander: str) -> list[Unit]:
        """The units of a commander's corps, in id order."""
        return [u for u in self.units.values() if u.commander == commander and u.at is not None]


def _copied(value: Any) -> Any:
    """A one-level copy of a container field (its items are immutable)."""
    if isinstance(value, (set, list, dict)):
        return value.copy()
    return value
