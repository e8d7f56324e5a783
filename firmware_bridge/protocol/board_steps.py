"""Board steps on the wire: what the referee asks a person at the board to do, as data.

One small vocabulary for every step the referee ever asks for: putting the board right during
play and after a battle or a takeback (the public ``board_check.plan``), placing the setups
before the first move, and the volcano markers of Espionage (``volcano_markers.plan``).
Each step is one thing to do with one hand::

    {"action": "move", "square": "e5", "to": "e4"}     move the piece from e5 to e4
    {"action": "remove", "square": "d7"}               take the piece off d7
    {"action": "put_back", "square": "d4"}             put the missing piece back on d4
    {"action": "place", "square": "a4"}                setup: put a piece of the setup on a4
    {"action": "marker", "square": "e5"}               put a volcano marker on e5
    {"action": "replace", "square": "c1"}              the piece on c1 is the wrong one: swap it

``color`` ("red"/"blue") and ``kind`` (an engine piece kind) are optional and appear only
where the receiver may know them; the public board check never names a rank. Each app renders
steps in its own language from these fields: no sentence travels, so nothing is parsed back.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, NotRequired, TypedDict, cast


class StepAction(StrEnum):
    """What one step asks for."""

    MOVE = "move"          # the piece on `square` goes to `to` (a nudged or misplaced piece)
    REMOVE = "remove"      # take the piece off `square`
    PUT_BACK = "put_back"  # the piece that belongs on `square` is missing: put it back
    PLACE = "place"        # before the first move: a piece of a submitted setup goes on `square`
    MARKER = "marker"      # a volcano marker goes on `square` (Espionage)
    REPLACE = "replace"    # the piece on `square` is not the right one: swap it


class BoardStep(TypedDict):
    """One step as it travels in the contract's JSON."""

    action: str
    square: str
    to: NotRequired[str]
    color: NotRequired[str]
    kind: NotRequired[str]


ACTIONS = frozenset(action.value for action in StepAction)
_SQUARE = re.compile(r"^[a-z][1-9][0-9]?$")  # the contract's square names
_OPTIONAL = {"to": _SQUARE, "color": re.compile(r"^(red|blue)$"), "kind": re.compile(r"^[a-z_]{1,32}$")}


def step_problem(step: Any) -> str | None:
    """Why ``step`` is no well-formed board step (None if it is one).

    An action this version does not know is well-formed: a newer referee may ask for more, and
    a client then falls back on the squares (see docs/mqtt.md).
    """
    if not isinstance(step, dict):
        return "is not an object"
    action, square = step.get("action"), step.get("square")
    if not isinstance(action, str) or not 0 < len(action) <= 32:
        return "has no action"
    if not isinstance(square, str) or not _SQUARE.match(square):
        return f"has a bad square {square!r}"
    if action == StepAction.MOVE and "to" not in step:
        return "is a move without 'to'"
    for name, pattern in _OPTIONAL.items():
        value = step.get(name)
        if value is not None and not (isinstance(value, str) and pattern.match(value)):
            return f"has a bad {name} {value!r}"
    return None


def plan_problem(plan: Any) -> str | None:
    """Why ``plan`` is no list of board steps (None if it is one)."""
    if not isinstance(plan, list):
        return "is not a list"
    if len(plan) > 400:
        return "has too many steps"
    for number, step in enumerate(plan):
        problem = step_problem(step)
        if problem:
            return f"step {number} {problem}"
    return None


def known_step(step: Any) -> BoardStep | None:
    """``step`` if this version can tell it to a person (a well-formed step of a known action)."""
    if step_problem(step) is not None or step["action"] not in ACTIONS:
        return None
    return cast(BoardStep, step)  # step_problem checked its shape
