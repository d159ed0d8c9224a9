"""The draughts position and its PDN FEN.

A position is a small immutable tuple of bitboards (see `geometry.py` for the
square layout) plus the side to move and the draw counter:
`DraughtsPosition(white, black, kings, turn, quiet)`.

PDN FEN, as read and written here::

    W:W21,22,K30:B1,2          numeric squares (american, international, canadian)
    W:Wa1,c3,Kd4:Bf6           algebraic squares (classic, classic81, russian)
    B:W21-32:B1-12             ranges, when reading numbers
    W:W31-50:B1-20:H4:F12      optional H (plies without capture or man move) and F fields

The first field is the side to move; then one field per colour, a comma-separated
list of squares, kings prefixed with `K`. Reading tolerates whitespace, lower
case letters, a trailing '.', surrounding double quotes, and squares in the
other notation. The H field is
our draw counter (`quiet`); it is written only when not zero, so ordinary
positions give the standard FEN. The F field (move number) is read and ignored.
A leading `K` (or `k`) always marks a king, so on boards with a k-file write
its squares as numbers (`K3` is a king on square 3, never the square k3).
"""

from __future__ import annotations

from typing import NamedTuple

from damka.engine.errors import InvalidSquareError, PositionError
from damka.engine.geometry import Geometry, iter_bits

COLOURS = "WB"  # FEN letters of the sides, by side index


class DraughtsPosition(NamedTuple):
    """An immutable draughts position.

    `white`, `black`: bitboards of each side's pieces; `kings`: the kings of
    both colours; `turn`: 0 white, 1 black; `quiet`: plies since the last
    capture or man move (the draw rule's counter; not part of repetitions).
    """

    white: int
    black: int
    kings: int
    turn: int
    quiet: int = 0


def format_fen(position: DraughtsPosition, geometry: Geometry, numeric: bool) -> str:
    """The PDN FEN of `position`, squares sorted, kings marked `K` in place."""
    fields = [COLOURS[position.turn]]
    for letter, pieces in zip(COLOURS, (position.white, position.black)):
        tokens = []
        squares = sorted(iter_bits(pieces), key=geometry.number) if numeric else iter_bits(pieces)
        for sq in squares:
            name = str(geometry.number(sq)) if numeric else geometry.name(sq)
            tokens.append(("K" if position.kings >> sq & 1 else "") + name)
        fields.append(letter + ",".join(tokens))
    if position.quiet:
        fields.append(f"H{position.quiet}")
    return ":".join(fields)


def parse_fen(text: str, geometry: Geometry) -> DraughtsPosition:
    """Read a PDN FEN (numbers or algebraic names); PositionError saying which
    field and token is wrong."""
    compact = "".join(text.split())
    if len(compact) >= 2 and compact[0] == compact[-1] == '"':
        compact = compact[1:-1]  # the value of a [FEN "..."] tag, quotes left on
    if compact.endswith("."):
        compact = compact[:-1]
    if not compact:
        raise PositionError("empty FEN")
    fields = compact.split(":")
    turn_field = fields[0].upper()
    if turn_field not in ("W", "B"):
        raise PositionError(f"FEN field 1: side to move must be W or B, not {fields[0]!r}")
    turn = COLOURS.index(turn_field)
    pieces = [0, 0]
    kings = 0
    quiet = 0
    seen_colours: set[str] = set()
    seen_counters: set[str] = set()
    for index, field in enumerate(fields[1:], 2):
        if not field:
            raise PositionError(f"FEN field {index} is empty (expected W..., B..., H... or F...)")
        head = field[0].upper()
        if head in ("H", "F"):
            if head in seen_counters:
                raise PositionError(f"FEN field {index}: a second {head} field")
            seen_counters.add(head)
            if not field[1:].isdigit():
                raise PositionError(f"FEN field {index}: {head} must be followed by a number, not {field[1:]!r}")
            if head == "H":
                quiet = int(field[1:])
            continue
        if head not in COLOURS:
            raise PositionError(f"FEN field {index}: expected W or B and a list of squares, not {field!r}")
        if head in seen_colours:
            raise PositionError(f"FEN field {index}: a second field for {'white' if head == 'W' else 'black'}")
        seen_colours.add(head)
        side = COLOURS.index(head)
        body = field[1:]
        if not body:
            continue
        for token in body.split(","):
            king, squares = _read_token(token, geometry, index)
            for sq in squares:
                bit = 1 << sq
                where = f"FEN field {index}, token {token!r}"
                if pieces[side] & bit:
                    raise PositionError(f"{where}: square {_show(sq, geometry)} is listed twice")
                if pieces[1 - side] & bit:
                    other = "white" if side == 1 else "black"
                    raise PositionError(f"{where}: square {_show(sq, geometry)} already holds a {other} piece")
                pieces[side] |= bit
                if king:
                    kings |= bit
    missing = [name for letter, name in zip(COLOURS, ("white", "black")) if letter not in seen_colours]
    if missing:
        raise PositionError(f"FEN has no field for {' and '.join(missing)} (write W: or B: with no squares for none)")
    return DraughtsPosition(pieces[0], pieces[1], kings, turn, quiet)


def _show(square: int, geometry: Geometry) -> str:
    return f"{geometry.name(square)} ({geometry.number(square)})"


def _read_token(token: str, geometry: Geometry, index: int) -> tuple[bool, list[int]]:
    """(is king, squares) of one FEN token: `K30`, `21-32`, `d4`, `Kd4`."""
    where = f"FEN field {index}, token {token!r}"
    body = token
    king = body[:1].upper() == "K"
    if king:
        body = body[1:]
    if not body:
        raise PositionError(f"{where}: no square")
    last = len(geometry.squares)
    if body[0].isdigit():
        first_text, dash, end_text = body.partition("-")
        if not first_text.isdigit() or (dash and not end_text.isdigit()):
            raise PositionError(f"{where}: not a square number or range (like 21 or 21-32)")
        first = int(first_text)
        end = int(end_text) if dash else first
        for number in (first, end):
            if not 1 <= number <= last:
                raise PositionError(f"{where}: square {number} is off the board (1-{last})")
        if end < first:
            raise PositionError(f"{where}: range runs backwards ({first} > {end})")
        return king, [geometry.from_number(n) for n in range(first, end + 1)]
    try:
        return king, [geometry.parse(body)]
    except InvalidSquareError as error:
        raise PositionError(f"{where}: {error}") from None
