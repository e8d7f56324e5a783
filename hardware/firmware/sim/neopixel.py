"""A stand-in for MicroPython's neopixel module: remembers the colours last written."""


class NeoPixel:
    """A chain of n RGB LEDs on a pin."""

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buffer = [(0, 0, 0)] * n
        self.shown = list(self.buffer)
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        self.buffer[index] = tuple(colour)

    def __getitem__(self, index):
        return self.buffer[index]

    def fill(self, colour):
        """Set every LED."""
        self.buffer = [tuple(colour)] * self.n

    def write(self):
        """Latch the buffer onto the LEDs."""
        self.shown = list(self.buffer)
        self.writes += 1
