"""The referee tells the players where the volcano markers go and checks them where it can."""

from __future__ import annotations

from engine import Square
from firmware_bridge.board.sim_source import SimulatedSource
from firmware_bridge.protocol.client import DisplayClient
from firmware_bridge.referee.service import Referee, RefereeSettings
from hardware.sim.board import SimulatedBoard


def espionage_board(mosquitto, tmp_path, sensed: bool | None):
    board = SimulatedBoard(10, 10)
    referee = Referee(RefereeSettings("volc", tmp_path / "journal.db", mosquitto.url, variant="espionage"))
    referee.attach_board(SimulatedSource(board), volcano_markers_sensed=sensed)
    assert referee.start()
    display = DisplayClient(mosquitto.url, "volc", sign_key=referee.signer.verify_key)
    assert display.start()
    return referee, board, display


def test_a_new_espionage_game_names_the_marker_squares_and_asks_for_sensed_markers(mosquitto, tmp_path):
    referee, board, display = espionage_board(mosquitto, tmp_path, sensed=True)
    try:
        drawn = referee.session.volcanoes
        volcanoes = [s.name for s in sorted(drawn, key=lambda s: (s.rank, s.file))]  # as players read
        assert len(volcanoes) == 4
        assert display.wait(lambda c: c.state is not None and c.state["board_check"] is not None, 10)
        state = display.state
        assert state["phase"] == "setup" and sorted(state["volcanoes"]) == sorted(volcanoes)
        markers = state["volcano_markers"]
        assert markers["sensed"] is True and markers["squares"] == volcanoes
        assert markers["plan"] == [{"action": "marker", "square": v} for v in volcanoes]
        # Nothing stands on the board yet: the check asks for the four markers.
        check = state["board_check"]
        assert not check["matches"] and check["fill"] == volcanoes and check["clear"] == []
        assert check["plan"] == [{"action": "marker", "square": v} for v in volcanoes]
        for number, volcano in enumerate(volcanoes):
            board.place(Square.parse(volcano), 900 + number)
        assert display.wait(lambda c: c.state["board_check"]["matches"], 10), display.state["board_check"]
    finally:
        display.stop()
        referee.stop()


def test_unsensed_markers_are_named_but_a_reading_on_a_volcano_is_a_piece_to_take_off(mosquitto, tmp_path):
    referee, board, display = espionage_board(mosquitto, tmp_path, sensed=False)
    try:
        volcano = referee.session.volcanoes[0]
        assert display.wait(lambda c: c.state is not None and c.state["board_check"] is not None, 10)
        assert display.state["board_check"]["matches"], "no marker is expected under the sensors"
        assert display.state["volcano_markers"]["sensed"] is False
        assert len(display.state["volcano_markers"]["plan"]) == 4  # told all the same
        board.place(volcano)
        assert display.wait(lambda c: c.state["board_check"]["clear"] == [volcano.name], 10)
        assert display.state["board_check"]["plan"] == [{"action": "remove", "square": volcano.name}]
    finally:
        display.stop()
        referee.stop()


def test_classic_has_no_volcano_markers(mosquitto, tmp_path):
    referee = Referee(RefereeSettings("cl", tmp_path / "journal.db", mosquitto.url, variant="classic"))
    assert referee.start()
    display = DisplayClient(mosquitto.url, "cl", sign_key=referee.signer.verify_key)
    try:
        assert display.start()
        assert display.wait(lambda c: c.state is not None, 10)
        assert display.state["volcanoes"] == [] and display.state["volcano_markers"] is None
        assert display.state["moves_per_turn"] == 1
    finally:
        display.stop()
        referee.stop()


def test_the_board_profile_tells_the_referee_whether_markers_are_sensed(tmp_path):
    from firmware_bridge.cli.referee import attach_profile

    profile = tmp_path / "magnets.toml"
    profile.write_text('width = 10\nheight = 10\n[sensor]\nsource = "simulated"\nvolcano_markers_sensed = true\n')
    referee = Referee(RefereeSettings("prof", tmp_path / "journal.db", "mqtt://127.0.0.1:1", variant="espionage"))
    try:
        attach_profile(referee, str(profile))
        assert referee.board.volcano_markers_sensed is True
        assert referee.watcher.volcano_markers_sensed is True
    finally:
        referee.journal.close()
