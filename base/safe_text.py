"""Text from outside (a device's start-up line, an engine's stderr) made safe
for a terminal and a log: nothing in it can move the cursor, clear the
screen, set the window's title, forge a log line or turn the text around.

Every C0 control (newlines and tabs too: one outside line stays one line),
DEL and every C1 control becomes a visible escape (`\\x1b`, `\\n`, `\\x9b`),
so an ESC sequence shows as the harmless text it is; the bidirectional
controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) become
`\\u202e` and the like. A backslash is doubled, so a shown `\\x1b` is never
mistaken for an escaped ESC. Everything else, letters of any script
included, stays as it was.
"""

from __future__ import annotations

import re

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_UNSAFE = re.compile(f"[\\\\\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}]")
_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
MAX_CHARS = 500   # an outside line longer than this is cut (one log line stays readable)


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
