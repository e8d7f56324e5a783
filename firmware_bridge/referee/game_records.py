"""Every finished game kept as a game record beside the journal, for `arbiter check` and replays.

When a game ends (by the rules, a resignation, an agreed draw or a clock), the referee writes the
game table's record (docs/records.md) once, as ``records/<date>-<board>-<game>.json`` in the
journal's folder: a family keeps its games, a club replays a famous one on the board
(``arbiter referee --replay``), and ``arbiter check`` gives the same result as the table did. The
file is written next to its final name and renamed into place, so a crash leaves either the whole
record or none; a folder that cannot be written is logged and never stops the refereeing.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from firmware_bridge.protocol.vocabulary import Phase
from firmware_bridge.referee.rulings import Ruling
from firmware_bridge.referee.table import GameTable

log = logging.getLogger(__name__)
FOLDER = "records"


class RecordShelf:
    """Writes the game table's record once its game is over; knows what it kept."""

    def __init__(self, table: GameTable, journal_path: str | Path, board: str) -> None:
        self.table, self.board = table, board
        self.folder = Path(journal_path).resolve().parent / FOLDER
        self.kept: dict[str, str] = {}  # game id -> file name

    def name_for(self, game: str) -> str | None:
        """The file name the game was kept as (None: not over, or not written)."""
        if game not in self.kept:
            found = sorted(self.folder.glob(f"*-{game}.json")) if self.folder.is_dir() else []
            if not found:
                return None
            self.kept[game] = found[-1].name  # kept before a restart
        return self.kept[game]

    def follow(self, rulings: list[Ruling]) -> list[Ruling]:
        """Hears every announced ruling: a game that just ended is written down (makes none)."""
        if rulings:
            self.keep()
        return []

    def keep(self) -> Path | None:
        """Write the current game's record if it is over and not kept yet; its path, or None."""
        game = self.table.game_id
        if self.table.phase != Phase.OVER or self.name_for(game) is not None:
            return None
        record = self.table.record()
        if record is None:
            return None
        name = f"{time.strftime('%Y-%m-%d')}-{self.board}-{game}.json"
        try:
            path = self._write(name, record)
        except OSError as error:
            log.error("the finished game could not be kept as a record in %s: %s", self.folder, error)
            return None
        self.kept[game] = name
        log.info("the finished game is kept as %s (arbiter check replays it)", path)
        return path

    def state_part(self, state: dict[str, Any]) -> None:
        """The public state names the record of a finished game, so the screens can say where it is."""
        state["record"] = self.name_for(self.table.game_id) if self.table.phase == Phase.OVER else None

    def _write(self, name: str, record: dict[str, Any]) -> Path:
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / name
        partial = path.with_suffix(".part")
        with partial.open("w", encoding="utf-8") as handle:
            json.dump(record, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(path)
        return path
