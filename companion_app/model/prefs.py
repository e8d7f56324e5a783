"""The tablet's own settings (language, rank numbering), kept between starts of the app."""

from __future__ import annotations

import json
from typing import Any

from companion_app.model.setup_model import app_home

DEFAULTS: dict[str, Any] = {"language": "en", "numbering": "new"}


def load() -> dict[str, Any]:
    """The saved settings, with defaults for anything missing or unreadable."""
    try:
        data = json.loads((app_home() / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    if not isinstance(data, dict):
        data = {}
    return {key: data.get(key, value) for key, value in DEFAULTS.items()}


def save(**changes: Any) -> None:
    """Remember changed settings (written atomically; a read-only home is not an error)."""
    settings = load()
    settings.update({k: v for k, v in changes.items() if k in DEFAULTS})
    path = app_home() / "settings.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(settings), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
