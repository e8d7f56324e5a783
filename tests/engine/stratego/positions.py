"""Building small positions for rule tests: `position("classic", red={"e4": "scout"}, ...)`."""

from __future__ import annotations

from engine import Color, Game, Move, Square, get_variant


def position(variant: str = "classic", red: dict[str, str] | None = None,
             blue: dict[str, str] | None = None, to_move: str = "red",
             volcanoes: tuple[str, ...] = ()) -> Game:
    """A game with just these pieces; a flag in a far corner keeps each side alive unless given."""
    pieces = {Square.parse(sq): (Color.RED, kind) for sq, kind in (red or {}).items()}
    pieces.update({Square.parse(sq): (Color.BLUE, kind) for sq, kind in (blue or {}).items()})
    return Game.from_position(get_variant(variant), pieces, to_move=Color(to_move),
                              volcanoes=tuple(Square.parse(v) for v in volcanoes))


def play(game: Game, *moves: str) -> list:
    """Push moves given as text; returns the events of the last one."""
    events: list = []
    for text in moves:
        events = game.push(Move.parse(text))
    return events


def refusal(game: Game, move: str):
    """The refusal of a move, or None when it is legal."""
    return game.check(Move.parse(move))
