"""Napoleon's Triumph: a sibling rules engine on the Austerlitz locale map (pure Python, no I/O)."""

from engine.triumph.actions import Action, action_from_dict
from engine.triumph.game import TriumphGame
from engine.triumph.mapdata import BattleMap, load_austerlitz
from engine.triumph.pieces import ALLIED, FRENCH, Position

__all__ = [
    "ALLIED",
    "FRENCH",
    "Action",
    "BattleMap",
    "Position",
    "TriumphGame",
    "action_from_dict",
    "load_austerlitz",
]
