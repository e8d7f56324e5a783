"""Count the setups of the Gravon archive's classic games: the table behind the classic prior.

Reads the archive's game files (`.xml` or `.gsn`, loose or inside the monthly `strados2` zips
the archive published), keeps the classic games whose setups our reader accepts, and counts for
every square of a side's zone, in that side's own coordinates (depth 0 its back row, file 0 its
left), how often each kind started there. Writes the table as a Python module
(`engine/stratego/notebook/gravon_classic.py`: the engine reads no files) and, with
`--boards`, the setups of the skipped months as board lines for the hold-out test
(`tests/engine/stratego/notebook/data/gravon_classic_boards.txt`).

Run: .venv/bin/python bench/count_gravon_setups.py strados2014-*.zip ... [--skip 2015.2]
         [--out engine/stratego/notebook/gravon_classic.py] [--boards FILE --board-count 60]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.stratego.gravon import GRAVON_KINDS, GravonError, board_to_string, read_gravon  # noqa: E402
from engine.stratego.notebook.library import owner_index  # noqa: E402
from engine.stratego.pieces import Color  # noqa: E402
from engine.stratego.variants import get_variant  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEPTHS, FILES = 4, 10
CLASSIC = get_variant("classic")
LETTERS = "BCDEFGHIJKLM"  # one letter a kind, in the order of GRAVON_KINDS (Red's letters)


def archive_files(paths: list[str]) -> Iterator[tuple[str, str]]:
    """(file name, text) of every game file in these paths, zips opened."""
    for path in paths:
        if path.endswith(".zip"):
            if not zipfile.is_zipfile(path):
                print(f"{path}: not a zip file, skipped", file=sys.stderr)
                continue
            with zipfile.ZipFile(path) as archive:
                for name in sorted(archive.namelist()):
                    if name.endswith((".xml", ".gsn")):
                        yield name, archive.read(name).decode("utf-8", errors="replace")
        else:
            yield Path(path).name, Path(path).read_text(encoding="utf-8", errors="replace")


def month_of(name: str) -> str:
    """The archive month of a file name such as classic-2015.2-349.xml ("2015.2")."""
    match = re.search(r"(\d{4})[.-](\d{1,2})", name)
    return f"{match.group(1)}.{int(match.group(2))}" if match else ""


def main() -> int:
    """Count, write the module and, if asked, the hold-out boards."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="archive files or zips of them")
    parser.add_argument("--skip", default="", help="months not counted, comma-separated (2015.2)")
    parser.add_argument("--out", default=str(ROOT / "engine/stratego/notebook/gravon_classic.py"))
    parser.add_argument("--boards", default="", help="write the skipped months' boards here")
    parser.add_argument("--board-count", type=int, default=60)
    parser.add_argument("--sample", type=int, default=1000, help="whole setups kept for the library")
    parser.add_argument("--seed", type=int, default=2015)
    args = parser.parse_args()
    skipped = set(filter(None, args.skip.split(",")))
    counts = {kind: [0] * (DEPTHS * FILES) for kind in GRAVON_KINDS}
    games = setups = unreadable = 0
    months: set[str] = set()
    held_out: list[str] = []
    counted: list[str] = []
    for name, text in archive_files(args.files):
        try:
            game = read_gravon(text)
        except GravonError:
            unreadable += 1
            continue
        if game.gravon_type != "classic":
            continue
        month = month_of(name)
        if month in skipped:
            held_out.append(f"{Path(name).stem} {board_to_string(game.record.pieces)}")
            continue
        games += 1
        months.add(month)
        letters = {color: ["?"] * (DEPTHS * FILES) for color in Color}
        for square, (color, kind) in game.record.pieces.items():
            index = owner_index(CLASSIC, color, square)
            assert index is not None  # the reader checked the setups
            counts[kind][index] += 1
            letters[color][index] = LETTERS[GRAVON_KINDS.index(kind)]
        counted += ["".join(letters[color]) for color in Color]
        setups += 2
    first, last = (min(months, key=_month_key), max(months, key=_month_key)) if months else ("", "")
    lines = [
        '"""Where the players of the Gravon archive put each kind in classic Stratego (generated).',
        "",
        f"Counted by bench/count_gravon_setups.py from the {setups} setups of {games} classic games of",
        f"the archive's monthly files {first} to {last} (gravon.de, the online Stratego server's public",
        "archive, as kept in the public repository YWaller/StrategoProject), not edited by hand. For",
        "each kind, 40 counts in the owner's coordinates: depth 0 (its back row) first, each row from",
        "its left. SAMPLE: whole setups drawn at random from the same ones, a string each in the",
        "same order, a letter a kind (KINDS[letter]).",
        '"""',
        "",
        f"SETUPS = {setups}",
        "COUNTS: dict[str, tuple[int, ...]] = {",
    ]
    for kind in GRAVON_KINDS:
        lines.append(f'    "{kind}": (')
        for depth in range(DEPTHS):
            row = counts[kind][depth * FILES:(depth + 1) * FILES]
            lines.append("        " + ", ".join(str(n) for n in row) + ",")
        lines.append("    ),")
    lines.append("}")
    lines.append("KINDS = {")
    lines += [f'    "{letter}": "{kind}",' for letter, kind in zip(LETTERS, GRAVON_KINDS, strict=True)]
    lines.append("}")
    lines.append("SAMPLE = (")
    lines += [f'    "{setup}",' for setup in random.Random(args.seed).sample(counted, min(args.sample, len(counted)))]
    lines.append(")")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{games} games, {setups} setups, months {first}..{last}; {unreadable} unreadable; "
          f"{len(held_out)} games of the skipped months -> {args.out}")
    if args.boards:
        header = [
            f"# Starting boards of {min(len(held_out), args.board_count)} classic games of the Gravon archive",
            f"# (gravon.de), months {args.skip}, as kept in the public repository YWaller/StrategoProject;",
            "# written by bench/count_gravon_setups.py, which did not count these months into",
            "# engine/stratego/notebook/gravon_classic.py. A line: the game's file name, its board.",
        ]
        Path(args.boards).write_text("\n".join(header + held_out[:args.board_count]) + "\n",
                                     encoding="utf-8")
    return 0


def _month_key(month: str) -> tuple[int, int]:
    year, _, number = month.partition(".")
    return int(year), int(number)


if __name__ == "__main__":
    sys.exit(main())
