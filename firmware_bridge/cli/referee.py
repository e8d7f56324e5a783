"""`arbiter referee`: run the referee service for one board until SIGTERM or Ctrl-C."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
import time
from pathlib import Path

from engine.core.errors import ArbiterError
from firmware_bridge.referee.config import ConfigError, RefereeConfig, load_config

log = logging.getLogger("arbiter.referee")
PROCESS_START = time.monotonic()


class JsonFormatter(logging.Formatter):
    """One JSON object per line: what journald and log shippers read best."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"ts": round(record.created, 3), "level": record.levelname.lower(),
                 "logger": record.name, "msg": record.getMessage()}
        for key in ("board", "seq", "game", "seconds"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line; every option overrides the config file."""
    parser = argparse.ArgumentParser(prog="arbiter referee", description=__doc__)
    parser.add_argument("--config", help="TOML config file (see docs/deployment.md)")
    parser.add_argument("--board", help="board name, one MQTT topic level")
    parser.add_argument("--variant", help="classic, barrage, duel, compact, strategy8, espionage, napoleons-triumph")
    parser.add_argument("--broker", help="mqtt://user:pass@host:port or mqtts://...; none: embedded broker")
    parser.add_argument("--port", type=int, help="port of the embedded broker (default 1883)")
    parser.add_argument("--journal", help="journal file (SQLite)")
    parser.add_argument("--profile", help="board profile (hardware/profiles), e.g. 10x10")
    parser.add_argument("--input", choices=("board", "tablets"), help="where moves come from")
    parser.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")
    parser.add_argument("--log-format", choices=("text", "json"))
    parser.add_argument("--log-level", choices=("debug", "info", "warning", "error"))
    parser.add_argument("--computer", choices=("red", "blue"), help="the computer plays this seat")
    parser.add_argument("--level", help="the computer's level: easy, normal, strong")
    parser.add_argument("--no-notebook", action="store_true", help="forbid the players' notebook view")
    parser.add_argument("--replay", metavar="FILE",
                        help="replay a recorded game (JSON record, Gravon XML or GSN) on the board")
    return parser.parse_args(argv)


def build_config(args: argparse.Namespace) -> RefereeConfig:
    """Config file values, overridden by the command line."""
    config = load_config(args.config) if args.config else RefereeConfig(journal="arbiter-journal.db")
    overrides = {"board": args.board, "variant": args.variant, "broker_url": args.broker,
                 "embedded_port": args.port, "journal": args.journal, "profile": args.profile,
                 "log_format": args.log_format, "log_level": args.log_level,
                 "computer": args.computer, "computer_level": args.level}
    for name, value in overrides.items():
        if value is not None:
            setattr(config, name, value)
    if args.input:
        config.board_input = args.input == "board"
    elif args.profile:
        config.board_input = True
    if args.no_announce:
        config.announce = False
    if args.no_notebook:
        config.notebook_allowed = False
    return config.check()


def setup_logging(config: RefereeConfig) -> None:
    """Structured (json) or plain text logs on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    if config.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=config.log_level.upper(), handlers=[handler], force=True)


def main(argv: list[str]) -> int:
    """Run the referee; 0 after a clean stop, 2 for a bad configuration."""
    args = parse_args(argv)
    try:
        config = build_config(args)
        replay_text = read_replay_file(args.replay)
    except ConfigError as error:
        print(f"arbiter referee: {error}", file=sys.stderr)
        return 2
    setup_logging(config)
    from firmware_bridge.protocol.mqtt_link import BrokerURL
    from firmware_bridge.referee.broker import EmbeddedBroker
    from firmware_bridge.referee.service import Referee, RefereeSettings

    embedded = None
    broker_url = config.broker_url
    if not broker_url:
        embedded = EmbeddedBroker("0.0.0.0", config.embedded_port)
        embedded.start()
        broker_url = embedded.url
    settings = RefereeSettings(board=config.board, journal_path=config.journal,
                               broker_url=broker_url, variant=config.variant,
                               moves_per_turn=config.moves_per_turn,
                               time_control=config.time_control, board_input=config.board_input,
                               name=config.title, seat_accounts=config.seat_accounts,
                               ca_file=config.ca_file, computer=config.computer,
                               computer_level=config.computer_level,
                               notebook_allowed=config.notebook_allowed)
    referee = Referee(settings)
    # People compare this with the "Referee:" number on the display (docs/deployment.md).
    log.warning("referee key fingerprint: %s (the referee display must show the same number)",
                referee.signer.fingerprint, extra={"board": config.board})
    if config.board_input and config.profile:
        attach_profile(referee, config.profile)
    if replay_text is not None:
        from firmware_bridge.referee.replay_desk import load_replay

        try:
            load_replay(referee, replay_text, Path(args.replay).name)
        except ArbiterError as error:
            print(f"arbiter referee: cannot replay {args.replay}: {error.message}", file=sys.stderr)
            referee.stop()
            if embedded:
                embedded.stop()
            return 2
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    referee.start(wait=None)
    announcer = None
    if config.announce:
        announcer = start_announcer(config, BrokerURL.parse(broker_url), referee.public_key)
    while not referee.republished_at and not stop.wait(0.01):
        pass
    if referee.republished_at:
        log.info("referee ready: board %s, game %s, ruling %d", config.board,
                 referee.session.game_id, referee.session.seq,
                 extra={"board": config.board, "seq": referee.session.seq,
                        "seconds": round(referee.republished_at - PROCESS_START, 4)})
    stop.wait()
    log.info("stopping")
    if announcer:
        announcer.stop()
    referee.stop()
    if embedded:
        embedded.stop()
    return 0


def read_replay_file(path: str | None) -> str | None:
    """The text of the game file given with --replay (ConfigError when it cannot be read)."""
    if path is None:
        return None
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the game file {path}: {error}") from None


def attach_profile(referee, profile_name: str) -> None:
    """Read moves from the sensors the board profile names."""
    from firmware_bridge.board.snapshots import Stabiliser
    from firmware_bridge.board.sources import open_source
    from hardware.profiles import load_profile

    profile = load_profile(profile_name)
    stabiliser = Stabiliser(debounce_samples=1 if profile.source == "serial" else profile.debounce_scans,
                            quiet_s=profile.quiet_ms / 1000)
    referee.attach_board(open_source(profile), stabiliser, profile.volcano_markers_sensed)


def start_announcer(config: RefereeConfig, url, referee_key: str):
    """Announce the board on the LAN; a failure is logged, never fatal."""
    from firmware_bridge.protocol.discovery import Announcer, local_address

    host = url.host if url.host not in ("127.0.0.1", "localhost", "0.0.0.0") else local_address()
    try:
        announcer = Announcer(config.board, url.port, referee_key, config.title, addresses=[host])
        announcer.start()
        return announcer
    except Exception as error:  # no multicast on this network: tablets type the address instead
        log.warning("zeroconf announcement failed: %s", error)
        return None
