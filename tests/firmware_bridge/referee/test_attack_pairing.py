"""Pairing that nobody in the middle can hijack, and no trust taken from ``info``.

Issue 19's second attack: a stranger flooding a self-signed ``info`` made freshly started displays
pin its key and show its "game over"; worse, an unpaired tablet took the referee's encryption key
from that ``info``, so the stranger stood in the middle of the pairing, asked the real referee for
the seat itself, forwarded the code the player typed, got the seat and read the player's secret
setup. Now the code (or the two squares the player covers) is the password of a SPAKE2 exchange
bound to both ends' identities, and the referee's keys reach the tablet sealed under its key.
"""

from __future__ import annotations

import json
import threading
import time

from engine import Square
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol import contract, crypto, pairing_contract, pake
from firmware_bridge.protocol.client import DisplayClient, SeatClient
from firmware_bridge.protocol.pairing_client import PairingClient
from firmware_bridge.protocol.signing import PublicSigner
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard
from tests.firmware_bridge.attackers import Stranger
from tests.firmware_bridge.helpers import pair_by_code, setup_dict, wait_until

FLOOD_RATE, FLOOD_SECONDS = 100, 3.0  # the flood: 100 forged infos a second for 3 s


def test_a_self_signed_info_flood_while_a_display_and_a_tablet_pair_for_the_first_time(broker_url, tmp_path):
    referee = Referee(RefereeSettings("b1", tmp_path / "journal.db", broker_url, variant="barrage"))
    assert referee.start()
    stranger = Stranger(broker_url)
    forger = PublicSigner.generate()
    topics = referee.topics
    info = {"v": 1, "board": "b1", "referee_key": crypto.key_to_text(crypto.PrivateKey.generate().public_key),
            "variant": "barrage", "sign_key": forger.verify_key, "board_": None}
    info.pop("board_")
    forged_info = forger.sign(topics.info, contract.json_text(info))
    over = {"v": 1, "board": "b1", "game": "f" * 16, "seq": 99, "phase": "over", "view": None, "seats": {},
            "run": 10 ** 6, "n": 1}
    forged_state = forger.sign(topics.state, contract.json_text(over))
    stop = threading.Event()

    def flood() -> None:
        start, sent = time.monotonic(), 0
        while not stop.is_set() and time.monotonic() - start < FLOOD_SECONDS:
            while sent < (time.monotonic() - start) * FLOOD_RATE:
                stranger.link.publish(topics.info, forged_info, retain=True)
                stranger.link.publish(topics.state, forged_state, retain=True)
                sent += 1
            stop.wait(0.01)

    flooding = threading.Thread(target=flood, daemon=True)
    flooding.start()
    display = DisplayClient(broker_url, "b1")
    tablet = SeatClient(broker_url, "b1", name="Anna")
    try:
        for client in (display, tablet):
            assert client.start()
        pair_by_code(referee, tablet, "red")
        pair_by_code(referee, display)
        flooding.join()
        real = referee.signer.verify_key
        assert display.pin.key == real and tablet.pin.key == real, "a client pinned the stranger's key"
        assert tablet.referee_key == referee.public_key
        display.hello("manual")
        assert display.wait(lambda c: c.state is not None and c.info is not None, 10)
        assert display.state["phase"] == "setup" and display.info["sign_key"] == real
        assert tablet.wait(lambda c: c.public_state is not None and c.public_state["phase"] == "setup", 10)
    finally:
        stop.set()
        for client in (display, tablet):
            client.stop()
        stranger.stop()
        referee.stop()


class Relay:
    """A stranger in the middle of a pairing, as the issue's attacker: it reads the tablet's request,
    asks the referee for the same seat with keys of its own, passes the tablet's SPAKE2 message
    on as its own attempt and the referee's answer back, and answers the tablet as a referee too."""

    def __init__(self, url: str, topics: contract.Topics, guess: bytes) -> None:
        self.topics, self.guess = topics, guess
        self.stranger = Stranger(url, name="relay")
        self.mine = PairingClient(topics, "relay", crypto.PrivateKey.generate(), self.stranger.link.publish)
        self.signer = PublicSigner.generate()  # it signs "as the referee" with a key of its own
        self.tablet: dict | None = None
        self.granted: list[dict] = []
        self.lock = threading.Lock()
        link = self.stranger.link
        link.subscribe(topics.pair_request, self._request)
        link.subscribe(f"{topics.base}/pair/+/code", self._attempt)
        link.subscribe(topics.pair_reply("relay"), self._answer_to_me)

    def _request(self, _topic: str, raw: bytes) -> None:
        request = json.loads(raw)
        if request["client"] == "relay" or self.tablet is not None:
            return
        with self.lock:
            self.tablet = request
            self.mine.ask(request["seat"], request.get("name", ""), request["method"])

    def _attempt(self, topic: str, raw: bytes) -> None:
        attempt = json.loads(raw)
        tablet = self.tablet
        if tablet is None or topic != self.topics.pair_code(tablet["client"]) or attempt["step"] != "start":
            return
        with self.lock:
            # Its own request, with the tablet's SPAKE2 message.
            self.mine.attempt += 1
            self.mine.publish(self.topics.pair_code("relay"), self.mine.asker.sign(
                self.topics.pair_code("relay"), contract.json_text({
                    "v": 2, "asker": self.mine.asker.verify_key, "step": "start", "attempt": self.mine.attempt,
                    "pake": attempt["pake"]})))
            # And an answer to the tablet, as if it were the referee, with a guessed password.
            ids = pake.Identities(self.topics.board, tablet["seat"], tablet["client"], tablet["key"], tablet["asker"])
            message, keys = pake.referee_answer(self.guess, ids, attempt["pake"])
            self._to_tablet(attempt["attempt"], message, keys.confirmation("referee"))
            self.tablet_attempt = attempt["attempt"]

    def _to_tablet(self, attempt: int, message: str, confirm: str) -> None:
        tablet = self.tablet
        assert tablet is not None
        topic = self.topics.pair_reply(tablet["client"])
        body = pairing_contract.reply("pake", tablet["seat"], asker=tablet["asker"], attempt=attempt,
                                      pake=message, confirm=confirm)
        self.stranger.link.publish(topic, self.signer.sign(topic, contract.json_text(body)))

    def _answer_to_me(self, _topic: str, raw: bytes) -> None:
        with self.lock:
            outcome = self.mine.on_reply(raw)  # its own exchange goes as far as it can
        if outcome and outcome[0] == "granted":
            self.granted.append(outcome[1])
        reply = json.loads(raw)
        if reply.get("status") == "granted":
            self.granted.append(reply)
        if reply.get("status") == "pake" and self.tablet is not None:  # passed on to the tablet
            self._to_tablet(self.tablet_attempt, reply["pake"], reply["confirm"])

    def stop(self) -> None:
        self.stranger.stop()


def test_a_relay_in_the_middle_of_a_code_pairing_learns_nothing_and_gets_no_seat(broker_url, tmp_path):
    referee = Referee(RefereeSettings("b1", tmp_path / "journal.db", broker_url, variant="barrage"))
    assert referee.start()
    relay = Relay(broker_url, referee.topics, pake.code_password("123456"))
    tablet = SeatClient(broker_url, "b1", name="Anna")
    codes: dict[str, list[str]] = {}
    referee.on_pairing_code = lambda seat, code: codes.setdefault(seat, []).append(code)
    try:
        assert tablet.start()
        tablet.pair("red")
        assert tablet.wait(lambda c: (c.last_pairing or {}).get("method") == "code", 10)
        assert wait_until(lambda: len(codes.get("red", [])) == 2), "the relay's request got no code"
        players_code = codes["red"][0]  # the line beside the tablet's name and key on the console
        tablet.send_code(players_code)
        assert tablet.wait(lambda c: c.paired, 10), tablet.last_pairing
        assert tablet.pin.key == referee.signer.verify_key and tablet.referee_key == referee.public_key
        assert referee.session.seats["red"].key == crypto.key_to_text(tablet.key.public_key)
        command_id = tablet.setup(setup_dict("barrage", "red", 3))
        assert tablet.wait(lambda c: command_id in c.replies and c.replies[command_id]["ok"], 10)
        assert relay.granted == [] and (relay.mine.status or {}).get("status") != "granted"
        # No code ever crossed the network, in any form: only SPAKE2 messages and sealed boxes.
        for _topic, payload in relay.stranger.messages:
            assert all(f'"{code}"'.encode() not in payload for code in codes["red"])
    finally:
        tablet.stop()
        relay.stop()
        referee.stop()


def test_a_relay_in_the_middle_of_a_presence_pairing_gets_no_seat(broker_url, tmp_path):
    board = SimulatedBoard(10, 10)
    referee = Referee(RefereeSettings("b1", tmp_path / "journal.db", broker_url, variant="barrage"))
    referee.attach_board(SimulatedSource(board))
    assert referee.start()
    assert wait_until(lambda: referee.occupancy is not None)
    relay = Relay(broker_url, referee.topics, pake.squares_password(["e5", "f5"]))
    tablet = SeatClient(broker_url, "b1", name="Anna")
    try:
        assert tablet.start()
        tablet.pair("red")
        assert tablet.wait(lambda c: (c.last_pairing or {}).get("squares"), 10), tablet.last_pairing
        squares = tablet.last_pairing["squares"]
        # The relay asks too, with two squares of its own choosing (its guess).
        assert wait_until(lambda: relay.mine.squares is not None)
        for name in squares:
            board.place(Square.parse(name))
        assert tablet.wait(lambda c: c.paired, 10), tablet.last_pairing
        assert tablet.pin.key == referee.signer.verify_key
        assert referee.session.seats["red"].key == crypto.key_to_text(tablet.key.public_key)
        assert relay.granted == []
    finally:
        tablet.stop()
        relay.stop()
        referee.stop()
