"""What a tablet knows, as plain Python: its table state, setups being arranged, replays, settings."""
