"""The player's notebook on the tablet: from its own seat's views and events only; the referee may forbid it."""

from __future__ import annotations

import random

from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import notebook_lines
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator
from engine import Color, Game, get_variant, random_setup
from engine.stratego.notebook import Notebook
from engine.stratego.views import redact_events
from firmware_bridge.referee.config import ConfigError, load_config


def played(seed: int, plies: int):
    """A barrage game of random moves; yields (blue's view, blue's events) after each ply."""
    rng = random.Random(seed)
    variant = get_variant("barrage")
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng), random_setup(variant, Color.BLUE, rng),
                           rng=rng)
    yield game.view(Color.BLUE).to_dict(), []
    for _ in range(plies):
        moves = game.legal_moves()
        if game.result is not None or not moves:
            return
        attacks = [m for m in moves if game.piece_at(m.target) is not None]
        events = game.push(rng.choice(attacks if attacks and rng.random() < 0.5 else moves))
        yield game.view(Color.BLUE).to_dict(), redact_events(game, events, Color.BLUE)


def test_the_tablets_notebook_is_the_engines_notebook_of_what_the_seat_received():
    model = TableState(seat="blue")
    adapter = ContractTranslator(model.apply, "blue")
    reference = Notebook(get_variant("barrage"), Color.BLUE)
    assert model.notebook.page("blue") is None
    for seq, (view, events) in enumerate(played(5, 40), start=1):
        adapter.events({"v": 1, "seat": "blue", "game": "g", "seq": seq, "events": events})
        adapter.seat_state({"v": 1, "seat": "blue", "game": "g", "seq": seq, "phase": "playing", "view": view})
        reference.observe(view, events)
    page = model.notebook.page("blue")
    assert page == reference.to_dict() and page["pieces"]
    for piece in page["pieces"]:
        assert abs(sum(piece["kinds"].values()) - 1) < 0.01
    lines = notebook_lines(Translator("en"), page)
    assert lines[0] == "[b]Notebook: what each enemy piece can be[/b]"
    assert any(line.startswith("Their army left: ") for line in lines)
    assert model.notebook.page(None) is None, "the referee display has no notebook"


def test_the_notebook_is_closed_by_default_and_the_referee_may_forbid_it(tmp_path):
    model = TableState(seat="red")
    adapter = ContractTranslator(model.apply, "red")
    assert model.notebook_allowed and not model.notebook_open
    model.notebook_open = True
    adapter.public_state({"v": 1, "board": "b", "game": "g", "seq": 1, "phase": "playing", "view": None,
                          "seats": {}, "notebook": False})
    assert not model.notebook_allowed and not model.notebook_open
    path = tmp_path / "referee.toml"
    path.write_text('[game]\nnotebook = false\n', encoding="utf-8")
    assert load_config(path).notebook_allowed is False
    path.write_text('[game]\nnotebook = "no"\n', encoding="utf-8")
    try:
        load_config(path)
    except ConfigError as error:
        assert "true or false" in error.message
    else:
        raise AssertionError("a notebook option that is no boolean passed")
