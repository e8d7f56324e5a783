"""Replays: a genuine signed (or sealed) message of the referee, sent again later, changes nothing.

Issue 19's first attack, by a stranger on the anonymous broker: during game 2 it republished game 1's
final ``state`` and ``game_end`` event (the display went back to "blue wins by resignation", and,
retained, stayed so for whoever connected), game 1's sealed ``seat/red/state`` (red's tablet went
back to game 1), an older ``state`` of the running game (a declined draw offer came back on the
tablets) and the referee's "offline" presence (the same bytes every time). Each message now carries
a stamp (board, the referee's run, a growing number, the game's number): clients drop what is older
than what they hold, and the referee publishes its current message over a replayed retained one.
"""

from __future__ import annotations

import random

from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.service import Referee, RefereeSettings
from tests.firmware_bridge.attackers import Stranger
from tests.firmware_bridge.helpers import start_table, submit_setups, wait_until


def watch(client) -> list[dict]:
    """Every public state and event message the client lets through, from now on."""
    seen: list[dict] = []
    client.on_state = seen.append
    client.on_events = seen.append
    return seen


def test_an_old_games_state_event_and_seat_state_replayed_during_the_next_game_change_nothing(broker_url, tmp_path):
    table = start_table(broker_url, tmp_path / "journal.db")
    stranger = Stranger(broker_url)
    try:
        topics = table.referee.topics
        submit_setups(table)
        resigned = table.red.resign()
        assert table.red.wait(lambda c: resigned in c.replies, 10)
        old_game = table.referee.session.game_id
        assert table.display.wait(lambda c: c.state["phase"] == "over", 10)
        assert wait_until(lambda: stranger.heard(topics.events, b"game_end")
                          and stranger.heard(topics.state, b'"phase":"over"') and stranger.heard(topics.seat_state("red")))
        final_state = stranger.heard(topics.state, b'"phase":"over"')[-1]
        game_end = stranger.heard(topics.events, b"game_end")[-1]
        red_state = stranger.heard(topics.seat_state("red"))[-1]
        # Game 2.
        started = table.red.new_game()
        assert table.red.wait(lambda c: started in c.replies and c.replies[started]["ok"], 10)
        new_game = table.referee.session.game_id
        assert new_game != old_game
        for client in (table.display, table.red):
            assert client.wait(lambda c: c.state and c.state["game"] == new_game, 10)
        shown = {client: watch(client) for client in (table.display, table.red)}

        stranger.replay(topics.state, final_state, retain=True)
        stranger.replay(topics.events, game_end)
        stranger.replay(topics.seat_state("red"), red_state, retain=True)
        # The referee publishes its current state over the replayed retained ones.
        assert wait_until(lambda: stranger.heard(topics.state)[-1] != final_state
                          and stranger.heard(topics.seat_state("red"))[-1] != red_state), \
            "the replayed retained messages stayed on the broker"
        late = DisplayClient(broker_url, topics.board, sign_key=table.referee.signer.verify_key)
        late_shown = watch(late)
        assert late.start()
        assert late.wait(lambda c: c.state is not None and c.state["game"] == new_game, 10)
        table.display.hello("manual")  # one more round of genuine messages after the replays
        for client in (table.display, table.red, late):
            assert client.wait(lambda c: c.state["game"] == new_game and c.state["phase"] == "setup", 10)
        for messages in [*shown.values(), late_shown]:
            assert all(m["game"] == new_game for m in messages), "a client showed game 1 again"
        assert table.display.state["view"] is None and table.red.state["game"] == new_game
        late.stop()
    finally:
        stranger.stop()
        table.close()


def test_an_older_state_of_the_running_game_does_not_bring_a_declined_draw_offer_back(broker_url, tmp_path):
    table = start_table(broker_url, tmp_path / "journal.db")
    stranger = Stranger(broker_url)
    try:
        topics = table.referee.topics
        submit_setups(table)
        offered = table.red.offer_draw()
        assert table.red.wait(lambda c: offered in c.replies, 10)
        assert wait_until(lambda: stranger.heard(topics.state, b'"draw_offer":"red"'))
        with_offer = stranger.heard(topics.state, b'"draw_offer":"red"')[-1]
        declined = table.blue.decline_draw()
        assert table.blue.wait(lambda c: declined in c.replies and c.replies[declined]["ok"], 10)
        for client in (table.red, table.blue):
            assert client.wait(lambda c: c.public_state and c.public_state["draw_offer"] is None, 10)
        assert table.display.wait(lambda c: c.state["draw_offer"] is None, 10)
        offers: list = []  # the draw offer in every public state a client takes from now on
        for client in (table.red, table.blue):
            client.on_public_state = lambda state: offers.append(state["draw_offer"])
        table.display.on_state = lambda state: offers.append(state["draw_offer"])

        stranger.replay(topics.state, with_offer, retain=True)
        assert wait_until(lambda: stranger.heard(topics.state)[-1] != with_offer)
        table.display.hello("manual")
        assert wait_until(lambda: len(offers) >= 3), "the referee's current state did not follow"
        seq = table.referee.session.seq
        for client in (table.red, table.blue):
            assert client.wait(lambda c: c.public_state["seq"] == seq, 10)
            assert client.public_state["draw_offer"] is None
        assert table.display.state["draw_offer"] is None
        assert offers and "red" not in offers, "the declined draw offer came back"
    finally:
        stranger.stop()
        table.close()


def test_the_referees_offline_presence_replayed_later_does_not_show_it_gone(broker_url, tmp_path):
    journal = tmp_path / "journal.db"
    table = start_table(broker_url, journal)
    stranger = Stranger(broker_url)
    presence = table.referee.topics.presence("referee")
    try:
        # The referee stops (its farewell: offline, signed) and starts again.
        table.referee.stop()
        assert wait_until(lambda: stranger.heard(presence, b'"online":false'))
        farewell = stranger.heard(presence, b'"online":false')[-1]
        assert table.display.wait(lambda c: not c.referee_online, 10)
        table.referee = Referee(RefereeSettings("b1", journal, broker_url, variant="barrage"))
        assert table.referee.start()
        for client in (table.display, table.red, table.blue):
            assert client.wait(lambda c: c.referee_online, 10)
        online: list[bool] = []  # what each client believes after every presence message it reads
        for client in (table.display, table.red, table.blue):
            client.link.subscribe(presence, lambda _t, _p, c=client: online.append(c.referee_online))
        stranger.replay(presence, farewell, retain=True)
        assert wait_until(lambda: stranger.heard(presence)[-1] != farewell), "the old farewell stayed retained"
        table.display.hello("manual")
        rng = random.Random(5)
        submit_setups(table, seed=rng.randrange(100))
        for client in (table.display, table.red, table.blue):
            assert client.referee_online
        assert online and all(online), "a replayed farewell showed the referee gone"
    finally:
        stranger.stop()
        table.close()
