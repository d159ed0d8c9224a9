"""The PDN / PGN `TimeControl` tag: fields in seconds joined by ":"; `40/7200`
(moves/seconds), `300` (sudden death), `300+3` (seconds + increment), `*180`
(sandclock), `-` (no time control) and `?` (unknown). Read and written here;
delays and byo-yomi have no form in it (the compact form, `timecontrol.py`,
has every control)."""

from __future__ import annotations

from damka.controller.clock.errors import TimeControlError
from damka.controller.clock.timecontrol import SECOND, Mode, Stage, TimeControl, read_count, read_ms


def _pdn_seconds(text: str, what: str) -> int:
    if not text.isdigit():
        raise TimeControlError(f"{what}: {text!r} is not a whole number of seconds")
    return read_ms(text, SECOND, what)


def parse_pdn(text: str) -> TimeControl | None:
    """A PDN/PGN TimeControl tag value; None for `?` (unknown), untimed for `-`."""
    clean = text.strip()
    if clean == "?":
        return None
    if clean == "-":
        return TimeControl()
    if not clean:
        raise TimeControlError("empty TimeControl tag (write ? or -)")
    stages = []
    for index, part in enumerate(clean.split(":")):
        where = f"TimeControl field {index + 1} {part!r}"
        if part.startswith("*"):
            stages.append(Stage(_pdn_seconds(part[1:], f"{where}: sandclock"), mode=Mode.HOURGLASS))
            continue
        moves = None
        if "/" in part:
            quota, _, part = part.partition("/")
            moves = read_count(quota, where, "moves")
        base, plus, increment = part.partition("+")
        time_ms = _pdn_seconds(base, f"{where}: seconds")
        bonus = _pdn_seconds(increment, f"{where}: increment") if plus else 0
        stages.append(Stage(time_ms, moves, Mode.FISCHER if bonus else Mode.NONE, bonus))
    try:
        return TimeControl(tuple(stages))
    except TimeControlError as exc:
        raise TimeControlError(f"TimeControl {text!r}: {exc}") from exc


def format_pdn(control: TimeControl | None) -> str:
    """The PDN/PGN TimeControl tag value. Delays and byo-yomi have no PDN form (TimeControlError)."""
    if control is None:
        return "?"
    if control.untimed:
        return "-"
    fields = []
    for stage in control.stages:
        if stage.mode not in (Mode.NONE, Mode.FISCHER, Mode.HOURGLASS):
            raise TimeControlError(f"a {stage.mode} stage has no PDN TimeControl form")
        if stage.time_ms % SECOND or stage.increment_ms % SECOND:
            raise TimeControlError("PDN TimeControl has whole seconds only")
        if stage.mode is Mode.HOURGLASS:
            fields.append(f"*{stage.time_ms // SECOND}")
            continue
        text = (f"{stage.moves}/" if stage.moves is not None else "") + str(stage.time_ms // SECOND)
        if stage.mode is Mode.FISCHER:
            text += f"+{stage.increment_ms // SECOND}"
        fields.append(text)
    return ":".join(fields)
