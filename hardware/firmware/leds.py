"""Guidance LEDs: one addressable LED per square on a chain (WS2812 via neopixel).

Valid MicroPython and CPython.
"""

try:
    from hardware.firmware import protocol
except ImportError:  # on the RP2040 the modules sit side by side
    import protocol  # type: ignore[no-redef]


def chain_index(square, width, serpentine=True):
    """Position on the LED chain of a square index, for a chain laid rank by rank."""
    rank, file = divmod(square, width)
    if serpentine and rank % 2 == 1:
        file = width - 1 - file
    return rank * width + file


class LedChain:
    """Shows the host's colour codes on a NeoPixel-like chain (setitem + write)."""

    def __init__(self, pixels, width, height, serpentine=True):
        self.pixels = pixels
        self.width = width
        self.height = height
        self.serpentine = serpentine
        self.colours = [protocol.LED_OFF] * (width * height)

    def show(self, colours):
        """Light every square with its colour code and latch the chain."""
        self.colours = list(colours)
        for square, code in enumerate(colours):
            self.pixels[chain_index(square, self.width, self.serpentine)] = protocol.LED_COLOURS[code]
        self.pixels.write()
