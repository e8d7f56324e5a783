"""The error Napoleon's Triumph code raises for bad input that is not a refused action."""

from __future__ import annotations

from engine.core.errors import ArbiterError


class TriumphError(ArbiterError, ValueError):
    """Input the engine cannot read (a malformed position, action or record); nothing changed."""

    code = "nt-record"
