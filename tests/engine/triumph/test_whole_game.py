"""A whole 2 December game from two private set-ups to the objective verdict (M2 end to end)."""

from __future__ import annotations

import json
import random

from engine.triumph.game import TriumphGame
from engine.triumph.records import check_triumph_record
from tests.engine.triumph.setups import allied_setup, french_setup


def test_a_random_legal_game_from_setups_ends_with_a_judged_result() -> None:
    rng = random.Random(1)
    g = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="s")
    while g.result is None:
        actions = g.legal_actions()
        assert actions, f"no legal action while waiting for {g.awaiting()}"
        eager = [a for a in actions if a.type in ("threat", "press", "attack", "defend")
                 or getattr(a, "entry", None)]
        ends = [a for a in actions if a.type == "end_turn"]
        draw = rng.random()
        pool = eager if eager and draw < 0.5 else (ends if ends and draw < 0.7 else actions)
        g.push(rng.choice(pool))
        for viewer in ("french", "allied", None):
            json.dumps(g.view(viewer).to_dict())
    assert g.result["reason"] in ("objectives", "demoralised") and g.result["why"]
    assert g.result["winner"] in ("french", "allied")
    # the record of the game replays to the same verdict through `arbiter check`'s code
    record = {"game": "napoleons-triumph", "scenario": "2dec",
              "setup": {"french": french_setup(), "allied": allied_setup()},
              "actions": [a.to_dict() for a in g.actions]}
    verdict = check_triumph_record(record)
    assert verdict["illegal"] is None and verdict["applied"] == len(g.actions)
    assert verdict["result"] == json.loads(json.dumps(g.result))
    assert verdict["morale"] == g.state.morale
