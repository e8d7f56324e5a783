"""The game a referee sets up: the variant with its options, and where the volcano markers go.

Used by the session (new games, journal replay) and the config check, so a bad option is
refused with the same reason wherever it comes from.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from engine import Square, Variant, get_variant
from firmware_bridge.board.guidance import as_plan, in_board_order, volcano_marker_steps


def game_variant(name: str, moves_per_turn: int | None = None) -> Variant:
    """The variant ``name`` with its moves-per-turn option; ValueError if it has no such option.

    Only a variant of two moves a turn (Espionage) has an option: one move a turn.
    """
    variant = get_variant(name)
    if isinstance(moves_per_turn, bool):  # TOML's true is no number of moves
        raise ValueError(f"moves_per_turn is a number of moves, not {moves_per_turn}")
    if moves_per_turn is None or moves_per_turn == variant.moves_per_turn:
        return variant
    if variant.moves_per_turn == 1:
        raise ValueError(f"{name} is played with one move per turn; it has no moves_per_turn option")
    if moves_per_turn != 1:
        raise ValueError(f"moves_per_turn is 1 (the one-move option) or {variant.moves_per_turn}")
    return dataclasses.replace(variant, moves_per_turn=1)


def volcano_markers(volcanoes: Iterable[Square], sensed: bool | None) -> dict | None:
    """The public ``volcano_markers``: where the players put them, and whether the sensors see them."""
    squares = in_board_order(volcanoes)
    if not squares:
        return None
    return {"squares": [s.name for s in squares], "sensed": sensed,
            "plan": as_plan(volcano_marker_steps(squares))}
