"""The one root of every error Arbiter raises on purpose, with a stable code and a sentence."""

from __future__ import annotations


class ArbiterError(Exception):
    """An error a user or a client can act on: ``code`` is stable, ``message`` is for people.

    Every package derives its errors from this class (as gpiozero's errors derive from one
    root), so a caller can catch them all with one ``except`` and always has ``(code, message)``.
    """

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def to_dict(self) -> dict[str, str]:
        """The error as data for a reply or a verdict: {"code": ..., "message": ...}."""
        return {"code": self.code, "message": self.message}


class RecordError(ArbiterError, ValueError):
    """The document is not a valid game record."""

    code = "bad-record"
