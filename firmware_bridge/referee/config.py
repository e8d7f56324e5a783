"""The referee's config file (TOML), e.g. /etc/arbiter/referee.toml::

    [board]
    name = "kitchen"            # topic level: arbiter/v1/kitchen/...
    title = "Kitchen table"
    profile = "10x10"           # hardware/profiles: sensor source, size, LEDs
    input = "board"             # board (moves from the sensors) | tablets (no board attached)

    [game]
    variant = "classic"
    moves_per_turn = 1          # optional, Espionage only: the one-move option (default 2)
    game_time = "90m"           # optional: total game time, a draw when it runs out
    player_time = "10m+5s"      # optional: each player's clock and increment, loss on time
    computer = "blue"           # optional: the computer plays this seat (red | blue)
    computer_level = "normal"   # optional: easy | normal | strong
    notebook = false            # optional: forbid the players' notebook view (default: allowed)

    [broker]
    url = "mqtt://referee:secret@localhost:1883"   # omit: an embedded broker on port 1883
    embedded_port = 1883
    ca_file = "/etc/ssl/certs/ca-certificates.crt" # for mqtts://

    [broker.seats]              # broker accounts handed to tablets at pairing
    red = "password-of-red"
    blue = "password-of-blue"

    [journal]
    path = "/var/lib/arbiter/journal.db"

    [log]
    level = "info"
    format = "json"             # json (one object a line, for journald) | text

    [announce]
    enabled = true              # zeroconf _arbiter._tcp on the LAN
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from engine import variant_names
from engine.core.errors import ArbiterError
from firmware_bridge.protocol.contract import ContractError, check_board_name
from firmware_bridge.protocol.mqtt_link import BrokerURL
from firmware_bridge.protocol.triumph_contract import VARIANT as TRIUMPH
from firmware_bridge.referee.clocks import TimeControl
from firmware_bridge.referee.computer_seat import check_computer
from firmware_bridge.referee.game_options import game_variant

KNOWN = {
    "board": {"name", "title", "profile", "input"},
    "game": {"variant", "moves_per_turn", "game_time", "player_time", "computer", "computer_level",
             "notebook"},
    "broker": {"url", "embedded_port", "ca_file", "seats"},
    "journal": {"path"},
    "log": {"level", "format"},
    "announce": {"enabled"},
}


class ConfigError(ArbiterError, ValueError):
    """A config file the referee cannot run with; the message says what to fix."""

    code = "bad-config"


@dataclass
class RefereeConfig:
    """The referee's settings, from the config file and the command line."""

    board: str = "board1"
    title: str = ""
    profile: str | None = None
    board_input: bool = False
    variant: str = "classic"
    moves_per_turn: int | None = None  # None: the variant's own
    time_control: TimeControl = field(default_factory=TimeControl)
    computer: str | None = None  # the seat the computer plays, None: two people
    computer_level: str = "normal"
    notebook_allowed: bool = True
    broker_url: str | None = None
    embedded_port: int = 1883
    ca_file: str | None = None
    seat_accounts: dict[str, tuple[str, str]] = field(default_factory=dict)
    journal: str = "/var/lib/arbiter/journal.db"
    log_level: str = "info"
    log_format: str = "text"
    announce: bool = True

    def check(self) -> RefereeConfig:
        """Raise ConfigError for values the referee cannot use."""
        try:
            check_board_name(self.board)
        except ContractError as error:
            raise ConfigError(str(error)) from None
        if self.variant == TRIUMPH:
            self._check_triumph()
        elif self.variant not in variant_names():
            known = ", ".join([*variant_names(), TRIUMPH])
            raise ConfigError(f"unknown variant {self.variant!r} (known: {known})")
        try:
            if self.variant != TRIUMPH:
                game_variant(self.variant, self.moves_per_turn)
        except ValueError as error:
            raise ConfigError(f"game.moves_per_turn: {error}") from None
        if self.broker_url:
            try:
                BrokerURL.parse(self.broker_url)
            except ValueError as error:
                raise ConfigError(str(error)) from None
        try:
            check_computer(self.computer, self.computer_level)
        except ValueError as error:
            raise ConfigError(f"game.computer: {error}") from None
        if self.log_format not in ("text", "json"):
            raise ConfigError("log.format is json or text")
        return self


    def _check_triumph(self) -> None:
        """Napoleon's Triumph is entered on the tablets, by two people, without game options."""
        if self.board_input or self.profile:
            raise ConfigError(f"{TRIUMPH} is played without sensors (board.input = \"tablets\", no "
                              "profile): a sensor grid cannot count the blocks in a locale")
        if self.computer not in (None, "off"):
            raise ConfigError(f"game.computer: {TRIUMPH} has no computer player yet")
        if self.moves_per_turn is not None:
            raise ConfigError(f"game.moves_per_turn: {TRIUMPH} has no such option")


def load_config(path: str | Path) -> RefereeConfig:
    """Read a config file; unknown sections or keys are errors (a typo must not pass silently)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"no config file at {path}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    for section, values in data.items():
        if section not in KNOWN:
            raise ConfigError(f"{path}: unknown section [{section}]")
        unknown = set(values) - KNOWN[section]
        if unknown:
            raise ConfigError(f"{path}: unknown keys in [{section}]: {', '.join(sorted(unknown))}")
    board, game = data.get("board", {}), data.get("game", {})
    broker, log, journal = data.get("broker", {}), data.get("log", {}), data.get("journal", {})
    try:
        time_control = TimeControl.parse(game.get("game_time"), game.get("player_time"))
    except ValueError as error:
        raise ConfigError(f"{path}: {error}") from None
    if board.get("input", "board" if board.get("profile") else "tablets") not in ("board", "tablets"):
        raise ConfigError(f"{path}: board.input is board or tablets")
    if not isinstance(game.get("notebook", True), bool):
        raise ConfigError(f"{path}: game.notebook is true or false")
    seats = broker.get("seats", {})
    if set(seats) - {"red", "blue"}:
        raise ConfigError(f"{path}: [broker.seats] names only red and blue")
    config = RefereeConfig(
        board=board.get("name", "board1"), title=board.get("title", ""),
        profile=board.get("profile"),
        board_input=board.get("input", "board" if board.get("profile") else "tablets") == "board",
        variant=game.get("variant", "classic"), moves_per_turn=game.get("moves_per_turn"),
        time_control=time_control,
        computer=game.get("computer"), computer_level=game.get("computer_level", "normal"),
        notebook_allowed=game.get("notebook", True) is not False,
        broker_url=broker.get("url"), embedded_port=int(broker.get("embedded_port", 1883)),
        ca_file=broker.get("ca_file"),
        seat_accounts={seat: (seat, password) for seat, password in seats.items()},
        journal=journal.get("path", "/var/lib/arbiter/journal.db"),
        log_level=log.get("level", "info"), log_format=log.get("format", "text"),
        announce=data.get("announce", {}).get("enabled", True))
    try:
        return config.check()
    except ConfigError as error:
        raise ConfigError(f"{path}: {error}") from None
