"""Answers built block by block on the map, the way players think: a retreat (which block takes
the losses, where each survivor goes, which one keeps its commander) and a loss allocation,
instead of one whole plan picked from a list (the listed plans stay as a shortcut).

A retreat is checked as it grows by the engine's own rule (engine/triumph/retreat.py) on the
game as this tablet knows it: its own blocks with their faces, the enemy's only where they
stand, which is all a retreat depends on. The referee checks the answer again when it is sent.
Pure Python, no Kivy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.refusals import Refusal
from engine.triumph.actions import Retreat
from engine.triumph.mapdata import BattleMap, load_austerlitz
from engine.triumph.pieces import Commander, Face, Position, Unit, opponent
from engine.triumph.retreat import RetreatPlan, retreat_plan, retreat_refusal, retreat_targets
from engine.triumph.state import AttackState, TriumphState

UNKNOWN_FACE = Face("infantry", 1)  # an enemy block's face is never needed to plan a retreat


def known_state(view: dict[str, Any]) -> TriumphState:
    """The game as a seat's view tells it: own faces, enemy blocks by handle and position."""
    units = {}
    for entry in view.get("units", ()):
        face = entry.get("face")
        units[str(entry["id"])] = Unit(
            str(entry["id"]), str(entry["side"]),
            Face(face["type"], int(face["strength"]), bool(face.get("guard"))) if face
            else UNKNOWN_FACE,
            Position.parse(entry["at"]) if entry.get("at") else None, entry.get("commander"))
    commanders = {c["name"]: Commander(c["name"], c["side"],
                                       Position.parse(c["at"]) if c.get("at") else None)
                  for c in view.get("commanders", ())}
    state = TriumphState(units, commanders, dict(view.get("morale") or {}),
                         int(view.get("round") or 7), str(view.get("to_move") or "allied"))
    panel = view.get("attack")
    if panel:
        attacker = str(panel["attacker"])
        state.attack = AttackState(attacker, opponent(attacker), int(panel["attack_locale"]),
                                   int(panel["defence_locale"]), str(panel.get("step")),
                                   bool(panel.get("blocked")),
                                   defenders=[str(u) for u in panel.get("defenders") or ()],
                                   defence_leaders=[str(u) for u in panel.get("defence_leaders") or ()])
    return state


@dataclass
class RetreatDraft:
    """A retreat being built: losses per block, a destination per survivor, kept units."""

    state: TriumphState
    battle_map: BattleMap
    plan: RetreatPlan
    targets: list[int]
    losses: dict[str, int] = field(default_factory=dict)
    to: dict[str, int] = field(default_factory=dict)
    keep: dict[str, str] = field(default_factory=dict)
    selected: str | None = None

    @classmethod
    def start(cls, view: dict[str, Any], battle_map: BattleMap | None = None) -> RetreatDraft:
        """A fresh plan for the attack of `view`: artillery is lost outright (1.10), nothing
        else chosen yet."""
        battle_map = battle_map or load_austerlitz()
        state = known_state(view)
        assert state.attack is not None, "no attack to retreat from"
        plan = retreat_plan(state, battle_map, state.attack)
        draft = cls(state, battle_map, plan, retreat_targets(state, battle_map, state.attack))
        draft.losses = {u: state.units[u].face.strength for u in plan.artillery}
        return draft

    def strength(self, unit: str) -> int:
        """A block's strength before this retreat."""
        return self.state.units[unit].face.strength

    def survivors(self) -> list[str]:
        """Blocks left standing after the losses chosen so far."""
        return [u for u in self.plan.units if u not in self.plan.artillery
                and self.strength(u) - self.losses.get(u, 0) > 0]

    def loses(self, unit: str) -> bool:
        """True when the block may take a loss in this retreat (it is in a loss group)."""
        return any(unit in group.units for group in self.plan.groups)

    def tap_unit(self, unit: str) -> None:
        """Select a block (the next map tap sends it there); tapping it again deselects it."""
        if unit in self.plan.units:
            self.selected = None if self.selected == unit else unit

    def add_loss(self, unit: str) -> None:
        """One more step lost by the block, back to none after its last step."""
        if not self.loses(unit):
            return
        steps = self.losses.get(unit, 0) + 1
        self.losses[unit] = 0 if steps > self.strength(unit) else steps
        if self.losses[unit] == self.strength(unit):
            self.to.pop(unit, None)  # an eliminated block goes nowhere

    def send_to(self, locale: int, unit: str | None = None) -> bool:
        """Send the selected block (or `unit`) to a locale; False if that is no retreat target."""
        unit = unit or self.selected
        if unit is None or locale not in self.targets or unit not in self.survivors():
            return False
        self.to[unit] = locale
        self.selected = None
        return True

    def keep_with(self, commander: str, unit: str) -> None:
        """The block that keeps its commander's corps together."""
        self.keep[commander] = unit

    def action(self) -> Retreat:
        """The retreat as it stands (its side: the defender)."""
        survivors = set(self.survivors())
        keep = {n: u for n, u in self.keep.items() if u in survivors}
        for name in self.plan.commanders:  # a corps of one face keeps any of its survivors
            mine = [u for u in self.plan.units if u in survivors
                    and self.state.units[u].commander == name]
            if name not in keep and mine and len({self.state.units[u].face for u in mine}) == 1:
                keep[name] = mine[0]
        assert self.state.attack is not None
        return Retreat(self.state.attack.defender,
                       tuple(sorted((u, s) for u, s in self.losses.items() if s)),
                       tuple(sorted((u, t) for u, t in self.to.items() if u in survivors)),
                       tuple(sorted(keep.items())))

    def problem(self) -> Refusal | None:
        """What the engine's own rule says is still wrong with the retreat, or None."""
        assert self.state.attack is not None
        return retreat_refusal(self.state, self.battle_map, self.state.attack, self.action())

    def answer(self) -> dict[str, Any]:
        """The retreat as the action to send (the referee adds the side)."""
        data = self.action().to_dict()
        data.pop("side")
        return data


@dataclass
class LossDraft:
    """A loss allocation being built: the group that must lose `points` steps between them."""

    group: list[str]
    points: int
    strengths: dict[str, int]
    allocation: dict[str, int] = field(default_factory=dict)

    @classmethod
    def start(cls, options: list[dict[str, Any]], units: dict[str, dict[str, Any]]) -> LossDraft:
        """The group and its points as the engine's listed allocations give them."""
        first = options[0]["allocation"]
        group = sorted({u for option in options for u in option["allocation"]})
        strengths = {u: int((units.get(u, {}).get("face") or {}).get("strength", 3)) for u in group}
        return cls(group, sum(first.values()), strengths)

    def add_loss(self, unit: str) -> None:
        """One more step on the block, back to none after its last step."""
        if unit in self.group:
            steps = self.allocation.get(unit, 0) + 1
            self.allocation[unit] = 0 if steps > self.strengths[unit] else steps

    def left(self) -> int:
        """Steps still to place."""
        return self.points - sum(self.allocation.values())

    def answer(self) -> dict[str, Any] | None:
        """The allocation to send, or None while steps are left to place or too many are."""
        if self.left() != 0:
            return None
        return {"type": "assign_losses",
                "allocation": {u: self.allocation.get(u, 0) for u in self.group}}
