"""DXP, the DamExchange protocol: messages and moves (pure: no sockets).

Two draughts programs play over TCP (port 27531 by default); every message
is ASCII text ended by a NUL byte, its first letter its kind. Field layouts
(fixed widths, numbers zero-padded):

    R GAMEREQ  R vv name(32) fcolour(W|Z) minutes(3) moves(3) setup(A|B) [tomove(W|Z) board(50)]
    A GAMEACC  A name(32) code(1)             code 0 accepted, 1 not this game, 2 not now ...
    M MOVE     M seconds(4) from(2) to(2) n(2) captured(2) * n
    E GAMEEND  E reason(1) stop(1)            reason 0 unknown, 1 I lose, 2 draw, 3 I win
    C CHAT     C text
    B BACKREQ  B move(3) colour(W|Z)          the position to go back to: move number, side to move
    K BACKACC  K code(1)                      0 accepted, 1 not supported, 2 refused

The colours are W (white, moves first) and Z (black); squares are the
10x10 board's PDN numbers 1-50. `parse` turns a message into one of the
dataclasses below or raises `DxpError` saying what is wrong and where; it
never raises anything else, whatever bytes arrive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from damka.engine.move import Move
from damka.engine.variant import Variant

DEFAULT_PORT = 27531
MAX_MESSAGE = 1024  # bytes; a longer run without a NUL is refused
NAME_WIDTH = 32
VERSION = 1  # the protocol version the board speaks; a GAMEREQ asking for a later one is refused (code 1)
COLOURS = "WZ"  # index = Damka side (0 white, 1 black)


class DxpError(ValueError):
    """A message that breaks the protocol (the text says which field)."""


@dataclass(frozen=True)
class GameRequest:
    name: str
    follower_colour: str          # W or Z: the colour the follower (the side accepting) plays
    minutes: int                  # thinking time of the game per side
    moves: int                    # moves in that time (0: the whole game)
    board: str | None = None      # 50 letters e/w/z/W/Z (None: the start position)
    to_move: str = "W"
    version: int = VERSION


@dataclass(frozen=True)
class GameAccept:
    name: str
    code: int = 0

    @property
    def accepted(self) -> bool:
        return self.code == 0


@dataclass(frozen=True)
class MoveMessage:
    seconds: int
    start: int
    end: int
    captures: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameEnd:
    reason: int                   # 0 unknown, 1 the sender loses, 2 draw, 3 the sender wins
    stop: int = 1                 # 0 another game wanted, 1 no more games


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class BackRequest:
    move: int                     # the move number of the position to go back to
    colour: str                   # its side to move: W or Z


@dataclass(frozen=True)
class BackAccept:
    code: int = 0

    @property
    def accepted(self) -> bool:
        return self.code == 0


Message = Union[GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept]


# -- reading ---------------------------------------------------------------------


def _number(text: str, start: int, width: int, field: str) -> int:
    part = text[start:start + width]
    if len(part) != width or not part.isascii() or not part.isdigit():
        raise DxpError(f"{text[0]} message: {field} at column {start + 1} must be {width} digits, got {part!r}")
    return int(part)


def _colour(text: str, index: int, field: str) -> str:
    letter = text[index:index + 1]
    if letter not in ("W", "Z"):
        raise DxpError(f"{text[0]} message: {field} at column {index + 1} must be W or Z, got {letter!r}")
    return letter


def _length(text: str, low: int, high: int | None = None) -> None:
    if len(text) < low or (high is not None and len(text) > high):
        wanted = f"{low}" if high == low else f"{low}-{high}" if high is not None else f"at least {low}"
        raise DxpError(f"{text[0]} message must be {wanted} characters long, got {len(text)}")


def _control_free(text: str) -> bool:
    """No control byte (below 32, or 127): the bytes a text field may hold.
    Bytes from 128 up are let through (a name in UTF-8 or Latin-1: Scan takes them too)."""
    return not any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


def _text(field: str) -> str:
    """A name or chat field read as latin-1 (one character a byte, so the
    columns hold), shown as the UTF-8 it most often is; Latin-1 otherwise."""
    try:
        return field.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return field


def parse(text: str) -> Message:
    """The message `text` (without its NUL); DxpError for anything malformed."""
    if not text:
        raise DxpError("empty message")
    if not _control_free(text):
        raise DxpError(f"message {text[:20]!r} holds control bytes that are not printable")
    kind = text[0]
    if kind == "R":
        _length(text, 43)
        version = _number(text, 1, 2, "version")
        name = _text(text[3:35]).strip()
        colour = _colour(text, 35, "follower colour")
        minutes = _number(text, 36, 3, "thinking time")
        moves = _number(text, 39, 3, "number of moves")
        setup = text[42]
        if setup == "A":
            _length(text, 43, 43)
            return GameRequest(name, colour, minutes, moves, version=version)
        if setup != "B":
            raise DxpError(f"R message: setup at column 43 must be A or B, got {setup!r}")
        _length(text, 94, 94)
        board = text[44:94]
        if set(board) - set("ewzWZ"):
            raise DxpError(f"R message: board letters must be e, w, z, W or Z, got {board!r}")
        return GameRequest(name, colour, minutes, moves, board, _colour(text, 43, "side to move"), version)
    if kind == "A":
        _length(text, 34, 34)
        return GameAccept(_text(text[1:33]).strip(), _number(text, 33, 1, "acceptance code"))
    if kind == "M":
        _length(text, 11)
        count = _number(text, 9, 2, "number of captured pieces")
        _length(text, 11 + 2 * count, 11 + 2 * count)
        captures = tuple(_number(text, 11 + 2 * i, 2, f"captured piece {i + 1}") for i in range(count))
        return MoveMessage(_number(text, 1, 4, "time"), _number(text, 5, 2, "from"), _number(text, 7, 2, "to"),
                           captures)
    if kind == "E":
        _length(text, 3, 3)
        reason = _number(text, 1, 1, "reason")
        if reason > 3:
            raise DxpError(f"E message: reason must be 0-3, got {reason}")
        return GameEnd(reason, _number(text, 2, 1, "stop code"))
    if kind == "C":
        return Chat(_text(text[1:]))
    if kind == "B":
        _length(text, 5, 5)
        return BackRequest(_number(text, 1, 3, "move number"), _colour(text, 4, "side to move"))
    if kind == "K":
        _length(text, 2, 2)
        return BackAccept(_number(text, 1, 1, "acceptance code"))
    raise DxpError(f"unknown message kind {kind!r} (expected R, A, M, E, C, B or K)")


# -- writing ---------------------------------------------------------------------


def _name(name: str) -> str:
    clean = "".join(ch if ch.isascii() and ch.isprintable() else "?" for ch in name)
    return clean.ljust(NAME_WIDTH)[:NAME_WIDTH]


def format_message(message: Message) -> str:
    """The text of `message` (the caller adds the NUL)."""
    if isinstance(message, GameRequest):
        setup = "A" if message.board is None else "B" + message.to_move + message.board
        return (f"R{message.version:02d}{_name(message.name)}{message.follower_colour}"
                f"{message.minutes % 1000:03d}{message.moves % 1000:03d}{setup}")
    if isinstance(message, GameAccept):
        return f"A{_name(message.name)}{message.code}"
    if isinstance(message, MoveMessage):
        captures = "".join(f"{square:02d}" for square in message.captures)
        return (f"M{min(message.seconds, 9999):04d}{message.start:02d}{message.end:02d}"
                f"{len(message.captures):02d}{captures}")
    if isinstance(message, GameEnd):
        return f"E{message.reason}{message.stop}"
    if isinstance(message, Chat):
        return "C" + "".join(ch for ch in message.text if ch.isascii() and ch.isprintable())[:MAX_MESSAGE - 2]
    if isinstance(message, BackRequest):
        return f"B{message.move % 1000:03d}{message.colour}"
    if isinstance(message, BackAccept):
        return f"K{message.code}"
    raise TypeError(f"not a DXP message: {message!r}")


class Framer:
    """Splits a byte stream into NUL-ended messages; a message of more than
    MAX_MESSAGE bytes (whether its NUL came in the same read or not) is
    dropped and reported as one error, and never more than MAX_MESSAGE bytes
    plus one read are held."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[str | DxpError]:
        out: list[str | DxpError] = []
        self._buffer += data
        while True:
            end = self._buffer.find(0)
            if end < 0:
                if len(self._buffer) > MAX_MESSAGE:
                    if not self._skipping:
                        out.append(DxpError(f"message longer than {MAX_MESSAGE} bytes without a NUL: dropped"))
                    self._skipping = True
                    self._buffer.clear()
                return out
            raw = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            if self._skipping:
                self._skipping = False  # the tail of the over-long message
                continue
            if len(raw) > MAX_MESSAGE:  # the whole of it came in one read: as long, as refused
                out.append(DxpError(f"message longer than {MAX_MESSAGE} bytes: dropped"))
                continue
            out.append(raw.decode("latin-1").strip(" \r\n\t"))


# -- moves -----------------------------------------------------------------------


def move_message(variant: Variant, move: Move, seconds: int = 0) -> MoveMessage:
    number = variant.geometry.number
    return MoveMessage(seconds, number(move.start), number(move.end),
                       tuple(sorted(number(square) for square in move.captures)))


def find_move(variant: Variant, position: object, message: MoveMessage) -> Move:
    """The legal move `message` names in `position`; DxpError when there is none (or several)."""
    squares = variant.geometry.playable.bit_count()
    numbers = (message.start, message.end, *message.captures)
    if not all(1 <= n <= squares for n in numbers):
        raise DxpError(f"move {message.start}-{message.end} names a square outside 1-{squares}")
    square = variant.geometry.from_number
    start, end = square(message.start), square(message.end)
    captured = frozenset(square(n) for n in message.captures)
    matches = [m for m in variant.legal_moves(position)
               if m.start == start and m.end == end and m.captures == captured]
    text = f"{message.start}{'x' if message.captures else '-'}{message.end}"
    if not matches:
        raise DxpError(f"move {text} (captures {list(message.captures)}) is not legal here")
    return matches[0]  # the same pieces taken by two paths: the same move to DXP
