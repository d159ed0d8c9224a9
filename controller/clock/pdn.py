"""The clock in a game's PDN record: the time left per side on a move, and
the TimeControl tags.

The session stamps the main time left per side on the last move of every
turn (`CommittedMove.clock_ms`); a record writes them as `{[%clock w0:04:58
b0:05:03]}` with the `TimeControl` tag (and `DamkaTimeControl`, the compact
form, which PDN cannot always say: delays, byo-yomi, Fischer after move 1).

One `LABEL H:MM:SS` per side, the label the side's initial for draughts
(`w`, `b`), else `p1=`..`p4=`; whole seconds, rounded down, as PDN tools
expect (a reader also takes `H:MM:SS.mmm`).
"""

from __future__ import annotations

import re
from typing import Sequence

from damka.controller.clock import pdn_tag, timecontrol
from damka.controller.clock.controls import stored_control, variant_controls
from damka.controller.clock.errors import TimeControlError
from damka.controller.clock.timecontrol import TimeControl
from damka.engine.variant import Variant

_CLOCK_RE = re.compile(r"(?:([a-z]+\d*)=?)?(\d+):(\d\d):(\d\d)(?:\.(\d{1,3}))?", re.IGNORECASE)


def side_labels(variant: Variant) -> list[str]:
    """`w`, `b` for draughts; `p1=`.. for multiwarcaby (players and teams): the variant's `clock_labels()`."""
    return variant.clock_labels()


def format_clock(variant: Variant, clock_ms: Sequence[int]) -> str:
    """The `[%clock ...]` value in whole seconds, as PDN tools read it:
    `w0:04:58 b0:05:03`. Rounded down, so a clock never shows more time than
    was left (the store keeps the milliseconds)."""
    parts = []
    for label, ms in zip(side_labels(variant), clock_ms):
        seconds = max(0, int(ms)) // 1000
        hours, rest = divmod(seconds, 3600)
        parts.append(f"{label}{hours}:{rest // 60:02d}:{rest % 60:02d}")
    return " ".join(parts)


def parse_clock(variant: Variant, text: str) -> tuple[int, ...] | None:
    """The ms per side of a `[%clock ...]` value; None unless it names every side."""
    names = [label.rstrip("=") for label in side_labels(variant)]
    times: dict[int, int] = {}
    for index, match in enumerate(_CLOCK_RE.finditer(text)):
        label, hours, minutes, seconds, milli = match.groups()
        side = names.index(label.lower()) if label and label.lower() in names else index
        times[side] = ((int(hours) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + int((milli or "0").ljust(3, "0"))
    if sorted(times) != list(range(len(names))):
        return None
    return tuple(times[side] for side in range(len(names)))


def time_control_tags(controls: Sequence[TimeControl], text: str = "") -> dict[str, str]:
    """`TimeControl` (PDN's seconds form; `?` when PDN has none for it: a delay,
    byo-yomi, a handicap) and `DamkaTimeControl` (`text`, the record's own
    words such as a preset name, else the compact form: exact either way)."""
    compact = timecontrol.format_sides(controls)
    try:
        value = pdn_tag.format_pdn(controls[0]) if "|" not in compact else "?"
    except TimeControlError:
        value = "?"
    return {"TimeControl": value, "DamkaTimeControl": text or compact}


def stored_control_tags(variant: Variant, text: str) -> dict[str, str]:
    """The TimeControl tags of a stored game whose record says `text` (a game
    stored with `casual` before it was spelt out reads as the variant's)."""
    try:
        controls = variant_controls(variant, text)
    except TimeControlError:
        return {"TimeControl": "?", "DamkaTimeControl": text.strip()}
    return time_control_tags(controls, stored_control(variant, text)) if controls else {}
