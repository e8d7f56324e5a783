"""Turning the MQTT contract's payloads (firmware_bridge.protocol.contract) into the app's table messages.

One place knows both vocabularies: the network links and the in-process table feed their
contract payloads through `ContractTranslator`, which calls `deliver(kind, payload)`.
"""

from __future__ import annotations

from typing import Any

from companion_app.i18n.catalog import N_
from companion_app.net.link import Deliver
from firmware_bridge.protocol.contract import COMMAND_TYPES

# Reply codes the tablet explains itself; others show the referee's message as it is.
REPLY_NOTICES = {
    "not-your-turn": N_("It is not your turn."),
    "wrong-phase": N_("That is not possible at this point of the game."),
    "board-input": N_("Moves are made on the board itself."),
    "no-offer": N_("There is no offer to answer."),
    # An older referee without the takeback commands.
    "unsupported": N_("This referee does not take moves back yet."),
    "illegal": N_("That is not possible now."),  # not a move: e.g. no move to take back
    "invalid-option": N_("The referee does not offer that here."),
    "invalid-replay": N_("That file is no game the referee can replay."),
}
# A refusal that is no move's, known by the referee's English sentence (it sends no reason key).
KNOWN_SENTENCES = {"there is no move to take back": N_("There is no move to take back.")}
# Any other refusal: the referee's reason is English, so the tablet says it in its own words.
OTHER_REFUSAL = N_("The referee refused that.")


# The app's commands that are the contract's under another name; an answer is two commands.
RENAMED = {"draw_offer": "offer_draw", "takeback_request": "offer_takeback"}
ANSWERS = {"draw_answer": ("accept_draw", "decline_draw"),
           "takeback_answer": ("accept_takeback", "decline_takeback")}
ARGUMENTS = {"move": ("move",), "setup": ("setup",), "new_game": ("moves_per_turn", "computer", "level"),
             "replay_load": ("text", "name"), "replay_step": ("step", "ply"),
             "nt": ("action",)}  # Napoleon's Triumph: one action dict without its side


def contract_command(command: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """An app command as the contract's (type, args); None for what is no referee command
    (pairing and resyncing travel other ways)."""
    if command in ANSWERS:
        accept, decline = ANSWERS[command]
        return (accept if payload.get("accept") else decline), {}
    name = RENAMED.get(command, command)
    if name not in COMMAND_TYPES and name != "nt":
        return None
    return name, {key: payload[key] for key in ARGUMENTS.get(name, ()) if payload.get(key) is not None}


class ContractTranslator:
    """Feeds one tablet (seat) or one referee display (seat None) from contract payloads."""

    def __init__(self, deliver: Deliver, seat: str | None) -> None:
        self.deliver = deliver
        self.seat = seat
        self.contract_phase: str | None = None
        self.my_setup: dict[str, str] | None = None
        self.board_check: dict[str, Any] | None = None
        self.computer_move: dict[str, Any] | None = None
        self.ply = 0
        self.moved = False  # a move was played in this game (a takeback to ply 0 is not the setup)
        self.game_id: str | None = None

    def info(self, info: dict[str, Any]) -> None:
        """The board's retained info: its name and variant."""
        self.deliver("info", {"variant": info.get("variant"), "board": info.get("board"),
                              "name": info.get("name") or info.get("board")})

    def pairing(self, reply: dict[str, Any]) -> None:
        """A pairing reply: a challenge, the granted seat, or a refusal."""
        status = reply.get("status")
        if status == "granted":
            self.seat = reply.get("seat")
            self.deliver("phase", {"phase": "setup", "seat": self.seat})
            # When the seat's snapshot came first (a tablet back in a running game), its phase stands.
            self._phase()
        elif status == "challenge":  # a code to type, two squares to cover, or the holder's approval
            squares = reply.get("squares") if reply.get("method") == "squares" else None
            self.deliver("pairing", {"squares": squares if isinstance(squares, list) else None,
                                     "method": reply.get("method"), "fingerprint": reply.get("fingerprint")})
        elif status == "lost":  # another tablet (or the computer) has this seat: this one sends nothing more
            self.deliver("pairing", {"lost": True, "seat": reply.get("seat"), "reason": reply.get("reason", "")})
        else:
            self.deliver("pairing", {"message": reply.get("message", ""), "seat": reply.get("seat"),
                                     "method": reply.get("method"), "bad_code": bool(reply.get("bad_code")),
                                     "reason": reply.get("reason", ""), "data": reply.get("data") or {}})

    def _follow_game(self, game_id: Any) -> None:
        if isinstance(game_id, str) and game_id != self.game_id:
            if self.game_id is not None:  # not the first snapshot: a new game at this table
                self.my_setup, self.ply, self.board_check, self.moved = None, 0, None, False
                self.deliver("new_game", {})
            self.game_id = game_id

    def seat_state(self, state: dict[str, Any]) -> None:
        """The decrypted snapshot of our seat."""
        self._follow_game(state.get("game"))
        self.contract_phase = state.get("phase")
        setup = state.get("setup")
        if setup and setup != self.my_setup:
            self.my_setup = dict(setup)
            self.deliver("setup_accepted", {"setup": setup})
        if isinstance(state.get("instructions"), list):  # Napoleon's Triumph: own blocks only
            self.deliver("instructions", {"blocks": state["instructions"]})
        if state.get("view"):
            self.ply = state["view"].get("ply", 0)
            self.moved = self.moved or self.ply > 0
            self.deliver("view", state["view"])
        self._phase()

    def public_state(self, state: dict[str, Any]) -> None:
        """The public snapshot: seats, clocks, draw offer, board check (and the view for displays)."""
        seats = state.get("seats") or {}
        self.deliver("connection", {c: "online" if s.get("online") else "offline"
                                    for c, s in seats.items() if isinstance(s, dict)})
        self.deliver("setup_status", {"status": {
            c: "ready" if s.get("setup_ready") else "waiting"
            for c, s in seats.items() if isinstance(s, dict)}})
        # Each granted tablet key's fingerprint, for the family to compare with the tablets'.
        self.deliver("fingerprints", {c: s.get("key_fingerprint") for c, s in seats.items()
                                      if isinstance(s, dict) and isinstance(s.get("key_fingerprint"), str)})
        clocks = state.get("clocks")
        if clocks:
            self.deliver("clocks", clocks)
        self.deliver("draw_offer", {"from": state.get("draw_offer")})
        self.deliver("takeback_request", {"from": state.get("takeback_offer")})
        if isinstance(state.get("volcanoes"), list):  # Espionage: known from the game's creation
            markers = state.get("volcano_markers")
            plan = markers.get("plan") if isinstance(markers, dict) else None
            self.deliver("volcanoes", {"squares": state["volcanoes"],
                                       "plan": plan if isinstance(plan, list) else []})
        self.board_check = state.get("board_check")
        computer_move = state.get("computer_move")  # a move to make on the board for the computer
        self.computer_move = computer_move if isinstance(computer_move, dict) else None
        self.deliver("computer_move", {"move": self.computer_move})
        computer = state.get("computer")  # the seat the computer plays, for "Play a person"
        self.deliver("computer_seat", {"seat": computer if computer in ("red", "blue") else None})
        self.deliver("notebook_allowed", {"allowed": state.get("notebook") is not False})
        self.deliver("replay", {"replay": state.get("replay")})  # a recorded game on the board
        self.deliver("record", {"record": state.get("record")})  # the file a finished game was kept as
        problem = state.get("problem")
        self.deliver("problem", {"code": problem.get("code") if isinstance(problem, dict) else None})
        back = state.get("referee_back")  # the referee restarted (docs/mqtt.md): cleared by a ruling
        self.deliver("referee_back", {"away_s": back.get("away_s") if isinstance(back, dict) else None})
        # The referee sends a board check only while a board (sensors) is attached.
        self.deliver("connection", {"board": "online" if self.board_check is not None else "offline"})
        if self.seat is None:
            self._follow_game(state.get("game"))
            self.contract_phase = state.get("phase")
            if state.get("view"):
                self.ply = state["view"].get("ply", 0)
                self.deliver("view", state["view"])
        self._guidance()
        self._phase()

    def events(self, message: dict[str, Any]) -> None:
        """One ruling's events (already redacted for us by the referee)."""
        for event in message.get("events", ()):
            if isinstance(event, dict):
                self.deliver("event", event)

    def reply(self, reply: dict[str, Any]) -> None:
        """The answer to one of our commands."""
        if reply.get("ok"):
            return
        code = reply.get("code") or ""
        message = reply.get("message", "")
        if code == "invalid-setup":
            status: dict[str, Any] = {"errors": [message]}
            if reply.get("reason"):  # an engine's reason and data: each language words it
                status["refusals"] = [{"rule": "nt-setup", "message": message, "reason": reply["reason"],
                                       "data": reply.get("data") or {}}]
            self.deliver("setup_status", status)
        elif code == "illegal":
            # The referee says "rule: message" (e.g. "two-squares: ...") for a move from a tablet.
            rule, _, text = message.partition(": ")
            if rule in ("movement", "turn", "two-squares", "more-squares", "game-over") or (
                    rule.startswith("nt-")):  # Napoleon's Triumph names its rules nt-...
                self.deliver("refusal", {"rule": rule, "message": text, "move": reply.get("move", ""),
                                         "reason": reply.get("reason", ""), "data": reply.get("data") or {}})
            else:  # not about a move, e.g. "there is no move to take back"
                self.deliver("notice", {"text": message, "code": code,
                                        "known": KNOWN_SENTENCES.get(message, REPLY_NOTICES["illegal"])})
        else:
            self.deliver("notice", {"text": message, "code": code,
                                    "known": REPLY_NOTICES.get(code, OTHER_REFUSAL)})

    def connection(self, name: str, status: str) -> None:
        """A link came up or went down (the referee, or this app's own broker link): "online",
        "offline", or "unpaired" (our link is up, the referee's key is not pinned yet)."""
        self.deliver("connection", {name: status})

    # -- derived ------------------------------------------------------------------------------
    def _guidance(self) -> None:
        check = self.board_check or {}
        mismatch = check and not check.get("matches", True)
        # The referee names squares to fill/clear ("missing"/"extra" in the first contract draft).
        fill = list(check.get("fill", check.get("missing", ()))) if check else []
        clear = list(check.get("clear", check.get("extra", ()))) if check else []
        if self.my_setup is not None:
            missing = set(fill) if check else set(self.my_setup)
            self.deliver("placement", {"sensed": [sq for sq in self.my_setup if sq not in missing]})
        in_game = self.contract_phase == "playing" and (self.moved or self.seat is None)
        if mismatch and in_game:
            plan = check.get("plan")  # board steps as data (firmware_bridge.protocol.board_steps)
            if isinstance(plan, list) and self.computer_move:  # told on its own ("for the computer")
                plan = [step for step in plan if not (isinstance(step, dict) and step.get("color")
                                                      and step.get("square") == self.computer_move.get("square")
                                                      and step.get("to") == self.computer_move.get("to"))]
            self.deliver("guidance", {"clear": clear, "fill": fill,
                                      "plan": plan if isinstance(plan, list) else []})
        else:
            self.deliver("guidance", {})

    def _phase(self) -> None:
        phase = self.contract_phase
        if phase is None:
            return
        if self.seat is None:
            app_phase = {"setup": "setup", "playing": "game", "over": "over"}[phase]
        elif phase == "setup":
            app_phase = "placing" if self.my_setup else "setup"
        elif phase == "playing":
            check = self.board_check or {}
            placing = not self.moved and check and not check.get("matches", True)
            app_phase = "placing" if placing else "game"
        else:
            app_phase = "over"
        self.deliver("phase", {"phase": app_phase})
