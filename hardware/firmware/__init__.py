"""Reference scanner firmware for an RP2040 running MicroPython (also runs under CPython in tests)."""
