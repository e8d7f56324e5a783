"""The computer's recall shelf: what it saw of each opponent's setups, kept between games.

One `Recollection` (engine.stratego.notebook.recall) per opponent and variant, in memory and,
given a folder, in a JSON file each (written whole to a temporary file, then renamed, so a crash
never leaves half a file). A file that cannot be read is reported once in the log and left as it
is: the computer plays that opponent as a new one and does not overwrite it. Shelves of several
processes may share a folder (a bench split between processes): a file another one rewrote is
read again before a game starts and before a sighting is added, so neither loses the other's.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from pathlib import Path

from engine.stratego.notebook.facts import NotebookError
from engine.stratego.notebook.recall import Recollection, Sighting
from engine.stratego.variants import Variant

log = logging.getLogger(__name__)


class RecallShelf:
    """Recollections by opponent name and variant; `folder` keeps them on disk as well."""

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None
        self._kept: dict[tuple[str, str], Recollection] = {}
        self._unreadable: set[tuple[str, str]] = set()
        self._stamps: dict[tuple[str, str], int | None] = {}  # the file's mtime when read or written

    def recollection(self, opponent: str, variant: Variant) -> Recollection:
        """What was seen of `opponent`'s setups in `variant` (empty for a new opponent)."""
        key = (opponent, variant.name)
        if key not in self._kept or (self.folder is not None and key not in self._unreadable
                                     and self._stamps.get(key) != _stamp(self.path(opponent, variant))):
            self._kept[key] = self._load(opponent, variant)
        return self._kept[key]

    def remember(self, opponent: str, variant: Variant, sighting: Sighting) -> None:
        """Add one game's sighting of `opponent`'s setup, and keep it on disk."""
        recollection = self.recollection(opponent, variant)
        recollection.remember(sighting)
        if self.folder is not None and (opponent, variant.name) not in self._unreadable:
            path = self.path(opponent, variant)
            self._save(path, recollection)
            self._stamps[(opponent, variant.name)] = _stamp(path)

    def path(self, opponent: str, variant: Variant) -> Path:
        """The opponent's file: a readable name and a digest (two names never share a file)."""
        assert self.folder is not None
        readable = re.sub(r"[^A-Za-z0-9_-]+", "_", opponent)[:40] or "opponent"
        digest = hashlib.sha256(opponent.encode("utf-8")).hexdigest()[:12]
        return self.folder / f"{readable}-{digest}.{variant.name}.json"

    def _load(self, opponent: str, variant: Variant) -> Recollection:
        if self.folder is None:
            return Recollection(variant)
        path = self.path(opponent, variant)
        self._stamps[(opponent, variant.name)] = _stamp(path)
        try:
            return Recollection.from_dict(variant, json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            return Recollection(variant)
        except (OSError, ValueError, NotebookError) as error:
            log.warning("cannot read what was remembered of %r (%s): %s; playing it as a new "
                        "opponent, the file is left as it is", opponent, path, error)
            self._unreadable.add((opponent, variant.name))
            return Recollection(variant)

    @staticmethod
    def _save(path: Path, recollection: Recollection) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".recall-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(recollection.to_dict(), out)
            os.replace(temporary, path)
        except OSError as error:
            log.warning("cannot keep what was seen of a setup in %s: %s", path, error)
            Path(temporary).unlink(missing_ok=True)


def _stamp(path: Path) -> int | None:
    """A file's modification time (None: no file yet, or it cannot be read)."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


# The shelf of this process: a match or a bench remembers its opponents from game to game.
SHELF = RecallShelf()
