"""The referee's durable memory: an append-only journal of every ruling, in SQLite.

WAL mode with ``synchronous=FULL``: once :meth:`Journal.append` returns, the entry survives a
power cut. Entries are never changed or deleted (triggers refuse it); the state of a game is
whatever replaying its entries gives. The referee writes an entry *before* it announces the
ruling, so nothing announced can be lost, and one transaction holds a ruling together with the
reply to the command that caused it, so a resent command is never applied twice.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import ArbiterError

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    game    TEXT NOT NULL,
    kind    TEXT NOT NULL,
    at      REAL NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_game ON entries (game, seq);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS entries_append_only_update BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS entries_append_only_delete BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS meta_write_once BEFORE UPDATE ON meta
    BEGIN SELECT RAISE(ABORT, 'journal metadata is written once'); END;
"""


class JournalError(ArbiterError):
    """The journal cannot be written: nothing was stored, so nothing may be ruled or announced."""

    code = "storage"


def storage_problem(error: sqlite3.Error) -> JournalError:
    """A JournalError with a code and a sentence people can act on."""
    text = str(error).lower()
    if "full" in text:
        return JournalError("the referee cannot record moves: storage full", "storage-full")
    if "readonly" in text or "read-only" in text:
        return JournalError("the referee cannot record moves: storage is read-only", "storage-read-only")
    return JournalError(f"the referee cannot record moves: {error}", "storage")


def _private_file(path: Path) -> None:
    """Create the journal file readable by its owner alone (it holds every hidden rank)."""
    descriptor = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    os.close(descriptor)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)


@dataclass(frozen=True)
class Entry:
    """One journal entry: its global position, the game it belongs to, a kind and a payload."""

    seq: int
    game: str
    kind: str
    at: float
    payload: dict[str, Any]


class Journal:
    """An append-only, crash-safe event journal in one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # SQLite gives the -wal and -shm files the database file's permissions.
        _private_file(self.path)
        self._lock = threading.Lock()
        # Autocommit mode: every transaction below is explicit.
        self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise RuntimeError(f"journal {self.path} could not switch to WAL mode ({mode})")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def append(self, game: str, kind: str, payload: dict[str, Any]) -> Entry:
        """Write one entry durably and return it."""
        return self.append_all(game, [(kind, payload)])[0]

    def append_all(self, game: str, items: list[tuple[str, dict[str, Any]]]) -> list[Entry]:
        """Write several entries in one transaction: all of them survive, or none.

        Raises JournalError when the storage refuses the write (full, read-only, failing);
        nothing of the batch is stored then, and a later call may succeed again.
        """
        now = time.time()
        texts = [(kind, json.dumps(payload, separators=(",", ":"))) for kind, payload in items]
        written = []
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                raise storage_problem(error) from error
            try:
                for kind, text in texts:
                    cursor = self._db.execute(
                        "INSERT INTO entries (game, kind, at, payload) VALUES (?, ?, ?, ?)",
                        (game, kind, now, text))
                    written.append(Entry(cursor.lastrowid or 0, game, kind, now, json.loads(text)))
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.OperationalError):
                    raise storage_problem(error) from error
                raise
        return written

    def entries(self, game: str | None = None, after: int = 0) -> Iterator[Entry]:
        """Entries in journal order, of one game or all, after a given global seq."""
        with self._lock:
            if game is None:
                rows = self._db.execute(
                    "SELECT seq, game, kind, at, payload FROM entries WHERE seq > ? ORDER BY seq",
                    (after,)).fetchall()
            else:
                rows = self._db.execute(
                    "SELECT seq, game, kind, at, payload FROM entries WHERE game = ? AND seq > ?"
                    " ORDER BY seq", (game, after)).fetchall()
        for seq, game_id, kind, at, payload in rows:
            yield Entry(seq, game_id, kind, at, json.loads(payload))

    def last_game(self) -> str | None:
        """The game of the newest entry, or None for an empty journal."""
        with self._lock:
            row = self._db.execute("SELECT game FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]

    def meta(self, name: str, default: str | None = None) -> str | None:
        """A value written once, e.g. the referee's private key."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return row[0] if row else default

    def set_meta_once(self, name: str, value: str) -> str:
        """Store ``value`` under ``name`` unless one is already stored; return the stored one."""
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO meta (name, value) VALUES (?, ?)", (name, value))
            return self._db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()[0]

    def note(self, name: str, default: str | None = None) -> str | None:
        """A value the referee keeps and changes (its run number, the pairing limits)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM notes WHERE name = ?", (name,)).fetchone()
        return row[0] if row else default

    def set_note(self, name: str, value: str) -> None:
        """Keep ``value`` under ``name`` durably (replacing the one before)."""
        with self._lock:
            try:
                self._db.execute("INSERT OR REPLACE INTO notes (name, value) VALUES (?, ?)", (name, value))
            except sqlite3.OperationalError as error:
                raise storage_problem(error) from error

    def bump(self, name: str) -> int:
        """Raise the number kept under ``name`` by one, durably, and return it (1 the first time)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                row = self._db.execute("SELECT value FROM notes WHERE name = ?", (name,)).fetchone()
                value = int(row[0]) + 1 if row else 1
                self._db.execute("INSERT OR REPLACE INTO notes (name, value) VALUES (?, ?)", (name, str(value)))
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise storage_problem(error) from error
        return value

    def game_number(self, game: str) -> int:
        """The number of a game: where its ``game`` entry stands in the journal (it only grows,
        so a later game always has a larger number; 0 for a game the journal does not know)."""
        with self._lock:
            row = self._db.execute("SELECT MIN(seq) FROM entries WHERE game = ? AND kind = 'game'",
                                   (game,)).fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    def close(self) -> None:
        """Close the database (the WAL is checkpointed by SQLite)."""
        with self._lock:
            self._db.close()
