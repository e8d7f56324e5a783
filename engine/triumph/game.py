"""TriumphGame: the small core of the Napoleon's Triumph engine (check, push, undo, awaiting).

The rules live in the helper modules, which see the game through the narrow faces of
`protocols.py`; this module imports them, never the reverse.
"""

from __future__ import annotations

from typing import Any

from engine.core.refusals import IllegalMove, Refusal
from engine.triumph import attack as attack_steps
from engine.triumph import readings
from engine.triumph.actions import (
    DECLARED_ENDS,
    Action,
    Attach,
    CorpsMove,
    DeclareEnd,
    DetachMove,
    EndTurn,
    Threat,
    UnitMove,
)
from engine.triumph.commands import apply_attach, apply_move, attach_refusal, move_refusal
from engine.triumph.effects import reveal
from engine.triumph.errors import TriumphError
from engine.triumph.events import (
    Attached,
    CorpsMoved,
    Detached,
    Event,
    GameEnded,
    Moved,
    TurnEnded,
    UnitMoved,
)
from engine.triumph.mapdata import BattleMap, load_austerlitz
from engine.triumph.options import decision_options
from engine.triumph.options import legal_actions as list_legal_actions
from engine.triumph.pieces import FRENCH, Position, opponent
from engine.triumph.positions import position_from_state, state_from_position
from engine.triumph.refusals import Refused, refused
from engine.triumph.reinforcements import apply_entry, entry_actions, entry_refusal
from engine.triumph.road_marches import apply_ride_on, is_ride_on, ride_on_refusal
from engine.triumph.rules import constants
from engine.triumph.setup import position_from_setups, setup_error
from engine.triumph.state import TriumphState, TurnState
from engine.triumph.victory import OBJECTIVES, judge
from engine.triumph.views import TriumphView, view

MOVED_EVENTS: dict[str, type[Moved]] = {"corps_move": CorpsMoved, "detach_move": Detached,
                                        "unit_move": UnitMoved}
DECLARED_WHY = {"resignation": "the {loser} player resigned",
                "time": "the {loser} player's time ran out",
                "agreed": "the players agreed to end the game",
                "game-time": "the agreed game time ran out"}


class TriumphGame:
    """A game of Napoleon's Triumph (2 December scenario) from a given position."""

    def __init__(self, state: TriumphState, battle_map: BattleMap | None = None,
                 handle_secret: str = "", start: dict[str, Any] | None = None) -> None:
        self.state = state
        # The referee passes a random secret (kept in its journal) so that the opponent cannot
        # compute handles; replays with the same secret give the same views.
        self.handle_secret = handle_secret
        self.map = battle_map or load_austerlitz()
        # How the game began, as a record writes it: {"position": ...} or {"setup": ...}
        self.start = start or {"position": position_from_state(state)}
        self.actions: list[Action] = []
        self.events: list[Event] = []
        self._stack: list[tuple[TriumphState, int]] = []
        self._pending: list[Event] = []

    @classmethod
    def from_position(cls, position: dict[str, Any], handle_secret: str = "") -> TriumphGame:
        """A game from a position object as in records; TriumphError if invalid."""
        battle_map = load_austerlitz()
        return cls(state_from_position(position, battle_map), battle_map, handle_secret,
                   {"position": position})

    @classmethod
    def from_setups(cls, french: Any, allied: Any, handle_secret: str = "") -> TriumphGame:
        """The game at 7:00 AM from both private set-ups (RB 6); SetupError (`nt-setup`) if
        either breaks a set-up rule."""
        battle_map = load_austerlitz()
        position = position_from_setups(french, allied, battle_map)
        try:
            state = state_from_position(position, battle_map)
        except TriumphError as error:  # capacity: the two set-ups are checked together here
            raise setup_error(None, "setup-together", problem=error.message) from None
        return cls(state, battle_map, handle_secret,
                   {"setup": {"french": french, "allied": allied}})

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
        except Refused as refusal:
            return refusal.refusal
        finally:
            self.state, self._pending = original, pending
        return None

    def push(self, action: Action) -> list[Event]:
        """Apply an action (a declared end too) and return its events; IllegalMove (game
        unchanged) if refused."""
        original = self.state
        # The action works on a copy; the untouched original is kept for pop().
        self.state, self._pending = _trial_copy(original), []
        try:
            self._apply(action)
        except Refused as refusal:
            self.state, self._pending = original, []
            raise IllegalMove(refusal.refusal) from None
        self._stack.append((original, len(self.events)))
        self.actions.append(action)
        events, self._pending = self._pending, []
        self.events.extend(events)
        return events

    def pop(self) -> Action:
        """Take back the last action (or declared end), restoring the exact state before it."""
        if not self._stack:
            raise TriumphError("there is no action to take back", "nt-undo")
        self.state, count = self._stack.pop()
        del self.events[count:]
        return self.actions.pop()

    def before_last(self) -> tuple[TriumphState, list[Event]] | None:
        """The state before the last action and the events it made (None at the start)."""
        if not self._stack:
            return None
        state, count = self._stack[-1]
        return state, self.events[count:]

    def rulings(self) -> list[tuple[Action, list[Event]]]:
        """Every action pushed so far with the events it made, in order."""
        bounds = [count for _, count in self._stack] + [len(self.events)]
        return [(action, self.events[bounds[i]:bounds[i + 1]])
                for i, action in enumerate(self.actions)]

    def undo(self) -> Action:
        """Same as `pop`."""
        return self.pop()

    def emit(self, event: Event) -> None:
        """Record an event of the action being applied (helpers call it through RulingGame)."""
        self._pending.append(event)

    # --- dispatch ------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        state = self.state
        if state.result is not None:
            raise refused("game-over")
        if isinstance(action, DeclareEnd):
            self._declare_end(action)
            return
        if state.attack is not None:
            attack_steps.apply_step(self, action)
            return
        if action.side != state.to_move:
            raise refused("not-your-turn", side=state.to_move)
        if state.turn.road_march is not None:
            if isinstance(action, (CorpsMove, UnitMove)) and is_ride_on(state, action):
                problem = ride_on_refusal(state, self.map, action)
                if problem:
                    raise Refused(problem)
                self._moved(action, apply_ride_on(state, action))
                return
            if not isinstance(action, Threat):
                state.turn.road_march = None  # any other order ends the riding on
        if isinstance(action, CorpsMove) and action.entry is not None:
            problem = entry_refusal(state, self.map, action)
            if problem:
                raise Refused(problem)
            apply_entry(self, action)
        elif isinstance(action, (CorpsMove, DetachMove, UnitMove)):
            if state.fixed_battery in _moving(action):
                raise refused("battery-never-moves", unit=state.fixed_battery)
            problem = move_refusal(state, self.map, action)
            if problem:
                raise Refused(problem)
            self._moved(action, apply_move(state, action))
        elif isinstance(action, Attach):
            problem = attach_refusal(state, action)
            if problem:
                raise Refused(problem)
            apply_attach(state, action)
            self.emit(Attached(action.side, action.commander, action.unit))
        elif isinstance(action, EndTurn):
            self._end_turn()
        elif isinstance(action, Threat):
            attack_steps.apply_threat(self, action)
        else:
            raise refused("no-attack-in-progress", action=action.type)

    def _moved(self, action: CorpsMove | DetachMove | UnitMove, start: Position) -> None:
        """The event of a move; cavalry ending a road move blocking is shown (1.16)."""
        units = tuple(_moving(action))
        self.emit(MOVED_EVENTS[action.type](
            action.side, units, getattr(action, "commander", None), str(start), str(action.to),
            tuple(action.road) if action.road else None))
        if action.road is not None and not action.to.is_reserve:
            reveal(self, units, "cavalry ending a road move blocking")

    def _declare_end(self, action: DeclareEnd) -> None:
        """A resignation, an agreed end or time: the game is over, on the undo stack like an
        action (the referee takes it back if its journal refuses the write)."""
        if action.reason not in DECLARED_ENDS:
            raise refused("end-reason", reason=action.reason)
        self.state.attack = None
        self.state.result = (action.winner, action.reason)
        self.emit(GameEnded(action.winner, action.reason))

    def _end_turn(self) -> None:
        state = self.state
        self.emit(TurnEnded(state.to_move, state.round))
        self._forget_faces()
        state.turn = TurnState()
        state.turns_played += 1
        if state.to_move == FRENCH:
            if state.round >= constants().last_hour:
                verdict = judge(state, self.map)
                state.result = (verdict.winner, OBJECTIVES)
                self.emit(GameEnded(verdict.winner, OBJECTIVES, verdict.why,
                                    {k: list(v) for k, v in verdict.control.items()}))
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
        if reason in DECLARED_WHY:
            return {"winner": winner, "reason": reason,
                    "why": DECLARED_WHY[reason].format(loser=loser)}
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
