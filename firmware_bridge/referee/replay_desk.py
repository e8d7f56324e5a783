"""The referee's replay desk: replay commands, their journal entries, and a replay after a crash.

Sits beside the session, which stays the one writer of games, seats and the journal: the desk
goes through its public API only. Loading a replay begins a new game in the session's setup
phase and the replay belongs to that game id; `replay_play_on` hands the session a normal game
at the replay's ply (the session's `game_start` ruling with the record), after which the desk is
idle. The board is read by the replay's own recogniser while a replay is on.

Every step is applied, then journalled (the session's `note`), then announced by the referee, as
every ruling is; if the journal refuses the entry, the replay is rebuilt at the ply it was at.

Journal entry kinds (under the replay's game id; the session skips them when it replays):
  replay_load  {text, name}       a game file was loaded (the text itself, any of the formats)
  replay_ply   {ply}              the replay moved to this ply (forward, back, jump, the board)
  replay_stop  {}                 the replay was stopped
A command's reply is journalled in the same transaction as the entry it causes, so a command
resent after a crash is answered, never carried out twice.
"""

from __future__ import annotations

import logging
from typing import Any

from engine import Square
from firmware_bridge.board.snapshots import StableBoard
from firmware_bridge.protocol import contract
from firmware_bridge.protocol.vocabulary import ReplyPayload
from firmware_bridge.referee.game_options import game_variant
from firmware_bridge.referee.journal import JournalError
from firmware_bridge.referee.replay_mode import ReplayError, ReplayMode, read_game
from firmware_bridge.referee.session import CommandError, Ruling, Session

log = logging.getLogger(__name__)
REPLAY_COMMANDS = ("replay_load", "replay_step", "replay_play_on", "replay_stop")


class ReplayDesk:
    """The replay of a recorded game on one referee's board (at most one at a time)."""

    def __init__(self, session: Session, volcano_markers_sensed: bool | None = None) -> None:
        self.session = session
        self.volcano_markers_sensed = volcano_markers_sensed
        self.mode: ReplayMode | None = None
        self.game_id = ""  # the session game the replay belongs to
        self.board_size: tuple[int, int] | None = None  # of the last stable board read
        self._board: StableBoard | None = None
        self.restore()

    @property
    def active(self) -> bool:
        """Whether a replay is on the board (not stopped, not played on, not replaced)."""
        return (self.mode is not None and self.game_id == self.session.game_id
                and self.session.game is None)

    # -- the journal ----------------------------------------------------------------------------
    def restore(self) -> None:
        """Rebuild the replay of the session's current game from the journal (after a crash)."""
        self.mode, self.game_id = None, ""
        text, name, ply = None, "", 0
        for entry in self.session.entries():
            if entry.kind == "replay_load":
                text, name, ply = entry.payload["text"], entry.payload.get("name", ""), 0
            elif entry.kind == "replay_ply":
                ply = entry.payload["ply"]
            elif entry.kind == "replay_stop":
                text = None
        if text is None:
            return
        try:
            self._start(text, name, ply)
        except ReplayError:  # cannot happen for a text once loaded; never stop the referee for it
            log.exception("the journalled replay could not be rebuilt")

    def _start(self, text: str, name: str, ply: int) -> None:
        self.mode = ReplayMode(text, name, ply, volcano_markers_sensed=self.volcano_markers_sensed)
        self.game_id = self.session.game_id
        if self._board is not None:
            self.mode.feed(self._board)

    def _moved(self, before: int, answered: tuple[str, dict, ReplyPayload] | None = None) -> None:
        """Journal the replay's new ply (with the reply to the command that moved it); if the
        journal refuses it, the replay is rebuilt at the ply it was at and the error goes up."""
        mode = self.mode
        assert mode is not None
        if mode.ply == before and answered is None:
            return
        try:
            self.session.note("replay_ply", {"ply": mode.ply}, answered)
        except JournalError:
            self._start(mode.text, mode.source.name, before)
            raise

    # -- what the referee (or a tablet) asks ----------------------------------------------------
    def load(self, text: str, name: str = "",
             answered: tuple[str, dict, ReplyPayload] | None = None) -> ReplayMode:
        """Load a game file's text and begin a replay of it (a new game in the session)."""
        if self.session.phase == "playing":
            raise ReplayError("a game is being played: finish it before a replay", "wrong-phase")
        loaded = read_game(text)  # refused here, before anything changes
        variant = loaded.record.variant_rules()
        if self.board_size is not None and self.board_size != (variant.width, variant.height):
            raise ReplayError(f"a {loaded.record.variant} game needs a {variant.width}x"
                              f"{variant.height} board; this board is {self.board_size[0]}x"
                              f"{self.board_size[1]}")
        try:
            game_variant(loaded.record.variant, loaded.record.moves_per_turn)
        except ValueError as error:
            raise ReplayError(str(error)) from None
        volcanoes = tuple(loaded.record.volcanoes) if loaded.record.volcanoes is not None else None
        self.session.new_game(loaded.record.variant, moves_per_turn=loaded.record.moves_per_turn,
                              volcanoes=volcanoes)
        self._start(text, name, 0)
        try:
            self.session.note("replay_load", {"text": text, "name": name[:120]}, answered)
        except JournalError:
            self.mode = None  # not recorded, so not loaded: the new game waits in its setup phase
            raise
        assert self.mode is not None
        return self.mode

    def step(self, step: str, ply: int | None = None,
             answered: tuple[str, dict, ReplyPayload] | None = None) -> str:
        """forward, back or jump (to ``ply``); returns what was done, in a few words."""
        mode = self._require()
        before = mode.ply
        if step == "forward":
            mode.forward()
        elif step == "back":
            mode.back()
        elif step == "jump":
            if ply is None:
                raise ReplayError("a jump needs the ply to go to")
            mode.jump(ply)
        else:
            raise ReplayError(f"unknown replay step {step!r} (forward, back or jump)")
        self._moved(before, answered)
        return f"replay at ply {mode.ply} of {mode.replay.length}"

    def stop(self, answered: tuple[str, dict, ReplyPayload] | None = None) -> None:
        """End the replay; the session is left in a new game's setup phase."""
        self._require()
        self.session.note("replay_stop", {}, answered)
        self.mode = None

    def play_on(self, reply_for: tuple[str, int, str] | None = None) -> tuple[list[Ruling], ReplyPayload | None]:
        """Hand the session a normal game at the replay's ply (the rest is played as a game)."""
        mode = self._require()
        game = mode.play_on()
        if game.result is not None:
            raise ReplayError("the game is over at this ply: go back to play on from earlier")
        payload = {"record": mode.record.to_dict(), "ply": mode.ply, "to_move": game.to_move.value}
        # A game_start ruling that carries the record: the session builds the game from it.
        rulings, reply = self.session.play_on(payload, reply_for, f"playing on from ply {mode.ply}")
        self.mode = None
        return rulings, reply

    def _require(self) -> ReplayMode:
        if not self.active or self.mode is None:
            raise ReplayError("no replay is on the board", "wrong-phase")
        return self.mode

    # -- seat commands --------------------------------------------------------------------------
    def handles(self, command: dict) -> bool:
        """Whether this desk answers the command (replay commands; setups and moves in a replay)."""
        return command["type"] in REPLAY_COMMANDS or (self.active and command["type"] in ("setup", "move"))

    def execute(self, seat: str, command: dict) -> tuple[ReplyPayload, list[Ruling]]:
        """Carry out an authenticated replay command once, like `Session.execute`."""
        _, owed = self.session.fresh(seat, command)
        if owed is not None:
            return owed, []
        counter, command_id, kind, args = (command["counter"], command["id"], command["type"],
                                           command["args"])
        rulings: list[Ruling] = []
        try:
            if kind == "replay_play_on":
                rulings, reply = self.play_on((seat, counter, command_id))
                assert reply is not None
                return reply, rulings
            if kind in ("setup", "move"):
                raise ReplayError("a replay is on the board: play on or stop it first", "wrong-phase")
            reply = contract.reply(command_id, True, message=self._describe(kind, args), seq=0)
            answered = (seat, command, reply)  # journalled with the command's own entry
            if kind == "replay_load":
                self.load(args["text"], args.get("name", ""), answered)
            elif kind == "replay_step":
                self.step(args["step"], args.get("ply"), answered)
            else:
                self.stop(answered)
        except (ReplayError, CommandError) as error:
            code = error.code if error.code in contract.ERROR_CODES else "invalid-replay"
            reply = contract.reply(command_id, False, code, str(error), seq=self.session.seq)
            self.session.answer(seat, command, reply)
        return reply, rulings

    @staticmethod
    def _describe(kind: str, args: dict) -> str:
        if kind == "replay_load":
            return "replay loaded"
        if kind == "replay_step":
            return f"replay {args['step']}" + (f" to ply {args['ply']}" if "ply" in args else "")
        return "replay stopped"

    # -- the board ------------------------------------------------------------------------------
    def feed(self, board: StableBoard) -> bool:
        """A new stable board; True when the replay's state changed."""
        self._board = board
        self.board_size = (board.width, board.height)
        if not self.active or self.mode is None:
            return False
        if (board.width, board.height) != (self.mode.game.variant.width, self.mode.game.variant.height):
            return False
        before = self.mode.ply
        changed = self.mode.feed(board)
        self._moved(before)  # the game's move made on the board steps the replay on
        return changed

    def poll(self, now: float) -> bool:
        """Rulings that wait on time; True when the replay's state changed."""
        if not self.active or self.mode is None:
            return False
        before = self.mode.ply
        changed = self.mode.poll(now)
        self._moved(before)
        return changed

    def board_check(self) -> dict | None:
        """The public board_check while replaying: what to change, as the replay's steps."""
        mode = self.mode
        if mode is None or not mode.has_board:
            return None
        mismatch = mode.mismatch()
        # The same board steps as every other board check (protocol/board_steps.py); a replay
        # is a known game, so they name colours and kinds.
        plan = [{key: value for key, value in step.items() if key != "attacks"} for step in mode.steps()]
        if mismatch is None:
            return {"matches": True, "clear": [], "fill": [], "wrong": [], "reason": None,
                    "reading": True, "plan": plan}
        return {"matches": False, "clear": [s.name for s in mismatch.clear],
                "fill": [s.name for s in mismatch.fill], "wrong": [s.name for s in mismatch.wrong],
                "reason": "setup" if mode.phase == "placing" else mismatch.reason,
                "reading": not mode.recognizer.restoring, "plan": plan}

    def public(self) -> dict[str, Any] | None:
        """The `replay` part of the public state (None when no replay is on)."""
        return self.mode.public() if self.active and self.mode is not None else None

    def leds(self, width: int, height: int) -> list[int] | None:
        """LED colours for the replay (None when no replay is on)."""
        if not self.active or self.mode is None:
            return None
        return self.mode.leds(width, height)


def replay_square_names(steps: list[dict[str, Any]]) -> list[str]:
    """Every square a list of steps names, in order (for rings on a board picture)."""
    names: list[str] = []
    for step in steps:
        for key in ("square", "to"):
            if key in step and step[key] not in names:
                names.append(Square.parse(step[key]).name)
    return names


def load_replay(referee: Any, text: str, name: str = "") -> bool:
    """Load a game file on a referee (`arbiter referee --replay`, the demo); False when the
    journal's current game already is this very file's replay (a restart keeps its ply, or the
    game played on from it)."""
    with referee.lock:  # the referee's own lock: its board and command threads may be running
        desk: ReplayDesk = referee.replay
        if desk.mode is not None and desk.mode.text == text and desk.game_id == desk.session.game_id:
            return False
        desk.load(text, name)
        if referee.started_at:
            referee.republish()
        return True
