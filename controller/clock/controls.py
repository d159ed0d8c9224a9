"""A game on the tournament clock: the time control from text, the clock for a
variant, and the game's record with the clock in it.

    controls = read_controls("5+3", sides=2)              # compact, `pdn:300+3`, or a preset name
    clock = make_clock(variant, controls, time=monotonic_ms)
    session = Session(variant, SessionSettings(mode=Mode.TOURNAMENT), clock=clock)
    ...                                                    # the session starts the clock at the first press or move
    text = game_pdn(session, controls, {"Event": "Club night"})

The session polls the clock (flags at their exact millisecond) and stamps the
main time left per side on the last move of every turn
(`CommittedMove.clock_ms`); `game_pdn` writes them as `{[%clock w0:04:58
b0:05:03]}` with the `TimeControl` tag (and `DamkaTimeControl`, the compact
form, which PDN cannot always say: delays, byo-yomi, Fischer after move 1).

The clock annotation is the store's (`controller/store_pdn.py`): one `LABEL
H:MM:SS` per side, the label the side's initial for draughts (`w`, `b`),
else `p1=`..`p4=`; whole seconds, rounded down, as PDN tools expect (a
reader also takes `H:MM:SS.mmm`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping, Sequence

from damka.controller import timecontrol
from damka.controller.clock import Clock, TimeSource
from damka.controller.clock_errors import TimeControlError
from damka.controller.events import FlagFell, GameEvent, SideOut
from damka.controller.timecontrol import TimeControl
from damka.engine import pdn
from damka.engine.variant import Variant

if TYPE_CHECKING:
    from damka.controller.session import Session

PDN_PREFIX = "pdn:"
_CLOCK_RE = re.compile(r"(?:([a-z]+\d*)=?)?(\d+):(\d\d):(\d\d)(?:\.(\d{1,3}))?", re.IGNORECASE)


def read_controls(text: str, sides: int) -> list[TimeControl]:
    """One time control per clock side from a preset name (`blitz-100`), the
    compact form (`5+3`, `5+3d`, `5+3|3+3` per side) or, after `pdn:`, the PDN
    TimeControl tag form in seconds (`pdn:300+3`, `pdn:40/7200:3600`).

    The PDN form needs its prefix: `300+3` is a valid compact control too
    (300 minutes). TimeControlError when the text is none of these."""
    clean = text.strip()
    if clean.lower().startswith(PDN_PREFIX):
        control = timecontrol.parse_pdn(clean[len(PDN_PREFIX):])
        if control is None:
            raise TimeControlError("the PDN TimeControl '?' (unknown) is no time control to play with")
        return [control] * sides
    if "|" in clean:
        return timecontrol.parse_sides(clean, sides)
    return [timecontrol.control(clean)] * sides


CASUAL = "casual"  # a setup's clock: the variant's own casual default (`variant.casual_time_preset()`)


def variant_controls(variant: Variant, text: str) -> list[TimeControl] | None:
    """The controls a game of `variant` set up with `text` runs: None for ""
    (no clock), the variant's casual default for `casual` (a setup's word,
    not the untimed preset's alias), else `read_controls`."""
    clean = text.strip()
    if not clean:
        return None
    sides = len(variant.sides)
    if clean == CASUAL:
        return [timecontrol.casual_preset(variant).control] * sides
    return read_controls(clean, sides)


def stored_control(variant: Variant, text: str) -> str:
    """The time control text a game keeps in its record: the setup's text,
    with `casual` spelt out as the compact form of what ran (`10+3`), since
    read alone, without the variant, `casual` names no clock at all."""
    clean = text.strip()
    if clean != CASUAL:
        return clean
    return timecontrol.format_sides(variant_controls(variant, clean) or [])


def make_clock(variant: Variant, controls: str | TimeControl | Sequence[TimeControl], *,
               time: TimeSource | None = None, pin: str | None = None) -> Clock:
    """The clock for `variant`: one side per side (or team) of the variant, its
    moves per turn (multiwarcaby: the clock switches after the turn's 2nd move)."""
    sides = len(variant.sides)
    if isinstance(controls, str):
        controls = variant_controls(variant, controls) or read_controls(controls, sides)
    elif isinstance(controls, TimeControl):
        controls = [controls] * sides
    return Clock(list(controls), sides=sides, time=time, moves_per_turn=variant.moves_per_turn, pin=pin)


# -- the record ---------------------------------------------------------------------


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
        value = timecontrol.format_pdn(controls[0]) if "|" not in compact else "?"
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


def game_pdn(session: Session, controls: Sequence[TimeControl] | None = None,
             tags: Mapping[str, str] | None = None, events: Sequence[GameEvent] = ()) -> str:
    """The session's game as PDN: `[%clock ...]` after the last move of every
    turn, the TimeControl tags, a comment where a flag fell or a player went
    out (from `events`, the game's events as a listener kept them), and the
    result (`*` while the game goes on).

    A multiwarcaby player going out is in the comments only: PDN cannot say
    it, so a reader gives the later turns to the sides in the old order."""
    variant = session.variant
    game = session.game
    all_tags = dict(tags or {})
    if controls:
        all_tags.update(time_control_tags(controls))
    moves = list(game.moves)
    committed = session.committed[-len(moves):] if moves else []
    clocks = [format_clock(variant, c.clock_ms) if c.clock_ms else None for c in committed]
    comments: list[str] = [""] * len(moves)
    intro: list[str] = []
    for event in events:
        text = _event_comment(variant, event)
        if text is None:
            continue
        ply = min(event.ply, len(moves))
        if ply == 0:
            intro.append(text)
        else:
            comments[ply - 1] = f"{comments[ply - 1]}; {text}" if comments[ply - 1] else text
    return pdn.write_game(variant, game.start, moves, all_tags, clocks=clocks, comments=comments,
                          intro="; ".join(intro), result=game.result)


def _event_comment(variant: Variant, event: GameEvent) -> str | None:
    if isinstance(event, FlagFell):
        return f"{_name(variant, event.side)}'s flag fell at {event.time_ms} ms (stage {event.stage})"
    if isinstance(event, SideOut):
        return f"{_name(variant, event.side)} out ({event.reason})"
    return None


def _name(variant: Variant, side: int) -> str:
    name = variant.sides[side]
    return f"player {name}" if name.isdigit() else name
