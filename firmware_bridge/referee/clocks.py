"""The referee's authoritative clocks: an optional total game time and per-player clocks.

Total game time running out ends the game in a draw; a player's own clock running out loses
the game for that player. A player gets the increment when a turn of theirs ends. Times are
seconds; ``now`` is a monotonic reading supplied by the caller, so tests need no sleeping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SEATS = ("red", "blue")


@dataclass(frozen=True)
class TimeControl:
    """What the players agreed: total game seconds (draw), player seconds plus increment (loss)."""

    game_seconds: float | None = None
    player_seconds: float | None = None
    increment: float = 0.0

    @property
    def enabled(self) -> bool:
        """True if any clock runs."""
        return self.game_seconds is not None or self.player_seconds is not None

    def to_dict(self) -> dict:
        """JSON-safe form (journal, config)."""
        return {"game_seconds": self.game_seconds, "player_seconds": self.player_seconds,
                "increment": self.increment}

    @classmethod
    def from_dict(cls, data: dict | None) -> TimeControl:
        """Inverse of :meth:`to_dict`; None gives no time control."""
        data = data or {}
        return cls(data.get("game_seconds"), data.get("player_seconds"), float(data.get("increment", 0.0)))

    @classmethod
    def parse(cls, game: str | None = None, player: str | None = None) -> TimeControl:
        """From config text: game "90m", player "10m+5s" (minutes/seconds/hours)."""
        increment = 0.0
        player_seconds = None
        if player:
            base, _, inc = player.partition("+")
            player_seconds = parse_duration(base)
            increment = parse_duration(inc) if inc else 0.0
        return cls(parse_duration(game) if game else None, player_seconds, increment)


def parse_duration(text: str) -> float:
    """'90m', '1h30m', '45s', '600' (seconds) -> seconds."""
    text = text.strip().lower()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return float(text)
    parts = re.findall(r"(\d+(?:\.\d+)?)\s*([hms])", text)
    if not parts or "".join(n + u for n, u in parts) != text.replace(" ", ""):
        raise ValueError(f"cannot read the duration {text!r} (write e.g. 90m, 1h30m, 45s)")
    scale = {"h": 3600.0, "m": 60.0, "s": 1.0}
    return sum(float(n) * scale[u] for n, u in parts)


class GameClock:
    """Both player clocks and the game clock; at most one player's clock runs."""

    def __init__(self, control: TimeControl, remaining: dict[str, float] | None = None,
                 game_elapsed: float = 0.0) -> None:
        self.control = control
        start = control.player_seconds or 0.0
        self._remaining = dict(remaining) if remaining else {seat: start for seat in SEATS}
        self._game_elapsed = game_elapsed
        self.running: str | None = None
        self._since = 0.0

    def start(self, seat: str, now: float) -> None:
        """Start ``seat``'s clock (and the game clock)."""
        self.running, self._since = seat, now

    def stop(self, now: float) -> None:
        """Charge the running clock and stop all clocks (game over, or referee paused)."""
        self._charge(now)
        self.running = None

    def turn_passed(self, to_seat: str, now: float) -> None:
        """The running player's turn ended: charge it, add the increment, start ``to_seat``.

        ``to_seat`` may be the same player: in Espionage a blocked opponent passes.
        """
        if self.running:
            self._charge(now)
            if self.control.player_seconds is not None:
                self._remaining[self.running] += self.control.increment
        self.start(to_seat, now)

    def _charge(self, now: float) -> None:
        if self.running is None:
            return
        spent = max(0.0, now - self._since)
        self._remaining[self.running] -= spent
        self._game_elapsed += spent
        self._since = now

    def remaining(self, seat: str, now: float) -> float | None:
        """Seconds left on ``seat``'s clock (None without player clocks)."""
        if self.control.player_seconds is None:
            return None
        left = self._remaining[seat]
        if self.running == seat:
            left -= max(0.0, now - self._since)
        return left

    def game_left(self, now: float) -> float | None:
        """Seconds of total game time left (None without a game time limit)."""
        if self.control.game_seconds is None:
            return None
        elapsed = self._game_elapsed + (max(0.0, now - self._since) if self.running else 0.0)
        return self.control.game_seconds - elapsed

    def expired(self, now: float) -> tuple[str, str | None] | None:
        """("player", seat) when a flag fell, ("game", None) when game time ran out, else None."""
        if self.running:
            left = self.remaining(self.running, now)
            if left is not None and left <= 0:
                return "player", self.running
        game = self.game_left(now)
        if game is not None and game <= 0:
            return "game", None
        return None

    def to_dict(self, now: float) -> dict | None:
        """What the displays show; None without time control."""
        if not self.control.enabled:
            return None
        return {"red": self.remaining("red", now), "blue": self.remaining("blue", now),
                "game": self.game_left(now), "running": self.running}

    def checkpoint(self, now: float) -> dict:
        """Journal form: the clocks as charged up to ``now`` (the running seat keeps running)."""
        self._charge(now)
        return {"remaining": dict(self._remaining), "game_elapsed": self._game_elapsed,
                "running": self.running}

    @classmethod
    def restore(cls, control: TimeControl, checkpoint: dict, now: float) -> GameClock:
        """Rebuild from a checkpoint; the running clock restarts at ``now`` (downtime is not charged)."""
        clock = cls(control, checkpoint["remaining"], checkpoint["game_elapsed"])
        if checkpoint.get("running"):
            clock.start(checkpoint["running"], now)
        return clock
