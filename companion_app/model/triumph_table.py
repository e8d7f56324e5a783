"""What a Napoleon's Triumph tablet knows: its side, the view, its set-up, the physical
instructions, the pending decision and the command the player is composing from the menu.

Pure Python, no Kivy. `TableState` hands it the app's messages (`take`); the screens read it.
Shapes are the table contract's (docs/app.md, "Napoleon's Triumph on the tablet"): the menu
entries of the decision `command`, the engine's action dicts for every other decision, and the
instruction steps of engine/triumph/instructions.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion_app.model.triumph_answers import LossDraft, RetreatDraft
from companion_app.model.triumph_orders import (
    ORDER_DECISIONS,
    PICK_DECISIONS,
    OrdersDraft,
    PickDraft,
)
from firmware_bridge.protocol.triumph_contract import SIDE_OF_SEAT
from firmware_bridge.protocol.triumph_contract import VARIANT as TRIUMPH

Draft = RetreatDraft | LossDraft | OrdersDraft | PickDraft  # an answer built block by block

MOVES = ("corps_move", "detach_move", "unit_move")


def is_triumph(variant: str | None, view: dict[str, Any] | None) -> bool:
    """True when the table plays Napoleon's Triumph (by the board's variant or the view)."""
    return variant == TRIUMPH or (view or {}).get("game") == TRIUMPH


def destination_position(dest: Any) -> str:
    """The position a menu destination ends on: "R63", "64>63", or a road move's "to"."""
    return str(dest["to"]) if isinstance(dest, dict) else str(dest)


def destination_road(dest: Any) -> list[int] | None:
    """The road a menu destination follows, None for an ordinary move."""
    return list(dest["road"]) if isinstance(dest, dict) and dest.get("road") else None


@dataclass
class Command:
    """A menu entry being turned into an action: the units that go and the destination."""

    entry: dict[str, Any]
    picked: list[str] = field(default_factory=list)
    destination: int | None = None  # an index into entry["to"]
    guard: str | None = None  # a threat's Guard Attack unit

    @classmethod
    def start(cls, entry: dict[str, Any]) -> Command:
        """A fresh command: a corps takes all its units (untick to leave some behind); a single
        unit to choose is chosen when there is only one."""
        units = [str(u) for u in entry.get("units", ())]
        kind = entry.get("type")
        picked = list(units) if kind == "corps_move" else (
            units[:1] if kind in ("unit_move", "attach") and len(units) == 1 else [])
        destinations = entry.get("to")
        choice = 0 if isinstance(destinations, list) and len(destinations) == 1 else None
        return cls(dict(entry), picked, choice)

    @property
    def kind(self) -> str:
        """The menu entry's type."""
        return str(self.entry.get("type"))

    @property
    def destinations(self) -> list[Any]:
        """The entry's destinations, each one a choice: a road written with "block" (cavalry
        that may end blocking an approach of the road's last locale) also offers each of
        those approaches by that road."""
        found = self.entry.get("to")
        if found is None or self.kind not in MOVES:
            return []
        choices: list[Any] = []
        for dest in found if isinstance(found, list) else [found]:
            choices.append({k: v for k, v in dest.items() if k != "block"}
                           if isinstance(dest, dict) else dest)
            if isinstance(dest, dict) and dest.get("block") and dest.get("road"):
                last = dest["road"][-1]
                choices += [{"to": f"{last}>{toward}", "road": list(dest["road"])}
                            for toward in dest["block"]]
        return choices

    def positions(self) -> list[str]:
        """Where the destinations end, for the map's highlight."""
        return [destination_position(d) for d in self.destinations]

    def one_unit(self) -> bool:
        """True when exactly one unit is chosen (a Unit Move, an attachment)."""
        return self.kind in ("unit_move", "attach")

    def toggle(self, unit: str) -> None:
        """Tick or untick one of the entry's units (for one-unit entries: choose it)."""
        if unit not in self.entry.get("units", ()):
            return
        if self.one_unit():
            self.picked = [unit]
        elif unit in self.picked:
            self.picked.remove(unit)
        else:
            self.picked = [u for u in self.entry["units"] if u in self.picked or u == unit]

    def choose(self, position: str) -> bool:
        """Choose the destination ending on `position` (the first of several roads); False if
        the entry has no such destination."""
        for index, dest in enumerate(self.destinations):
            if destination_position(dest) == position:
                self.destination = index
                return True
        return False

    def choose_index(self, index: int) -> None:
        """Choose a destination by its place in the list."""
        if 0 <= index < len(self.destinations):
            self.destination = index

    def missing(self) -> str | None:
        """What the player still has to choose: "units", "unit", "destination", or None."""
        if self.kind in MOVES or self.kind == "attach":
            if self.one_unit() and len(self.picked) != 1:
                return "unit"
            if not self.picked:
                return "units"
        if self.kind in MOVES and self.destination is None:
            return "destination"
        return None

    def action(self) -> dict[str, Any] | None:
        """The contract's action dict (without "side"), or None while something is missing."""
        if self.missing() is not None:
            return None
        entry, kind = self.entry, self.kind
        if kind == "end_turn":
            return {"type": "end_turn"}
        if kind == "threat":
            action = {"type": "threat", "from": entry["from"], "into": entry["into"]}
            if self.guard is not None:
                action["guard"] = self.guard
            return action
        if kind == "attach":
            return {"type": "attach", "commander": entry["commander"], "unit": self.picked[0]}
        assert self.destination is not None
        dest = self.destinations[self.destination]
        action = {"type": kind, "to": destination_position(dest)}
        if kind == "unit_move":
            action["unit"] = self.picked[0]
        else:
            action.update(commander=entry["commander"], units=list(self.picked))
        road = destination_road(dest)
        if road is not None:
            action["road"] = road
        if entry.get("entry"):
            action["entry"] = entry["entry"]
        return action


@dataclass
class TriumphTable:
    """The Napoleon's Triumph part of one tablet's table state."""

    seat: str | None = None
    view: dict[str, Any] | None = None
    setup: dict[str, Any] | None = None  # the set-up the referee accepted
    instructions: list[dict[str, Any]] = field(default_factory=list)  # {"seq", "steps"}, newest last
    done: set[tuple[int, int]] = field(default_factory=set)  # (block seq, step index) marked done
    refusal: dict[str, Any] | None = None  # {"rule", "message", "reason"?, "data"?} last refused
    command: Command | None = None
    draft: Draft | None = None  # an answer being built block by block
    sent: dict[str, Any] | None = None  # the last action sent, until the next view
    record: str | None = None  # the file the finished battle was kept as (public state)
    notice: str | None = None  # the referee's other answer (a known text is translated on screen)

    # -- feeding --------------------------------------------------------------------------------
    def take(self, kind: str, payload: dict[str, Any]) -> None:
        """One app message (see table.py); kinds it does not use are ignored."""
        if kind == "view" and payload.get("game") == TRIUMPH:
            before = self.decision_key()
            self.view = payload
            self.sent = None
            if self.decision_key() != before or self.command is not None and (
                    self.command.entry not in self.menu()):
                self.command = None
                self.refusal = self.notice = None
            if self.decision_key() != before:
                self.draft = None
        elif kind == "setup_accepted" and isinstance(payload.get("setup"), dict):
            self.setup = dict(payload["setup"])
        elif kind == "instructions":
            blocks = payload.get("blocks")
            self.instructions = [b for b in blocks or () if isinstance(b, dict)]
        elif kind == "refusal" and str(payload.get("rule", "")).startswith("nt-"):
            self.refusal = {"rule": str(payload["rule"]), "message": str(payload.get("message", ""))}
            if payload.get("reason"):  # a referee that sends the reason: the tablet words it
                self.refusal.update(reason=str(payload["reason"]), data=dict(payload.get("data") or {}))
            self.sent = None
        elif kind == "notice":  # another answer to the command (not its turn, wrong phase, ...)
            self.sent = None
            self.notice = payload.get("known") or payload.get("text")
        elif kind == "record":
            record = payload.get("record")
            self.record = record if isinstance(record, str) and record else None
        elif kind == "new_game":
            self.__dict__.update(TriumphTable(seat=self.seat).__dict__)

    # -- reading the view -----------------------------------------------------------------------
    @property
    def side(self) -> str | None:
        """This tablet's army: "allied" for seat red, "french" for seat blue."""
        return SIDE_OF_SEAT.get(self.seat or "")

    def awaiting(self) -> tuple[str, str] | None:
        """(side, decision) the game waits for, None before play or once it is over."""
        pending = (self.view or {}).get("awaiting")
        if not isinstance(pending, dict) or (self.view or {}).get("result"):
            return None
        return str(pending.get("side")), str(pending.get("decision"))

    def decision_key(self) -> tuple[Any, ...]:
        """What identifies the pending decision (a new one starts a fresh command)."""
        view = self.view or {}
        return (view.get("round"), view.get("to_move"), self.awaiting(),
                (view.get("commands") or {}).get("corps"),
                (view.get("commands") or {}).get("independent"))

    def my_decision(self) -> bool:
        """True when this tablet's side has to decide now."""
        pending = self.awaiting()
        return pending is not None and pending[0] == self.side

    def options(self) -> list[dict[str, Any]]:
        """The legal options of our pending decision (empty when the other side decides)."""
        if not self.my_decision():
            return []
        unique: dict[str, dict[str, Any]] = {}
        for option in (self.view or {}).get("options") or ():
            if isinstance(option, dict):  # the engine may list one answer twice
                unique.setdefault(json.dumps(option, sort_keys=True), option)
        return list(unique.values())

    def menu(self) -> list[dict[str, Any]]:
        """The command menu's entries while our decision is `command`."""
        pending = self.awaiting()
        return self.options() if pending is not None and pending[1] == "command" else []

    def own_units(self) -> list[dict[str, Any]]:
        """Our units on the map (with their faces)."""
        return [u for u in (self.view or {}).get("units", ()) if u.get("side") == self.side]

    def units_by_id(self) -> dict[str, dict[str, Any]]:
        """Every unit of the view by its id (enemy units by their handle)."""
        return {str(u["id"]): u for u in (self.view or {}).get("units", ())}

    def corps(self) -> list[tuple[str | None, list[dict[str, Any]]]]:
        """Our units grouped by commander, in the view's commander order; detached ones last
        (None)."""
        units = self.own_units()
        groups: list[tuple[str | None, list[dict[str, Any]]]] = []
        for commander in (self.view or {}).get("commanders", ()):
            if commander.get("side") != self.side or commander.get("at") is None:
                continue
            mine = [u for u in units if u.get("commander") == commander["name"]]
            groups.append((commander["name"], mine))
        detached = [u for u in units if u.get("commander") is None]
        if detached:
            groups.append((None, detached))
        return groups

    def commander(self, name: str) -> dict[str, Any] | None:
        """A commander's entry of the view."""
        return next((c for c in (self.view or {}).get("commanders", ()) if c.get("name") == name),
                    None)

    def commanded(self) -> set[str]:
        """Commanders that gave their command this turn."""
        return {str(n) for n in ((self.view or {}).get("commands") or {}).get("commanded", ())}

    def commands_left(self) -> dict[str, int | None]:
        """This turn's commands of the side to move: used and limit, for corps (limit None:
        unlimited) and independent commands."""
        from engine.triumph.rules import constants

        view = self.view or {}
        side = str(view.get("to_move") or self.side or "allied")
        used = view.get("commands") or {}
        limits = constants()
        on_map = [c for c in view.get("commanders", ()) if c.get("side") == side and c.get("at")]
        return {"corps_used": int(used.get("corps", 0)),
                "corps_limit": limits.corps_commands.get(side),
                "independent_used": int(used.get("independent", 0)),
                "independent_limit": limits.independent_commands.get(side),
                "commanders": len(on_map)}

    # -- the player's choices -------------------------------------------------------------------
    def pick_entry(self, index: int) -> None:
        """Start composing from one menu entry."""
        menu = self.menu()
        if 0 <= index < len(menu):
            self.command = Command.start(menu[index])
            self.refusal = None

    def cancel(self) -> None:
        """Drop the command being composed, or the answer being built."""
        self.command = None
        self.draft = None

    def can_build(self) -> str | None:
        """The answer this decision lets the player build block by block: "retreat" (a
        retreat is among the legal answers), "losses", "orders" (a feint, an attack or an
        occupation), "pick" (blocks to name), or None."""
        options = self.options()
        pending = self.awaiting()
        if any(o.get("type") == "retreat" for o in options):
            return "retreat"
        if any(o.get("type") == "assign_losses" for o in options):
            return "losses"
        if pending is None or not options:
            return None
        if pending[1] in ORDER_DECISIONS and any(
                o.get("orders") and not any(order.get("entry") for order in o["orders"])
                for o in options):
            return "orders"
        return "pick" if pending[1] in PICK_DECISIONS else None

    def build(self) -> None:
        """Start building this decision's answer on the map."""
        kind = self.can_build()
        battery = (self.setup or {}).get("fixed_battery")
        if kind == "retreat" and self.view is not None:
            self.draft = RetreatDraft.start(self.view)
        elif kind == "losses":
            self.draft = LossDraft.start([o for o in self.options()
                                          if o.get("type") == "assign_losses"], self.units_by_id())
        elif kind == "orders" and self.view is not None:
            self.draft = OrdersDraft.start(self.view, self.options(), battery)
        elif kind == "pick" and self.view is not None:
            self.draft = PickDraft.start(self.view, self.options(), battery)

    def sent_action(self, action: dict[str, Any]) -> dict[str, Any]:
        """Remember an action as sent (until the referee's next view) and return it."""
        self.sent = dict(action)
        self.refusal = None
        return self.sent

    def toggle_done(self, seq: int, index: int) -> None:
        """Mark an instruction step done, or not done again (a local note only)."""
        key = (seq, index)
        if key in self.done:
            self.done.discard(key)
        else:
            self.done.add(key)

    def steps(self, blocks: int | None = None) -> list[tuple[int, int, dict[str, Any], bool]]:
        """The instruction steps to show, in the order they happened: (seq, index, step, done).

        With `blocks`, only the newest blocks that still have a step not marked done (and the
        newest block always), at most that many: what is done drops away."""
        def done(block: dict[str, Any]) -> bool:
            seq = int(block.get("seq", 0))
            return all((seq, i) in self.done for i in range(len(block.get("steps") or ())))

        chosen = list(self.instructions)
        if blocks is not None:
            chosen = [b for i, b in enumerate(chosen) if not done(b) or i == len(chosen) - 1]
            chosen = chosen[-blocks:] if blocks > 0 else []
        found = []
        for block in chosen:
            seq = int(block.get("seq", 0))
            for index, step in enumerate(block.get("steps") or ()):
                if isinstance(step, dict):
                    found.append((seq, index, step, (seq, index) in self.done))
        return found
