"""Everything that happens in a game of Napoleon's Triumph, as typed records.

`to_dict` is the full record (real unit ids, the faces the rules made public when the event
happened): the journal's and the engine's form, and the shape the referee publishes after
`redaction.py` has renamed enemy ids (docs/mqtt.md, "Napoleon's Triumph"). A field listed in
`OMITTED_WHEN_NONE` is left out of that form while it is None, as the wire has always had it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

Face = dict[str, Any]  # {"type", "strength", "guard"}


@dataclass(frozen=True)
class Event:
    """Base of all events; `type` names the kind as on the wire."""

    type: ClassVar[str] = ""
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()

    @property
    def acting_side(self) -> str | None:
        """The side the event is about (None for events of both, such as a combat)."""
        side = getattr(self, "side", None)
        return side if isinstance(side, str) else None

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-safe data (real ids: for the journal, not for the opponent)."""
        data: dict[str, Any] = {"type": self.type}
        for field in fields(self):
            value = getattr(self, field.name)
            if value is None and field.name in self.OMITTED_WHEN_NONE:
                continue
            data[field.name] = _json(value)
        return data


@dataclass(frozen=True)
class Moved(Event):
    """A Corps, Detach or Unit Move (`commander` None for a Unit Move; `road` None off-road)."""

    side: str
    units: tuple[str, ...]
    commander: str | None
    start: str
    to: str
    road: tuple[int, ...] | None


@dataclass(frozen=True)
class CorpsMoved(Moved):
    """A commander moved with some of its units."""

    type: ClassVar[str] = "corps_move"


@dataclass(frozen=True)
class Detached(Moved):
    """Some of a commander's units moved away, detached."""

    type: ClassVar[str] = "detach_move"


@dataclass(frozen=True)
class UnitMoved(Moved):
    """One unit moved on its own, detached."""

    type: ClassVar[str] = "unit_move"


@dataclass(frozen=True)
class Reinforced(Event):
    """A reinforcement corps entered by an entry road."""

    side: str
    commander: str
    units: tuple[str, ...]
    entry: str | None
    to: str
    road: tuple[int, ...]
    second_command: bool
    type: ClassVar[str] = "reinforcement"


@dataclass(frozen=True)
class Attached(Event):
    """A commander took a unit into its corps."""

    side: str
    commander: str
    unit: str
    type: ClassVar[str] = "attach"


@dataclass(frozen=True)
class TurnEnded(Event):
    """A player ended his turn."""

    side: str
    round: int
    type: ClassVar[str] = "end-turn"


@dataclass(frozen=True)
class GameEnded(Event):
    """The game ended: who won (None: nobody) and why; objectives carry who controls what."""

    winner: str | None
    reason: str
    why: str | None = None
    control: dict[str, list[int]] | None = None
    type: ClassVar[str] = "game-end"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"why", "control"})


@dataclass(frozen=True)
class Threatened(Event):
    """Step 1: an attack across `attack_locale`>`defence_locale` (`guard`: a Guard Attack)."""

    side: str
    attack_locale: int
    defence_locale: int
    guard: str | None
    type: ClassVar[str] = "threat"


@dataclass(frozen=True)
class ShownFace:
    """One block whose face a reveal shows."""

    unit: str
    side: str
    face: Face

    def to_dict(self) -> dict[str, Any]:
        """As the reveal event writes it."""
        return {"unit": self.unit, "side": self.side, "face": dict(self.face)}


@dataclass(frozen=True)
class Revealed(Event):
    """Faces shown to both players and the public (1.16)."""

    why: str
    units: tuple[ShownFace, ...]
    type: ClassVar[str] = "reveal"


@dataclass(frozen=True)
class Defended(Event):
    """Step 2: the defending units (`blocking`: the blockers of the defence approach)."""

    side: str
    units: tuple[str, ...]
    blocking: bool
    type: ClassVar[str] = "defend"


@dataclass(frozen=True)
class Retreated(Event):
    """A retreat (1.10): where each surviving unit went, and the steps it cost."""

    side: str
    locale: int
    to: dict[str, int]
    steps_lost: int
    before_combat: bool
    type: ClassVar[str] = "retreat"


@dataclass(frozen=True)
class Feinted(Event):
    """Step 3: a feint, ending on the attack approach or in the reserve."""

    side: str
    units: tuple[str, ...]
    end: str
    type: ClassVar[str] = "feint"


@dataclass(frozen=True)
class Pressed(Event):
    """Step 3: the attacker goes on with the attack."""

    side: str
    type: ClassVar[str] = "press"


@dataclass(frozen=True)
class DefenceLeadersNamed(Event):
    """Step 4: the defence leaders (revealed)."""

    side: str
    units: tuple[str, ...]
    type: ClassVar[str] = "defence-leaders"


@dataclass(frozen=True)
class AttackDeclared(Event):
    """Step 5: attackers, leaders, width, the defence leaders engaged and the initial result."""

    side: str
    units: tuple[str, ...]
    leaders: tuple[str, ...]
    wide: bool
    engaged: tuple[str, ...]
    initial: int
    type: ClassVar[str] = "attack"


@dataclass(frozen=True)
class EliteCommitted(Event):
    """The first commitment of an army's heavy cavalry or Guard (1.13)."""

    side: str
    elite: str
    unit: str
    why: str
    type: ClassVar[str] = "elite-commitment"


@dataclass(frozen=True)
class GuardAttackFailed(Event):
    """A Guard Attack failed: more morale lost, no more Guard Attacks (1.13)."""

    side: str
    type: ClassVar[str] = "guard-attack-failed"


@dataclass(frozen=True)
class CounterAttacked(Event):
    """Step 7: the counter-attackers (revealed; each loses a step)."""

    side: str
    units: tuple[str, ...]
    type: ClassVar[str] = "counter-attack"


@dataclass(frozen=True)
class Combat(Event):
    """Steps 8-10: the results, the winner ("attacker" or "defender") and the loss points."""

    initial: int
    final: int
    winner: str
    losses: dict[str, int]
    type: ClassVar[str] = "combat"


@dataclass(frozen=True)
class OddLossChosen(Event):
    """Step 10: the piece that takes the odd loss point."""

    side: str
    unit: str
    type: ClassVar[str] = "odd-loss"


@dataclass(frozen=True)
class LossesAssigned(Event):
    """Step 10: loss points spread over the other pieces by their owner."""

    side: str
    allocation: dict[str, int]
    type: ClassVar[str] = "assign-losses"


@dataclass(frozen=True)
class Stormed(Event):
    """The attackers moved into the defence locale's reserve."""

    side: str
    locale: int
    units: tuple[str, ...]
    type: ClassVar[str] = "storm"


@dataclass(frozen=True)
class Regrouped(Event):
    """After a repulse: the unit each attacking corps keeps."""

    side: str
    keep: dict[str, str]
    type: ClassVar[str] = "regroup"


@dataclass(frozen=True)
class Advanced(Event):
    """After a feint or repulse: defenders of the reserve moved up to block."""

    side: str
    units: tuple[str, ...]
    to: str
    type: ClassVar[str] = "advance"


@dataclass(frozen=True)
class AttackEnded(Event):
    """The attack is over: fought or feinted (`feint`, `winner`), or ended by a retreat before
    combat (`before_combat`, written alone)."""

    side: str
    feint: bool = False
    winner: str | None = None
    before_combat: bool = False
    type: ClassVar[str] = "attack-end"

    def to_dict(self) -> dict[str, Any]:
        """The two shapes the wire knows."""
        if self.before_combat:
            return {"type": self.type, "side": self.side, "before_combat": True}
        return {"type": self.type, "side": self.side, "feint": self.feint, "winner": self.winner}


@dataclass(frozen=True)
class Replaced(Event):
    """A block that lost a step was replaced by one a strength lower."""

    unit: str
    side: str
    at: str
    before: str
    after: str
    why: str
    type: ClassVar[str] = "replace"


@dataclass(frozen=True)
class Eliminated(Event):
    """A block left play (its face is shown)."""

    unit: str
    side: str
    at: str
    face: Face
    why: str
    type: ClassVar[str] = "eliminate"


@dataclass(frozen=True)
class CommanderRemoved(Event):
    """A commander left play with its corps' last unit."""

    commander: str
    side: str
    at: str
    type: ClassVar[str] = "commander-removed"


@dataclass(frozen=True)
class MoraleChanged(Event):
    """An army's morale moved (`why` only for gains: the reinforcement bonus)."""

    side: str
    before: int
    after: int
    why: str | None = None
    type: ClassVar[str] = "morale"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"why"})


@dataclass(frozen=True)
class TakenBack(Event):
    """The last action was taken back, both players agreeing (the referee's takeback)."""

    side: str
    action: str
    type: ClassVar[str] = "takeback"


EVENT_TYPES: dict[str, type[Event]] = {cls.type: cls for cls in (
    CorpsMoved, Detached, UnitMoved, Reinforced, Attached, TurnEnded, GameEnded, Threatened,
    Revealed, Defended, Retreated, Feinted, Pressed, DefenceLeadersNamed, AttackDeclared,
    EliteCommitted, GuardAttackFailed, CounterAttacked, Combat, OddLossChosen, LossesAssigned,
    Stormed, Regrouped, Advanced, AttackEnded, Replaced, Eliminated, CommanderRemoved,
    MoraleChanged, TakenBack)}


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from its `to_dict` form; KeyError or TypeError if it is none."""
    values = dict(data)
    cls = EVENT_TYPES[values.pop("type")]
    if cls is Revealed:
        values["units"] = tuple(ShownFace(u["unit"], u["side"], dict(u["face"]))
                                for u in values["units"])
    for name, value in values.items():
        if isinstance(value, list) and name != "control":
            values[name] = tuple(value)
    return cls(**values)


def _json(value: Any) -> Any:
    if isinstance(value, ShownFace):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    return value
