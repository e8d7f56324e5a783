"""Arbiter's rules engine: pure Python, no I/O. Hidden ranks leave it only through views."""

from engine.core.errors import ArbiterError
from engine.core.refusals import IllegalMove, Refusal
from engine.stratego.combat import Outcome, resolve_battle
from engine.stratego.espionage import espionage_variant
from engine.stratego.events import (
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
from engine.stratego.game import Game, place_volcanoes
from engine.stratego.pieces import Color, Piece, PieceKind
from engine.stratego.results import RULES, Result
from engine.stratego.setups import (
    named_setup,
    named_setups,
    random_setup,
    setup_from_rows,
    validate_setup,
)
from engine.stratego.squares import Move, Square
from engine.stratego.variants import (
    CombatRules,
    Variant,
    get_variant,
    register_variant,
    variant_from_toml,
    variant_names,
)
from engine.stratego.views import PlayerView, ViewPiece, player_view, redact_event, redact_events

__all__ = [
    "RULES", "ArbiterError", "BattleEvent", "CaptureEvent", "Color", "CombatRules", "Event", "Game",
    "GameEndEvent", "IllegalMove", "Move", "MoveEvent", "Outcome", "Piece", "PieceKind",
    "PlayerView", "Refusal", "RefusalEvent", "Result", "RevealEvent", "Square", "TakebackEvent",
    "TurnEvent", "Variant", "ViewPiece", "espionage_variant", "event_from_dict", "get_variant", "named_setup",
    "named_setups", "place_volcanoes", "player_view", "random_setup", "redact_event",
    "redact_events", "register_variant", "resolve_battle", "setup_from_rows", "validate_setup",
    "variant_from_toml", "variant_names",
]
