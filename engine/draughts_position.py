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
from damka.engine.reasons import Reason, reason_of

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
        raise PositionError(Reason("fen.empty"))
    fields = compact.split(":")
    turn_field = fields[0].upper()
    if turn_field not in ("W", "B"):
        raise PositionError(Reason("fen.turn", text=fields[0]))
    turn = COLOURS.index(turn_field)
    pieces = [0, 0]
    kings = 0
    quiet = 0
    seen_colours: set[str] = set()
    seen_counters: set[str] = set()
    for index, field in enumerate(fields[1:], 2):
        if not field:
            raise PositionError(Reason("fen.field_empty", index=index))
        head = field[0].upper()
        if head in ("H", "F"):
            if head in seen_counters:
                raise PositionError(Reason("fen.second_counter", index=index, head=head))
            seen_counters.add(head)
            if not field[1:].isdigit():
                raise PositionError(Reason("fen.counter_number", index=index, head=head, text=field[1:]))
            if head == "H":
                quiet = int(field[1:])
            continue
        if head not in COLOURS:
            raise PositionError(Reason("fen.field_form", index=index, text=field))
        if head in seen_colours:
            raise PositionError(Reason("fen.second_white" if head == "W" else "fen.second_black", index=index))
        seen_colours.add(head)
        side = COLOURS.index(head)
        body = field[1:]
        if not body:
            continue
        for token in body.split(","):
            king, squares = _read_token(token, geometry, index)
            for sq in squares:
                bit = 1 << sq
                if pieces[side] & bit:
                    raise _token_error(index, token, Reason("fen.twice", square=_show(sq, geometry)))
                if pieces[1 - side] & bit:
                    holds = "fen.holds_white" if side == 1 else "fen.holds_black"
                    raise _token_error(index, token, Reason(holds, square=_show(sq, geometry)))
                pieces[side] |= bit
                if king:
                    kings |= bit
    missing = [name for letter, name in zip(COLOURS, ("white", "black")) if letter not in seen_colours]
    if missing:
        raise PositionError(Reason("fen.no_sides" if len(missing) == 2 else f"fen.no_{missing[0]}"))
    return DraughtsPosition(pieces[0], pieces[1], kings, turn, quiet)


def _show(square: int, geometry: Geometry) -> str:
    return f"{geometry.name(square)} ({geometry.number(square)})"


def _token_error(index: int, token: str, why: str) -> PositionError:
    return PositionError(Reason("fen.token", index=index, token=token, why=why))


def _read_token(token: str, geometry: Geometry, index: int) -> tuple[bool, list[int]]:
    """(is king, squares) of one FEN token: `K30`, `21-32`, `d4`, `Kd4`."""
    body = token
    king = body[:1].upper() == "K"
    if king:
        body = body[1:]
    if not body:
        raise _token_error(index, token, Reason("fen.no_square"))
    last = len(geometry.squares)
    if body[0].isdigit():
        first_text, dash, end_text = body.partition("-")
        if not first_text.isdigit() or (dash and not end_text.isdigit()):
            raise _token_error(index, token, Reason("fen.not_number"))
        first = int(first_text)
        end = int(end_text) if dash else first
        for number in (first, end):
            if not 1 <= number <= last:
                raise _token_error(index, token, Reason("fen.off_board", number=number, last=last))
        if end < first:
            raise _token_error(index, token, Reason("fen.backwards", first=first, end=end))
        return king, [geometry.from_number(n) for n in range(first, end + 1)]
    try:
        return king, [geometry.parse(body)]
    except InvalidSquareError as error:
        raise _token_error(index, token, reason_of(error)) from None
