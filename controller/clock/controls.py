"""The time controls a game plays with, from text, and the clock for a variant.

    controls = read_controls("5+3", sides=2)              # compact, `pdn:300+3`, or a preset name
    clock = make_clock(variant, controls, time=monotonic_ms)
    session = Session(variant, SessionSettings(mode=Mode.TOURNAMENT), clock=clock)

The session starts the clock at the first press or move and polls it (flags
at their exact millisecond); how the clock is written into a game's record is
`clock/pdn.py`.
"""

from __future__ import annotations

from typing import Sequence

from damka.controller.clock import pdn_tag, presets, timecontrol
from damka.controller.clock.clock import Clock, TimeSource
from damka.controller.clock.errors import TimeControlError
from damka.controller.clock.timecontrol import TimeControl
from damka.engine.variant import Variant

PDN_PREFIX = "pdn:"


def read_controls(text: str, sides: int) -> list[TimeControl]:
    """One time control per clock side from a preset name (`blitz-100`), the
    compact form (`5+3`, `5+3d`, `5+3|3+3` per side) or, after `pdn:`, the PDN
    TimeControl tag form in seconds (`pdn:300+3`, `pdn:40/7200:3600`).

    The PDN form needs its prefix: `300+3` is a valid compact control too
    (300 minutes). TimeControlError when the text is none of these."""
    clean = text.strip()
    if clean.lower().startswith(PDN_PREFIX):
        control = pdn_tag.parse_pdn(clean[len(PDN_PREFIX):])
        if control is None:
            raise TimeControlError("the PDN TimeControl '?' (unknown) is no time control to play with")
        return [control] * sides
    if "|" in clean:
        return timecontrol.parse_sides(clean, sides)
    return [presets.control(clean)] * sides


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
        return [presets.casual_preset(variant).control] * sides
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
