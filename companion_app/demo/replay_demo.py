"""`arbiter demo --replay FILE`: a recorded game replayed on the demo's simulated board.

With a display the board window and the tablets open as usual with the replay loaded (the
window's button puts both setups on the board; the moves are dragged as the tablets say).
Without one, a pair of scripted hands sets the board up and makes the game's moves, and the
referee display's text (over MQTT, the public state) is printed as it would be shown.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from companion_app.demo.system import DemoSystem
from companion_app.i18n.catalog import Translator
from companion_app.i18n.replay_texts import battle_lines, replay_lines, replay_title
from engine import Square
from engine.core.errors import ArbiterError
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.replay_desk import load_replay
from firmware_bridge.referee.replay_mode import read_game

HAND_PAUSE_S = 0.08  # a hand is slower than the sensors' quiet period (20 ms at 200 Hz)
ATTACK_GAP_S = 0.2  # both pieces off the board a moment before the attacker lands


def read_replay_file(path: str) -> tuple[str, str]:
    """The file's text and its game's variant (ArbiterError or OSError say why not)."""
    text = Path(path).read_text(encoding="utf-8")
    return text, read_game(text).record.variant


def start_replay(system: DemoSystem, text: str, name: str) -> None:
    """Load the game on the demo's referee."""
    assert system.referee is not None
    load_replay(system.referee, text, name)


class ReplayHands:
    """Scripted hands that set the board up and make the moves the referee display shows."""

    def __init__(self, system: DemoSystem, say: Callable[[str], None], language: str) -> None:
        self.system = system
        self.say = say
        self.tr = Translator(language)
        # In one process the display is given the referee's key (a display elsewhere pairs by code).
        assert system.referee is not None
        self.display = DisplayClient(system.broker.url, system.board_name,
                                     sign_key=system.referee.signer.verify_key)
        self.display.start(wait=5)
        self.defender: int | None = None

    def replay(self) -> dict:
        """The replay part of the display's latest public state."""
        return (self.display.state or {}).get("replay") or {}

    def wait(self, condition: Callable[[dict], bool], what: str, timeout: float = 10.0) -> dict:
        """Wait until the display's replay satisfies condition."""
        if not self.display.wait(lambda c: condition(self.replay()), timeout):
            raise TimeoutError(f"the demo waited too long for {what} (replay: {self.replay()})")
        return self.replay()

    def set_up(self) -> None:
        """Put both setups on the board, as the steps say."""
        replay = self.wait(lambda r: r.get("phase") == "placing", "the replay")
        self.tr.set_variant(replay["variant"])
        self.say(replay_title(self.tr, replay))
        for line in replay_lines(self.tr, replay):
            self.say("  " + line)
        self.system.place_setups()
        self.wait(lambda r: r.get("phase") in ("replaying", "end"), "the setups on the board")

    def play(self, plies: int | None = None) -> int:
        """Make the game's next moves on the board (all of them unless `plies` says how many);
        returns how many were recognised."""
        made = 0
        while plies is None or made < plies:
            replay = self.replay()
            step = replay.get("next")
            if replay.get("phase") != "replaying" or not step:
                break
            self.say(replay_lines(self.tr, replay)[-1])
            self.hand_move(Square.parse(step["square"]), Square.parse(step["to"]))
            ply: int = replay["ply"]

            def stepped_on(r: dict, p: int = ply) -> bool:
                return r.get("ply") == p + 1

            replay = self.wait(stepped_on, f"move {ply + 1}")
            for line in battle_lines(self.tr, replay):
                self.say("     " + line)
            self.follow_steps(replay)
            made += 1
        return made

    def hand_move(self, origin: Square, target: Square) -> None:
        """Lift and place like a person; an attack lifts both pieces first."""
        board = self.system.board
        token = board.lift(origin)
        time.sleep(HAND_PAUSE_S)
        self.defender = None
        if target in board.occupied():
            self.defender = board.lift(target)  # held: it goes back if it wins
            time.sleep(ATTACK_GAP_S)
        board.place(target, token)

    def follow_steps(self, replay: dict) -> None:
        """After a battle: take off the board what the steps say (and put a winning defender
        back in the attacker's place), until the next move shows."""
        board = self.system.board
        for step in replay.get("steps", ()):
            square = Square.parse(step["square"])
            time.sleep(HAND_PAUSE_S)
            if step["action"] == "remove":
                board.remove(square)
            elif step["action"] == "replace" and self.defender is not None:
                board.remove(square)
                time.sleep(HAND_PAUSE_S)
                board.place(square, self.defender)
        for token in board.in_hand():
            board.discard(token)
        self.wait(lambda r: not r.get("steps") or r["steps"][0]["action"] == "move",
                  "the board to match")

    def stop(self) -> None:
        """Disconnect the display client."""
        self.display.stop()


def play_replay_headless(path: str, plies: int | None = None, language: str = "en",
                         say: Callable[[str], None] = print) -> int:
    """Replay the file (its first `plies` moves if given) through broker, referee and simulated
    board; 0 when done."""
    try:
        text, variant = read_replay_file(path)
    except (OSError, UnicodeDecodeError, ArbiterError) as error:
        say(f"arbiter demo: cannot replay {path}: {getattr(error, 'message', error)}")
        return 2
    system = DemoSystem(variant)
    system.start()
    hands = ReplayHands(system, say, language)
    try:
        start_replay(system, text, Path(path).name)
        hands.set_up()
        made = hands.play(plies)
        say(f"Replayed {made} moves on the simulated board, each recognised by the referee.")
    finally:
        hands.stop()
        system.stop()
    return 0
