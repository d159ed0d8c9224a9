"""One declaration per variant option: what `create()` checks, the PDN tag,
the saved options and the command-line flags are all built from it.

    OptionSpec("draw_moves", int, 15, "DrawMoves", "moves each without a capture before a draw", minimum=1)

Values are Python values (`True`, `25`, `None` for "off"); text (a PDN tag,
a command-line argument) is read with `parse` and written with `format`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from damka.engine.reasons import Reason

_YES = {"1", "yes", "true", "on", "y"}
_NO = {"0", "no", "false", "off", "n"}


@dataclass(frozen=True)
class OptionSpec:
    """One option of a variant.

    `name` is the `create()`/`find_variant` keyword and the variant attribute
    holding the value; `kind` is bool or int; `off` lets an int option be None
    (written "off"); `minimum`/`maximum` bound an int; `one_based` shows an
    index counted from 1 in text (the side that starts: 1 = the first side).
    """

    name: str
    kind: type
    default: object
    tag: str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    off: bool = False
    one_based: bool = False

    @property
    def flag(self) -> str:
        """The command-line flag: `--draw-moves`."""
        return "--" + self.name.replace("_", "-")

    @property
    def switch(self) -> bool:
        """A yes/no option that is off unless asked for: a flag without a value (`--teams`)."""
        return self.kind is bool and self.default is False

    def allowed(self) -> str:
        """The allowed values in words, as the error messages and the help say them."""
        if self.kind is bool:
            return Reason("option.yes_no")
        low, high = (None if b is None else b + self.one_based for b in (self.minimum, self.maximum))
        text: str
        if low is not None and high is not None:
            text = f"{low}" if low == high else Reason("option.range", low=low, high=high)
        elif low is not None:
            text = Reason("option.at_least", low=low)
        else:
            text = Reason("option.whole")
        return Reason("option.or_off", allowed=text) if self.off else text

    def check(self, value: object, variant: str = "") -> object:
        """`value` if this option allows it, else ValueError naming the option and the allowed values."""
        if value is None and self.off:
            return None
        if self.kind is bool:
            ok = isinstance(value, bool)
        else:
            ok = (isinstance(value, int) and not isinstance(value, bool)
                  and (self.minimum is None or value >= self.minimum)
                  and (self.maximum is None or value <= self.maximum))
        if not ok:
            where = f"{variant}: " if variant else ""
            shown = self.format(value) if isinstance(value, int) or value is None else repr(value)
            raise ValueError(f"{where}option {self.name} ({self.flag}, tag {self.tag}) cannot be {shown}; "
                             f"allowed: {self.allowed()}")
        return value

    def parse(self, text: str) -> object:
        """The value a text means (a PDN tag value, a command-line argument); ValueError if it means none."""
        word = text.strip().lower()
        if self.kind is bool:
            if word in _YES:
                return True
            if word in _NO:
                return False
        elif self.off and word == "off":
            return None
        elif word.isdigit():
            return int(word) - self.one_based
        raise ValueError(Reason("option.not_one_of", name=self.name, text=text.strip(), allowed=self.allowed()))

    def format(self, value: object) -> str:
        """The text of `value`; `parse` reads it back."""
        if value is None:
            return "off"
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(int(value) + self.one_based)  # type: ignore[call-overload]


def check_options(specs: Iterable[OptionSpec], options: Mapping[str, object], variant: str) -> dict[str, Any]:
    """Every option given, checked; the defaults for the others. ValueError for an
    option the variant does not take (naming the ones it does) or a bad value.
    (Any: each value has its own spec's type, checked here, which a dict cannot
    say key by key.)"""
    table = {spec.name: spec for spec in specs}
    for key in options:
        if key not in table:
            takes = ", ".join(table) or "none"
            raise ValueError(f"variant {variant!r} takes no option {key!r} (it takes: {takes})")
    return {name: spec.check(options[name], variant) if name in options else spec.default
            for name, spec in table.items()}
