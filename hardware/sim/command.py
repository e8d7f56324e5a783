"""`arbiter sim`: a simulated sensor grid served over a pseudo-terminal, like a board on USB.

    arbiter sim [--variant classic] [--identifying] [--device PATH] [--seed N]
                [--selfplay PLIES] [--faults] [--empty]

Prints the device path (point `arbiter referee --port PATH` or any pyserial program at it),
then takes commands on stdin, one per line:
    lift e4 | place e5 | move e4 e5 | slide a4 a8 | nudge e5 | glitch e5 | bounce e5
    between e5 e6 | drop N | corrupt N | unplug | replug | show | quit
With --selfplay the simulated players play that many random legal moves by hand in real time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from engine import Color, Game, Square, get_variant, random_setup
from hardware.sim.board import IDENTIFYING, OCCUPANCY, SimulatedBoard
from hardware.sim.hands import ALL_FAULTS, NO_FAULTS, Hands
from hardware.sim.pty_server import PtySerialServer


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="arbiter sim", description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic", help="board and army to set up (default classic)")
    parser.add_argument("--identifying", action="store_true", help="squares report piece tags")
    parser.add_argument("--device", help="path for the device symlink (default: a temporary one)")
    parser.add_argument("--seed", type=int, default=None, help="random seed for setups and play")
    parser.add_argument("--selfplay", type=int, default=0, metavar="PLIES",
                        help="play this many random moves by hand, then exit")
    parser.add_argument("--faults", action="store_true", help="inject every kind of fault while playing")
    parser.add_argument("--empty", action="store_true", help="start with an empty board")
    return parser


def board_for(variant_name: str, identifying: bool, seed: int | None,
              empty: bool = False) -> tuple[SimulatedBoard, Game]:
    """A simulated board set up with a random game of the variant (tags = 100 + piece id)."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    game = Game.from_setup(variant, random_setup(variant, Color.RED, rng),
                           random_setup(variant, Color.BLUE, rng), rng=rng)
    board = SimulatedBoard(variant.width, variant.height, IDENTIFYING if identifying else OCCUPANCY,
                           seed=seed)
    if not empty:
        board.set_position({square: 100 + piece.id for square, piece in game.pieces()})
    return board, game


def selfplay(board: SimulatedBoard, game: Game, server: PtySerialServer, plies: int,
             faults: bool, rng: random.Random, out=sys.stdout) -> int:
    """Play random legal moves by hand in real time; returns the number played."""
    hands = Hands(board, rng, ALL_FAULTS if faults else NO_FAULTS, wire=server)
    played = 0
    for _ in range(plies):
        moves = game.legal_moves()
        if game.result is not None or not moves:
            break
        move = rng.choice(moves)
        attack = game.piece_at(move.target) is not None
        time.sleep(hands.play(game, move) + 0.4)
        while board.pending():
            time.sleep(0.02)
        events = game.push(move)
        hands.after_ruling(move, events, attack, lambda piece_id: 100 + piece_id)
        while board.pending():
            time.sleep(0.02)
        played += 1
        print(f"played {move}", file=out, flush=True)
    return played


def run_command(line: str, board: SimulatedBoard, server: PtySerialServer) -> str | None:
    """Carry out one stdin command; returns a reply, or None to quit."""
    words = line.split()
    if not words:
        return ""
    verb, args = words[0].lower(), words[1:]
    squares = [Square.parse(a) for a in args if not a.isdigit()]
    if verb in ("quit", "exit"):
        return None
    actions = {
        "lift": lambda: board.lift(squares[0]),
        "place": lambda: board.place(squares[0]),
        "move": lambda: board.move(squares[0], squares[1]),
        "slide": lambda: board.slide(squares[0], squares[1]),
        "nudge": lambda: board.nudge(squares[0]),
        "glitch": lambda: board.glitch(squares[0]),
        "bounce": lambda: board.bounce(squares[0]),
        "between": lambda: board.between(squares[0], squares[1]),
        "drop": lambda: server.drop_frames(int(args[0]) if args else 1),
        "corrupt": lambda: server.corrupt_frames(int(args[0]) if args else 1),
        "unplug": server.unplug,
        "replug": server.replug,
    }
    if verb == "show":
        occupied = board.occupied()
        rows = []
        for rank in reversed(range(board.height)):
            cells = "".join("#" if Square(f, rank) in occupied else "." for f in range(board.width))
            rows.append(f"{rank + 1:>2} {cells}")
        return "\n".join(rows)
    if verb not in actions:
        return f"unknown command {verb!r}; try: " + " | ".join(sorted([*actions, "show", "quit"]))
    actions[verb]()
    return "ok"


def main(argv: list[str]) -> int:
    """Run the simulated board until stdin ends, `quit`, or the self-play is over."""
    args = _parser().parse_args(argv)
    try:
        get_variant(args.variant)
    except (KeyError, ValueError) as error:
        print(f"arbiter sim: {error}", file=sys.stderr)
        return 2
    board, game = board_for(args.variant, args.identifying, args.seed, args.empty)
    server = PtySerialServer(board, device=args.device)
    device = server.start()
    print(f"simulated {board.width}x{board.height} board ({board.sensor_kind}) on {device}", flush=True)
    try:
        if args.selfplay:
            played = selfplay(board, game, server, args.selfplay, args.faults, random.Random(args.seed))
            print(f"self-play done: {played} moves", flush=True)
            return 0
        for line in sys.stdin:
            try:
                reply = run_command(line, board, server)
            except (ValueError, IndexError) as error:
                reply = f"error: {error}"
            if reply is None:
                break
            if reply:
                print(reply, flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0
