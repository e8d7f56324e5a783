"""The simulated sensor grid: virtual board, hands that move tokens with faults, a pty server, `arbiter sim`."""
