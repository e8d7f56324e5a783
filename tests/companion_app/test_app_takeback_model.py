"""Takebacks and Espionage in the app's model, without Kivy: the network link's commands, the
contract adapter, and what a tablet's state makes of takeback, reveal and pass events."""

from __future__ import annotations

from companion_app.model.table import TableState, passes, restore_steps
from companion_app.net.contract_adapter import ContractTranslator
from companion_app.net.network import SeatLink
from engine import Color, Game, Move, Square, get_variant
from firmware_bridge.protocol import pake


class RecordingClient:
    """Stands in for firmware_bridge.protocol.client.SeatClient: remembers the commands sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    def command(self, command_type: str, **args) -> str:
        self.sent.append((command_type, args))
        return "id"

    def send_code(self, code: str) -> None:
        pake.code_password(code)  # the real client's check: six digits, else nothing goes out
        self.sent.append(("pairing code", {"code": code}))


def test_the_tablet_sends_the_contracts_takeback_commands():
    link = SeatLink("mqtt://localhost:1883/kitchen", "red")
    link.client = RecordingClient()
    link.send("takeback_request")
    link.send("takeback_answer", {"accept": True})
    link.send("takeback_answer", {"accept": False})
    assert [name for name, _ in link.client.sent] == ["offer_takeback", "accept_takeback", "decline_takeback"]


def test_every_app_command_goes_out_as_the_contracts_command_with_its_arguments():
    link = SeatLink("mqtt://localhost:1883/kitchen", "red")
    link.client = RecordingClient()
    link.send("draw_offer")
    link.send("draw_answer", {"accept": False})
    link.send("move", {"move": "a4-a5"})
    link.send("setup", {"setup": {"a1": "flag"}})
    link.send("resign")
    link.send("new_game")
    told: list[tuple[str, dict]] = []
    link._ui = lambda method, payload: told.append((method, payload))
    link.send("pair")  # pairing is no command of a seat, and no code typed is no code sent
    assert told == [("pairing", {"status": "refused", "method": "code", "bad_code": True})]
    link.send("pair", {"code": "123456"})  # a code goes to the pairing exchange, not as a command
    assert link.client.sent == [("offer_draw", {}), ("decline_draw", {}), ("move", {"move": "a4-a5"}),
                                ("setup", {"setup": {"a1": "flag"}}), ("resign", {}), ("new_game", {}),
                                ("pairing code", {"code": "123456"})]


def _fed(seat: str = "blue") -> tuple[TableState, ContractTranslator]:
    state = TableState(seat=seat)
    return state, ContractTranslator(state.apply, seat)


def test_a_pending_takeback_in_the_public_state_asks_the_opponent():
    state, adapter = _fed()
    adapter.public_state({"seats": {}, "takeback_offer": "red", "draw_offer": None})
    assert state.takeback_from == "red"
    adapter.events({"events": [{"type": "takeback_declined", "color": "blue"}]})
    assert state.takeback_from is None and state.takeback_declined_by == "blue"


def test_a_takeback_refused_for_want_of_a_move_is_a_notice_not_a_refused_move():
    state, adapter = _fed()
    adapter.reply({"ok": False, "code": "illegal", "message": "there is no move to take back"})
    assert state.refusal is None
    assert state.notice == "There is no move to take back."  # a catalogue message, shown translated


def test_the_steps_back_after_a_won_attack_name_both_pieces_squares():
    game = Game.from_position(get_variant("classic"), {
        Square.parse("e4"): (Color.RED, "marshal"), Square.parse("e5"): (Color.BLUE, "scout"),
        Square.parse("a1"): (Color.RED, "flag"), Square.parse("j10"): (Color.BLUE, "flag"),
        Square.parse("a10"): (Color.BLUE, "general")})
    game.push(Move.parse("e4-e5"))
    before = game.view(Color.RED).to_dict()
    game.pop()
    after = game.view(Color.RED).to_dict()
    steps = [(step, square) for step, square, _piece in restore_steps(before, after)]
    assert steps == [("off", "e5"), ("on", "e4"), ("on", "e5")]


def test_two_turn_events_in_a_row_mean_the_first_player_passed():
    variant = get_variant("espionage")
    game = Game.from_position(variant, {
        Square.parse("a10"): (Color.BLUE, "sapper"), Square.parse("a9"): (Color.BLUE, "mine"),
        Square.parse("b10"): (Color.BLUE, "mine"), Square.parse("j10"): (Color.BLUE, "headquarters"),
        Square.parse("c2"): (Color.RED, "corporal"), Square.parse("e2"): (Color.RED, "corporal"),
        Square.parse("a1"): (Color.RED, "headquarters")})
    game.push(Move.parse("c2-c3"))
    events = [e.to_dict() for e in game.push(Move.parse("e2-e3"))]
    assert passes(events) == ["blue"]
    state = TableState(seat="red")
    state.apply("view", game.view(Color.RED).to_dict())
    assert state.passed == ["blue"]
    assert game.to_move is Color.RED


def test_a_spys_recognition_is_kept_for_the_message_and_never_reaches_the_opponent_view():
    state = TableState(seat="red")
    reveal = {"type": "reveal", "to": "red", "piece_id": 41, "color": "blue", "kind": "general",
              "square": "h4", "ply": 3}
    state.apply("view", {"ply": 3, "pieces": [], "last_events": [reveal, reveal]})
    assert state.reveals == [reveal]
    assert state.kinds_by_id[41] == ("blue", "general")
