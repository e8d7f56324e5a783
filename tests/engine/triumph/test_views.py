"""Hidden information (our reading, section 1.16): what each player and the public may see."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.triumph.game import TriumphGame
from engine.triumph.views import handle
from tests.engine.triumph.helpers import act, game, play, unit
from tests.engine.triumph.setups import allied_setup, french_setup

FRONT_COMMANDERS = {"Lannes": "R95", "St. Hilaire": "R94", "Murat": "R83",
                    "Prebyshevsky": "R108", "Langeron": "R106", "Miloradovich": "R96"}
PREFIX = {"Lannes": "ln", "St. Hilaire": "sh", "Murat": "mu", "Prebyshevsky": "pr",
          "Langeron": "lg", "Miloradovich": "mi"}
FACES = ["I3", "I2", "I2", "C2", "C3", "A1", "I2", "C2"]


def front() -> TriumphGame:
    """Three French corps facing three Allied corps across the Pratze front, plus detachments."""
    units = []
    for number, (name, where) in enumerate(FRONT_COMMANDERS.items()):
        side = "french" if number < 3 else "allied"
        for k in range(4):
            units.append(unit(f"{PREFIX[name]}{k}", side, FACES[(number + k) % 8], where, name))
    units += [unit("fd", "french", "I2", "R107"), unit("ad", "allied", "I2", "R121")]
    return game(units, FRONT_COMMANDERS, to_move="allied")


def revealed_since_turn_start(g: TriumphGame) -> set[str]:
    shown: set[str] = set()
    for event in (e.to_dict() for e in g.events):
        if event["type"] == "end-turn":
            shown = set()
        elif event["type"] == "reveal":
            shown |= {item["unit"] for item in event["units"]}
        elif event["type"] == "replace":
            shown.add(event["unit"])
    return shown


def ever_revealed(g: TriumphGame) -> set[str]:
    shown = set()
    for event in (e.to_dict() for e in g.events):
        if event["type"] == "reveal":
            shown |= {item["unit"] for item in event["units"]}
        elif event["type"] == "replace":
            shown.add(event["unit"])
    return shown


def check_privacy(g: TriumphGame) -> None:
    state = g.state
    # the fixed battery's face is public for the whole game (set-up, 1.4)
    now = revealed_since_turn_start(g) | ({state.fixed_battery} if state.fixed_battery else set())
    earlier = ever_revealed(g)
    for viewer in ("french", "allied", None):
        data = g.view(viewer).to_dict()
        text = json.dumps(data)
        for uid, u in state.units.items():
            if u.side != viewer:
                assert f'"{uid}"' not in text, "an enemy real id leaks into the view"
        by_handle = {handle(g.handle_secret, state.turns_played, u): u for u in state.units}
        for entry in data["units"]:
            if entry["side"] == viewer:
                assert entry["id"] in state.units
                continue
            assert entry["id"] not in state.units, "an enemy block is shown by its real id"
            uid = by_handle[entry["id"]]
            if "face" not in entry:
                continue
            real = state.units[uid]
            assert entry["face"]["strength"] == real.face.strength
            if uid in now:
                continue
            # remembered from an earlier turn: only a block standing alone in its group
            assert uid in earlier
            group = [u for u in state.units.values() if u.at == real.at
                     and u.side == real.side and u.commander == real.commander]
            assert group == [real]
        if viewer is not None:
            assert ("options" in data) == (g.awaiting() is not None and g.awaiting()[0] == viewer)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(10, 60))
def test_views_never_show_an_unrevealed_face(seed: int, length: int) -> None:
    # Random legal games (threats preferred, so that attacks happen); after every action each
    # view shows only faces revealed this turn or remembered for lone blocks.
    rng = random.Random(seed)
    g = front()
    for _ in range(length):
        if g.result is not None:
            break
        actions = g.legal_actions()
        assert actions
        eager = [a for a in actions if a.type in ("threat", "press", "defend", "attack")]
        quiet = [a for a in actions if a.type != "end_turn"]
        pool = eager if eager and rng.random() < 0.7 else (quiet or actions)
        if rng.random() < 0.08:
            pool = actions
        g.push(rng.choice(pool))
        check_privacy(g)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), length=st.integers(5, 25))
def test_views_from_private_setups_never_show_an_unrevealed_face(seed: int, length: int) -> None:
    # The whole armies from two private set-ups: from the first view on, the opponent and the
    # public see positions and counts, and of the faces only the fixed battery and what play
    # reveals.
    rng = random.Random(seed)
    g = TriumphGame.from_setups(french_setup(), allied_setup(), handle_secret="s")
    check_privacy(g)
    for _ in range(length):
        if g.result is not None:
            break
        actions = g.legal_actions()
        eager = [a for a in actions if a.type in ("threat", "press", "defend", "attack")]
        g.push(rng.choice(eager if eager and rng.random() < 0.7 else actions))
        check_privacy(g)


def test_defence_leaders_unknown_to_the_attacker_until_named() -> None:
    g = front()
    play(g, act("allied", "threat", from_=108, into=95),
         act("french", "defend", units=["ln0", "ln1"]), act("allied", "press"))
    view = g.view("allied").to_dict()
    assert view["attack"]["defence_leaders"] == []
    assert not [e for e in view["units"] if e["side"] == "french" and "face" in e]
    play(g, act("french", "defence_leaders", units=["ln0"]))
    view = g.view("allied").to_dict()
    assert len(view["attack"]["defence_leaders"]) == 1
    assert sum(1 for e in view["units"] if e["side"] == "french" and "face" in e) == 1


def test_revealed_faces_expire_at_the_end_of_the_turn_unless_alone() -> None:
    # 1.16 (M): a face stays attached to its block until the end of the player turn; then the
    # opponent forgets it for blocks in a group, and remembers it for a lone block.
    g = front()
    play(g, act("allied", "threat", from_=108, into=107), act("french", "defend", units=["fd"]),
         act("allied", "press"), act("french", "defence_leaders", units=["fd"]),
         act("allied", "attack", orders=[{"type": "unit_move", "unit": "pr0"}]),
         act("french", "advance", units=["fd"]))
    play(g, act("allied", "threat", from_=106, into=94),
         act("french", "defend", units=["sh0", "sh1"]), act("allied", "press"),
         act("french", "defence_leaders", units=["sh0"]),
         act("allied", "attack", orders=[{"type": "unit_move", "unit": "lg1"}]),
         act("french", "counter_attack", units=[]), act("french", "advance", units=["sh1"]))
    seen = [e["at"] for e in g.view("allied").to_dict()["units"]
            if e["side"] == "french" and "face" in e]
    assert sorted(seen) == ["107>108", "R94"]
    play(g, act("allied", "end_turn"))
    remembered = [e["at"] for e in g.view("allied").to_dict()["units"]
                  if e["side"] == "french" and "face" in e]
    # the lone detached unit stays known; St. Hilaire's leader stands in its corps: forgotten
    assert remembered == ["107>108"]
    # once it stands with another detached block, nobody can tell which was which
    play(g, act("french", "unit_move", unit="ln0", to="R107"),
         act("french", "unit_move", unit="fd", to="R107"))
    assert not [e for e in g.view("allied").to_dict()["units"]
                if e["side"] == "french" and "face" in e]


def test_handles_change_every_turn() -> None:
    g = front()
    first = {e["id"] for e in g.view("french").to_dict()["units"] if e["side"] == "allied"}
    play(g, act("allied", "end_turn"))
    second = {e["id"] for e in g.view("french").to_dict()["units"] if e["side"] == "allied"}
    assert first.isdisjoint(second)
    assert not first & set(g.state.units)
