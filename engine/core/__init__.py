"""What every game engine shares: the root error, refusals of actions, record errors."""
