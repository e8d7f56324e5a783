"""`arbiter sim`: a simulated board on a pseudo-terminal, driven from stdin or by self-play."""

import subprocess
import sys
import time

import serial

from firmware_bridge.board.serial_link import SerialLink


def start_sim(*args: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen([sys.executable, "-m", "firmware_bridge.cli.main", "sim", *args],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    assert first.startswith("simulated "), first
    return process, first.rsplit(" on ", 1)[1].strip()


def test_the_sim_serves_a_board_a_serial_program_can_open_and_obeys_commands():
    process, device = start_sim("--variant", "strategy8", "--seed", "2")
    try:
        serial.Serial(device, 115200, timeout=0.1).close()  # it is a real serial device
        link = SerialLink(device, retry_s=0.05)
        link.start()
        try:
            assert link.wait_connected(5) and link.info.width == 8
            process.stdin.write("move a3 a4\nfly a3\nshow\n")
            process.stdin.flush()
            assert process.stdout.readline().strip() == "ok"
            assert process.stdout.readline().startswith("unknown command 'fly'")
            assert process.stdout.readline().startswith(" 8 ")
        finally:
            link.stop()
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(timeout=5) == 0
    finally:
        process.kill()


def test_self_play_moves_pieces_by_hand_and_exits():
    started = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "sim", "--variant", "barrage",
                             "--seed", "4", "--selfplay", "2", "--faults"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("played ") == 2 and "self-play done: 2 moves" in result.stdout
    assert time.monotonic() - started < 30


def test_an_unknown_variant_is_a_clear_error():
    result = subprocess.run([sys.executable, "-m", "firmware_bridge.cli.main", "sim", "--variant", "chess"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2 and "chess" in result.stderr
