"""The game table: what the referee's parts may ask of a game's session, and nothing else.

Every game the referee runs (the Stratego family in session.py, Napoleon's Triumph in
triumph_session.py) is a session that implements this protocol. The service, the publisher,
pairing and the clock ticker see a game only through it; the session is the one writer of the
game, the seats (and their command counters) and the journal. What a game adds for the sensor
board (the position to read moves against, moves seen on the board, replays, the computer's
guidance) is not part of it: the board side (board_side.py) takes the Stratego family's session
itself, and a game with no board is simply not offered to it (games.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from firmware_bridge.protocol.vocabulary import CommandPayload, Phase, ReplyPayload, SeatState
from firmware_bridge.referee.rulings import Ruling
from firmware_bridge.referee.seats import Seat


@runtime_checkable
class GameTable(Protocol):
    """One board's game as the referee's parts see it (the session implements it)."""

    @property
    def variant_name(self) -> str:
        """The game's name on the wire ("classic", "espionage", "napoleons-triumph", ...)."""

    @property
    def game_id(self) -> str:
        """The current game's journal id."""

    @property
    def seq(self) -> int:
        """The number of the last ruling of the current game (0: none yet)."""

    @property
    def phase(self) -> Phase:
        """setup, playing or over."""

    @property
    def seats(self) -> Mapping[str, Seat]:
        """Which tablet holds each seat (read only: ``pair`` and ``execute`` write it)."""

    @property
    def computer_entry(self) -> Mapping[str, str]:
        """The current game's computer choice, as journalled with the game."""

    def execute(self, seat: str, command: CommandPayload | dict) -> tuple[ReplyPayload, list[Ruling]]:
        """Rule on an authenticated, validated seat command exactly once: (reply, rulings)."""

    def fresh(self, seat: str, command: CommandPayload | dict) -> tuple[Seat, ReplyPayload | None]:
        """The seat's record, and the answer already owed if ``command`` is not new."""

    def answer(self, seat: str, command: CommandPayload | dict, reply: ReplyPayload) -> None:
        """Journal the reply to a command ruled outside the game (a pairing approval): the
        seat's counter advances durably, and a resend gets the same reply."""

    def pair(self, seat: str, key: str, client: str, name: str = "") -> None:
        """Grant ``seat`` to a tablet key (journalled)."""

    def tick(self) -> Ruling | None:
        """End the game if a clock ran out (a ruling), else None."""

    def clocks(self) -> dict[str, Any] | None:
        """The clocks as the public hears them now."""

    def clock_checkpoint(self) -> dict[str, Any]:
        """The clocks as charged up to now, for the heartbeat."""

    def carry_on_clock(self, beat: dict[str, Any]) -> bool:
        """Go on from the clocks of the referee's last heartbeat (True if taken)."""

    def public_state(self, board: str, online: set[str]) -> dict[str, Any]:
        """The game's part of the retained public snapshot (never a hidden fact)."""

    def seat_state(self, seat: str) -> SeatState:
        """The retained private snapshot of one seat (to be sealed to that seat)."""

    def record(self) -> dict[str, Any] | None:
        """The current game so far as a game record `arbiter check` replays to the same result
        (docs/records.md); None before play starts."""

