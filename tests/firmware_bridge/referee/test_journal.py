"""The journal: durable, append-only, replayable."""

from __future__ import annotations

import sqlite3

import pytest

from firmware_bridge.referee.journal import Journal


def test_entries_come_back_in_order_with_their_payloads(tmp_path):
    journal = Journal(tmp_path / "j.db")
    journal.append("g1", "game", {"variant": "classic"})
    journal.append_all("g1", [("move", {"move": "a4-a5"}), ("reply", {"id": "x"})])
    kinds = [(e.kind, e.payload) for e in journal.entries()]
    assert kinds == [("game", {"variant": "classic"}), ("move", {"move": "a4-a5"}), ("reply", {"id": "x"})]
    assert journal.last_game() == "g1"


def test_the_database_runs_in_wal_mode_with_full_sync(tmp_path):
    Journal(tmp_path / "j.db").append("g", "game", {})
    db = sqlite3.connect(tmp_path / "j.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    journal = Journal(tmp_path / "j.db")
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_entries_can_be_neither_changed_nor_deleted(tmp_path):
    journal = Journal(tmp_path / "j.db")
    journal.append("g", "move", {"move": "a4-a5"})
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        journal._db.execute("UPDATE entries SET payload = '{}'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        journal._db.execute("DELETE FROM entries")


def test_a_batch_is_written_whole_or_not_at_all(tmp_path):
    journal = Journal(tmp_path / "j.db")
    journal.append("g", "game", {"variant": "classic"})
    # The middle entry has no kind: SQLite refuses its INSERT (kind is NOT NULL) after the first
    # entry of the batch is already inserted, so only a transaction can take that one back.
    batch = [("move", {"move": "a4-a5"}), (None, {"move": "b4-b5"}), ("reply", {"id": "x"})]
    with pytest.raises(sqlite3.IntegrityError):
        journal.append_all("g", batch)
    assert [e.kind for e in journal.entries()] == ["game"]
    assert [e.kind for e in Journal(tmp_path / "j.db").entries()] == ["game"]  # nor on disk
    # The journal is still usable: the failed batch left no transaction open.
    journal.append("g", "move", {"move": "c4-c5"})
    assert [e.kind for e in journal.entries()] == ["game", "move"]


def test_what_was_appended_is_there_after_reopening(tmp_path):
    Journal(tmp_path / "j.db").append("g", "move", {"move": "b4-b5"})
    assert [e.payload for e in Journal(tmp_path / "j.db").entries()] == [{"move": "b4-b5"}]


def test_meta_values_are_written_once(tmp_path):
    journal = Journal(tmp_path / "j.db")
    assert journal.set_meta_once("referee_key", "first") == "first"
    assert journal.set_meta_once("referee_key", "second") == "first"
