"""A wrong code typed on a display (or a tablet) is told as such, with the tries the referee leaves.

The client learns it from the referee's answer, which does not confirm: its refusal names the
reason ("wrong-code", with ``tries_left``) for the app to say in its language, and once no try is
left, that the request is spent ("too-many-codes"): typing again would be refused.
"""

from __future__ import annotations

from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.pairing import TRIES
from firmware_bridge.referee.service import Referee, RefereeSettings


def test_each_wrong_code_says_the_tries_left_and_the_last_that_none_are(embedded, tmp_path):
    referee = Referee(RefereeSettings("b1", tmp_path / "journal.db", embedded.url))
    assert referee.start()
    codes: dict[str, str] = {}
    referee.on_pairing_code = lambda seat, code: codes.__setitem__(seat, code)
    display = DisplayClient(embedded.url, "b1")
    try:
        assert display.start()
        display.pair()
        assert display.wait(lambda c: (c.last_pairing or {}).get("status") == "challenge", 10)
        wrong = f"{(int(codes['display']) + 1) % 10 ** 6:06d}"
        told = []
        for _ in range(TRIES):
            before = display.last_pairing
            display.send_code(wrong)
            # (a repeated challenge, the answer to a repeated request, may come first)
            assert display.wait(lambda c, b=before: c.last_pairing is not b
                                and c.last_pairing["status"] == "refused", 10), display.last_pairing
            told.append((display.last_pairing["reason"], display.last_pairing["data"]))
        assert told == [("wrong-code", {"tries_left": TRIES - n}) for n in range(1, TRIES)] + [("too-many-codes", {})]
        assert not display.paired
    finally:
        display.stop()
        referee.stop()
