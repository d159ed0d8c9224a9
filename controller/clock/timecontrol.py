"""Time controls: stages, increment modes, and the compact text form.

A `TimeControl` is a tuple of `Stage`s for one side. A stage gives a base time
and, optionally, a move quota and an increment mode:

- `Mode.NONE`: plain time.
- `Mode.FISCHER`: `increment_ms` added after every turn (and, when
  `TimeControl.increment_first` is set, once before move 1: the DGT way).
- `Mode.BRONSTEIN`: after every turn the time used is given back, up to
  `increment_ms`.
- `Mode.DELAY` (simple or US delay): every turn the clock waits
  `increment_ms` before it starts counting down.
- `Mode.HOURGLASS`: the time a side uses is added to the others (the only
  stage of its control).
- `Mode.BYOYOMI`: after the base time, `periods` periods of `increment_ms`;
  a turn finished inside a period resets it, a period that runs out is used
  up, the flag falls when the last one runs out (the last stage).

Stage transitions: a stage with a quota (`moves`) ends after that many turns
and the next stage's time is added to what is left; if its time runs out
first, the flag is recorded and shown and the next stage starts at once. A
stage without a quota ends when its time runs out (a planned transition, no
flag). The last stage, if it has a quota, repeats (`50/120:25/60` is 2 h for
50 moves, then 1 h for every further 25). Quotas count turns: a multiwarcaby
turn of two moves is one.

Its text forms, both parsed and written: the compact form here
(`parse`/`format_control`); the PDN/PGN TimeControl tag in `pdn_tag.py`
(`parse_pdn`/`format_pdn`); named presets in `presets.py`.

Compact (ours)::

    control := stage (":" stage)*          one side; "|" between sides (handicap)
    stage   := [turns "/"] time ["+" bonus] | "*" time (hourglass)
    time    := minutes, or with units: 1h20m, 90s, 2m30s, 0.5
    bonus   := seconds [b|d|a] | periods "x" seconds
               (Fischer; b Bronstein, d simple delay, a Fischer added only
               after move 1; "x": byo-yomi)

    5+3   15   3+2d   50/120:25/60   80+60   *3   60+5x30   5+3|3+3

"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Sequence

from damka.controller.clock.errors import TimeControlError

MINUTE = 60_000
SECOND = 1_000
HOUR = 60 * MINUTE


class Mode(StrEnum):
    """How a stage adds time back (or shares it)."""

    NONE = "none"
    FISCHER = "fischer"
    BRONSTEIN = "bronstein"
    DELAY = "delay"
    HOURGLASS = "hourglass"
    BYOYOMI = "byoyomi"


# Modes whose `increment_ms` must be positive; a stage with a zero increment is `Mode.NONE`.
_INCREMENT_MODES = {Mode.FISCHER, Mode.BRONSTEIN, Mode.DELAY, Mode.BYOYOMI}


@dataclass(frozen=True)
class Stage:
    """One stage of a time control; all times are integer milliseconds."""

    time_ms: int
    moves: int | None = None
    mode: Mode = Mode.NONE
    increment_ms: int = 0
    periods: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", Mode(self.mode))
        for name in ("time_ms", "increment_ms", "periods"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise TimeControlError(f"stage {name} must be a whole number >= 0, not {value!r}")
        if self.moves is not None and (not isinstance(self.moves, int) or self.moves < 1):
            raise TimeControlError(f"stage move quota must be a whole number >= 1, not {self.moves!r}")
        if self.mode in _INCREMENT_MODES and self.increment_ms == 0:
            raise TimeControlError(f"a {self.mode} stage needs an increment above 0 (use mode none)")
        if self.mode not in _INCREMENT_MODES and self.increment_ms:
            raise TimeControlError(f"a {self.mode} stage has no increment, got {self.increment_ms} ms")
        if (self.mode is Mode.BYOYOMI) != (self.periods > 0):
            raise TimeControlError("byo-yomi needs at least one period, and only byo-yomi has periods")
        if self.time_ms == 0 and self.mode in (Mode.NONE, Mode.HOURGLASS, Mode.BRONSTEIN):
            raise TimeControlError(f"a {self.mode} stage with no time would flag at once")
        if self.mode in (Mode.HOURGLASS, Mode.BYOYOMI) and self.moves is not None:
            raise TimeControlError(f"a {self.mode} stage cannot have a move quota")

    @property
    def delay_ms(self) -> int:
        """The simple delay of each turn (0 unless `Mode.DELAY`)."""
        return self.increment_ms if self.mode is Mode.DELAY else 0

    def to_dict(self) -> dict:
        return {"time_ms": self.time_ms, "moves": self.moves, "mode": str(self.mode),
                "increment_ms": self.increment_ms, "periods": self.periods}

    @classmethod
    def from_dict(cls, data: dict) -> Stage:
        try:
            return cls(int(data["time_ms"]), data.get("moves"), Mode(data.get("mode", "none")),
                       int(data.get("increment_ms", 0)), int(data.get("periods", 0)))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, TimeControlError):
                raise
            raise TimeControlError(f"bad stage record {data!r}: {exc}") from exc


@dataclass(frozen=True)
class TimeControl:
    """The stages of one side's time. No stages: untimed (the clock only counts up)."""

    stages: tuple[Stage, ...] = ()
    increment_first: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages", tuple(self.stages))
        for index, stage in enumerate(self.stages):
            if stage.mode is Mode.HOURGLASS and len(self.stages) > 1:
                raise TimeControlError("an hourglass is the only stage of its time control")
            if stage.mode is Mode.BYOYOMI and index != len(self.stages) - 1:
                raise TimeControlError(f"byo-yomi must be the last stage, it is stage {index + 1}")
        # The option only matters when the first stage is Fischer; normalised so equality means "same clock".
        if not self.stages or self.stages[0].mode is not Mode.FISCHER:
            object.__setattr__(self, "increment_first", True)

    @property
    def untimed(self) -> bool:
        return not self.stages

    @property
    def hourglass(self) -> bool:
        return bool(self.stages) and self.stages[0].mode is Mode.HOURGLASS

    def initial_ms(self) -> int:
        """Time on the clock before move 1 (Fischer credited in advance when so set)."""
        if not self.stages:
            return 0
        first = self.stages[0]
        bonus = first.increment_ms if first.mode is Mode.FISCHER and self.increment_first else 0
        return first.time_ms + bonus

    def stage(self, index: int) -> Stage:
        """Stage `index`; past the end, the last (a repeating last stage)."""
        return self.stages[min(index, len(self.stages) - 1)]

    def is_last(self, index: int) -> bool:
        return index >= len(self.stages) - 1

    def __str__(self) -> str:
        return format_control(self)

    def to_dict(self) -> dict:
        return {"stages": [stage.to_dict() for stage in self.stages], "increment_first": self.increment_first}

    @classmethod
    def from_dict(cls, data: dict) -> TimeControl:
        return cls(tuple(Stage.from_dict(s) for s in data.get("stages", ())), bool(data.get("increment_first", True)))


# -- numbers ------------------------------------------------------------------

_NUMBER = r"\d+(?:\.\d+)?"
_UNITS = {"h": HOUR, "m": MINUTE, "s": SECOND}
_UNIT_PART = re.compile(rf"({_NUMBER})([hms])")


# No clock of a game on the board runs longer than this per stage, increment or
# period (a day): a larger number is a typing error, refused before any clock is built.
MAX_DURATION_MS = 24 * HOUR
MAX_COUNT = 1000  # move quotas and byo-yomi periods


def read_ms(number: str, unit_ms: int, what: str) -> int:
    """`number` of `unit_ms` as whole ms, at most a day (the number grammar of both text forms)."""
    if len(number) > 12:
        raise TimeControlError(f"{what}: {number!r} is longer than any clock runs (at most 24 hours)")
    try:
        value = Decimal(number) * unit_ms
    except InvalidOperation as exc:  # pragma: no cover - the regexes only let digits through
        raise TimeControlError(f"{what}: {number!r} is not a number") from exc
    if value != value.to_integral_value():
        raise TimeControlError(f"{what}: {number!r} is not a whole number of milliseconds")
    if value > MAX_DURATION_MS:
        raise TimeControlError(f"{what}: {number!r} is longer than any clock runs (at most 24 hours)")
    return int(value)


def read_count(text: str, where: str, what: str) -> int:
    """A move quota or a number of periods: a whole number from 1 to MAX_COUNT."""
    if not text.isdigit() or len(text) > 4 or not 1 <= int(text) <= MAX_COUNT:
        raise TimeControlError(f"{where}: {what} {text!r} is not a whole number from 1 to {MAX_COUNT}")
    return int(text)


def _duration(text: str, default_unit_ms: int, what: str) -> int:
    """`90`, `1.5`, `1h20m`, `2m30s`: bare numbers are in the default unit."""
    if re.fullmatch(_NUMBER, text):
        return read_ms(text, default_unit_ms, what)
    if text and re.fullmatch(rf"(?:{_NUMBER}[hms])+", text):
        parts = _UNIT_PART.findall(text)
        units = [unit for _, unit in parts]
        if len(set(units)) != len(units) or units != sorted(units, key="hms".index):
            raise TimeControlError(f"{what}: {text!r} repeats or misorders its units (write 1h20m30s)")
        return sum(read_ms(number, _UNITS[unit], what) for number, unit in parts)
    raise TimeControlError(f"{what}: {text!r} is not a time (write 15, 90s, 1h20m)")


def _decimal(ms: int, unit_ms: int) -> str:
    text = format(Decimal(ms) / unit_ms, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _write_minutes(ms: int) -> str:
    if ms % MINUTE == 0:
        return str(ms // MINUTE)
    minutes, rest = divmod(ms, MINUTE)
    return (f"{minutes}m" if minutes else "") + f"{_decimal(rest, SECOND)}s"


def _write_seconds(ms: int) -> str:
    return _decimal(ms, SECOND)


# -- compact text ---------------------------------------------------------------

_BONUS_LETTERS = {"": Mode.FISCHER, "a": Mode.FISCHER, "b": Mode.BRONSTEIN, "d": Mode.DELAY}
_MODE_LETTERS = {Mode.FISCHER: "", Mode.BRONSTEIN: "b", Mode.DELAY: "d"}


def _parse_stage(text: str, index: int) -> tuple[Stage, bool]:
    """One stage; also whether it asked for Fischer only after move 1 (`a`)."""
    try:
        return _read_stage(text, index)
    except TimeControlError as exc:
        if str(exc).startswith("stage "):
            raise
        raise TimeControlError(f"stage {index + 1} {text!r}: {exc}") from exc


def _read_stage(text: str, index: int) -> tuple[Stage, bool]:
    where = f"stage {index + 1} {text!r}"
    if not text:
        raise TimeControlError(f"stage {index + 1} is empty")
    if text.startswith("*"):
        return Stage(_duration(text[1:], MINUTE, f"{where}: hourglass time"), mode=Mode.HOURGLASS), False
    moves = None
    if "/" in text:
        quota, _, text = text.partition("/")
        moves = read_count(quota, where, "move quota")
    base, plus, bonus = text.partition("+")
    time_ms = _duration(base, MINUTE, f"{where}: base time")
    if not plus:
        return Stage(time_ms, moves), False
    if "x" in bonus:
        periods, _, length = bonus.partition("x")
        if not periods or not length:   # "5+x": not a count of ''
            raise TimeControlError(f"{where}: byo-yomi is written PERIODSxSECONDS after the +, "
                                   f"like 10+5x30 (5 periods of 30 s)")
        count = read_count(periods, where, "byo-yomi periods")
        return Stage(time_ms, moves, Mode.BYOYOMI, _duration(length, SECOND, f"{where}: byo-yomi period"),
                     count), False
    match = re.fullmatch(r"(.*?)([abd]?)", bonus)
    assert match is not None  # the pattern matches every string
    amount, letter = match.groups()
    increment = _duration(amount, SECOND, f"{where}: increment")
    if increment == 0:
        if letter:
            raise TimeControlError(f"{where}: a zero increment cannot be {letter!r}")
        return Stage(time_ms, moves), False
    return Stage(time_ms, moves, _BONUS_LETTERS[letter], increment), letter == "a"


def parse(text: str) -> TimeControl:
    """One side's time control from the compact form (`5+3`, `50/120:25/60`, `*3`, `60+5x30`)."""
    if not isinstance(text, str):
        raise TimeControlError(f"a time control is text, not {type(text).__name__}")
    clean = "".join(text.split()).lower()
    if clean in ("", "-"):
        if clean == "-":
            return TimeControl()
        raise TimeControlError("empty time control (write - for no time control)")
    if "|" in clean:
        raise TimeControlError(f"{text!r} gives one control per side: use parse_sides")
    stages = []
    after_only = False
    for index, part in enumerate(clean.split(":")):
        stage, after = _parse_stage(part, index)
        if after and index:
            raise TimeControlError(f"stage {index + 1} {part!r}: 'a' (Fischer after move 1) belongs to stage 1")
        after_only = after_only or after
        stages.append(stage)
    try:
        return TimeControl(tuple(stages), increment_first=not after_only)
    except TimeControlError as exc:
        raise TimeControlError(f"time control {text!r}: {exc}") from exc


def _format_stage(stage: Stage, first: bool, increment_first: bool) -> str:
    if stage.mode is Mode.HOURGLASS:
        return "*" + _write_minutes(stage.time_ms)
    text = (f"{stage.moves}/" if stage.moves is not None else "") + _write_minutes(stage.time_ms)
    if stage.mode is Mode.BYOYOMI:
        return text + f"+{stage.periods}x{_write_seconds(stage.increment_ms)}"
    if stage.mode is Mode.NONE:
        return text
    letter = _MODE_LETTERS[stage.mode]
    if stage.mode is Mode.FISCHER and first and not increment_first:
        letter = "a"
    return text + f"+{_write_seconds(stage.increment_ms)}{letter}"


def format_control(control: TimeControl) -> str:
    """The compact form; `parse(format_control(c)) == c`."""
    if control.untimed:
        return "-"
    return ":".join(_format_stage(stage, index == 0, control.increment_first)
                    for index, stage in enumerate(control.stages))


def parse_sides(text: str, sides: int) -> list[TimeControl]:
    """Controls for `sides` sides: one for all (`5+3`) or one per side in turn order (`5+3|3+3`)."""
    if sides < 1:
        raise TimeControlError(f"a clock needs at least one side, not {sides}")
    parts = text.split("|")
    if len(parts) == 1:
        return [parse(text)] * sides
    if len(parts) != sides:
        raise TimeControlError(f"{text!r} gives {len(parts)} controls for {sides} sides")
    return [parse(part) for part in parts]


def format_sides(controls: Sequence[TimeControl]) -> str:
    """`5+3` when every side has the same control, else one per side joined by `|`."""
    texts = [format_control(control) for control in controls]
    return texts[0] if len(set(texts)) == 1 else "|".join(texts)
