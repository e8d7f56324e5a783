"""Arbiter's rules engine: pure Python, no I/O. Hidden ranks leave it only through views."""

from engine.combat import Outcome, resolve_battle
from engine.errors import ArbiterError
from engine.espionage import espionage_variant  # registers "espionage"
from engine.events import (
    BattleEvent,
    CaptureEvent,
    Event,
    GameEndEvent,
    MoveEvent,
    RefusalEvent,
    RevealEvent,
    TakebackEvent,
    TurnEvent,
    event_from_dict,
)
from engine.game import Game, place_volcanoes
from engine.pieces import Color, Piece, PieceKind
from engine.results import RULES, IllegalMove, Refusal, Result
from engine.setups import named_setup, named_setups, random_setup, setup_from_rows, validate_setup
from engine.squares import Move, Square
from engine.variants import (
    CombatRules,
    Variant,
    get_variant,
    register_variant,
    variant_from_toml,
    variant_names,
)
from engine.views import PlayerView, ViewPiece, player_view, redact_event, redact_events

__all__ = [
    "RULES", "ArbiterError", "BattleEvent", "CaptureEvent", "Color", "CombatRules", "Event", "Game",
    "GameEndEvent", "IllegalMove", "Move", "MoveEvent", "Outcome", "Piece", "PieceKind",
    "PlayerView", "Refusal", "RefusalEvent", "Result", "RevealEvent", "Square", "TakebackEvent",
    "TurnEvent", "Variant", "ViewPiece", "espionage_variant", "event_from_dict", "get_variant", "named_setup",
    "named_setups", "place_volcanoes", "player_view", "random_setup", "redact_event",
    "redact_events", "register_variant", "resolve_battle", "setup_from_rows", "validate_setup",
    "variant_from_toml", "variant_names",
]
