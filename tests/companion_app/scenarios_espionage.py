"""App scenarios for takebacks and Espionage, run by kivy_runner under Xvfb (tests in
test_app_espionage.py)."""

from __future__ import annotations

import random

from companion_app.demo.local_table import LocalTable
from companion_app.i18n.texts import piece_words
from engine import Color, Game, Move, Square
from engine.stratego.events import RevealEvent
from tests.companion_app.scenarios import (
    _center_of,
    _play_until_battle,
    _privacy_violations,
    _start_game,
    _tablets,
)


def _game(root):
    return root.screen_by_name["game"]


def _send_setups_before_placing(table: LocalTable, *roots) -> None:
    """Both tablets send the same random setups every run; the board is still empty: the placement guide."""
    rng = random.Random(2)
    table.board_matches = False
    for root in roots:
        root.screen_by_name["setup"].draft.randomize(rng)
        root.screen_by_name["setup"].submit()


def takeback_tablets(d):
    """Red asks to take back a battle; Blue declines once, then accepts; both boards go back."""
    table = LocalTable("classic", seed=5)
    red, blue = _tablets(table, "red", "blue")
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    d.show(red, blue)
    yield from _start_game(d, table, red, blue)
    rng = random.Random(11)
    # A battle Red won: taking it back puts Blue's piece back too.
    for _ in range(20):
        events = _play_until_battle(table, rng, "red")
        assert events is not None, "no battle by Red"
        if next(e for e in events if e["type"] == "battle")["outcome"] == "attacker":
            break
    yield 0.1
    d.report["ply_before"] = table.game.ply
    d.report["battle"] = next(e for e in events if e["type"] == "battle")
    d.report["taken_back_move"] = table.game.last_move.name
    battle = d.report["battle"]
    d.report["attacker_name"] = piece_words(red.tr, battle["attacker"])
    d.report["defender_name"] = piece_words(blue.tr, battle["defender"])
    red_screen, blue_screen = _game(red), _game(blue)
    # Red asks with the button; Blue's tablet asks to accept or decline.
    d.tap(red_screen.takeback_button, *_center_of(red_screen.takeback_button))
    yield 0.2
    d.report["red_waiting"] = red_screen.offer_label.text
    d.report["blue_offer"] = blue_screen.offer_label.text
    d.report["blue_buttons"] = [blue_screen.offer_row.opacity, blue_screen.accept_button.text,
                                blue_screen.decline_button.text,
                                blue_screen.accept_button.height]
    d.report["red_buttons_opacity"] = red_screen.offer_row.opacity
    d.shot("takeback-offer")
    d.tap(blue_screen.decline_button, *_center_of(blue_screen.decline_button))
    yield 0.2
    d.report["after_decline_ply"] = table.game.ply
    d.report["red_after_decline"] = red_screen.message.text
    d.report["blue_offer_after_decline"] = blue_screen.offer_row.opacity
    # Asked again, and accepted.
    d.tap(red_screen.takeback_button, *_center_of(red_screen.takeback_button))
    yield 0.2
    d.tap(blue_screen.accept_button, *_center_of(blue_screen.accept_button))
    yield 0.3
    d.report["ply_after"] = table.game.ply
    d.report["views_ply"] = [red.state.view["ply"], blue.state.view["ply"]]
    d.report["red_message"] = red_screen.message.text
    d.report["blue_message"] = blue_screen.message.text
    d.report["red_marks"] = {sq: m for sq, m in red_screen.board.highlights.items()
                             if m in ("clear", "fill")}
    d.report["board_check"] = table.board_check
    d.report["violations"] = (_privacy_violations(red, table.game, Color.RED)
                              + _privacy_violations(blue, table.game, Color.BLUE))
    d.report["red_pieces_match"] = sorted(red_screen.board.pieces) == sorted(
        sq.name for sq in table.game.occupied())
    d.shot("takeback-done")
    d.show(red)
    yield 0.3
    d.shot("takeback-red")
    # The game goes on from the position before the battle.
    move = rng.choice(table.game.legal_moves())
    table.play(str(move))
    yield 0.1
    d.report["after_next_move"] = [red_screen.message.text.count("taken back"),
                                   red.state.view["ply"]]
    d.report["history_plies"] = sorted(red.state.history)


def _turn_refusal_move(game: Game, square: Square) -> Move | None:
    """A move of the piece on `square` that only the two-pieces-a-turn rule forbids."""
    for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        target = Square(square.file + df, square.rank + dr)
        if not (0 <= target.file < game.variant.width and 0 <= target.rank < game.variant.height):
            continue
        refusal = game.check(Move(square, target))
        if refusal is not None and refusal.rule == "turn":
            return Move(square, target)
    return None


def espionage_game(d):
    """Espionage on two tablets: volcanoes, two moves a turn, recognised pieces, private battles."""
    table = LocalTable("espionage", seed=4)
    red, blue, display = _tablets(table, "red", "blue", None)
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    d.show(red, blue)
    for root in (red, blue):
        root.connect("local", root.wanted_seat)
    yield 0.2
    # The volcanoes exist from the game's creation: the setup screen already shows them.
    d.report["setup_volcanoes"] = sorted(red.screen_by_name["setup"].board.volcanoes)
    _send_setups_before_placing(table, red, blue)
    yield 0.2
    placing = red.screen_by_name["placing"]
    d.report["placing"] = [red.screens.current, sorted(placing.board.volcanoes),
                           placing.next_label.text]
    d.show(red)
    yield 0.3
    d.shot("espionage-placing")
    d.show(red, blue)
    table.board_matches = True
    table.publish()
    yield 0.2
    display.connect("local", None)
    yield 0.1
    public = display.screen_by_name["display"]
    game = table.game
    red_screen, blue_screen = _game(red), _game(blue)
    d.report["volcanoes"] = sorted(s.name for s in game.volcanoes)
    d.report["board_volcanoes"] = sorted(red_screen.board.volcanoes)
    d.report["legend"] = [red_screen.legend.opacity, red_screen.legend.labels[0].text,
                          red_screen.legend.labels[1].text]
    d.report["turn_start"] = red_screen.turn_label.text
    d.report["blue_turn_start"] = blue_screen.turn_label.text
    # Red's first move of the turn.
    rng = random.Random(8)
    first = rng.choice(game.legal_moves())
    table.play(str(first))
    yield 0.2
    d.report["first_move"] = str(first)
    d.report["turn_after_one"] = red_screen.turn_label.text
    d.report["red_turn_mark"] = red_screen.board.highlights.get(first.target.name)
    d.report["blue_turn_mark"] = blue_screen.board.highlights.get(first.target.name)
    d.report["display_turn"] = public.turn.text
    d.report["display_turn_mark"] = public.board.highlights.get(first.target.name)
    d.report["display_volcanoes"] = sorted(public.board.volcanoes)
    d.report["display_legend"] = [public.legend.labels[0].text, public.legend.labels[1].text]
    d.report["red_hint"] = red_screen.message.text
    d.shot("espionage-move-1-of-2")
    # The same piece again, from the tablet: refused with the turn rule's own reason.
    again = _turn_refusal_move(game, first.target)
    d.report["again"] = str(again)
    red.command("move", {"move": str(again)})
    yield 0.2
    d.report["again_refusal"] = red_screen.message.text
    d.report["ply_after_refusal"] = game.ply
    # Play on until Red's spy recognises a piece; check privacy after every move.
    violations: list[str] = []
    battles_blue: list[dict] = []
    reveal_to_red = None
    for _ in range(600):
        if game.result is not None:
            break
        moves = game.legal_moves()
        attacks = [m for m in moves if game.piece_at(m.target) is not None]
        table.play(str(rng.choice(attacks) if attacks and rng.random() < 0.5 else rng.choice(moves)))
        yield 0.03
        violations += _privacy_violations(blue, game, Color.BLUE)
        violations += _privacy_violations(red, game, Color.RED)
        violations += _privacy_violations(display, game, None)
        battle = blue.state.battle
        if battle is not None:
            battles_blue.append({"battle": vars(battle).copy(), "text": blue_screen.message.text})
        reveals = [e for e in game.last_events() if isinstance(e, RevealEvent) and e.to == "red"]
        if reveals and reveal_to_red is None:
            reveal_to_red = reveals[0]
            d.report["reveal_event"] = reveal_to_red.to_dict()
            d.report["red_reveal_message"] = red_screen.message.text
            d.report["blue_message_at_reveal"] = blue_screen.message.text
            d.report["blue_reveals"] = list(blue.state.reveals)
            d.report["red_recognised_drawn"] = sorted(red_screen.board.recognised_drawn)
            d.report["red_label_there"] = red_screen.board.drawn.get(reveal_to_red.square)
            d.report["blue_recognised_drawn"] = sorted(blue_screen.board.recognised_drawn)
            d.report["display_recognised_drawn"] = sorted(public.board.recognised_drawn)
            d.report["display_label_there"] = public.board.drawn.get(reveal_to_red.square)
            d.show(red)
            yield 0.3
            d.shot("espionage-red")
            d.show(blue)
            yield 0.3
            d.shot("espionage-blue")
            d.show(display)
            yield 0.3
            d.shot("espionage-display")
            d.show(red, blue)
            yield 0.2
        if reveal_to_red is not None and len(battles_blue) >= 3:
            break
    d.report["violations"] = violations
    # Every battle Blue saw: a red rank only where Blue may know it.
    hidden_named = []
    for seen in battles_blue:
        b = seen["battle"]
        for side in ("attacker", "defender"):
            if b[f"{side}_color"] == "red" and b[f"{side}_kind"] is not None:
                hidden_named.append(seen)
    d.report["battles_blue"] = len(battles_blue)
    d.report["blue_battles_naming_red_ranks"] = hidden_named
    d.report["blue_battle_texts"] = [s["text"] for s in battles_blue[:3]]
    yield from _pass_position(d, table, red, blue, public)


def _pass_position(d, table: LocalTable, red, blue, public):
    """A position where Blue cannot move: after Red's two moves, Blue passes."""
    pieces = {Square.parse("a10"): (Color.BLUE, "sapper"), Square.parse("a9"): (Color.BLUE, "mine"),
              Square.parse("b10"): (Color.BLUE, "mine"), Square.parse("j10"): (Color.BLUE, "headquarters"),
              Square.parse("c2"): (Color.RED, "corporal"), Square.parse("e2"): (Color.RED, "corporal"),
              Square.parse("a1"): (Color.RED, "headquarters")}
    table.set_position(pieces, to_move=Color.RED)
    yield 0.1
    table.play("c2-c3")
    table.play("e2-e3")
    yield 0.2
    d.report["pass_red"] = _game(red).message.text
    d.report["pass_blue"] = _game(blue).message.text
    d.report["pass_turn_label"] = _game(red).turn_label.text
    d.report["pass_display"] = public.phase.text
    red.set_language("bg")
    d.show(red)
    yield 0.3
    d.report["pass_red_bg"] = _game(red).message.text
    d.report["turn_bg"] = _game(red).turn_label.text
    d.shot("espionage-pass-bg")
    red.set_language("de")
    yield 0.2
    d.report["turn_de"] = _game(red).turn_label.text
    d.shot("espionage-pass-de")
    d.show(blue)
    yield 0.3
    d.shot("espionage-pass")


BOARD_STEPS = [{"action": "move", "square": "e5", "to": "e4"}, {"action": "put_back", "square": "d4"},
               {"action": "replace", "square": "c1"}]


def espionage_marker_steps(d):
    """Volcano-marker steps from the game's creation on; the referee's board steps, translated."""
    table = LocalTable("espionage", seed=4)
    red, blue, display = _tablets(table, "red", "blue", None)
    red.wanted_seat, blue.wanted_seat = "red", "blue"
    for root in (red, blue):
        root.connect("local", root.wanted_seat)
    display.connect("local", None)
    yield 0.3
    setup, public = red.screen_by_name["setup"], display.screen_by_name["display"]
    d.report["volcanoes"] = sorted(s.name for s in table.volcanoes)
    d.report["setup_markers"], d.report["display_phase"] = {}, {}
    d.show(red, display)
    for language in ("en", "de", "bg"):
        red.set_language(language)
        display.set_language(language)
        yield 0.3
        d.report["setup_markers"][language] = setup.markers.text
        d.report["display_phase"][language] = public.phase.text
        d.shot(f"markers-{language}")
    red.set_language("en")
    _send_setups_before_placing(table, red, blue)
    yield 0.2
    d.report["placing"] = red.screen_by_name["placing"].next_label.text
    table.board_matches = True
    table.play(str(random.Random(8).choice(table.game.legal_moves())))
    yield 0.2
    # The board disagrees with the game: the referee's steps, in its order, in each language.
    table.board_check = {"matches": False, "clear": ["e5"], "fill": ["e4", "d4"], "wrong": ["c1"],
                         "reason": "unexpected", "plan": BOARD_STEPS}
    table.publish()
    d.report["tablet_steps"], d.report["display_steps"] = {}, {}
    for language in ("en", "de", "bg"):
        red.set_language(language)
        display.set_language(language)
        yield 0.3
        d.report["tablet_steps"][language] = _game(red).message.text
        d.report["display_steps"][language] = public.guidance.text
        d.shot(f"steps-{language}")
