"""`arbiter convert IN OUT`: convert a game between our JSON record, Gravon XML and GSN."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import NoReturn

from engine.core.errors import ArbiterError
from engine.stratego.formats import FORMATS, dump, load

EXTENSIONS = {f".{name}": name for name in FORMATS}


class _Usage(ArbiterError):
    """A mistake in the command line, said in one line."""

    code = "usage"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)


def output_format(out: str, to: str | None) -> str:
    """The format to write: `--to`, else OUT's extension (required when OUT is `-`)."""
    if to is not None:
        return to
    if out == "-":
        raise _Usage("writing to standard output needs --to json|xml|gsn")
    extension = Path(out).suffix.lower()
    if extension not in EXTENSIONS:
        raise _Usage(f"cannot tell the format from {out!r}: name it .json, .xml or .gsn, or give --to")
    return EXTENSIONS[extension]


def main(argv: list[str]) -> int:
    """Convert; exit 0 when written, 2 (and one line on stderr) when not."""
    parser = _Parser(prog="arbiter convert", description=__doc__)
    parser.add_argument("source", metavar="IN", help="a game: JSON record, Gravon XML or GSN; - reads stdin")
    parser.add_argument("target", metavar="OUT", help="where to write; - writes stdout")
    parser.add_argument("--to", choices=FORMATS, help="the output format (default: OUT's extension)")
    try:
        args = parser.parse_args(argv)
        to = output_format(args.target, args.to)
        text = _read(args.source)
        converted = dump(load(text), to)
    except _Usage as error:
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot read {error.filename}: {error.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{args.source} is not UTF-8 text")
    except ArbiterError as error:
        return _fail(str(error))
    try:
        if args.target == "-":
            sys.stdout.write(converted)
        else:
            Path(args.target).write_text(converted, encoding="utf-8")
    except OSError as error:
        return _fail(f"cannot write {args.target}: {error.strerror}")
    return 0


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    return Path(source).read_text(encoding="utf-8")


def _fail(message: str) -> int:
    print(f"arbiter convert: {' '.join(message.split())}", file=sys.stderr)
    return 2
