"""Text from outside (a PDN file, a board's message) made safe to show and to write back out.

A tag value, a player's name or a comment may carry newlines (a PDN tag
written with one breaks the file: the rest of the value reads as moves or as
another tag), NUL and other control characters (terminals act on ESC, C1
controls), and bidirectional overrides (U+202A-202E, U+2066-2069), which make
a page or an exported file show text in another order than it is written
("Smith 1-0" shown as "0-1 htimS"). `one_line` turns every control character
into a space and removes the direction marks; printable text is unchanged.
"""

from __future__ import annotations

CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029]   # C0, DEL, C1, line/paragraph breaks
DIRECTION_MARKS = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_TABLE: dict[int, str | None] = {**{code: " " for code in CONTROLS}, **{code: None for code in DIRECTION_MARKS}}


def one_line(text: str) -> str:
    """`text` with control characters as spaces and direction overrides, isolates and marks removed."""
    return text.translate(_TABLE)
