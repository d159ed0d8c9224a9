"""Move text in PDN 3.0 style: `32-28`, `28x19`, `28x19x10`, `c3-d4`, `c3xe5`.

Variants with `numeric_notation` (american, international, canadian) name
squares by their PDN numbers; every other variant by algebraic names (`e5`).
A step is `start-end`; a capture is `startxend`, and the whole route
(`startxlandingx...xend`) is written only when start and end alone would match
more than one legal move. Routes with the same start, end and captured set are
one move (see `move.py`), so "ambiguous" means different captured sets.

Reading is lenient: `:` also separates a capture, a full route is always
accepted, a trailing `!`/`?` is ignored, a capture written with `-` is taken
when only a capture fits, and the draughts family also reads the other
notation (numbers on an algebraic variant and the reverse). Capture text is
first read as a whole route, so `c7xe7` is the single jump even when a longer
capture also runs from c7 to e7 (that is how the writer tells them apart). Errors:
`InvalidMoveError` (text that is no move at all), `IllegalMoveError` (a move
the rules do not allow here; the message lists what is legal from that square),
`AmbiguousMoveError` (the message lists the candidates with their full routes).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from damka.engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidSquareError
from damka.engine.move import Move
from damka.engine.reasons import Reason, reason_of
from damka.engine.variant import Position, Variant

# A move: squares (a number or a file letter and a rank) joined by separators.
_SQUARE = r"(?:[a-zA-Z]\d{1,2}|\d{1,3})"
_MOVE_RE = re.compile(rf"^({_SQUARE})((?:[-xX:]{_SQUARE})+)$")
_PART_RE = re.compile(rf"([-xX:])({_SQUARE})")
_STRENGTH_RE = re.compile(r"[!?]+$")

# How many legal moves an IllegalMoveError lists before "...".
_HINT_LIMIT = 12


# -- squares ------------------------------------------------------------------


def square_name(variant: Variant, square: int) -> str:
    """The square as the variant writes it: `32` (numeric variants) or `e5`."""
    if variant.numeric_notation:
        return str(variant.geometry.number(square))
    return variant.geometry.name(square)


def parse_square(variant: Variant, text: str) -> int:
    """The playable square written `text`; InvalidSquareError if there is none.

    Numbers are read on numeric variants and, leniently, on the other draughts
    boards (their PDN numbering); algebraic names are read everywhere.
    """
    name = text.strip()
    if name.isdigit():
        if not variant.numeric_notation and variant.family != "draughts":
            raise InvalidSquareError(Reason("square.not_name_on", text=text, variant=variant.name))
        return variant.geometry.from_number(int(name))
    return variant.geometry.parse(name)


def square_sort_key(variant: Variant, square: int) -> tuple[int, int]:
    """Order squares the way the variant's notation reads: by number, or file then rank."""
    if variant.numeric_notation:
        return (variant.geometry.number(square), 0)
    file, rank = variant.geometry.file_rank(square)
    return (file, rank)


# -- writing ------------------------------------------------------------------


def format_route(variant: Variant, move: Move) -> str:
    """The move with its whole route: `28x19x10`, or `32-28` for a step."""
    separator = "x" if move.captures else "-"
    return separator.join(square_name(variant, square) for square in (move.start, *move.path))


def format_short(variant: Variant, move: Move) -> str:
    """Start and end only: `28x10`, `32-28`."""
    separator = "x" if move.captures else "-"
    return f"{square_name(variant, move.start)}{separator}{square_name(variant, move.end)}"


def needs_route(move: Move, legal: Iterable[Move]) -> bool:
    """True when another legal move has the same start and end (so a different captured set)."""
    return any(
        other.start == move.start and other.end == move.end and other.captures != move.captures for other in legal
    )


def format_move(variant: Variant, position: Position, move: Move, legal: Sequence[Move] | None = None) -> str:
    """The move's PDN text in `position`: short, or the full route when start and
    end alone are ambiguous. `legal` may pass the legal moves if already known."""
    if move.captures:
        if legal is None:
            legal = variant.legal_moves(position)
        if needs_route(move, legal):
            return format_route(variant, move)
    return format_short(variant, move)


# -- reading ------------------------------------------------------------------


def split_move_text(variant: Variant, text: str) -> tuple[list[int], str]:
    """The squares of move text and its kind ('-' step or 'x' capture).

    InvalidMoveError if the text is not a move or names a square that is not
    on the board.
    """
    cleaned = _STRENGTH_RE.sub("", text.strip())
    match = _MOVE_RE.match(cleaned)
    if not match:
        raise InvalidMoveError(Reason("move.not_move", text=text, example=_example(variant)))
    parts = [match.group(1)]
    separators = set()
    for separator, square in _PART_RE.findall(match.group(2)):
        separators.add("x" if separator in "xX:" else "-")
        parts.append(square)
    if len(separators) > 1:
        raise InvalidMoveError(Reason("move.mixed", text=text))
    try:
        squares = [parse_square(variant, part) for part in parts]
    except InvalidSquareError as exc:
        raise InvalidMoveError(Reason("move.bad_square", text=text, why=reason_of(exc))) from None
    kind = separators.pop()
    if kind == "-" and len(squares) > 2:
        raise InvalidMoveError(Reason("move.long_step", text=text))
    return squares, kind


def _example(variant: Variant) -> str:
    return Reason("move.example_numeric" if variant.numeric_notation else "move.example_algebraic")


def _between(variant: Variant, a: int, b: int) -> list[int] | None:
    """The squares strictly between a and b on a straight line, or None if not on one."""
    geometry = variant.geometry
    fa, ra = geometry.file_rank(a)
    fb, rb = geometry.file_rank(b)
    df, dr = fb - fa, rb - ra
    if (df, dr) == (0, 0) or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return None
    steps = max(abs(df), abs(dr))
    uf, ur = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    return [geometry.index(fa + uf * i, ra + ur * i) for i in range(1, steps)]


def route_captures(variant: Variant, position: Position, squares: Sequence[int]) -> frozenset[int] | None:
    """The pieces a capture route jumps, read off the board, or None when some
    leg is not a straight line over exactly one piece."""
    occupied = variant.occupancy(position) & ~(1 << squares[0])  # the jumper has left its square
    captured = set()
    for a, b in zip(squares, squares[1:]):
        between = _between(variant, a, b)
        if between is None:
            return None
        jumped = [square for square in between if occupied >> square & 1]
        if len(jumped) != 1:
            return None
        captured.add(jumped[0])
    return frozenset(captured)


def parse_move(variant: Variant, position: Position, text: str, legal: Sequence[Move] | None = None) -> Move:
    """The legal move written `text` in `position` (see the module doc for the errors).

    The returned move keeps the route the text gave, when it gave one.
    """
    squares, kind = split_move_text(variant, text)
    if legal is None:
        legal = variant.legal_moves(position)
    start, end = squares[0], squares[-1]
    candidates = [move for move in legal if move.start == start and move.end == end]
    if kind == "x":
        # Read as a whole route first: `c7xe7` is the single jump even when a
        # longer capture also goes from c7 to e7.
        captures = route_captures(variant, position, squares)
        route = tuple(squares[1:])
        matching = [
            move for move in candidates
            if move.captures and (move.captures == captures or (captures is None and move.path == route))
        ]
        if matching:
            move = matching[0]
            return Move(move.start, route, move.captures)
        # A route that leaves out some landing squares (`2x30x11` for 2x30x39x11): one legal capture only.
        partial = [move for move in candidates if move.captures and _in_order(squares[1:-1], move.path[:-1])]
        if len(partial) == 1 and len(squares) > 2:
            return partial[0]
        if len(squares) > 2:
            raise IllegalMoveError(Reason("move.illegal_route", text=text.strip(),
                                          hint=_hint(variant, position, legal, start)))
    # Prefer the kind the separator says; accept the other kind when it is the only one (lenient).
    preferred = [move for move in candidates if bool(move.captures) == (kind == "x")]
    candidates = preferred or candidates
    if not candidates:
        raise IllegalMoveError(Reason("move.illegal", text=text.strip(), hint=_hint(variant, position, legal, start)))
    if len(candidates) > 1:
        routes = ", ".join(sorted(format_route(variant, move) for move in candidates))
        raise AmbiguousMoveError(Reason("move.ambiguous", text=text.strip(), count=len(candidates), routes=routes))
    return candidates[0]


def _in_order(some: Sequence[int], route: Sequence[int]) -> bool:
    """Whether `some` are squares of `route`, in its order."""
    rest = iter(route)
    return all(square in rest for square in some)


def _hint(variant: Variant, position: Position, legal: Sequence[Move], start: int) -> str:
    """A short 'what is legal instead' for an IllegalMoveError message."""
    if not legal:
        return Reason("hint.no_legal")
    from_start = [move for move in legal if move.start == start]
    name = square_name(variant, start)
    if from_start:
        return Reason("hint.legal_from", square=name, moves=_list(variant, from_start, legal))
    why = Reason("hint.no_piece" if variant.piece_at(position, start) is None else "hint.no_move_from", square=name)
    if variant.family == "draughts" and all(move.captures for move in legal):
        return Reason("hint.compulsory", why=why, moves=_list(variant, legal, legal))
    return Reason("hint.legal", why=why, moves=_list(variant, legal, legal))


def _list(variant: Variant, moves: Sequence[Move], legal: Sequence[Move]) -> str:
    texts = sorted(
        (format_route(variant, move) if needs_route(move, legal) else format_short(variant, move) for move in moves),
        key=_natural_key,
    )
    shown = ", ".join(texts[:_HINT_LIMIT])
    return Reason("hint.more", moves=shown, count=len(texts)) if len(texts) > _HINT_LIMIT else shown


def _natural_key(text: str) -> list[object]:
    """Sort `9-13` before `10-14` and `c3-d4` before `c3-b4`... by their pieces."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


def move_sort_key(variant: Variant, move: Move) -> tuple:
    """A stable order for listing moves: by start, end, then captured squares."""
    return (
        square_sort_key(variant, move.start),
        square_sort_key(variant, move.end),
        sorted(square_sort_key(variant, square) for square in move.captures),
    )
