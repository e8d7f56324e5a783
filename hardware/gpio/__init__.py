"""The switch matrix on the Pi's own GPIO, over gpiozero's pin factories."""
