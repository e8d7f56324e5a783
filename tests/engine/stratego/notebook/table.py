"""A real game with one notebook per seat, fed only what each seat receives from the referee."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import (
    Color,
    Game,
    Move,
    Square,
    get_variant,
    player_view,
    redact_events,
    setup_from_rows,
)
from engine.stratego.notebook import Notebook, SetupPrior
from engine.stratego.variants import Variant


@dataclass
class Table:
    """`game` is the referee's; `notebooks[color]` sees the view dict and redacted events only."""

    game: Game
    notebooks: dict[Color, Notebook] = field(default_factory=dict)

    @classmethod
    def start(cls, game: Game, uniform: bool = False, learn_probers: bool = False) -> Table:
        """Both seats open their notebooks on the game as it stands."""
        table = cls(game)
        for color in Color:
            prior = SetupPrior.uniform(game.variant, color.other) if uniform else None
            table.notebooks[color] = Notebook(game.variant, color, prior, learn_probers=learn_probers)
            table.notebooks[color].observe(player_view(game, color).to_dict(), [])
        return table

    def play(self, *moves: str) -> None:
        """Apply moves on the referee's game; each seat observes its view and its events."""
        for text in moves:
            events = self.game.push(Move.parse(text))
            self.deliver(events)

    def deliver(self, events: list) -> None:
        """Hand each seat its redacted copy of `events` and its new view."""
        for color, notebook in self.notebooks.items():
            notebook.observe(player_view(self.game, color).to_dict(),
                             redact_events(self.game, events, color))

    def id_at(self, square: str) -> int:
        """The id of the piece on a square of the referee's board."""
        piece = self.game.piece_at(Square.parse(square))
        assert piece is not None, f"no piece on {square}"
        return piece.id

    def kind_of(self, piece_id: int) -> str:
        """The true kind (the referee's knowledge, for checking only)."""
        return self.game.piece(piece_id).kind


def named_game(variant_name: str, red: str, blue: str) -> Game:
    """A game from two named setups of a variant."""
    from engine import named_setup

    variant = get_variant(variant_name)
    return Game.from_setup(variant, named_setup(variant, Color.RED, red),
                           named_setup(variant, Color.BLUE, blue))


def position(variant: Variant, red: dict[str, str], blue: dict[str, str],
             to_move: Color = Color.RED) -> Game:
    """Any arrangement: square -> kind for each side (the whole army, for honest counts)."""
    pieces = {Square.parse(s): (Color.RED, k) for s, k in red.items()}
    pieces.update({Square.parse(s): (Color.BLUE, k) for s, k in blue.items()})
    return Game.from_position(variant, pieces, to_move=to_move)


def rows_game(variant_name: str, red_rows: tuple[str, ...], blue_rows: tuple[str, ...]) -> Game:
    """A game from setups written as rows of symbols (owner's view, back row first)."""
    variant = get_variant(variant_name)
    return Game.from_setup(variant, setup_from_rows(variant, Color.RED, red_rows),
                           setup_from_rows(variant, Color.BLUE, blue_rows))
