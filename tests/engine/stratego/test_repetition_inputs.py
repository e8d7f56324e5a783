"""The repetition rules work from what they are given (variant, geometry, board, hash), no Game.

And the engine's modules depend one way: the rules and the views never import the game.
"""

import ast
from pathlib import Path

from engine import Color, Piece, Square, get_variant
from engine.stratego.geometry import geometry_for
from engine.stratego.repetition import RepetitionRules

ENGINE = Path(__file__).resolve().parents[3] / "engine" / "stratego"


def imported_modules(module: str) -> set[str]:
    """Every module an engine source imports, at any level (type-only imports included)."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_rules_and_the_views_never_import_the_game():
    assert "engine.stratego.game" not in imported_modules("repetition")
    assert "engine.stratego.game" not in imported_modules("views")
    assert "engine.stratego.views" in imported_modules("game")  # Game.view(): the one arrow between them


class Board:
    """A bare board: a list of squares the rules read, and a position hash kept by hand."""

    def __init__(self) -> None:
        self.variant = get_variant("classic")
        self.geometry = geometry_for(self.variant)
        self.squares: list[Piece | None] = [None] * self.geometry.size
        self.hash = 0
        self.rules = RepetitionRules(self.variant, self.geometry, self.squares)

    def put(self, piece: Piece, square: str) -> None:
        index = self.geometry.index(Square.parse(square))
        self.squares[index] = piece
        self.hash ^= self.geometry.piece_key(piece.color, piece.kind, index)

    def indices(self, move: str) -> tuple[int, int]:
        origin, target = move.split("-")
        return self.geometry.index(Square.parse(origin)), self.geometry.index(Square.parse(target))

    def refusal(self, piece: Piece, move: str):
        origin, target = self.indices(move)
        return self.rules.refusal(piece, origin, target, False, self.hash)

    def move(self, piece: Piece, move: str) -> object:
        origin, target = self.indices(move)
        self.squares[origin] = None
        self.hash ^= self.geometry.piece_key(piece.color, piece.kind, origin)
        self.put(piece, move.split("-")[1])
        return self.rules.record(piece, origin, target, False, self.hash)


def test_the_two_squares_rule_from_a_bare_board():
    board = Board()
    captain = Piece(0, Color.RED, "captain")
    scout = Piece(1, Color.BLUE, "scout")
    board.put(captain, "b2")
    board.put(scout, "j9")
    for red, blue in [("b2-b3", "j9-j8"), ("b3-b2", "j8-j7"), ("b2-b3", "j7-j6")]:
        board.move(captain, red)
        board.move(scout, blue)
    assert board.refusal(captain, "b3-b2").rule == "two-squares"
    assert board.refusal(captain, "b3-b4") is None
    assert board.rules.moves_left_in_run(Color.RED) == 0


def test_undo_gives_the_move_back_on_a_bare_board():
    board = Board()
    captain = Piece(0, Color.RED, "captain")
    board.put(captain, "b2")
    board.move(captain, "b2-b3")
    board.move(captain, "b3-b2")
    token = board.move(captain, "b2-b3")
    assert board.rules.moves_left_in_run(Color.RED) == 0
    board.rules.undo(token)
    assert board.rules.moves_left_in_run(Color.RED) == 1
