"""Which game a PDN record is: GameType, Damka's Variant and option tags, results.

PDN numbers the standard games in its `GameType` tag (20 international, 21
english/american, 25 russian, 26 brazilian = classic, 27 canadian). Games PDN
does not know (multiwarcaby) and variants with options (free capture, a
different draw count) get Damka's own tags: `Variant` with the name, one tag
per option that differs from the variant's default. The writer names exactly
what a reader needs to rebuild the same variant; see docs/notation.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from damka.engine.errors import DamkaError, RecordError, UnknownVariantError
from damka.engine.variant import Result, Variant
from damka.engine.variants import find_variant, variant_names

VARIANT_TAG = "Variant"
DEFAULT_VARIANT = "international"  # PDN 3.0: a record without GameType is international draughts

_YES = {"1", "yes", "true", "on", "y"}
_NO = {"0", "no", "false", "off", "n"}


def _read_bool(text: str) -> bool:
    value = text.strip().lower()
    if value in _YES:
        return True
    if value in _NO:
        return False
    raise ValueError("expected yes or no")


def _read_count(text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError("expected a whole number")
    return int(text)


def _read_count_or_off(text: str) -> int | None:
    return None if text.strip().lower() == "off" else _read_count(text)


def _write(value: object) -> str:
    if value is None:
        return "off"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@dataclass(frozen=True)
class OptionTag:
    option: str  # the `find_variant` keyword and the variant attribute
    tag: str
    read: Callable[[str], object]


# Variant options and their tags (the variants' attributes of the same names
# hold the values). `sides` is written by `variant_tags` itself.
OPTIONS = (
    OptionTag("free_capture", "FreeCapture", _read_bool),
    OptionTag("symmetric", "Symmetric", _read_bool),
    OptionTag("draw_moves", "DrawMoves", _read_count),
    OptionTag("threefold", "Threefold", _read_bool),
    OptionTag("quiet_rounds", "QuietRounds", _read_count_or_off),
    OptionTag("teams", "Teams", _read_bool),
)
# The names of the option tags, and every tag the writer derives from the
# variant (never copied from the caller's tags).
OPTION_TAGS = (*(entry.tag for entry in OPTIONS), "Sides")
VARIANT_TAGS = (VARIANT_TAG, "GameType", "MovesPerTurn", *OPTION_TAGS)


# Players who went out (3-4 player multiwarcaby, on time or by resigning):
# "SIDE:PLY ..." with 1-based sides, each out after that many moves.
OUT_TAG = "DamkaOut"


def read_out_tag(text: str) -> list[tuple[int, int]]:
    """(ply, 0-based side) pairs of a DamkaOut tag, in ply order; ValueError if bad."""
    drops = []
    for token in text.split():
        side, colon, ply = token.partition(":")
        if not colon or not side.isdigit() or not ply.isdigit() or int(side) < 1:
            raise ValueError(f"{OUT_TAG} tag: {token!r} is not SIDE:PLY (e.g. 3:14)")
        drops.append((int(ply), int(side) - 1))
    return sorted(drops)


def write_out_tag(drops: "list[tuple[int, int]]") -> str:
    """The DamkaOut value of (ply, 0-based side) pairs."""
    return " ".join(f"{side + 1}:{ply}" for ply, side in drops)


def gametype_number(gametype: str) -> str:
    return gametype.split(",")[0].strip()


@cache  # speed: building a variant builds its move tables; records ask for the defaults often
def _default_variant(name: str) -> Variant:
    """The variant with no options (only read, never played on)."""
    return find_variant(name)


def variant_options(variant: Variant) -> dict[str, object]:
    """The options `find_variant` needs to rebuild `variant`: those differing from its default."""
    default = _default_variant(variant.name)
    options = {
        entry.option: getattr(variant, entry.option)
        for entry in OPTIONS
        if hasattr(variant, entry.option) and getattr(variant, entry.option) != getattr(default, entry.option, None)
    }
    if variant.family == "multiwarcaby" and not options.get("teams") and len(variant.sides) != len(default.sides):
        options["sides"] = len(variant.sides)
    return options


def options_from_tags(tags: Mapping[str, str]) -> dict[str, object]:
    """The `find_variant` options the record's tags ask for."""
    options: dict[str, object] = {}
    for entry in OPTIONS:
        text = tags.get(entry.tag, "").strip()
        if text:
            try:
                options[entry.option] = entry.read(text)
            except ValueError as exc:
                raise RecordError(f"tag {entry.tag} {text!r}: {exc}") from None
    if options.get("teams") is False:
        del options["teams"]
    sides = tags.get("Sides", "").strip()
    if sides and not options.get("teams"):
        if not sides.isdigit():
            raise RecordError(f"tag Sides {sides!r}: expected the number of sides")
        if int(sides) != 2:  # 2 is every game's default (and all the small board takes)
            options["sides"] = int(sides)
    return options


@cache  # speed: see _default_variant
def _gametype_table() -> dict[str, str]:
    """GameType value (whole, and its number alone) -> variant name; first listed wins."""
    gametypes = [(name, _default_variant(name).pdn_gametype.replace(" ", "")) for name in variant_names()]
    table: dict[str, str] = {}
    for name, gametype in gametypes:
        if gametype:
            table.setdefault(gametype, name)
    for name, gametype in gametypes:
        if gametype:
            table.setdefault(gametype_number(gametype), name)
    return table


def variant_from_tags(tags: Mapping[str, str], default_variant: str | None = DEFAULT_VARIANT) -> Variant:
    """The variant a record is in: its Variant tag, else GameType, else `default_variant`.

    UnknownVariantError for a name or GameType Damka does not play (or no tag
    and no default); RecordError or ValueError for bad option tags.
    """
    options = options_from_tags(tags)
    name = tags.get(VARIANT_TAG, "").strip()
    if name:
        return find_variant(name, **options)
    gametype = tags.get("GameType", "").strip()
    if gametype:
        table = _gametype_table()
        found = table.get(gametype.replace(" ", "")) or table.get(gametype_number(gametype))
        if found is None:
            known = ", ".join(f"{number} {name}" for number, name in table.items() if "," not in number)
            raise UnknownVariantError(f"GameType {gametype!r} is not a game Damka plays (known: {known})")
        return find_variant(found, **options)
    if default_variant is None:
        raise UnknownVariantError("the record has no GameType or Variant tag, so its game is unknown")
    return find_variant(default_variant, **options)


def variant_tags(variant: Variant) -> dict[str, str]:
    """The tags that name `variant` in a record: GameType and/or Variant, and the options."""
    options = variant_options(variant)
    tags: dict[str, str] = {}
    if variant.pdn_gametype:
        tags["GameType"] = variant.pdn_gametype
    if variant.family == "multiwarcaby":
        tags["Sides"] = str(len(variant.sides))
        tags["MovesPerTurn"] = str(variant.moves_per_turn)
    for entry in OPTIONS:
        if entry.option in options:
            tags[entry.tag] = _write(options[entry.option])
    try:
        rebuilt = variant_from_tags(tags, None)
        named = rebuilt.name != variant.name or variant_options(rebuilt) != options
    except (DamkaError, ValueError):
        named = True
    if named:
        gametype = {"GameType": tags.pop("GameType")} if "GameType" in tags else {}
        tags = {**gametype, VARIANT_TAG: variant.name, **tags}
    return tags


# -- results ------------------------------------------------------------------


def _one_point_results(variant: Variant) -> bool:
    """English/American records score a win 1-0 and a draw 1/2-1/2; multiwarcaby its own points."""
    return variant.family != "draughts" or gametype_number(variant.pdn_gametype) == "21"


def _points_text(points: float) -> str:
    value = Fraction(points).limit_denominator(8)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def result_text(variant: Variant, result: Result | None) -> str:
    """The PDN result token, points per side in order of play joined by `-`:
    `2-0 0-2 1-1` (draughts, points doubled as PDN writes them), american
    `1-0 0-1 1/2-1/2`, multiwarcaby `1-0`, `0-0`, `22-18-24`; `*` if unfinished."""
    if result is None:
        return "*"
    scale = 1 if _one_point_results(variant) else 2
    return "-".join(_points_text(points * scale) for points in result.points)
