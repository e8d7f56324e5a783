"""The games a referee can run, by name: each opens its session (a game table) on a journal.

A game played on the sensor board also hands its session to the board side (board_side.py); a
game with no board (Napoleon's Triumph: a grid cannot count blocks in a locale) hands none, so
nothing of the board is ever asked of it. Adding a game is one entry here (docs/architecture.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge.protocol.triumph_contract import VARIANT as TRIUMPH
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.journal import Journal
from firmware_bridge.referee.session import Session
from firmware_bridge.referee.table import GameTable
from firmware_bridge.referee.triumph_session import TriumphSession


@dataclass(frozen=True)
class TableOptions:
    """What a game's session is opened with (the referee's settings, or the app's demo table)."""

    variant: str = "classic"
    time_control: TimeControl = field(default_factory=TimeControl)
    moves_per_turn: int | None = None  # 1: Espionage's one-move option; None: the variant's own
    board_input: bool = False  # True: moves come from the sensors, not from tablets
    rng: random.Random | None = None  # volcano draws (a seed in tests and demos)


@dataclass(frozen=True)
class OpenTable:
    """An opened game: its table, and the same session as a board game if it is read from a board."""

    table: GameTable
    board_game: Session | None


def _stratego(journal: Journal, options: TableOptions) -> OpenTable:
    session = Session(journal, options.variant, options.time_control, board_input=options.board_input,
                      rng=options.rng, moves_per_turn=options.moves_per_turn)
    return OpenTable(session, session)


def _triumph(journal: Journal, options: TableOptions) -> OpenTable:
    return OpenTable(TriumphSession(journal, options.time_control), None)


# A game's name -> how to open it; every other name is a variant of the Stratego family
# (engine/stratego/variants.py and the family's own TOML files), which its session checks.
GAMES: dict[str, Callable[[Journal, TableOptions], OpenTable]] = {TRIUMPH: _triumph}


def open_table(journal: Journal, options: TableOptions) -> OpenTable:
    """The session of the game ``options.variant`` names, rebuilt from the journal."""
    return GAMES.get(options.variant, _stratego)(journal, options)
