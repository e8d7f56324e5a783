"""Espionage (BrainKing's Espionage rules) as data: its pieces, army, combat table, turns, spies and volcanoes.

Nothing here is code the game runs; `engine.stratego.game` plays Espionage from these settings alone.
Our precise reading of the rules is in docs/rules/espionage.md.
"""

from __future__ import annotations

from engine.stratego.pieces import PieceKind
from engine.stratego.variants import CombatRules, Variant, check_variant, register_variant

# Soldiers are ranked 1-5. Spies and Sappers share rank 0: every soldier beats them, and with
# "the attacker wins ties" a Spy or Sapper beats another Spy or Sapper when it attacks, which is
# exactly "Spies beat only Spies and Sappers; Sappers beat Sappers and Spies".
ESPIONAGE_KINDS: dict[str, PieceKind] = {
    "corporal": PieceKind("corporal", 1, points=1, symbol="1"),
    "lieutenant": PieceKind("lieutenant", 2, points=2, symbol="2"),
    "captain": PieceKind("captain", 3, points=3, symbol="3"),
    "colonel": PieceKind("colonel", 4, points=4, symbol="4"),
    "general": PieceKind("general", 5, points=5, symbol="5"),
    "spy": PieceKind("spy", 0, points=2, symbol="S"),
    "sapper": PieceKind("sapper", 0, points=2, symbol="P"),
    "mine": PieceKind("mine", None, mobile=False, symbol="M"),
    "headquarters": PieceKind("headquarters", None, mobile=False, symbol="H"),
}

ESPIONAGE_COMBAT = CombatRules(
    ties="attacker",  # "an attacker of equal rank wins"
    assassins=frozenset({("sapper", "general")}),  # only when the Sapper attacks
    defusers=frozenset({("sapper", "mine")}),  # the Mine leaves the board
    traps=frozenset({"mine"}),  # any other attacker dies and the Mine stays
    objectives=frozenset({"headquarters"}),  # falls to any attacker and ends the game
)

DEFAULT_SAPPERS = 4  # the Bulgarian rules say 5; the site's other languages say 4, filling 3 rows


def espionage_army(sappers: int = DEFAULT_SAPPERS) -> dict[str, int]:
    """The army of one side, with the number of Sappers as a parameter."""
    army = {
        "corporal": 5, "lieutenant": 4, "captain": 3, "colonel": 2, "general": 2,
        "spy": 5, "sapper": sappers, "mine": 4, "headquarters": 1,
    }
    return {kind: count for kind, count in army.items() if count > 0}


def espionage_variant(
    sappers: int = DEFAULT_SAPPERS,
    moves_per_turn: int = 2,
    volcanoes: int = 4,
    setup_rows: int = 3,
) -> Variant:
    """Espionage with its parameters; ValueError when the army does not fit the setup rows."""
    if moves_per_turn not in (1, 2):
        raise ValueError("Espionage is played with 2 moves per turn, or 1 as an option")
    army = espionage_army(sappers)
    zone = 10 * setup_rows
    # Records name a variant and may carry "moves_per_turn"; other changes need a name of their own.
    name = "espionage"
    for value, default, label in ((sappers, DEFAULT_SAPPERS, "sappers"), (setup_rows, 3, "rows"),
                                  (volcanoes, 4, "volcanoes")):
        if value != default:
            name += f"-{value}-{label}"
    variant = Variant(
        name=name,
        title="Espionage",
        width=10,
        height=10,
        lakes=frozenset(),
        setup_rows=setup_rows,
        army=army,
        kinds=ESPIONAGE_KINDS,
        combat=ESPIONAGE_COMBAT,
        # A zone is filled exactly when the army fits it; a smaller army leaves squares free.
        full_setup=sum(army.values()) == zone,
        scout_strike=False,
        two_squares_limit=None,  # replaced by "no straight return on the owner's next turn"
        more_squares_rule=False,
        battle_reveals=False,  # a battle shows only its outcome
        recognizers=frozenset({"spy"}),
        moves_per_turn=moves_per_turn,
        no_immediate_return=True,
        volcanoes=volcanoes,
        cannot_move="passes",  # a blocked player passes; a draw only when neither side can move
    )
    problems = check_variant(variant)
    if problems:
        raise ValueError("; ".join(problems))
    return variant


ESPIONAGE = espionage_variant()
register_variant(ESPIONAGE)
