"""Named time controls (`blitz-100`, `fmjd-classical`, ...), each variant's
casual default, and handicaps: a control from a name, or else from the
compact form."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Iterable

from damka.controller.clock.errors import TimeControlError
from damka.controller.clock.timecontrol import SECOND, TimeControl, format_control, parse
from damka.engine.variant import Variant
from damka.engine.variants import default_variant, variant_class


@dataclass(frozen=True)
class Preset:
    """A named time control (the same for every side)."""

    name: str
    text: str
    description: str
    aliases: tuple[str, ...] = field(default=())

    @property
    def control(self) -> TimeControl:
        return parse(self.text)


PRESETS: tuple[Preset, ...] = (
    Preset("fmjd-classical", "50/120:25/60", "FMJD classical: 2 h for 50 moves, then 1 h for every 25 moves",
           ("classical",)),
    Preset("fmjd-classical-increment", "80+60", "FMJD classical with increment: 1 h 20 min + 1 min per move"),
    Preset("rapid-64", "10+3", "rapid on 64 squares: 10 min + 3 s per move", ("rapid",)),
    Preset("rapid-100", "15+5", "rapid on 100 squares: 15 min + 5 s per move"),
    Preset("rapid-15", "15", "rapid, sudden death: 15 min"),
    Preset("blitz-64", "3+3", "blitz on 64 squares: 3 min + 3 s per move", ("blitz",)),
    Preset("blitz-100", "5+3", "blitz on 100 squares: 5 min + 3 s per move"),
    Preset("blitz-5", "5", "blitz, sudden death: 5 min"),
    Preset("superblitz", "2+2", "superblitz: 2 min + 2 s per move", ("bullet",)),
    Preset("multiwarcaby7", "5+2", "casual multiwarcaby, small board, 2 players: about 12 min a game"),
    Preset("multiwarcaby-2", "8+2", "casual multiwarcaby, 2 players or two teams: about 20 min a game"),
    Preset("multiwarcaby-3", "5+2", "casual multiwarcaby, 3 players: about 20 min a game"),
    Preset("multiwarcaby-4", "4+1", "casual multiwarcaby, 4 players: about 20 min a game"),
    Preset("hourglass-3", "*3", "hourglass, 3 min"),
    Preset("byoyomi", "10+5x30", "10 min, then 5 byo-yomi periods of 30 s"),
    # (not "casual": a game set up with `casual` plays its variant's casual clock, `controls.variant_controls`)
    Preset("untimed", "-", "no time control: the clock counts up", ("none",)),
)


def find_preset(name: str) -> Preset:
    """A preset by name or alias (case-insensitive)."""
    wanted = name.strip().lower()
    for candidate in PRESETS:
        if wanted == candidate.name or wanted in candidate.aliases:
            return candidate
    names = ", ".join(candidate.name for candidate in PRESETS)
    raise TimeControlError(f"no time control preset {name!r} (presets: {names})")


def casual_preset(variant: str | Variant, sides: int = 2) -> Preset:
    """The casual default for a variant (`variant.casual_time_preset()`), given
    itself or by name and number of clock sides (teams count as 2)."""
    if isinstance(variant, str):
        factory = variant_class(variant)
        try:
            variant = factory.create(sides=sides) if sides != 2 and factory.takes_option("sides") else \
                default_variant(factory.name)
        except ValueError as exc:
            raise TimeControlError(f"no casual time control: {exc}") from None
    return find_preset(variant.casual_time_preset())


def control(text_or_name: str) -> TimeControl:
    """A time control from a preset name or the compact form."""
    try:
        return find_preset(text_or_name).control
    except TimeControlError:
        if re.fullmatch(r"[a-z][a-z0-9-]*", text_or_name.strip().lower()):
            raise
        return parse(text_or_name)


def with_handicap(base: TimeControl, factors: Iterable[float]) -> list[TimeControl]:
    """Handicap helper: one control per side with the first stage's time scaled (whole seconds)."""
    result = []
    for factor in factors:
        if not base.stages or factor <= 0:
            raise TimeControlError(f"cannot scale {format_control(base)!r} by {factor}")
        first = base.stages[0]
        seconds = max(1, round(first.time_ms * factor / SECOND))
        result.append(replace(base, stages=(replace(first, time_ms=seconds * SECOND), *base.stages[1:])))
    return result
