"""The tiny schema language of the MQTT contract: field types, required or not, one extra check.

Kept tiny on purpose: the app runs on Android where installing a schema library is a burden.
A schema maps a field name to (accepted types, required, extra check); ``check_fields`` holds a
payload to one. contract.py and pairing_contract.py write their schemas in it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from engine.core.errors import ArbiterError

Check = Callable[[Any], str | None]
Types = type | tuple[type, ...]  # what isinstance takes
Schema = dict[str, tuple[Types, bool, Check | None]]

OPT = False
INT = (int,)
STR = (str,)
OPT_STR = (str, type(None))
OPT_INT = (int, type(None))


def one_of(*values: Any) -> Check:
    """The value must be one of ``values``."""
    return lambda v: None if v in values else f"must be one of {values}"


def matches(pattern: re.Pattern[str], what: str) -> Check:
    """The text must match ``pattern`` (``what`` names it in the error)."""
    return lambda v: None if pattern.match(v) else f"is not a valid {what}"


def non_negative(v: int) -> str | None:
    """The number must not be negative."""
    return None if v >= 0 else "must not be negative"


def length(low: int, high: int) -> Check:
    """The text or list must have ``low``..``high`` items."""
    return lambda v: None if low <= len(v) <= high else f"must have {low}..{high} characters"


def has_type(value: Any, types: Types) -> bool:
    """isinstance, but a bool is no int: a counter or moves_per_turn of true is malformed."""
    allowed = types if isinstance(types, tuple) else (types,)
    return isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)


def check_problem(value: Any, check: Check | None) -> str | None:
    """What the field's extra check says about ``value`` (None: fine, or null where allowed)."""
    return check(value) if check and value is not None else None


def fields_problem(kind: str, schema: Schema, payload: Any, strict: bool) -> str | None:
    """What is wrong with ``payload`` as a ``kind`` (None: nothing); ``strict`` refuses unknown fields."""
    if not isinstance(payload, dict):
        return f"{kind} payload must be a JSON object"
    unknown = set(payload) - set(schema)
    if unknown and strict:
        return f"{kind} payload has unknown fields {sorted(unknown)}"
    for name, (types, required, check) in schema.items():
        if name not in payload:
            if required:
                return f"{kind} payload lacks {name!r}"
            continue
        value = payload[name]
        if not has_type(value, types):
            return f"{kind}.{name} has the wrong type {type(value).__name__}"
        problem = check_problem(value, check)
        if problem:
            return f"{kind}.{name} {problem}"
    return None


MAX_NUMBER_CHARS = 24  # every number of the contract fits (a counter in microseconds has 16 digits)


class NotJson(ArbiterError, ValueError):
    """Text the contract's JSON reader refuses (not JSON, NaN, a number too long, nested too deep)."""

    code = "malformed"


def _bounded_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:  # before int(): 5,000 digits would raise past the handler
        raise NotJson(f"a number of {len(text)} digits")
    return int(text)


def _bounded_float(text: str) -> float:
    number = float(text) if len(text) <= MAX_NUMBER_CHARS else float("inf")
    if number in (float("inf"), float("-inf")):
        raise NotJson(f"the number {text[:30]} is out of range")
    return number


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON (RFC 8259), though Python's parser takes them.
    raise NotJson(f"{name} is not a JSON number")


def loads(text: str | bytes) -> Any:
    """JSON as the contract reads it: numbers bounded in size before parsing, no NaN or Infinity,
    nesting bounded; anything else raises NotJson (a ValueError), never something else."""
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float,
                          parse_constant=_no_constant)
    except NotJson:
        raise
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotJson(f"not UTF-8 JSON: {error}") from None
    except RecursionError:  # a stranger's "[[[[..." is refused, not raised past the handler
        raise NotJson("nested too deeply") from None
    except ValueError as error:  # whatever else the parser meets (e.g. a long integer's digit limit)
        raise NotJson(str(error)) from None
