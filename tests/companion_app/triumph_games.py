"""Real Napoleon's Triumph games for the app tests (no Kivy here): an opening with an attack,
a feint, and an end by demoralisation."""

from __future__ import annotations

from typing import Any

from engine.triumph.game import TriumphGame
from tests.engine.triumph.setups import allied_setup, french_setup


def _choose(game: TriumphGame, wanted) -> None:
    """Push the first legal action whose record form `wanted` accepts."""
    for action in game.legal_actions():
        if wanted(action.to_dict()):
            game.push(action)
            return
    raise AssertionError(f"no such action while waiting for {game.awaiting()}")


def opening_with_an_attack() -> tuple[TriumphGame, list[dict[str, Any]]]:
    """7:00 AM from both standard set-ups: the Allies march Langeron to 94 and Bagration to 66,
    the French move Murat to 62 and St. Hilaire attacks 94 from 93 across the wide border.
    Returns the game at the counter-attack step and the public views on the way."""
    game = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="display")
    views = [game.view(None).to_dict()]
    steps = [
        lambda a: a["type"] == "corps_move" and a["commander"] == "Langeron" and a["to"] == "R94",
        lambda a: a["type"] == "corps_move" and a["commander"] == "Bagration" and a["to"] == "R66",
        lambda a: a["type"] == "end_turn",
        lambda a: a["type"] == "corps_move" and a["commander"] == "Murat" and a["to"] == "R62",
        lambda a: a["type"] == "threat" and a["from"] == 93 and a["into"] == 94,
        lambda a: a["type"] == "defend" and len(a["units"]) == 5,
        lambda a: a["type"] == "press",
        lambda a: a["type"] == "defence_leaders" and a["units"] == ["a-lang-0"],
        lambda a: a["type"] == "attack" and a["wide"] and a["leaders"] == ["f-st. -0", "f-st. -1"],
    ]
    for wanted in steps:
        _choose(game, wanted)
        views.append(game.view(None).to_dict())
    return game, views


def demoralised_allies() -> TriumphGame:
    """A small position (the rulebook's attack from 95 into 108) where the Allies, at morale 2,
    lose the attack and with it the game."""
    from tests.engine.triumph.helpers import act, game, play, unit

    g = game([unit("l1", "french", "I3", "R95", "Lannes"), unit("l2", "french", "I2", "R95", "Lannes"),
              unit("l3", "french", "C2", "R95", "Lannes"),
              unit("p1", "allied", "I2", "R108", "Prebyshevsky"),
              unit("p2", "allied", "I2", "R108", "Prebyshevsky"),
              unit("p3", "allied", "C2", "R108", "Prebyshevsky")],
             {"Lannes": "R95", "Prebyshevsky": "R108"}, morale={"french": 23, "allied": 2})
    lannes = [{"type": "corps_move", "commander": "Lannes", "units": ["l1", "l2", "l3"]}]
    play(g, act("french", "threat", from_=95, into=108),
         act("allied", "defend", units=["p1", "p2"]), act("french", "press"),
         act("allied", "defence_leaders", units=["p1"]),
         act("french", "attack", orders=lannes, leaders=["l1"]),
         act("allied", "counter_attack", units=[]))
    if g.result is None:  # rule 1.11: the morale goes with the steps lost, often before the retreat
        play(g, act("allied", "retreat", losses={}, to={"p2": 96, "p3": 106},
                    keep={"Prebyshevsky": "p2"}))
    return g


# 7:00: Langeron marches to 94 and the Allies end their turn; St. Hilaire threatens 94 from 93
# across the wide border and the Allies stand with all five blocks
THREAT_ON_94 = (
    lambda a: a["type"] == "corps_move" and a["commander"] == "Langeron" and a["to"] == "R94",
    lambda a: a["type"] == "end_turn",
    lambda a: a["type"] == "threat" and a["from"] == 93 and a["into"] == 94,
    lambda a: a["type"] == "defend" and len(a["units"]) == 5,
)


def feint_on_94() -> TriumphGame:
    """Langeron marches to 94; St. Hilaire threatens it from 93, the Allies stand, the French
    feint: the approach 93>94 is closed for the turn and the Allies may advance."""
    game = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="display")
    for wanted in (
        *THREAT_ON_94,
        lambda a: a["type"] == "feint" and a["end"] == "reserve"
        and a["orders"][0]["type"] == "corps_move",
    ):
        _choose(game, wanted)
    return game
