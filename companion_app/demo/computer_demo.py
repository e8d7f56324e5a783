"""`arbiter demo --computer blue` without a screen: a scripted person plays the computer on the board.

The referee holds the computer's seat (firmware_bridge/referee/computer_seat.py). One headless
tablet, the person's, pairs and sets up; the script puts both setups on the simulated board,
then plays random legal moves for the person and, in the computer's turns, makes the move the
person's tablet shows ("Move the blue piece from e7 to e6 for the computer.").
"""

from __future__ import annotations

from collections.abc import Callable

from companion_app.demo.headless import ScriptedGame, run_script
from companion_app.demo.system import DemoSystem
from companion_app.i18n.texts import computer_move_text
from engine import Color, Move


class ComputerGame(ScriptedGame):
    """The scripted person's hands and tablet, against the computer's seat."""

    def __init__(self, system: DemoSystem, computer: str, seed: int, say: Callable[[str], None],
                 language: str) -> None:
        self.human = Color(computer).other.value
        super().__init__(system, seed, say, language, seats=(self.human,))
        self.computer_moves = 0

    @property
    def tablet(self):
        """The person's tablet."""
        return self.tablets[self.human]

    def play(self, plies: int) -> None:
        """The person's random moves and the computer's shown moves, made by hand on the board."""
        game = self.game
        for _ in range(plies):
            if game.result is not None:
                return
            ply = game.ply
            if game.to_move.value == self.human:
                moves = game.legal_moves()
                attacks = [m for m in moves if game.piece_at(m.target) is not None]
                move = self.rng.choice(attacks if attacks and self.rng.random() < 0.5 else moves)
            else:
                self.wait(lambda: self.tablet.state.computer_move is not None, timeout=30,
                          what="the computer's move")
                shown = self.tablet.state.computer_move or {}
                self.say("     " + computer_move_text(self.tr, shown))
                move = Move.parse(shown["move"])
                self.computer_moves += 1
            self.hand_move(move)

            def ruled(p: int = ply) -> bool:
                return (self.tablet.state.view or {}).get("ply", 0) > p

            self.wait(ruled, what=f"the ruling of {move}")
            self.after_ruling(move)
            self.report(move)


def play_against_computer_headless(computer: str, level: str = "normal", plies: int = 24, seed: int = 1,
                                   language: str = "en", variant: str = "classic",
                                   say: Callable[[str], None] = print) -> int:
    """Run the scripted person against the computer; 0 when every shown move was made and ruled."""
    system = DemoSystem(variant, computer=computer, computer_level=level)
    system.start()
    script = ComputerGame(system, computer, seed, say, language)
    intro = f"Broker {system.broker.url}, board '{system.board_name}', the computer plays {computer} ({level})."
    if not run_script(system, script, plies, intro, say):
        return 1
    say(f"The computer's {script.computer_moves} moves were shown on the tablet and made on the board.")
    return 0
