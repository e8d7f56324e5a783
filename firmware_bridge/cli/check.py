"""`arbiter check FILE`: replay a game (JSON record, Gravon XML or GSN) and print one JSON verdict."""

from __future__ import annotations

import argparse
import json
import sys

from engine.core.errors import RecordError
from engine.stratego.formats import record_data
from engine.stratego.gravon import GravonError
from engine.stratego.records import check_record
from engine.triumph.records import GAME_NAME, check_triumph_record


def main(argv: list[str]) -> int:
    """Print the verdict; exit 0 when the record was read, 2 when it is not a valid record."""
    parser = argparse.ArgumentParser(prog="arbiter check", description=__doc__)
    parser.add_argument("record", help="a game record (JSON), Gravon XML or GSN; - reads standard input")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            text = sys.stdin.read()
        else:
            with open(args.record, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"arbiter check: cannot read {args.record}: {error.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"arbiter check: {args.record} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        data = record_data(text)
        is_triumph = isinstance(data, dict) and data.get("game") == GAME_NAME
        verdict = check_triumph_record(data) if is_triumph else check_record(data)
    except (json.JSONDecodeError, RecursionError) as error:
        print(f"arbiter check: not JSON: {error}", file=sys.stderr)
        return 2
    except RecordError as error:
        print(f"arbiter check: not a valid record: {error}", file=sys.stderr)
        return 2
    except GravonError as error:
        print(f"arbiter check: not a readable Gravon game: {error}", file=sys.stderr)
        return 2
    print(json.dumps(verdict))
    return 0
