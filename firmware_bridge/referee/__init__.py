"""The referee service: the session that owns the game, its journal, clocks, pairing, broker and config."""
