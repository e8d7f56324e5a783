"""The computer player (issue 13): a seat like a tablet that plays against a family member.

`ComputerPlayer` is the entry point; `players` holds the baselines, `match` the `arbiter match`
command and `ucc` the UCC 2012 programming-competition protocol in both directions.
"""

from firmware_bridge.bot.levels import LEVELS, Level
from firmware_bridge.bot.player import ComputerPlayer

__all__ = ["LEVELS", "ComputerPlayer", "Level"]
