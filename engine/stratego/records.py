"""The project's game record (JSON) and the verdict of `arbiter check`."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RecordError
from engine.core.refusals import IllegalMove
from engine.stratego.events import BattleEvent
from engine.stratego.game import Game
from engine.stratego.pieces import Color
from engine.stratego.setups import validate_setup
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant, get_variant

# How a record may end besides its moves (an extension of the record: optional).
ENDINGS = ("resignation", "agreement", "game-time", "clock")


@dataclass
class GameRecord:
    """A game as data: variant, the starting arrangement, who moves first, the moves."""

    variant: str
    pieces: dict[Square, tuple[Color, str]]
    moves: list[str] = field(default_factory=list)
    to_move: Color = Color.RED
    is_setup: bool = True  # True: `setup` (validated); False: `position` (any arrangement)
    volcanoes: list[Square] | None = None
    moves_per_turn: int | None = None
    ending: dict[str, Any] | None = None
    two_squares_limit: int | None = None  # None: the variant's limit; 0: the rule is off

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read and validate a record; RecordError says what is wrong."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        name = data.get("variant")
        if not isinstance(name, str):
            raise RecordError("the record has no 'variant'")
        try:
            variant = get_variant(name)
        except ValueError as error:
            raise RecordError(str(error)) from None
        has_setup, has_position = "setup" in data, "position" in data
        if has_setup == has_position:
            raise RecordError("a record has either 'setup' or 'position'")
        arrangement = data["setup" if has_setup else "position"]
        pieces = _read_arrangement(arrangement, variant)
        if has_setup:
            errors = []
            for color in Color:
                side = {sq: kind for sq, (c, kind) in pieces.items() if c is color}
                errors += validate_setup(variant, color, side)
            if errors:
                raise RecordError("invalid setup: " + "; ".join(errors))
        to_move = data.get("to_move", variant.first.value)
        if to_move not in ("red", "blue"):
            raise RecordError("'to_move' is 'red' or 'blue'")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("'moves' is a list of strings such as \"a4-a5\"")
        for index, text in enumerate(moves):
            # A move off the board is well formed: replaying refuses it ("movement"), so the
            # verdict still shows how far the record was good.
            try:
                Move.parse(text)
            except ValueError:
                raise RecordError(f"move {index} is not a move: {text!r}") from None
        volcanoes = None
        if "volcanoes" in data:
            if not isinstance(data["volcanoes"], list):
                raise RecordError("'volcanoes' is a list of squares")
            volcanoes = [_read_square(s, variant) for s in data["volcanoes"]]
        moves_per_turn = data.get("moves_per_turn")
        if moves_per_turn is not None and (_is_bool(moves_per_turn) or moves_per_turn not in (1, 2)):
            raise RecordError("'moves_per_turn' is 1 or 2")
        two_squares_limit = data.get("two_squares_limit")
        if two_squares_limit is not None and (
            not isinstance(two_squares_limit, int) or _is_bool(two_squares_limit)
            or two_squares_limit < 0
        ):
            raise RecordError("'two_squares_limit' is a whole number of moves (0 switches the rule off)")
        ending = _read_ending(data.get("ending"))
        return cls(name, pieces, list(moves), Color(to_move), has_setup, volcanoes,
                   moves_per_turn, ending, two_squares_limit)

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-safe data."""
        arrangement: dict[str, dict[str, str]] = {"red": {}, "blue": {}}
        for square in sorted(self.pieces, key=lambda s: (s.rank, s.file)):
            color, kind = self.pieces[square]
            arrangement[color.value][square.name] = kind
        data: dict[str, Any] = {"variant": self.variant}
        data["setup" if self.is_setup else "position"] = arrangement
        data["to_move"] = self.to_move.value
        if self.volcanoes is not None:
            data["volcanoes"] = [s.name for s in self.volcanoes]
        if self.moves_per_turn is not None:
            data["moves_per_turn"] = self.moves_per_turn
        if self.two_squares_limit is not None:
            data["two_squares_limit"] = self.two_squares_limit
        data["moves"] = list(self.moves)
        if self.ending is not None:
            data["ending"] = dict(self.ending)
        return data

    @classmethod
    def from_game(cls, game: Game, is_setup: bool | None = None) -> GameRecord:
        """The record of a game so far (its ending included when the players declared one).

        `is_setup` None: a `setup` record when both starting arrangements are valid setups,
        else a `position` record (a study), so the record always reads back.
        """
        if is_setup is None:
            is_setup = not any(
                validate_setup(game.variant, color, {
                    square: kind for square, (owner, kind) in game.initial_pieces.items()
                    if owner is color
                })
                for color in Color
            )
        ending = None
        result = game.result
        registered = get_variant(game.variant.name)
        limit = game.variant.two_squares_limit
        moves = game.variant.moves_per_turn
        if result is not None and result.reason in ENDINGS:
            ending = {"reason": result.reason}
            if result.winner is not None:
                ending["color"] = result.winner.other.value
        return cls(
            variant=game.variant.name,
            pieces=dict(game.initial_pieces),
            moves=[m.name for m in game.move_stack],
            to_move=game.initial_to_move,
            is_setup=is_setup,
            volcanoes=list(game.volcanoes) if game.variant.volcanoes or game.volcanoes else None,
            moves_per_turn=None if moves == registered.moves_per_turn else moves,
            ending=ending,
            two_squares_limit=None if limit == registered.two_squares_limit else (limit or 0),
        )

    def variant_rules(self) -> Variant:
        """The variant with this record's options applied."""
        variant = get_variant(self.variant)
        if self.moves_per_turn is not None:
            variant = dataclasses.replace(variant, moves_per_turn=self.moves_per_turn)
        if self.two_squares_limit is not None:
            variant = dataclasses.replace(variant, two_squares_limit=self.two_squares_limit or None)
        return variant

    def new_game(self) -> Game:
        """The game at its start, before any move."""
        return Game(self.variant_rules(), self.pieces, to_move=self.to_move,
                    volcanoes=tuple(self.volcanoes or ()))

    def replay(self) -> Game:
        """The game after every move; IllegalMove for the first refused one."""
        game = self.new_game()
        for text in self.moves:
            game.push(Move.parse(text))
        return game


def _read_square(text: Any, variant: Variant) -> Square:
    try:
        square = Square.parse(text)
    except (ValueError, AttributeError):
        raise RecordError(f"not a square: {text!r}") from None
    if not variant.on_board(square):
        raise RecordError(f"{square} is not on the {variant.width}x{variant.height} board")
    return square


def _read_arrangement(arrangement: Any, variant: Variant) -> dict[Square, tuple[Color, str]]:
    if not isinstance(arrangement, dict) or set(arrangement) - {"red", "blue"}:
        raise RecordError("a setup or position is {\"red\": {square: piece}, \"blue\": {...}}")
    pieces: dict[Square, tuple[Color, str]] = {}
    for color_name, side in arrangement.items():
        if not isinstance(side, dict):
            raise RecordError(f"{color_name}'s pieces are a mapping of square to piece")
        for square_text, kind in side.items():
            square = _read_square(square_text, variant)
            if not isinstance(kind, str) or kind not in variant.kinds:
                raise RecordError(f"{variant.name} has no piece called {kind!r} (on {square})")
            if square in pieces:
                raise RecordError(f"two pieces on {square}")
            if square in variant.lakes:
                raise RecordError(f"{square} is a lake")
            pieces[square] = (Color(color_name), kind)
    return pieces


def check_record(data: Any) -> dict[str, Any]:
    """Replay a record and give the verdict of `arbiter check` (RecordError if invalid)."""
    record = GameRecord.from_dict(data)
    try:
        game = record.new_game()
    except ValueError as error:
        raise RecordError(str(error)) from None
    battles: list[dict[str, str]] = []
    illegal = None
    for index, text in enumerate(record.moves):
        try:
            events = game.push(Move.parse(text))
        except IllegalMove as refused:
            illegal = {"index": index, "move": text, "rule": refused.refusal.rule,
                       "message": refused.refusal.message}
            break
        battles += [
            {"attacker": e.attacker, "defender": e.defender, "outcome": e.outcome}
            for e in events if isinstance(e, BattleEvent)
        ]
    if illegal is None and record.ending is not None and game.result is None:
        apply_ending(game, record.ending)
    return {
        "applied": game.ply,
        "illegal": illegal,
        "battles": battles,
        "result": game.result.to_dict() if game.result else None,
    }


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _read_ending(ending: Any) -> dict[str, Any] | None:
    """Check the optional `ending`: {"reason": ..., "color": the player who resigned / whose clock fell}."""
    if ending is None:
        return None
    if not isinstance(ending, dict) or ending.get("reason") not in ENDINGS:
        raise RecordError(f"'ending' needs a reason, one of {', '.join(ENDINGS)}")
    reason = ending["reason"]
    if reason in ("resignation", "clock") and ending.get("color") not in ("red", "blue"):
        raise RecordError(f"the ending {reason!r} needs the 'color' of the player it names")
    return dict(ending)


def apply_ending(game: Game, ending: dict[str, Any]) -> None:
    """Declare a record's ending on a game that is still going on."""
    reason = ending["reason"]
    if reason == "agreement":
        game.agree_draw()
    elif reason == "game-time":
        game.game_time_expired()
    elif reason == "resignation":
        game.resign(Color(ending["color"]))
    else:
        game.clock_fallen(Color(ending["color"]))
