"""PDN text as tokens: the first step of reading a record (`engine/pdn.py`).

`tokenize` never raises: problems come out as `error` tokens, which the
reader reports with their line and column (`Lines`), so one bad record in a
file does not lose the others.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from damka.engine.reasons import Reason


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # tag, comment, variation, number, move, result, nag, ellipsis, error
    text: str
    offset: int
    name: str = ""  # tag name
    value: str = ""  # tag value, comment text, or error message


# Possessive (`++`, `*+`): a tag whose value is never closed fails at once, where backtracking
# over a 2 MB value took 0.55 s and 350 MB.
_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]++|\\.)*+)"\s*\]')
_NUMBER_RE = re.compile(r"(\d+)\s*(\.+)")
_WORD_RE = re.compile(r"[^\s\[\]{}();]+")
_SPACE_RE = re.compile(r"\s+")
_NAG_RE = re.compile(r"\$\d+")
_RESULT_RE = re.compile(r"^\d+(?:/\d+)?(?:-\d+(?:/\d+)?)+$")
_STRENGTH_RE = re.compile(r"[!?]+$")
# Forms real files use that the plain word rules would cut wrong (PDN 3.0 asks readers to take them):
# `1- 6` (Turbo Dambase pads a square with a space), the ResultFormat results `1 1/2 - 1/2`,
# `1+ - 1-`, Goes `1.02-0.98`, and an ellipsis `...` after a move number (`1. ... 35-40`).
_SPACED_MOVE_RE = re.compile(r"(\d{1,2})([-xX:]) {1,2}(\d{1,2})(?=[\s!?]|$)")
_FORMAT_RESULT_RE = re.compile(r"1 1/2 - 1/2|1/2 - 1 1/2|1\+ - 1-|1- - 1\+|-?\d+\.\d+--?\d+\.\d+(?=\s|$)")
_ELLIPSIS_RE = re.compile(r"\.+(?=\s|$)")
_GLUED_COMMENT_RE = re.compile(r"^([a-zA-Z]?\d{1,3}(?:[-xX:][a-zA-Z]?\d{1,3})+)([A-Za-z][A-Za-z.,!' ]*)$")
_BARE_ROUTE_RE = re.compile(r"^[a-h][1-8](?:[a-h][1-8])+$")  # `c3d4`: alphanumeric squares with no separator


def _is_result(word: str) -> bool:
    """`2-0`, `1/2-1/2`, `0-0`, `1-0-0-0` are results; `32-28` is a move.

    A two-number dash word is a move unless it holds a 0 or both numbers are
    equal: no step goes to or from square 0 or onto its own square.
    """
    if word == "*":
        return True
    if not _RESULT_RE.match(word):
        return False
    parts = word.split("-")
    return "/" in word or len(parts) != 2 or "0" in parts or parts[0] == parts[1]


# Long on purpose: one scanner loop over the text, one branch per token kind.
def tokenize(text: str, line_start: bool = True) -> Iterator[Token]:
    """The tokens of PDN text; problems come out as `error` tokens, never raised.

    `line_start` says whether `text` begins at the start of a line (a piece of
    a longer text may not), where `%` starts an escape line."""
    pos, size = 0, len(text)
    while pos < size:
        char = text[pos]
        if char.isspace():
            space = _SPACE_RE.match(text, pos)
            assert space is not None  # text[pos] is a space
            pos = space.end()
        elif char == "%" and (text[pos - 1] == "\n" if pos else line_start):
            end = text.find("\n", pos)
            pos = size if end < 0 else end  # escape line: ignored
        elif char == ";":
            end = text.find("\n", pos)
            end = size if end < 0 else end
            yield Token("comment", text[pos:end], pos, value=text[pos + 1:end].strip())
            pos = end
        elif char == "[":
            match = _TAG_RE.match(text, pos)
            if match:
                value = re.sub(r"\\(.)", r"\1", match.group(2))
                yield Token("tag", match.group(0), pos, name=match.group(1), value=value)
                pos = match.end()
            else:
                end = _line_end(text, pos, "]")
                yield Token("error", text[pos:end], pos, value=Reason("pdn.malformed_tag", tag=text[pos:end].strip()))
                pos = end
        elif char == "{":
            end = text.find("}", pos)
            if end < 0:
                yield Token("error", text[pos:], pos, value=Reason("pdn.comment_open"))
                return
            yield Token("comment", text[pos:end + 1], pos, value=text[pos + 1:end].strip())
            pos = end + 1
        elif char == "(":
            end = _variation_end(text, pos)
            if end < 0:
                yield Token("error", text[pos:], pos, value=Reason("pdn.variation_open"))
                return
            yield Token("variation", text[pos:end], pos)
            pos = end
        elif char in ")]}":
            yield Token("error", char, pos, value=Reason("pdn.unexpected_char", char=char))
            pos += 1
        elif char == "$" and (match := _NAG_RE.match(text, pos)):
            yield Token("nag", match.group(0), pos)
            pos = match.end()
        else:
            special = _special(text, pos)
            if special is not None:
                yield special[0]
                pos = special[1]
                continue
            number = _NUMBER_RE.match(text, pos)
            if number:
                yield Token("number", number.group(0), pos, value=number.group(1))
                pos = number.end()
                continue
            match = _WORD_RE.match(text, pos)
            assert match is not None  # text[pos] is none of the characters a word stops at (handled above)
            word = match.group(0)
            bare = _STRENGTH_RE.sub("", word)
            if _is_result(bare):
                yield Token("result", bare, pos)
            elif not bare:
                yield Token("nag", word, pos)  # a lone `!` or `?!`
            elif _looks_like_move(bare):
                yield Token("move", bare, pos)
                if bare != word:
                    yield Token("nag", word[len(bare):], pos + len(bare))  # `32-28!?`: the strength is kept
            elif _BARE_ROUTE_RE.match(bare):
                yield Token("move", "-".join(bare[i:i + 2] for i in range(0, len(bare), 2)), pos)
            elif (glued := _GLUED_COMMENT_RE.match(bare)) is not None:
                yield Token("move", glued.group(1), pos)  # `8-11Redoversteppedthetime...`: a comment lost its braces
                yield Token("comment", glued.group(2), pos + len(glued.group(1)), value=glued.group(2))
            else:
                yield Token("error", word, pos, value=Reason("pdn.unexpected_word", word=word))
            pos = match.end()


def _special(text: str, pos: int) -> tuple[Token, int] | None:
    """A token of one of the forms the plain word rules would cut wrong, at `pos`, and where
    it ends; None if none. A spaced move's token text is the move without the space."""
    match = _FORMAT_RESULT_RE.match(text, pos)
    if match:
        return Token("result", match.group(0), pos), match.end()
    match = _SPACED_MOVE_RE.match(text, pos)
    if match:
        return Token("move", f"{match.group(1)}{match.group(2)}{match.group(3)}", pos), match.end()
    match = _ELLIPSIS_RE.match(text, pos)
    if match:
        return Token("ellipsis", match.group(0), pos), match.end()  # `1. ... 35-40`: black moves next
    return None


_MOVE_SHAPE_RE = re.compile(r"^(?:[a-zA-Z]\d{1,2}|\d{1,3})(?:[-xX:](?:[a-zA-Z]\d{1,2}|\d{1,3}))+$")


def _looks_like_move(word: str) -> bool:
    return bool(_MOVE_SHAPE_RE.match(word))


def _line_end(text: str, pos: int, closer: str) -> int:
    newline = text.find("\n", pos)
    newline = len(text) if newline < 0 else newline
    close = text.find(closer, pos, newline)
    return newline if close < 0 else close + 1


def _variation_end(text: str, pos: int) -> int:
    """Offset just past the `)` closing the variation opened at `pos`; -1 if none."""
    depth = 0
    index = pos
    while index < len(text):
        char = text[index]
        if char == "{":
            close = text.find("}", index)
            if close < 0:
                return -1
            index = close
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return -1


class Lines:
    """Offsets in a piece of the text -> `"line:column"` in the whole text.

    The piece starts on line `line` (1-based), `column` characters into it."""

    def __init__(self, text: str, line: int = 1, column: int = 0) -> None:
        self.starts = [0] + [match.end() for match in re.finditer(r"\n", text)]
        self.line, self.column = line, column

    def where(self, offset: int) -> str:
        index = bisect.bisect_right(self.starts, offset) - 1
        column = offset - self.starts[index] + 1 + (self.column if index == 0 else 0)
        return f"{self.line + index}:{column}"

    def after(self, offset: int) -> "tuple[int, int]":
        """(line, column) where the text from `offset` on starts."""
        index = bisect.bisect_right(self.starts, offset) - 1
        return self.line + index, offset - self.starts[index] + (self.column if index == 0 else 0)
