"""Text from outside (a PDN file, a board's message, a device's start-up line, an
engine's stderr) made safe to show, to log and to write back out. One list of
the characters that are not safe, two ways to deal with them:

- `one_line` for text shown on a page or written into PDN: a tag value, a
  player's name or a comment may carry newlines (a PDN tag written with one
  breaks the file: the rest of the value reads as moves or as another tag), NUL
  and other control characters, and bidirectional overrides (U+202A-202E,
  U+2066-2069), which make a page or an exported file show text in another
  order than it is written ("Smith 1-0" shown as "0-1 htimS"). Every control
  character becomes a space and the direction marks are removed; printable
  text is unchanged.
- `safe_text` for a terminal and a log: nothing in it can move the cursor,
  clear the screen, set the window's title, forge a log line or turn the text
  around. Every control character becomes a visible escape (`\\x1b`, `\\n`,
  `\\x9b`, `\\u202e`), so an ESC sequence shows as the harmless text it is; a
  backslash is doubled, so a shown `\\x1b` is never mistaken for an escaped
  ESC; the text is cut at MAX_CHARS (one log line stays readable).

It lives in the engine (which imports nothing else) so that every layer, the
engine's own PDN writer too, uses this one list.
"""

from __future__ import annotations

import re

CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029]   # C0, DEL, C1, line/paragraph breaks
DIRECTION_MARKS = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
MAX_CHARS = 500   # an outside line longer than this is cut in a log

_ONE_LINE: dict[int, str | None] = {**{code: " " for code in CONTROLS}, **{code: None for code in DIRECTION_MARKS}}
_UNSAFE = re.compile("[" + re.escape("\\" + "".join(map(chr, CONTROLS + DIRECTION_MARKS))) + "]")
_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def one_line(text: str) -> str:
    """`text` with control characters as spaces and direction overrides, isolates and marks removed."""
    return text.translate(_ONE_LINE)


def safe_text(text: str, limit: int = MAX_CHARS) -> str:
    """`text` with every control shown as an escape, cut to `limit` characters (with "...")."""
    cut = text[:limit] + ("..." if len(text) > limit else "")
    return _UNSAFE.sub(_escape, cut)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = _NAMED.get(char)
    if named is not None:
        return named
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"
