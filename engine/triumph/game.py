"""TriumphGame: the small core of the Napoleon's Triumph engine (check, push, undo, awaiting)."""

from __future__ import annotations

from typing import Any

from engine.core.errors import ArbiterError
from engine.core.refusals import IllegalMove, Refusal
from engine.triumph import attack as attack_steps
from engine.triumph import readings
from engine.triumph.actions import (
    Action,
    Attach,
    CorpsMove,
    DetachMove,
    EndTurn,
    Threat,
    UnitMove,
)
from engine.triumph.commands import apply_attach, apply_move, attach_refusal, move_refusal
from engine.triumph.elite import commit as commit_elite
from engine.triumph.errors import TriumphError
from engine.triumph.mapdata import BattleMap, load_austerlitz
from engine.triumph.options import decision_options
from engine.triumph.options import legal_actions as list_legal_actions
from engine.triumph.pieces import FRENCH, Position, Unit, opponent
from engine.triumph.positions import state_from_position
from engine.triumph.reinforcements import apply_entry, entry_actions, entry_refusal
from engine.triumph.rules import constants
from engine.triumph.setup import SetupError, position_from_setups
from engine.triumph.state import TriumphState, TurnState
from engine.triumph.victory import OBJECTIVES, judge
from engine.triumph.views import TriumphView, view

Event = dict[str, Any]
DEMORALISED = "demoralised"


class Refused(ArbiterError):
    """Raised inside an action handler; push turns it into IllegalMove after restoring state."""

    code = "illegal"  # each one carries its rule as its code

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message, code=refusal.rule)
        self.refusal = refusal


class TriumphGame:
    """A game of Napoleon's Triumph (2 December scenario) from a given position."""

    def __init__(self, state: TriumphState, battle_map: BattleMap | None = None,
                 handle_secret: str = "") -> None:
        self.state = state
        # The referee passes a random secret (kept in its journal) so that the opponent cannot
        # compute handles; replays with the same secret give the same views.
        self.handle_secret = handle_secret
        self.map = battle_map or load_austerlitz()
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._stack: list[tuple[TriumphState, int]] = []
        self._pending: list[Event] = []

    @classmethod
    def from_position(cls, position: dict[str, Any], handle_secret: str = "") -> TriumphGame:
        """A game from a position object as in records; TriumphError if invalid."""
        battle_map = load_austerlitz()
        return cls(state_from_position(position, battle_map), battle_map, handle_secret)

    @classmethod
    def from_setups(cls, french: Any, allied: Any, handle_secret: str = "") -> TriumphGame:
        """The game at 7:00 AM from both private set-ups (RB 6); SetupError (`nt-setup`) if
        either breaks a set-up rule."""
        battle_map = load_austerlitz()
        position = position_from_setups(french, allied, battle_map)
        try:
            state = state_from_position(position, battle_map)
        except TriumphError as error:  # capacity: the two set-ups are checked together here
            raise SetupError(f"set-up: {error.message}", "nt-setup") from None
        return cls(state, battle_map, handle_secret)

    def view(self, viewer: str | None) -> TriumphView:
        """What `viewer` ("french", "allied") or the public (None) may know now."""
        return view(self, viewer)

    # --- the decision the game waits for -------------------------------------------------

    def awaiting(self) -> tuple[str, str] | None:
        """(side, decision) the game waits for, or None when it is over."""
        if self.state.result is not None:
            return None
        attack = self.state.attack
        if attack is None:
            return self.state.to_move, "command"
        return attack_steps.decider(attack), attack.step

    def options(self) -> dict[str, Any]:
        """The pending decision with its legal options (JSON-safe), for the side that decides."""
        return decision_options(self)

    def legal_actions(self) -> list[Action]:
        """Legal actions now: every command and choice (a representative set for multi-part
        choices such as retreats and loss allocations); each passes `check`."""
        found = list_legal_actions(self)
        if self.state.attack is None and self.state.result is None:
            # commands are listed by the movement rules alone: drop moves of the fixed battery
            battery = self.state.fixed_battery
            found = [a for a in found if battery is None or not isinstance(
                a, (CorpsMove, DetachMove, UnitMove)) or battery not in _moving(a)]
            found += [a for a in entry_actions(self.state, self.map, self.state.to_move)
                      if self.check(a) is None]
        return found

    # --- check, push, undo -----------------------------------------------------------------

    def check(self, action: Action) -> Refusal | None:
        """Why `action` is illegal now, or None; nothing changes either way."""
        original, pending = self.state, self._pending
        self.state, self._pending = _trial_copy(original), []
        try:
            self._apply(action)
        except Refused as refused:
            return refused.refusal
        finally:
            self.state, self._pending = original, pending
        return None

    def push(self, action: Action) -> list[Event]:
        """Apply an action and return its events; IllegalMove (game unchanged) if refused."""
        original = self.state
        # The action works on a copy; the untouched original is kept for pop().
        self.state, self._pending = _trial_copy(original), []
        try:
            self._apply(action)
        except Refused as refused:
            self.state, self._pending = original, []
            raise IllegalMove(refused.refusal) from None
        self._stack.append((original, len(self.events)))
        self.actions.append(action)
        events, self._pending = self._pending, []
        self.events.extend(events)
        return events

    def pop(self) -> Action:
        """Take back the last action, restoring the exact state before it."""
        if not self._stack:
            raise TriumphError("there is no action to take back", "nt-undo")
        self.state, count = self._stack.pop()
        del self.events[count:]
        return self.actions.pop()

    def before_last(self) -> tuple[TriumphState, list[Event]] | None:
        """The state before the last action and the events that action made (None at the start)."""
        if not self._stack:
            return None
        state, count = self._stack[-1]
        return state, self.events[count:]

    def undo(self) -> Action:
        """Same as `pop`."""
        return self.pop()

    # --- internals shared by the handlers ------------------------------------------------

    def emit(self, kind: str, **data: Any) -> None:
        """Record an event of the action being applied."""
        self._pending.append({"type": kind, **data})

    def refuse(self, rule: str, message: str) -> Refused:
        """An exception that refuses the action with its rule."""
        return Refused(Refusal(rule, message))

    def reveal(self, unit_ids: list[str] | tuple[str, ...], why: str) -> None:
        """Show faces to both players (and the public) for the rest of this player turn."""
        shown = []
        for unit_id in unit_ids:
            unit = self.state.units[unit_id]
            self.state.turn.revealed.add(unit_id)
            shown.append({"unit": unit_id, "side": unit.side, "face": face_dict(unit)})
        if shown:
            self.emit("reveal", why=why, units=shown)

    def lose_steps(self, unit_id: str, steps: int, why: str) -> int:
        """Replace a block by one `steps` strength lower (or eliminate it); steps really lost."""
        unit = self.state.units[unit_id]
        if steps > 0 and unit.at is not None:
            commit_elite(self, [unit_id], "loss")
        lost = 0
        while steps > lost and unit.at is not None:
            reduced = unit.face.reduced()
            before = str(unit.face)
            lost += 1
            if reduced is None:
                self.eliminate(unit, why)
            else:
                unit.face = reduced
                self.state.turn.revealed.add(unit_id)
                self.emit("replace", unit=unit_id, side=unit.side, at=str(unit.at),
                          before=before, after=str(reduced), why=why)
        return lost

    def eliminate(self, unit: Unit, why: str) -> None:
        """Take a unit out of play; a commander whose corps is now empty leaves with it."""
        self.emit("eliminate", unit=unit.id, side=unit.side, at=str(unit.at),
                  face=face_dict(unit), why=why)
        name, unit.at, unit.commander = unit.commander, None, None
        if name is not None and not self.state.corps(name):
            commander = self.state.commanders[name]
            self.emit("commander-removed", commander=name, side=commander.side,
                      at=str(commander.at))
            commander.at = None

    def lose_morale(self, side: str, amount: int, floor: int = 0) -> None:
        """Lower a side's morale (not below `floor`); at 0 the other side wins at once."""
        if amount <= 0:
            return
        before = self.state.morale[side]
        after = max(min(before, floor), before - amount)
        self.state.morale[side] = after
        self.emit("morale", side=side, before=before, after=after)
        if after <= 0 and self.state.result is None:
            self.state.result = (opponent(side), DEMORALISED)
            self.emit("game-end", winner=opponent(side), reason=DEMORALISED)

    # --- dispatch ------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        state = self.state
        if state.result is not None:
            raise self.refuse("nt-turn", "the game is over")
        if state.attack is not None:
            attack_steps.apply_step(self, action)
            return
        if action.side != state.to_move:
            raise self.refuse("nt-turn", f"it is the {state.to_move} player's turn")
        if isinstance(action, CorpsMove) and action.entry is not None:
            refusal = entry_refusal(state, self.map, action)
            if refusal:
                raise Refused(refusal)
            apply_entry(self, action)
        elif isinstance(action, (CorpsMove, DetachMove, UnitMove)):
            if state.fixed_battery in _moving(action):
                raise self.refuse("nt-fixed-battery", "the fixed battery never moves")
            refusal = move_refusal(state, self.map, action)
            if refusal:
                raise Refused(refusal)
            start = apply_move(state, action)
            units = [action.unit] if isinstance(action, UnitMove) else list(action.units)
            self.emit(action.type, side=action.side, units=units,
                      commander=getattr(action, "commander", None), start=str(start),
                      to=str(action.to), road=list(action.road) if action.road else None)
            if action.road is not None and not action.to.is_reserve:
                self.reveal(units, "cavalry ending a road move blocking")
        elif isinstance(action, Attach):
            refusal = attach_refusal(state, action)
            if refusal:
                raise Refused(refusal)
            apply_attach(state, action)
            self.emit("attach", side=action.side, commander=action.commander, unit=action.unit)
        elif isinstance(action, EndTurn):
            self._end_turn()
        elif isinstance(action, Threat):
            attack_steps.apply_threat(self, action)
        else:
            raise self.refuse("nt-turn", f"no attack is in progress: {action.type} is not "
                                         f"expected")

    def _end_turn(self) -> None:
        state = self.state
        self.emit("end-turn", side=state.to_move, round=state.round)
        self._forget_faces()
        state.turn = TurnState()
        state.turns_played += 1
        if state.to_move == FRENCH:
            if state.round >= constants().last_hour:
                verdict = judge(state, self.map)
                state.result = (verdict.winner, OBJECTIVES)
                self.emit("game-end", winner=verdict.winner, reason=OBJECTIVES, why=verdict.why,
                          control={k: list(v) for k, v in verdict.control.items()})
                return
            state.round += 1
        state.to_move = opponent(state.to_move)

    def _forget_faces(self) -> None:
        """1.16: revealed faces stay known past the turn only for blocks standing alone."""
        state = self.state
        remembered = set()
        if readings.LONE_BLOCKS_STAY_KNOWN:
            for unit_id in state.known | state.turn.revealed:
                unit = state.units[unit_id]
                if unit.at is None:
                    continue
                group = [u for u in state.units_at(unit.at)
                         if u.side == unit.side and u.commander == unit.commander]
                if len(group) == 1:
                    remembered.add(unit_id)
        state.known = remembered

    # --- reading the state ---------------------------------------------------------------

    @property
    def result(self) -> dict[str, Any] | None:
        """None while the game goes on, else {"winner": side or None, "reason": ...}."""
        if self.state.result is None:
            return None
        winner, reason = self.state.result
        if reason == OBJECTIVES:
            verdict = judge(self.state, self.map)
            return {"winner": winner, "reason": reason, "why": verdict.why,
                    "control": verdict.control}
        loser = opponent(winner) if winner else None
        return {"winner": winner, "reason": reason,
                "why": f"the {loser} army is demoralised (morale 0)"}

    def position_of(self, unit_id: str) -> Position | None:
        """Where a unit stands (None once eliminated)."""
        return self.state.units[unit_id].at


def _moving(action: CorpsMove | DetachMove | UnitMove) -> list[str]:
    """The units a move command moves."""
    return [action.unit] if isinstance(action, UnitMove) else list(action.units)


def _trial_copy(state: TriumphState) -> TriumphState:
    """A copy to try an action on, without the listing index (it would go stale)."""
    return state.copy()


def face_dict(unit: Unit) -> dict[str, Any]:
    """A unit's face as data."""
    return {"type": unit.face.type, "strength": unit.face.strength, "guard": unit.face.guard}
