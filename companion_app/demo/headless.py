"""The demo without a screen: a scripted game through the real system, told in the terminal.

Two headless tablets (the app's own adapter and table state, without Kivy) pair with the
referee by putting a piece on each of the two squares it names, submit setups, and a pair of scripted
hands plays moves on the simulated board. Each battle is printed as each tablet tells it.
"""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable

from companion_app.demo.system import DemoSystem
from companion_app.i18n.catalog import Translator
from companion_app.i18n.texts import battle_text, color_name, result_text
from companion_app.model.setup_model import SetupDraft
from companion_app.model.table import TableState
from companion_app.net.contract_adapter import ContractTranslator
from engine import Color, Game, Move, Square
from firmware_bridge.protocol.client import SeatClient
from firmware_bridge.referee.service import Referee

ATTACK_GAP_S = 0.2  # longer than the recogniser's attack_min_gap_s, with room for a busy machine
HAND_PAUSE_S = 0.08  # a hand is slower than the sensors' quiet period (20 ms at 200 Hz)


class HeadlessTablet:
    """A seat client feeding the app's TableState; messages are applied in `pump()`."""

    def __init__(self, url: str, board: str, seat: str) -> None:
        self.seat = seat
        self.state = TableState(seat=seat)
        self._inbox: queue.Queue = queue.Queue()
        self.adapter = ContractTranslator(self.state.apply, seat)
        self.client = SeatClient(url, board, name=seat)
        for name in ("pairing", "events", "reply", "public_state"):
            setattr(self.client, f"on_{name}", self._queued(name))
        self.client.on_state = self._queued("seat_state")

    def _queued(self, method: str) -> Callable[[dict], None]:
        # paho's thread only queues; the script's thread applies (like Kivy's Clock would).
        return lambda payload: self._inbox.put((method, payload))

    def pump(self) -> None:
        """Apply every message received so far."""
        while True:
            try:
                method, payload = self._inbox.get_nowait()
            except queue.Empty:
                return
            getattr(self.adapter, method)(payload)


class ScriptedGame:
    """Hands and eyes for a scripted game on the demo system."""

    def __init__(self, system: DemoSystem, seed: int, say: Callable[[str], None], language: str,
                 seats: tuple[str, ...] = ("red", "blue")):
        self.system = system
        self.rng = random.Random(seed)
        self.say = say
        self.tr = Translator(language)
        # Seats not listed are held by real tablet apps; the script only plays on the board for them.
        self.tablets = {c: HeadlessTablet(system.broker.url, system.board_name, c) for c in seats}
        self.privacy_checks = 0
        self.privacy_problems: list[str] = []

    @property
    def referee(self) -> Referee:
        """The system's referee (the script runs once the system has started)."""
        assert self.system.referee is not None, "start the demo system first"
        return self.system.referee

    @property
    def game(self) -> Game:
        """The game being played (the script plays once the setups made one)."""
        game = self.referee.stratego.game
        assert game is not None, "no game yet: the setups come first"
        return game

    def wait(self, condition: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
        """Pump messages and let the board tick until condition() holds."""
        deadline = time.monotonic() + timeout
        while True:
            for tablet in self.tablets.values():
                tablet.pump()
            if condition():
                return
            if time.monotonic() > deadline:
                check = self.referee.board_check()
                raise TimeoutError(f"the demo waited too long for {what} (board: {check})")
            self.system.tick()
            time.sleep(0.02)

    def pair(self) -> None:
        """Each tablet asks for its seat; a hand puts a piece on the square the referee names."""
        board = self.system.board
        for color, tablet in self.tablets.items():
            tablet.client.start(wait=5)
            tablet.client.pair(color)

            def challenged(t: HeadlessTablet = tablet) -> bool:
                return bool(t.state.pairing and t.state.pairing.get("method"))

            self.wait(challenged, what=f"{color}'s pairing challenge")
            assert tablet.state.pairing is not None  # challenged() held
            squares = tablet.state.pairing.get("squares")
            if squares:  # the tablet chose two squares: a hand covers both
                for square in squares:
                    board.place(Square.parse(square))
                how = f"pieces put on {' and '.join(squares)}"
            else:
                def coded(c: str = color) -> bool:
                    return c in self.system.codes

                self.wait(coded, what="the pairing code")
                tablet.client.send_code(self.system.codes[color])
                how = f"code {self.system.codes[color]}"

            def seated(t: HeadlessTablet = tablet) -> bool:
                return t.state.phase == "setup"

            self.wait(seated, what=f"{color}'s seat")
            for square in squares or []:
                board.remove(Square.parse(square))
            self.say(f"{color_name(self.tr, color)}: {self.tr('Take your seat')} ({how}) ✓")

    def setup(self) -> None:
        """Random setups from the tablets, then every piece put on the board."""
        for color, tablet in self.tablets.items():
            draft = SetupDraft(self.system.variant.name, color)
            draft.randomize(self.rng)
            tablet.client.setup(dict(draft.placed))
        self.wait(lambda: all(t.state.my_setup for t in self.tablets.values())
                  and len(self.referee.stratego.setups) == 2, timeout=60, what="the setups")
        self.system.place_setups()
        self.wait(lambda: all(t.state.view for t in self.tablets.values()), what="the first views")
        self.wait(self.board_matches, what="the board to match the setups")
        self.say(self.tr("All your pieces are in place."))

    def play(self, plies: int) -> None:
        """Scripted moves on the board, each told as both tablets show it."""
        game = self.game
        for _ in range(plies):
            if game.result is not None:
                return
            moves = game.legal_moves()
            attacks = [m for m in moves if game.piece_at(m.target) is not None]
            move = self.rng.choice(attacks if attacks and self.rng.random() < 0.5 else moves)
            ply = game.ply
            self.hand_move(move)

            def ruled(p: int = ply) -> bool:
                return all((t.state.view or {}).get("ply", 0) > p for t in self.tablets.values())

            self.wait(ruled, what=f"the ruling of {move}")
            self.after_ruling(move)
            self.report(move)

    def hand_move(self, move: Move) -> None:
        """Lift and place like a person; an attack lifts both pieces first."""
        board, game = self.system.board, self.game
        attack = game.piece_at(move.target) is not None
        token = board.lift(move.origin)
        time.sleep(HAND_PAUSE_S)
        if attack:
            self.defender = board.lift(move.target)
            time.sleep(ATTACK_GAP_S)
        board.place(move.target, token)

    def after_ruling(self, move: Move) -> None:
        """Do what the referee says after a battle: the loser leaves the board."""
        board, game = self.system.board, self.game
        in_hand = board.in_hand()
        if not in_hand:
            return
        survivor = game.piece_at(move.target)
        mover_token = board.tokens().get(move.target)
        mover_color = self.system.colors.get(mover_token) if mover_token is not None else None
        if survivor is None:
            board.remove(move.target)
        elif survivor.color.value != mover_color:
            board.remove(move.target)
            time.sleep(HAND_PAUSE_S)
            board.place(move.target, self.defender)
        for token in board.in_hand():
            board.discard(token)
        self.system.changed()
        self.wait(self.board_matches, what="the board to match")

    def board_matches(self) -> bool:
        """True when the referee sees the board as the game says it must be."""
        return bool((self.referee.board_check() or {}).get("matches"))

    def report(self, move: Move) -> None:
        """Print the move and, after a battle, what each tablet says."""
        view = next(iter(self.tablets.values())).state.view or {}
        mover = "red" if view.get("to_move") == "blue" else "blue"
        self.say(f"{view.get('ply', 0):3d}. {color_name(self.tr, mover)} {move}")
        for color, tablet in self.tablets.items():
            if tablet.state.battle:
                text = battle_text(self.tr, tablet.state.battle, color).replace("\n", " ")
                self.say(f"     {color_name(self.tr, color)}: {text}")
            self.check_privacy(color, tablet.state.view)

    def check_privacy(self, color: str, view: dict | None) -> None:
        """A tablet's view may hold only ranks its player may know."""
        game = self.game
        for piece in (view or {}).get("pieces", ()):
            self.privacy_checks += 1
            real = game.piece(piece["id"])
            if piece["kind"] is not None and not game.knows(Color(color), real):
                self.privacy_problems.append(f"{color} saw {real.kind} on {piece['square']}")

    def finish(self) -> dict:
        """Blue offers a draw and Red accepts; a script holding one seat resigns instead."""
        game = self.game
        tablets = self.tablets
        if game.result is None and len(tablets) == 2:
            tablets["blue"].client.offer_draw()
            self.wait(lambda: tablets["red"].state.draw_offer_from == "blue", what="the offer")
            self.say(self.tr("{side} offers a draw.").format(side=color_name(self.tr, "blue")))
            tablets["red"].client.accept_draw()
        elif game.result is None:
            next(iter(tablets.values())).client.resign()
        # The end is read only once each tablet holds the result (the phase alone may come first).
        self.wait(lambda: all(t.state.result for t in tablets.values()), what="the end of the game")
        result = next(iter(tablets.values())).state.result
        assert result is not None  # the wait above saw it
        self.say(result_text(self.tr, result, None).replace("\n", " — "))
        return result

    def stop(self) -> None:
        """Disconnect both tablets."""
        for tablet in self.tablets.values():
            tablet.client.stop()


def run_script(system: DemoSystem, script: ScriptedGame, plies: int, intro: str,
               say: Callable[[str], None]) -> bool:
    """Pair, set up, play and finish ``script`` on the started ``system``, then stop both;
    False (and said) when a tablet ever held a hidden enemy rank."""
    try:
        say(intro)
        script.pair()
        script.setup()
        script.play(plies)
        script.finish()
    finally:
        script.stop()
        system.stop()
    if script.privacy_problems:
        say("PRIVACY PROBLEM: " + "; ".join(script.privacy_problems[:5]))
        return False
    return True


def play_headless(plies: int = 24, seed: int = 1, language: str = "en",
                  say: Callable[[str], None] = print) -> int:
    """Run the scripted game; 0 when it ended and no tablet ever held a hidden enemy rank."""
    system = DemoSystem()
    system.start()
    script = ScriptedGame(system, seed, say, language)
    if not run_script(system, script, plies,
                      f"Broker {system.broker.url}, board '{system.board_name}', referee running.", say):
        return 1
    say(f"No secrets shown: the tablets drew {script.privacy_checks} pieces over the game, and "
        "never an enemy piece's rank its player was not allowed to know.")
    return 0
