"""The Stratego family: classic Stratego, the smaller armies, the 8x8 game and Espionage."""
