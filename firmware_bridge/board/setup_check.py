"""Setups on the physical board: each player's zone checked against the game, setups read off tags."""

from __future__ import annotations

from collections.abc import Mapping

from engine import Color, Game, Square
from firmware_bridge.board.guidance import order_nearest
from firmware_bridge.board.recognition import BoardMismatch
from firmware_bridge.board.snapshots import StableBoard


def setup_mismatches(game: Game, board: StableBoard,
                     registry: Mapping[int, tuple[Color, str]] | None = None
                     ) -> dict[Color, BoardMismatch | None]:
    """Each player's setup zone checked against the game: what to fix there, per player.

    registry (identifying sensors): which colour and kind each tag is glued to; with it, a
    piece of the wrong kind or colour on a square is reported in `wrong`.
    """
    result: dict[Color, BoardMismatch | None] = {}
    occupied = board.occupied() - frozenset(getattr(game, "volcanoes", ()))  # markers may be sensed
    for color in (Color.RED, Color.BLUE):
        zone = set(game.variant.zone(color))
        expected = {s: p for s, p in game.pieces() if s in zone}
        clear = [s for s in occupied if s in zone and s not in expected]
        fill = [s for s in expected if s not in occupied]
        wrong = []
        if registry is not None and board.identifying:
            wrong = [s for s, p in expected.items() if s in occupied
                     and registry.get(board.tag_at(s)) != (p.color, p.kind)]
        anchor = Square(0, 0) if color is Color.RED else Square(game.variant.width - 1,
                                                                 game.variant.height - 1)
        result[color] = BoardMismatch(order_nearest(clear, anchor), order_nearest(fill, anchor),
                                      order_nearest(wrong, anchor), "setup") \
            if clear or fill or wrong else None
    return result


def setup_from_tags(variant, color: Color, board: StableBoard,
                    registry: Mapping[int, tuple[Color, str]]) -> dict[Square, str]:
    """Read a player's setup off an identifying board: square -> kind, for that colour's tags."""
    setup = {}
    for square in variant.zone(color):
        piece = registry.get(board.tag_at(square))
        if piece is not None and piece[0] is color:
            setup[square] = piece[1]
    return setup
