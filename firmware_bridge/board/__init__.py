"""Reading the physical board: sensor sources, stable snapshots, move recognition, guidance."""
