"""The Hub protocol (Scan's `hub` mode, version 2): line syntax and notation.

Every line is `<command> <arg>=<val> <arg>=<val> ...`; a value is quoted with
double quotes when it holds a space or `=` or is empty, and an argument
without `=val` is a flag (value ""). A position is one letter for the side to
move (`W`/`B`) and one letter per playable square in PDN order (`w`/`b` men,
`W`/`B` kings, `e` empty); a move is `32-28`, or a capture
`from x to x captured x captured ...` (captured squares in any order).

The protocol itself names only the 10x10 game (`normal`). For the 8x8 games
Damka follows pydraughts' `HubEngine`, the one client that sends them over
Hub, exactly as it writes them (a `HubDialect` per variant):

- `brazilian`, `russian`: the position in the standard numbering (1 = b8,
  White on 21-32), the moves numbered from White's side (1 = a1, White's men
  on 1-12): the board turned upside down.
- `english`: the side moving first (Black in checkers) written as `W`/`w`,
  and the position numbered from that side (square i is PDN square 33-i);
  the moves in standard PDN numbering.

Everything here is pure: no I/O, no threads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

from damka.engine.draughts import DraughtsVariant
from damka.engine.draughts_position import DraughtsPosition
from damka.engine.move import Move
from damka.engine.variant import Variant
from damka.engine.variants import find_variant


class HubError(ValueError):
    """A line that breaks the protocol: bad syntax, a bad position or an illegal move."""


# -- line syntax ----------------------------------------------------------------

_TOKEN = re.compile(r'\s*([^\s="]+)(?:=(?:"([^"]*)"|([^\s"]*)))?')


def parse_line(text: str) -> tuple[str, dict[str, str]]:
    """The command and its arguments of one line; HubError on a broken line.

    `("", {})` for a blank line. Later duplicates of an argument win.
    """
    line = text.strip()
    if not line:
        return "", {}
    command, _, rest = line.partition(" ")
    if "=" in command or '"' in command:
        raise HubError(f"line must start with a command word, not {command!r}")
    args: dict[str, str] = {}
    position = 0
    rest = rest.strip()
    while position < len(rest):
        match = _TOKEN.match(rest, position)
        if match is None or match.end() == position:
            raise HubError(f"cannot read the arguments of {command!r} from column {position + 1}: {rest[position:][:30]!r}")
        name, quoted, plain = match.groups()
        args[name] = quoted if quoted is not None else (plain or "")
        position = match.end()
        while position < len(rest) and rest[position].isspace():
            position += 1
    return command, args


def quote(value: str) -> str:
    """A value as the protocol writes it: quoted when it must be."""
    if value == "" or any(ch.isspace() or ch == "=" for ch in value):
        return '"' + value.replace('"', "'") + '"'
    return value.replace('"', "'")


def format_line(command: str, args: dict[str, Any] | None = None, *flags: str) -> str:
    """`command name=value ... flag` with values quoted where needed."""
    parts = [command, *(f"{name}={quote(str(value))}" for name, value in (args or {}).items()), *flags]
    return " ".join(parts)


# -- numbers, levels --------------------------------------------------------------


def read_number(args: dict[str, str], name: str, *, low: float = 0.0) -> float | None:
    """The numeric argument `name`, or None when absent; HubError when not a number >= low."""
    return _read(args, name, float, "a number", low)


def read_whole(args: dict[str, str], name: str, *, low: int = 1) -> int | None:
    """The whole-number argument `name`, or None when absent; HubError when not one >= low."""
    return _read(args, name, int, "a whole number", low)


Number = TypeVar("Number", int, float)


def _read(args: dict[str, str], name: str, parse: Callable[[str], Number], kind: str, low: float) -> Number | None:
    if name not in args:
        return None
    text = args[name]
    try:
        value = parse(text)
    except ValueError:
        raise HubError(f"{name}={text!r} is not {kind}") from None
    if value != value or value < low or value in (float("inf"), float("-inf")):
        raise HubError(f"{name}={text!r} is out of range (at least {low:g})")
    return value


@dataclass(frozen=True)
class SearchLimit:
    """What `level` asked for: a fixed time, a clock, a depth, nodes, or no limit."""

    move_time: float | None = None
    time: float | None = None
    increment: float = 0.0
    moves: int | None = None
    depth: int | None = None
    nodes: int | None = None
    infinite: bool = False

    def seconds(self) -> float | None:
        """Seconds to think for one move, or None for no time limit.

        With a clock: the remaining time (the increment counts, as the
        protocol adds it before the move) shared over the moves to go (25
        when not told), never more than 40% of it, so the flag never falls.
        """
        if self.infinite:
            return None
        if self.move_time is not None:
            return self.move_time
        if self.time is None:
            return None if (self.depth or self.nodes) else 1.0
        available = self.time + self.increment
        share = available / max(1, self.moves or 25) + 0.5 * self.increment
        return max(0.01, min(share, 0.4 * available))


def read_level(args: dict[str, str]) -> SearchLimit:
    """The `level` command's arguments as a SearchLimit; HubError when malformed or empty."""
    if "infinite" in args:
        return SearchLimit(infinite=True)
    limit = SearchLimit(
        move_time=read_number(args, "move-time"),
        time=read_number(args, "time"),
        increment=read_number(args, "inc") or 0.0,
        moves=read_whole(args, "moves"),
        depth=read_whole(args, "depth"),
        nodes=read_whole(args, "nodes"),
    )
    if limit.move_time is None and limit.time is None and limit.depth is None and limit.nodes is None:
        raise HubError("level needs one of move-time=, time=, depth=, nodes= or infinite")
    return limit


# -- variants, positions, moves --------------------------------------------------------


def _same(number: int, squares: int) -> int:
    return number


def _reversed(number: int, squares: int) -> int:
    return squares + 1 - number


def _upside_down(number: int, squares: int) -> int:
    # The rows in reverse order, each row kept left to right: pydraughts'
    # "reverse row" of 8x8 Brazilian/Russian notation (4 squares a row).
    row, column = divmod(squares - number, 4)
    return row * 4 + (3 - column) + 1


@dataclass(frozen=True)
class HubDialect:
    """How one variant is written over Hub (see the module text)."""

    hub_name: str
    variant_name: str
    aliases: tuple[str, ...]
    position_square: Callable[[int, int], int]  # Hub position index -> PDN number (and back)
    move_square: Callable[[int, int], int]  # Hub move number -> PDN number (and back)
    first_mover_is_white: bool = False  # the side moving first is written `W`


DIALECTS: tuple[HubDialect, ...] = (
    HubDialect("normal", "international", ("standard", "international", "polish", "10x10"), _same, _same),
    HubDialect("brazilian", "classic", ("classic",), _same, _upside_down),
    HubDialect("russian", "russian", (), _same, _upside_down),
    HubDialect("english", "american", ("american", "checkers"), _reversed, _same, first_mover_is_white=True),
    HubDialect("canadian", "canadian", ("12x12",), _same, _same),
)
UNSUPPORTED = ("killer", "bt", "breakthrough", "frisian", "frysk", "losing", "antidraughts", "italian", "turkish")


def find_dialect(name: str) -> HubDialect:
    """The dialect for a Hub variant name; HubError naming the supported ones."""
    wanted = name.strip().lower()
    for dialect in DIALECTS:
        if wanted == dialect.hub_name or wanted in dialect.aliases:
            return dialect
    known = " ".join(dialect.hub_name for dialect in DIALECTS)
    if wanted in UNSUPPORTED:
        raise HubError(f"variant {name!r} is not played by Damka; supported: {known}")
    raise HubError(f"unknown variant {name!r}; supported: {known}")


class HubBoard:
    """One variant's positions and moves in Hub notation."""

    def __init__(self, dialect: HubDialect) -> None:
        self.dialect = dialect
        self.variant: Variant = find_variant(dialect.variant_name)
        self.geometry = self.variant.geometry
        self.squares = self.geometry.playable.bit_count()
        first = getattr(self.variant, "first_side", 0)
        # Which Damka side (0 white, 1 black) the Hub letters W/w stand for.
        self._hub_white = first if dialect.first_mover_is_white else 0

    def _square(self, hub_number: int) -> int:
        return self.geometry.from_number(self.dialect.position_square(hub_number, self.squares))

    def parse_position(self, text: str) -> DraughtsPosition:
        """A Hub position string as a Damka position; HubError saying what is wrong."""
        if len(text) != self.squares + 1:
            raise HubError(f"position must be 1 + {self.squares} letters for {self.dialect.hub_name}, not {len(text)}")
        if text[0] not in "WB":
            raise HubError(f"position must start with W or B (side to move), not {text[0]!r}")
        sides = [0, 0]
        kings = 0
        for index, letter in enumerate(text[1:], 1):
            if letter == "e":
                continue
            if letter not in "wbWB":
                raise HubError(f"position letter {index + 1} is {letter!r}; expected w, b, W, B or e")
            square = self._square(index)
            side = self._hub_white if letter in "wW" else 1 - self._hub_white
            sides[side] |= 1 << square
            if letter.isupper():
                kings |= 1 << square
        turn = self._hub_white if text[0] == "W" else 1 - self._hub_white
        position = DraughtsPosition(sides[0], sides[1], kings, turn, 0)
        problem = self.variant.impossible(position) if isinstance(self.variant, DraughtsVariant) else None
        if problem is not None:
            raise HubError(f"position: {problem}")   # a man on its crowning row, too many pieces
        return position

    def format_position(self, position: DraughtsPosition) -> str:
        """The Hub position string of a Damka position."""
        letters = ["W" if position.turn == self._hub_white else "B"]
        white_side = (position.white, position.black)[self._hub_white]
        for index in range(1, self.squares + 1):
            bit = 1 << self._square(index)
            if not (position.white | position.black) & bit:
                letters.append("e")
                continue
            letter = "w" if white_side & bit else "b"
            letters.append(letter.upper() if position.kings & bit else letter)
        return "".join(letters)

    def format_move(self, move: Move) -> str:
        """`from-to`, or `fromxtoxcaptured...` with the captured squares in number order."""
        number = self._move_number
        if not move.captures:
            return f"{number(move.start)}-{number(move.end)}"
        captured = sorted(number(square) for square in move.captures)
        return "x".join(str(n) for n in (number(move.start), number(move.end), *captured))

    def _move_number(self, square: int) -> int:
        return self.dialect.move_square(self.geometry.number(square), self.squares)

    def parse_move(self, position: DraughtsPosition, text: str) -> Move:
        """The legal move written `text`; HubError when it is malformed or not legal here.

        A capture may leave out the captured squares when start and end alone
        name one legal move.
        """
        parts = re.split(r"[-x]", text)
        if len(parts) < 2 or not all(part.isdigit() for part in parts):
            raise HubError(f"move {text!r} is not like 32-28 or 28x19x23")
        numbers = [int(part) for part in parts]
        if not all(1 <= n <= self.squares for n in numbers):
            raise HubError(f"move {text!r} names a square outside 1-{self.squares}")
        squares = [self.geometry.from_number(self.dialect.move_square(n, self.squares)) for n in numbers]
        start, end, captured = squares[0], squares[1], frozenset(squares[2:])
        legal = self.variant.legal_moves(position)
        matches = [m for m in legal if m.start == start and m.end == end and (not captured or m.captures == captured)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise HubError(f"move {text!r} is not legal here; legal: {' '.join(sorted(self.format_move(m) for m in legal))}")
        raise HubError(f"move {text!r} is ambiguous; write the captured squares: {' '.join(self.format_move(m) for m in matches)}")
