"""The Gravon archive's Stratego formats (XML and GSN), read into and written from game records.

Pure text in, text out: no file is opened here. What the archive files look like:

XML (the archive's `.xml` files)::

    <?xml version="1.0" encoding="UTF-8"?>
    <stratego>
     <game type="classic">
      <field content="MBDD...AA__AA__AAAA__AA__AA...YNP"/>
      <move id="1" source="D4" target="D5"/>
      <player id="1">red player's name</player>
      <player id="2">blue player's name</player>
      <result type="1" winner="1"/>
     </game>
    </stratego>

GSN (the older `.gsn` files, "Gravon Stratego Notation")::

    #X38FA11 Stratego-Notation v1
    type 0
    MBDD...(100 characters)
    34-44
    END
    red's name vs blue's name result 1 winner 0

The board string has 100 characters, square by square from Red's back row (Red's left first)
towards Blue's back row: `A` empty, `_` lake, `B`..`M` Red's bomb, spy, scout, miner, sergeant,
lieutenant, captain, major, colonel, general, marshal, flag, and `N`..`Y` the same for Blue.
XML squares are a file letter A..K without J (the old Stratego notation) and a row 1..10, row 1
being Red's back row; archive files write row 10 as `:` (the character after `9`, so `K:` is
the top right corner), and some wrongly write J for K, so J is read as the tenth file.
GSN squares are two digits: the square's index in the board string. Winners: XML 1 = Red,
2 = Blue, 3 = draw; GSN 0 = Red, 1 = Blue, 2 = draw. See docs/records.md.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from engine.core.errors import ArbiterError, RecordError
from engine.core.refusals import IllegalMove
from engine.stratego.pieces import Color
from engine.stratego.records import GameRecord, apply_ending
from engine.stratego.setups import Setup, validate_setup
from engine.stratego.squares import Move, Square
from engine.stratego.variants import Variant, get_variant

# The Gravon letters for one side's kinds, in letter order (B..M for Red, N..Y for Blue).
GRAVON_KINDS = (
    "bomb", "spy", "scout", "miner", "sergeant", "lieutenant", "captain", "major", "colonel",
    "general", "marshal", "flag",
)
RED_LETTERS = "BCDEFGHIJKLM"
BLUE_LETTERS = "NOPQRSTUVWXY"
EMPTY, LAKE = "A", "_"
XML_FILES = "ABCDEFGHIK"  # the tenth file is K: the old notation has no J

# Gravon game types and the variant each is played as ("classicfree": classic without a clock).
XML_TYPES = {"classic": "classic", "classicfree": "classic", "barrage": "barrage", "duell": "duel"}
FREE_TYPE = "classicfree"  # any starting arrangement (read as a `position` record)
GSN_TYPE_NAMES = {0: "classic", 1: "barrage", 2: "classicfree", 3: "ultimate lightning"}
GSN_HEADER = "#X38FA11 Stratego-Notation v"

# Gravon's ending codes (the `type` of a result).
ENDING_TEXTS = {
    0: "unable to move",
    1: "flag captured",
    2: "both unable to move",
    3: "forfeit",
    4: "tie agreed",
    10: "both missing",
    11: "player clock timed out",
    12: "game clock timed out",
    13: "player clock timed out (and player was missing)",
    14: "opponent missing",
}
# Endings the players declare: they become the record's `ending`; the others follow from the moves.
_DECLARED = {3: "resignation", 4: "agreement", 11: "clock", 12: "game-time", 13: "clock",
             14: "resignation"}
_ENGINE_REASON_TO_ENDING = {
    "no-movable-pieces": 0, "no-legal-move": 0, "flag-captured": 1, "both-immobile": 2,
    "neither-can-move": 2,
    "resignation": 3, "agreement": 4, "clock": 11, "game-time": 12,
}


class GravonError(ArbiterError, ValueError):
    """The text is not a Gravon game this program can read, or a game cannot be written as one."""

    code = "bad-gravon"


@dataclass(frozen=True)
class GravonResult:
    """How the archive says a game ended: Gravon's ending code and the winner (None: a draw)."""

    ending: int
    winner: Color | None

    @property
    def text(self) -> str:
        """The ending in words, as Gravon names it."""
        return ENDING_TEXTS.get(self.ending, f"ending {self.ending}")


@dataclass
class GravonGame:
    """A game of the archive: the record to replay, the players' names and the archive's result."""

    record: GameRecord
    players: tuple[str, str] = ("", "")  # Red's name, Blue's name
    result: GravonResult | None = None
    gravon_type: str = ""  # "classic", "classicfree", "barrage", "duell"
    notes: list[str] = field(default_factory=list)  # what the reader skipped, in words


# -- board strings and setups --------------------------------------------------------------


def _check_board(variant: Variant) -> None:
    if (variant.width, variant.height) != (10, 10) or variant.lakes != get_variant("classic").lakes:
        raise GravonError(f"Gravon boards are 10x10 with the classic lakes; {variant.name} is not")


def _letter(color: Color, kind: str) -> str:
    try:
        index = GRAVON_KINDS.index(kind)
    except ValueError:
        raise GravonError(f"Gravon has no letter for a {kind}") from None
    return (RED_LETTERS if color is Color.RED else BLUE_LETTERS)[index]


def _piece(letter: str) -> tuple[Color, str] | None:
    if letter in RED_LETTERS:
        return Color.RED, GRAVON_KINDS[RED_LETTERS.index(letter)]
    if letter in BLUE_LETTERS:
        return Color.BLUE, GRAVON_KINDS[BLUE_LETTERS.index(letter)]
    return None


def board_from_string(text: str, variant: Variant | None = None) -> dict[Square, tuple[Color, str]]:
    """Read a 100-character Gravon board string into pieces by square."""
    variant = variant or get_variant("classic")
    _check_board(variant)
    text = text.strip()
    if len(text) != 100:
        raise GravonError(f"a Gravon board has 100 characters, this one {len(text)}")
    pieces: dict[Square, tuple[Color, str]] = {}
    for index, letter in enumerate(text):
        square = Square(index % 10, index // 10)
        if letter == LAKE:
            if square not in variant.lakes:
                raise GravonError(f"the board string puts a lake on {square}")
            continue
        if square in variant.lakes:
            raise GravonError(f"{square} is a lake but the board string has {letter!r} there")
        if letter == EMPTY:
            continue
        piece = _piece(letter)
        if piece is None:
            raise GravonError(f"{letter!r} on {square} is not a Gravon letter (A, _, B..Y)")
        if piece[1] not in variant.kinds:
            raise GravonError(f"{variant.name} has no {piece[1]} (the {letter!r} on {square})")
        pieces[square] = piece
    return pieces


def board_to_string(pieces: dict[Square, tuple[Color, str]], variant: Variant | None = None) -> str:
    """Write pieces by square as a 100-character Gravon board string."""
    variant = variant or get_variant("classic")
    _check_board(variant)
    letters = []
    for rank in range(10):
        for file in range(10):
            square = Square(file, rank)
            if square in variant.lakes:
                letters.append(LAKE)
            elif square in pieces:
                color, kind = pieces[square]
                letters.append(_letter(Color(color), kind))
            else:
                letters.append(EMPTY)
    return "".join(letters)


def setup_from_letters(text: str, variant: Variant, color: Color) -> Setup:
    """Read one side's 40-letter Gravon setup (owner's view: back row first, from its left).

    Either side's letters are accepted (a setup is often written in Red's letters for both).
    """
    _check_board(variant)
    text = text.strip()
    size = 10 * variant.setup_rows
    if len(text) != size:
        raise GravonError(f"a {variant.name} setup has {size} letters, this one {len(text)}")
    setup: Setup = {}
    for index, letter in enumerate(text):
        if letter == EMPTY:
            continue
        piece = _piece(letter)
        if piece is None:
            raise GravonError(f"{letter!r} (letter {index + 1}) is not a Gravon piece letter")
        file, row = index % 10, index // 10
        square = Square(file, row) if color is Color.RED else Square(9 - file, 9 - row)
        setup[square] = piece[1]
    return setup


def setup_to_letters(setup: Setup, variant: Variant, color: Color) -> str:
    """Write one side's setup as Gravon letters of its colour (owner's view, back row first)."""
    _check_board(variant)
    letters = []
    for index in range(10 * variant.setup_rows):
        file, row = index % 10, index // 10
        square = Square(file, row) if color is Color.RED else Square(9 - file, 9 - row)
        kind = setup.get(square)
        letters.append(EMPTY if kind is None else _letter(color, kind))
    return "".join(letters)


# -- squares and moves -------------------------------------------------------------------------

# Row 10 is `10` or, in the archive's own files, `:` (the character after `9`).
_XML_SQUARE = re.compile(r"^([A-Ka-k])(10|[1-9]|:)$")
_INDEX_SQUARE = re.compile(r"^([0-9])([0-9])$")


def _read_square(text: str) -> Square:
    text = text.strip()
    match = _INDEX_SQUARE.match(text)
    if match:  # two digits: the square's index in the board string (GSN; converted XML files)
        index = int(text)
        return Square(index % 10, index // 10)
    match = _XML_SQUARE.match(text)
    if match:
        letter = match.group(1).upper()
        file = 9 if letter in "JK" else XML_FILES.index(letter) if letter in XML_FILES else -1
        if file >= 0:
            row = 10 if match.group(2) == ":" else int(match.group(2))
            return Square(file, row - 1)
    raise GravonError(f"not a Gravon square: {text!r}")


def xml_square(square: Square) -> str:
    """A square in the archive's XML notation, e.g. "K10"."""
    return f"{XML_FILES[square.file]}{square.rank + 1}"


def gsn_square(square: Square) -> str:
    """A square in GSN notation: its two-digit index in the board string."""
    return f"{square.rank * 10 + square.file:02d}"


def _move(source: str, target: str) -> str:
    return Move(_read_square(source), _read_square(target)).name


# -- results --------------------------------------------------------------------------------


def _winner(code: int, codes: dict[int, Color | None]) -> Color | None:
    if code not in codes:
        raise GravonError(f"winner {code} is none of {', '.join(map(str, codes))}")
    return codes[code]


def _ending_of(result: GravonResult | None) -> dict[str, str] | None:
    if result is None or result.ending not in _DECLARED:
        return None
    reason = _DECLARED[result.ending]
    ending = {"reason": reason}
    if reason in ("resignation", "clock"):
        if result.winner is None:
            return None  # a forfeit without a winner says nothing we can replay
        ending["color"] = result.winner.other.value
    return ending


def _record(gravon_type: str, board: str | None, moves: list[str],
            result: GravonResult | None) -> GameRecord:
    if board is None:
        raise GravonError("the game ended before both setups were complete (no board)")
    variant = get_variant(XML_TYPES[gravon_type])
    pieces = board_from_string(board, variant)
    # "classicfree" games start from any arrangement: a `position` record, not a setup.
    is_setup = gravon_type != FREE_TYPE
    errors = []
    for color in Color if is_setup else ():
        errors += validate_setup(variant, color, {sq: k for sq, (c, k) in pieces.items() if c is color})
    if errors:
        raise GravonError("the archive's setup is not a valid " + variant.name + " setup: "
                          + "; ".join(errors))
    # Gravon enforced the two-squares rule with five moves, not three (docs/rules/repetition.md).
    return GameRecord(variant=variant.name, pieces=pieces, moves=moves, to_move=variant.first,
                      is_setup=is_setup, two_squares_limit=5, ending=_ending_of(result))


def result_of_record(record: GameRecord) -> GravonResult | None:
    """The Gravon result of a record, found by replaying it (None while the game goes on)."""
    try:
        game = record.replay()
    except IllegalMove as refused:
        raise GravonError(f"the record has an illegal move: {refused}") from None
    except RecordError as error:
        raise GravonError(str(error)) from None
    if game.result is None and record.ending is not None:
        apply_ending(game, record.ending)
    if game.result is None:
        return None
    return GravonResult(_ENGINE_REASON_TO_ENDING.get(game.result.reason, 0), game.result.winner)


def from_record(record: GameRecord, players: tuple[str, str] = ("", "")) -> GravonGame:
    """Wrap a record for export, with the result its moves (and declared ending) lead to."""
    return GravonGame(record, players, result_of_record(record), _gravon_type(record))


def _gravon_type(record: GameRecord) -> str:
    types = {"classic": "classic", "barrage": "barrage", "duel": "duell"}
    if record.variant not in types:
        raise GravonError(f"the Gravon archive has no {record.variant} games (only "
                          "classic, barrage and duel)")
    if not record.is_setup:
        if record.variant != "classic":
            raise GravonError("Gravon plays any arrangement only as classicfree (classic); "
                              f"this is a {record.variant} position")
        return FREE_TYPE
    return types[record.variant]


# -- XML ------------------------------------------------------------------------------------


def read_xml(text: str) -> GravonGame:
    """Read one game in the archive's XML format."""
    try:
        root = ElementTree.fromstring(text.lstrip("\ufeff"))
    except ElementTree.ParseError as error:
        raise GravonError(f"not XML: {error}") from None
    game = root if root.tag == "game" else root.find(".//game")
    if game is None:
        raise GravonError("no <game> element")
    gravon_type = (game.get("type") or "").strip()
    if gravon_type not in XML_TYPES:
        raise GravonError(f"Gravon game type {gravon_type!r} is not supported "
                          f"(supported: {', '.join(XML_TYPES)})")
    field_element = game.find(".//field")
    board = field_element.get("content") if field_element is not None else None
    moves = []
    for element in game.iter("move"):
        source, target = element.get("source"), element.get("target")
        if source is None or target is None:
            raise GravonError(f"<move id={element.get('id')!r}> lacks a source or target")
        moves.append(_move(source, target))
    elements = list(game.iter("player"))
    if all((p.get("id") or "").strip().isdigit() for p in elements):
        elements.sort(key=lambda p: int((p.get("id") or "").strip()))  # Red is player 1
    names = [(p.text or "").strip() for p in elements]
    players = (names + ["", ""])[:2]
    result = None
    result_element = game.find(".//result")
    if result_element is not None:
        try:
            ending = int(result_element.get("type", ""))
            winner_code = int(result_element.get("winner", ""))
        except ValueError:
            raise GravonError("<result> needs numeric type and winner") from None
        result = GravonResult(ending, _winner(winner_code, {1: Color.RED, 2: Color.BLUE, 3: None}))
    record = _record(gravon_type, board, moves, result)
    return GravonGame(record, (players[0], players[1]), result, gravon_type)


def write_xml(game: GravonGame) -> str:
    """Write a game in the archive's XML format."""
    record = game.record
    variant = record.variant_rules()
    gravon_type = game.gravon_type or _gravon_type(record)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<stratego>",
             f" <game type={quoteattr(gravon_type)}>",
             f'  <field content="{board_to_string(record.pieces, variant)}"/>']
    for number, text in enumerate(record.moves, start=1):
        move = Move.parse(text)
        lines.append(f'  <move id="{number}" source="{xml_square(move.origin)}" '
                     f'target="{xml_square(move.target)}"/>')
    for number, name in enumerate(game.players, start=1):
        lines.append(f'  <player id="{number}">{escape(name)}</player>')
    if game.result is not None:
        winner = {Color.RED: 1, Color.BLUE: 2, None: 3}[game.result.winner]
        lines.append(f'  <result type="{game.result.ending}" winner="{winner}"/>')
    lines += [" </game>", "</stratego>", ""]
    return "\n".join(lines)


# -- GSN ------------------------------------------------------------------------------------

_GSN_RESULT = re.compile(r"^(.*) vs (.*) result (-?\d+) winner (-?\d+)$")


def read_gsn(text: str) -> GravonGame:
    """Read one game in GSN, the archive's older text format."""
    lines = [line.strip() for line in text.lstrip("\ufeff").splitlines()]
    lines = [line for line in lines if line]
    if not lines or not lines[0].startswith(GSN_HEADER):
        raise GravonError(f"not GSN: the first line must be {GSN_HEADER}1 or 2")
    if len(lines) < 2 or not lines[1].startswith("type"):
        raise GravonError("GSN: the second line must be 'type N'")
    try:
        type_code = int(lines[1][4:])
    except ValueError:
        raise GravonError(f"GSN: bad type line {lines[1]!r}") from None
    if GSN_TYPE_NAMES.get(type_code) not in XML_TYPES:
        raise GravonError(f"Gravon game type {GSN_TYPE_NAMES.get(type_code, type_code)!r} "
                          "is not supported (supported: classic, barrage, classicfree)")
    if "END" not in lines:
        raise GravonError("GSN: no END line")
    body = lines[2:]
    board = None
    if body and len(body[0]) == 100:
        board, body = body[0], body[1:]
    # A file may hold more than one END and result line, with moves after the first (a known
    # archive fault). The archive's readers repair it by keeping every move, in order, and the
    # first result line; so do we (docs/records.md, "Gravon archive").
    moves: list[str] = []
    notes: list[str] = []
    players, result = ("", ""), None
    ends = after_end = 0
    for number, line in enumerate(body, start=1):
        if line == "END":
            ends += 1
            continue
        match = _GSN_RESULT.match(line)
        if match is not None:
            if result is not None:
                notes.append(f"line {number}: later result line ignored: {line}")
                continue
            players = (match.group(1).strip(), match.group(2).strip())
            winner = _winner(int(match.group(4)), {0: Color.RED, 1: Color.BLUE, 2: None})
            result = GravonResult(int(match.group(3)), winner)
            continue
        if ends and " vs " in line:
            raise GravonError(f"GSN: bad result line {line!r}")
        if len(line) == 5 and line[2] == ":":
            notes.append(f"line {number}: rescue move {line} skipped (Ultimate Lightning)")
            continue
        parts = line.split("-")
        if len(parts) != 2:
            raise GravonError(f"GSN: not a move: {line!r}")
        after_end += ends > 0
        moves.append(_move(*parts))
    if after_end:
        notes.append(f"{ends} END lines: the {after_end} moves after the first END kept, with the "
                     "first result line (the archive's readers repair such files so)")
    record = _record(GSN_TYPE_NAMES[type_code], board, moves, result)
    return GravonGame(record, players, result, GSN_TYPE_NAMES[type_code], notes)


def write_gsn(game: GravonGame) -> str:
    """Write a game in GSN (classic and barrage only: GSN has no type for duel)."""
    record = game.record
    variant = record.variant_rules()
    gravon_type = game.gravon_type or _gravon_type(record)
    codes = {name: code for code, name in GSN_TYPE_NAMES.items()}
    if gravon_type not in codes:
        raise GravonError(f"GSN has no game type for {gravon_type}; write XML instead")
    lines = [f"{GSN_HEADER}1", f"type {codes[gravon_type]}", board_to_string(record.pieces, variant)]
    for text in record.moves:
        move = Move.parse(text)
        lines.append(f"{gsn_square(move.origin)}-{gsn_square(move.target)}")
    lines.append("END")
    if game.result is not None:
        winner = {Color.RED: 0, Color.BLUE: 1, None: 2}[game.result.winner]
        red, blue = (name.replace("\n", " ") for name in game.players)
        lines.append(f"{red} vs {blue} result {game.result.ending} winner {winner}")
    return "\n".join(lines) + "\n"


def read_gravon(text: str) -> GravonGame:
    """Read a Gravon game in either format (XML or GSN), recognised by its first characters."""
    start = text.lstrip("\ufeff \t\r\n")
    if start.startswith("<"):
        return read_xml(text)
    if start.startswith("#"):
        return read_gsn(text)
    raise GravonError("neither Gravon XML (starts with '<') nor GSN (starts with '#X38FA11')")
