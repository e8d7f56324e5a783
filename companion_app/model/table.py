"""What one tablet (or the referee display) knows about its table, updated from link messages.

Pure Python, no Kivy: the network adapter hands messages to `TableState.apply` on the UI thread
and the screens draw from the state. Message kinds are the app's own, not the MQTT contract's;
the adapter translates (see link.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from companion_app.model.notebook_feed import NotebookFeed
from companion_app.model.triumph_table import TRIUMPH, TriumphTable
from firmware_bridge.protocol.vocabulary import EventType

PHASES = ("connect", "pairing", "setup", "placing", "game", "over", "overview")


@dataclass
class Battle:
    """One battle as this viewer saw it."""

    attacker_color: str
    attacker_kind: str | None
    defender_color: str
    defender_kind: str | None
    outcome: str  # "attacker" | "defender" | "both"
    square: str
    origin: str
    removed: list[str] = field(default_factory=list)  # squares whose pieces go off the board

    def winner_color(self) -> str | None:
        """The color of the side that won, None when both left the board."""
        if self.outcome == "attacker":
            return self.attacker_color
        if self.outcome == "defender":
            return self.defender_color
        return None


@dataclass
class TwoSquareRun:
    """A piece shuffling between two squares, counted from the views (for the early warning)."""

    piece_square: str
    squares: frozenset[str]
    count: int


@dataclass
class TableState:
    """Everything a screen needs to draw; changed only by `apply`."""

    seat: str | None = None  # "red", "blue", or None for the public referee display
    board_name: str = ""
    phase: str = "connect"
    view: dict[str, Any] | None = None
    # How the game ended ({"winner", "reason"}), known from the game_end event or the final view,
    # whichever comes first; the phase is "over" only together with it.
    result: dict[str, Any] | None = None
    clocks: dict[str, float | None] = field(default_factory=dict)
    running_clock: str | None = None
    clocks_at: float = 0.0
    declined_by: str | None = None
    connection: dict[str, str] = field(default_factory=dict)  # "referee"/"board"/"red"/"blue"
    pairing: dict[str, Any] | None = None
    referee_new: bool = False  # asked to pair again because the referee's key changed (said why)
    setup_status: dict[str, str] = field(default_factory=dict)
    setup_errors: list[str] = field(default_factory=list)
    setup_refusals: list[dict[str, Any]] = field(default_factory=list)  # the same with reason, data
    my_setup: dict[str, str] = field(default_factory=dict)
    sensed: frozenset[str] = frozenset()
    battle: Battle | None = None
    refusal: dict[str, Any] | None = None
    guidance: dict[str, list[str]] | None = None
    board_steps: list[dict[str, Any]] = field(default_factory=list)  # the referee's plan: {"action", "square", ...}
    computer_move: dict[str, Any] | None = None  # the public state's: made on the board for the computer
    computer_seat: str | None = None  # the seat the computer plays (public state), None: two people
    warnings: list[tuple[str, str, str]] = field(default_factory=list)
    draw_offer_from: str | None = None
    takeback_from: str | None = None
    takeback_declined_by: str | None = None
    taken_back: str | None = None  # the move just taken back, until the next move
    restore: list[tuple[str, str, dict[str, Any] | None]] = field(default_factory=list)
    reveals: list[dict[str, Any]] = field(default_factory=list)  # this move's spy recognitions
    passed: list[str] = field(default_factory=list)  # sides that could not move and passed
    volcanoes: list[str] = field(default_factory=list)  # Espionage, from the game's creation on
    volcano_steps: list[dict[str, Any]] = field(default_factory=list)  # {"action": "marker", "square": "d5"}, ...
    my_fingerprint: str | None = None  # this tablet's key, "0412-7730-9158-2046"
    fingerprints: dict[str, str] = field(default_factory=dict)  # seat -> the key the referee granted it
    referee_fingerprint: str | None = None  # the referee's signing key the display pinned
    variant: str = "classic"
    boards: dict[str, dict[str, Any]] = field(default_factory=dict)  # the overview: board -> state
    notice: str | None = None
    run: TwoSquareRun | None = None
    two_squares_limit: int = 3
    history: dict[int, dict[str, Any]] = field(default_factory=dict)  # ply -> view seen
    kinds_by_id: dict[int, tuple[str, str]] = field(default_factory=dict)
    revision: int = 0
    replay: dict[str, Any] | None = None  # the recorded game replayed on the board (public)
    replay_open: bool = False  # the replay panel is open (to load a game file)
    problem: str | None = None  # what keeps the referee from ruling, by code ("storage-full")
    referee_away_s: int | None = None  # the referee restarted after this long (clocks were paused)
    notebook: NotebookFeed = field(default_factory=NotebookFeed)  # this seat's views and events
    notebook_allowed: bool = True  # the referee may forbid the notebook (tournaments)
    notebook_open: bool = False  # off by default: the player opens it
    triumph: TriumphTable = field(default_factory=TriumphTable)  # Napoleon's Triumph's own part

    def apply(self, kind: str, payload: dict[str, Any]) -> None:
        """Take one message from the link; unknown kinds are ignored (newer referee)."""
        if kind in ("event", "view") and self.seat is not None and payload.get("game") != TRIUMPH:
            self.notebook.take(kind, payload)  # the notebook reads exactly what this seat got
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(payload)
            self.revision += 1
        self.triumph.seat = self.seat
        self.triumph.take(kind, payload)

    # -- handlers -------------------------------------------------------------------------------
    def _on_phase(self, payload: dict[str, Any]) -> None:
        phase = payload.get("phase")
        if phase in PHASES:
            self.phase = phase
            # Said on the pairing screen until this pairing is over.
            self.referee_new = phase == "pairing" and (self.referee_new or bool(payload.get("referee_new")))
        if "seat" in payload:
            self.seat = payload["seat"]

    def _on_connection(self, payload: dict[str, Any]) -> None:
        self.connection.update({k: str(v) for k, v in payload.items()})

    def _on_pairing(self, payload: dict[str, Any]) -> None:
        # A code that is not six digits was never sent: the challenge on screen (two squares to
        # cover) stands, with the note beside it.
        self.pairing = {**(self.pairing or {}), **payload} if payload.get("bad_code") else payload
        self.phase = "pairing"

    def _on_setup_status(self, payload: dict[str, Any]) -> None:
        self.setup_status = dict(payload.get("status", {}))
        self.setup_errors = list(payload.get("errors", []))
        self.setup_refusals = list(payload.get("refusals", []))

    def _on_placement(self, payload: dict[str, Any]) -> None:
        self.sensed = frozenset(payload.get("sensed", ()))

    def _on_clocks(self, payload: dict[str, Any]) -> None:
        self.clocks = {k: payload.get(k) for k in ("red", "blue", "game")}
        self.running_clock = payload.get("running")
        self.clocks_at = time.monotonic()

    def clock(self, name: str) -> float | None:
        """A clock's seconds now: the referee's figure, run down since it arrived if it runs."""
        value = self.clocks.get(name)
        if value is None:
            return None
        running = name == self.running_clock or (name == "game" and self.running_clock)
        if running and self.phase == "game" and not (self.view or {}).get("result"):
            value -= time.monotonic() - self.clocks_at
        return max(0.0, value)

    def _on_view(self, view: dict[str, Any]) -> None:
        previous = self.view
        new_ply = previous is None or view.get("ply") != previous.get("ply")
        took_back = previous is not None and view.get("ply", 0) < previous.get("ply", 0)
        if took_back:
            self.run = None  # a takeback: the count restarts from the referee's figure
            assert previous is not None
            self.restore = restore_steps(previous, view)
            # The taken-back plies are no longer part of the game (nor of its replay).
            for ply in [p for p in self.history if p > view.get("ply", 0)]:
                del self.history[ply]
        elif previous is not None and view.get("ply") == previous.get("ply", -1) + 1:
            self._count_run(previous, view)
        self.view = view
        self.history[view.get("ply", 0)] = view
        for piece in view.get("pieces", ()):
            if piece.get("kind"):
                self.kinds_by_id[piece["id"]] = (piece["color"], piece["kind"])
        if new_ply:
            self.refusal = None
            self.declined_by = None
            self.draw_offer_from = None if view.get("result") else self.draw_offer_from
            self.takeback_from = None
            self.takeback_declined_by = None
            self.notice = None
            self.battle = None
            self.reveals = []
            self.passed = []
            if not took_back:
                # After a takeback the last events belong to a move already told.
                self.taken_back = None
                self.restore = []
                for event in view.get("last_events", ()):
                    self._on_event(event)
                self.passed = passes(view.get("last_events", ()))
        if view.get("result"):
            self._game_over(view["result"])
        self._update_warnings()

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == EventType.BATTLE:
            self.battle = battle_from_event(event, (self.view or {}).get("last_move"))
            for side in ("attacker", "defender"):
                if event.get(side):
                    self.kinds_by_id[event[f"{side}_id"]] = (event[f"{side}_color"], event[side])
        if kind == EventType.CAPTURE and self.battle is not None:
            square = event.get("square")
            if square and square not in self.battle.removed:
                self.battle.removed.append(square)
        elif kind == EventType.CAPTURE and event.get("kind"):
            self.kinds_by_id[event["piece_id"]] = (event["color"], event["kind"])
        elif kind == EventType.REFUSAL and (self.seat is None or event.get("color") == self.seat):
            self.refusal = event  # the display shows every refusal, a tablet its own player's
        elif kind == EventType.DRAW_DECLINED:
            self.draw_offer_from = None
            self.declined_by = event.get("color")
        elif kind == "game_end":
            # The referee announces the end before the snapshot whose view carries the result.
            self._game_over({"winner": event.get("winner"), "reason": event.get("reason")})
        elif kind == "reveal":
            # Only the spy's owner ever receives one (the referee redacts it for anyone else).
            if all(r.get("piece_id") != event.get("piece_id") for r in self.reveals):
                self.reveals.append(event)
            if event.get("kind"):
                self.kinds_by_id[event["piece_id"]] = (event.get("color", ""), event["kind"])
        elif kind == EventType.TAKEBACK_OFFER:
            self.takeback_from = event.get("color")
            self.takeback_declined_by = None
        elif kind == EventType.TAKEBACK_DECLINED:
            self.takeback_from = None
            self.takeback_declined_by = event.get("color")
        elif kind == EventType.TAKEBACK:
            self.takeback_from = None
            self.taken_back = event.get("move")
            self.battle = None

    def _game_over(self, result: Any) -> None:
        if isinstance(result, dict):
            self.result = dict(result)
            self.phase = "over"

    def _on_refusal(self, payload: dict[str, Any]) -> None:
        self.refusal = payload

    def _on_guidance(self, payload: dict[str, Any]) -> None:
        clear, fill = list(payload.get("clear", [])), list(payload.get("fill", []))
        self.guidance = {"clear": clear, "fill": fill} if clear or fill else None
        plan = (payload.get("plan") or ()) if self.guidance else ()
        self.board_steps = [dict(step) for step in plan if isinstance(step, dict)]

    def _on_draw_offer(self, payload: dict[str, Any]) -> None:
        self.draw_offer_from = payload.get("from")

    def _on_takeback_request(self, payload: dict[str, Any]) -> None:
        self.takeback_from = payload.get("from")

    def _on_volcanoes(self, payload: dict[str, Any]) -> None:
        self.volcanoes = [str(sq) for sq in payload.get("squares", ())]
        self.volcano_steps = [dict(step) for step in payload.get("plan") or () if isinstance(step, dict)]

    def _on_my_fingerprint(self, payload: dict[str, Any]) -> None:
        self.my_fingerprint = payload.get("fingerprint") or None

    def _on_referee_fingerprint(self, payload: dict[str, Any]) -> None:
        fingerprint = payload.get("fingerprint")
        self.referee_fingerprint = fingerprint if isinstance(fingerprint, str) else None

    def _on_fingerprints(self, payload: dict[str, Any]) -> None:
        self.fingerprints = {seat: str(print_) for seat, print_ in payload.items() if print_}

    def _on_computer_move(self, payload: dict[str, Any]) -> None:
        move = payload.get("move")
        self.computer_move = move if isinstance(move, dict) else None

    def _on_computer_seat(self, payload: dict[str, Any]) -> None:
        self.computer_seat = payload.get("seat")

    def _on_notebook_allowed(self, payload: dict[str, Any]) -> None:
        self.notebook_allowed = payload.get("allowed") is not False
        self.notebook_open = self.notebook_open and self.notebook_allowed

    def _on_problem(self, payload: dict[str, Any]) -> None:
        code = payload.get("code")
        self.problem = code if isinstance(code, str) else None

    def _on_referee_back(self, payload: dict[str, Any]) -> None:
        away = payload.get("away_s")
        self.referee_away_s = away if isinstance(away, int) and not isinstance(away, bool) else None

    def _on_replay(self, payload: dict[str, Any]) -> None:
        replay = payload.get("replay")
        self.replay = replay if isinstance(replay, dict) else None
        if self.replay is not None:  # the panel follows the replay from now on (play on closes it)
            self.replay_open = False

    def _on_notice(self, payload: dict[str, Any]) -> None:
        # A notice the app knows is kept untranslated (the screen translates it); others verbatim.
        self.notice = payload.get("known") or payload.get("text")

    def _on_new_game(self, payload: dict[str, Any]) -> None:
        """Another game began at this table: forget everything of the last one but the seat."""
        fresh = TableState(seat=self.seat, board_name=self.board_name, variant=self.variant,
                           connection=dict(self.connection), clocks={}, phase=self.phase,
                           my_fingerprint=self.my_fingerprint, fingerprints=dict(self.fingerprints),
                           referee_fingerprint=self.referee_fingerprint,
                           replay=self.replay, replay_open=self.replay_open)  # a replay begins a game
        self.__dict__.update(fresh.__dict__)

    def _on_board_state(self, payload: dict[str, Any]) -> None:
        if isinstance(payload.get("board"), str):
            self.boards[payload["board"]] = payload

    def _on_info(self, payload: dict[str, Any]) -> None:
        self.variant = payload.get("variant", self.variant)
        self.board_name = payload.get("name") or payload.get("board") or self.board_name

    def _on_instructions(self, payload: dict[str, Any]) -> None:
        """Napoleon's Triumph's instruction blocks: kept by `self.triumph` alone."""

    def _on_setup_accepted(self, payload: dict[str, Any]) -> None:
        self.my_setup = dict(payload.get("setup", {}))
        self.phase = "placing"

    # -- derived ------------------------------------------------------------------------------
    def _count_run(self, previous: dict[str, Any], view: dict[str, Any]) -> None:
        """Follow the viewer's own back-and-forth moves, to warn before the two-squares rule bites."""
        last = view.get("last_move")
        mover = previous.get("to_move")
        if not last or mover != self.seat or "-" not in last:
            return
        origin, target = last.split("-", 1)
        pair = frozenset((origin, target))
        if self.run is not None and self.run.piece_square == origin and self.run.squares == pair:
            self.run = TwoSquareRun(target, pair, self.run.count + 1)
        else:
            self.run = TwoSquareRun(target, pair, 1)

    def _update_warnings(self) -> None:
        self.warnings = []
        chase = (self.view or {}).get("chase_warning")
        if chase and chase.get("refused"):
            self.warnings.append(("chase-refused", ", ".join(chase.get("chased", [])),
                                  ", ".join(chase["refused"])))
        elif chase and chase.get("chased"):
            self.warnings.append(("chasing", ", ".join(chase["chased"]), ""))
        run, view = self.run, self.view
        if run is None or view is None or self.seat is None:
            return
        piece = next((p for p in view.get("pieces", ()) if p["square"] == run.piece_square), None)
        if piece is None or piece.get("color") != self.seat:
            return
        (back,) = run.squares - {run.piece_square}
        left = view.get("two_squares_left")
        if left is None:
            left = self.two_squares_limit - run.count
        if left <= 0:
            self.warnings.append(("two-squares-now", run.piece_square, back))
        elif left == 1:
            self.warnings.append(("two-squares-soon", run.piece_square, back))

    def my_turn(self) -> bool:
        """True when the viewer is the side to move in a running game."""
        return bool(self.view and self.seat and self.view.get("to_move") == self.seat
                    and not self.view.get("result"))


def restore_steps(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, str, dict[str, Any] | None]]:
    """What to do on the physical board to go from one view's position to another's:
    ("off", square, piece) first, then ("on", square, piece), by piece id, square by square."""
    old = {p["square"]: p for p in before.get("pieces", ())}
    new = {p["square"]: p for p in after.get("pieces", ())}
    steps: list[tuple[str, str, dict[str, Any] | None]] = []
    changed = sorted(sq for sq in set(old) | set(new)
                     if (old.get(sq) or {}).get("id") != (new.get(sq) or {}).get("id"))
    steps += [("off", sq, old[sq]) for sq in changed if sq in old]
    steps += [("on", sq, new[sq]) for sq in changed if sq in new]
    return steps


def passes(events: Any) -> list[str]:
    """Sides that passed in one move's events: every `turn` event but the last hands the turn to
    a player who cannot move (Espionage), so the next one passes it on."""
    turns = [e.get("to_move") for e in events if isinstance(e, dict) and e.get("type") == EventType.TURN]
    return [str(color) for color in turns[:-1]]


def battle_from_event(event: dict[str, Any], last_move: str | None) -> Battle:
    """A battle event (the engine's redacted dict) as the app's Battle."""
    origin = last_move.split("-")[0] if last_move and "-" in last_move else ""
    return Battle(
        attacker_color=event.get("attacker_color", ""),
        attacker_kind=event.get("attacker"),
        defender_color=event.get("defender_color", ""),
        defender_kind=event.get("defender"),
        outcome=event.get("outcome", "both"),
        square=event.get("square", ""),
        origin=origin,
    )
