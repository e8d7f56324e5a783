"""Stand-ins for MicroPython's hardware modules (machine, neopixel, micropython) under CPython.

Put this directory first on sys.path (see hardware.firmware.sim.activate) and the firmware's
own `import machine` gets these, so the same firmware code runs in the tests.
"""

import os
import sys

SIM_DIR = os.path.dirname(os.path.abspath(__file__))


def activate() -> None:
    """Make `import machine` / `import neopixel` resolve to the stand-ins."""
    if SIM_DIR not in sys.path:
        sys.path.insert(0, SIM_DIR)
