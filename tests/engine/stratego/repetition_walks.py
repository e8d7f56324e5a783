"""Crowded little games for the repetition rules' property tests, and a slow reference reading.

The reference re-reads the rules straight from the list of moves played (no incremental state,
positions compared as sets of pieces, not as hashes), so the engine's O(1) bookkeeping is checked
against an independent formulation of docs/rules/repetition.md.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from engine import Color, Game, Move, Square, get_variant

# A 5x5 board with one lake in the middle: pieces meet at once, so threats, evasions, shuffles
# and chases happen in almost every random game.
TINY = dataclasses.replace(
    get_variant("classic"), name="tiny", width=5, height=5,
    lakes=frozenset({Square.parse("c3")}), setup_rows=1,
)

TINY_START = {
    "a1": (Color.RED, "flag"), "b1": (Color.RED, "general"), "d1": (Color.RED, "colonel"),
    "e2": (Color.RED, "major"),
    "e5": (Color.BLUE, "flag"), "d5": (Color.BLUE, "general"), "b5": (Color.BLUE, "colonel"),
    "a4": (Color.BLUE, "major"),
}


def tiny_game() -> Game:
    """The crowded little game with both repetition rules on."""
    return Game.from_position(TINY, {Square.parse(s): v for s, v in TINY_START.items()})


def without_rules(game: Game) -> Game:
    """A fresh copy of the game's start with the repetition rules off (for candidate moves)."""
    variant = dataclasses.replace(game.variant, two_squares_limit=None, more_squares_rule=False)
    return Game.from_position(variant, game.initial_pieces, to_move=game.initial_to_move,
                              volcanoes=game.volcanoes)


@dataclass(frozen=True)
class Ply:
    """One move as the reference sees it."""

    color: Color
    piece_id: int
    origin: Square
    target: Square
    attack: bool
    threatened: frozenset[int]  # enemy pieces next to the moved piece afterwards
    position: tuple  # every piece (square, colour, kind) afterwards, and who moved


def _neighbours(game: Game, square: Square) -> list[Square]:
    around = [Square(square.file + df, square.rank + dr) for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))]
    return [s for s in around if game.variant.on_board(s) and s not in game.blocked]


def _board(game: Game) -> frozenset:
    return frozenset((square, piece.color, piece.kind) for square, piece in game.pieces())


def play_on(copy: Game, move: Move) -> Ply:
    """Push a move on the rules-free copy and describe it."""
    piece = copy.piece_at(move.origin)
    attack = copy.piece_at(move.target) is not None
    copy.push(move)
    threatened: frozenset[int] = frozenset()
    if copy.piece_at(move.target) is piece:
        threatened = frozenset(
            other.id for s in _neighbours(copy, move.target)
            if (other := copy.piece_at(s)) is not None and other.color is not piece.color
        )
    return Ply(piece.color, piece.id, move.origin, move.target, attack, threatened,
               (_board(copy), piece.color))


def reference_two_squares(game: Game, plies: list[Ply], move: Move) -> bool:
    """ISF 10 as the tournament pseudocode reads it (single steps): the player's last `limit`
    moves all went between the same two squares as this one."""
    limit = game.variant.two_squares_limit
    if limit is None:
        return False
    own = [p for p in plies if p.color is game.to_move]
    if len(own) < limit:
        return False
    pair = {move.origin, move.target}
    return all({p.origin, p.target} == pair for p in own[-limit:])


def reference_more_squares(game: Game, plies: list[Ply], move: Move, copy: Game) -> bool:
    """ISF 11 read backwards from the last move; `copy` is the game without rules, same position."""
    if not game.variant.more_squares_rule:
        return False
    chaser = game.to_move
    piece = copy.piece_at(move.origin)
    if copy.piece_at(move.target) is not None:
        return False  # an attack changes the material: never a repetition
    positions, evaders = [], set()
    k = len(plies) - 1
    while k >= 1:
        threat, answer = plies[k - 1], plies[k]
        is_evasion = (
            threat.color is chaser and answer.color is not chaser and threat.threatened
            and answer.piece_id in threat.threatened
            and not (answer.attack and answer.target == threat.target)
        )
        if not is_evasion:
            break
        positions.append(threat.position)
        evaders.add(answer.piece_id)
        k -= 2
    if not positions:
        return False
    last = plies[-2]
    if last.piece_id == piece.id and last.origin == move.target and last.target == move.origin:
        return False  # straight back where it came from
    near = [copy.piece_at(s) for s in _neighbours(copy, move.target) if s != move.origin]
    if not any(p is not None and p.id in evaders for p in near):
        return False  # not a chasing move
    copy.push(move)
    after = (_board(copy), chaser)
    copy.pop()
    return after in positions


def reference_rule(game: Game, plies: list[Ply], move: Move, copy: Game) -> str | None:
    """The repetition rule that refuses a move the piece could otherwise make, or None."""
    if reference_two_squares(game, plies, move):
        return "two-squares"
    if reference_more_squares(game, plies, move, copy):
        return "more-squares"
    return None


def walk_move(game: Game, rng: random.Random) -> Move | None:
    """A legal move chosen to provoke the rules: mostly evasions, threats and shuffles."""
    moves = game.legal_moves()
    if not moves:
        return None
    quiet = [m for m in moves if game.piece_at(m.target) is None]
    if not quiet or rng.random() < 0.03:
        return rng.choice(moves)
    me = game.to_move

    def next_to_enemy(square: Square, exclude: Square) -> bool:
        return any(
            (p := game.piece_at(s)) is not None and p.color is not me
            for s in _neighbours(game, square) if s != exclude
        )

    evasions = [m for m in quiet if next_to_enemy(m.origin, m.origin)]
    threats = [m for m in quiet if next_to_enemy(m.target, m.origin)]
    roll = rng.random()
    if evasions and roll < 0.9:
        return rng.choice(evasions)
    if threats and roll < 0.99:
        return rng.choice(threats)
    return rng.choice(quiet)
