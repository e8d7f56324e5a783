"""The journal when storage fails: nothing half-written, a plain reason, and writing again later."""

import stat

import pytest

from engine.core.errors import ArbiterError
from firmware_bridge.referee.journal import Journal, JournalError


@pytest.fixture
def journal(tmp_path):
    journal = Journal(tmp_path / "referee.db")
    yield journal
    journal.close()


def fill_the_disk(journal: Journal) -> None:
    """SQLite's own size limit: past it every write fails with SQLITE_FULL, as on a full disk."""
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_full_disk_stores_nothing_of_the_batch_and_says_so(journal):
    journal.append("g1", "setup", {"seat": "red"})
    fill_the_disk(journal)
    big = {"padding": "x" * 20_000}
    with pytest.raises(JournalError) as raised:
        journal.append_all("g1", [("move", {"move": "a4-a5"}), ("reply", big)])
    assert raised.value.code == "storage-full"
    assert raised.value.message == "the referee cannot record moves: storage full"
    assert isinstance(raised.value, ArbiterError)
    assert [entry.kind for entry in journal.entries("g1")] == ["setup"]


def test_the_journal_writes_again_once_there_is_room(journal):
    fill_the_disk(journal)
    with pytest.raises(JournalError):
        journal.append("g1", "move", {"move": "a4-a5", "padding": "x" * 20_000})
    journal._db.execute("PRAGMA max_page_count = 1073741823")
    journal.append("g1", "move", {"move": "a4-a5"})
    assert [entry.payload["move"] for entry in journal.entries("g1")] == ["a4-a5"]


def test_read_only_storage_is_named_as_such(journal):
    journal._db.execute("PRAGMA query_only = ON")
    with pytest.raises(JournalError) as raised:
        journal.append("g1", "move", {"move": "a4-a5"})
    assert raised.value.code == "storage-read-only"
    journal._db.execute("PRAGMA query_only = OFF")
    assert len(journal) == 0


def test_only_the_referee_can_read_the_journal_it_holds_every_hidden_rank(tmp_path):
    path = tmp_path / "referee.db"
    Journal(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o644)  # an older referee's journal, or one copied in by hand
    journal = Journal(path)
    journal.append("g1", "setup", {"seat": "red"})
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for sidecar in tmp_path.glob("referee.db-*"):
        assert stat.S_IMODE(sidecar.stat().st_mode) & 0o077 == 0, sidecar.name
    journal.close()
