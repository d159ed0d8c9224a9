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
from fractions import Fraction
from functools import cache, lru_cache

from damka.engine.errors import DamkaError, RecordError, UnknownVariantError
from damka.engine.reasons import Reason, reason_of
from damka.engine.variant import Result, Variant
from damka.engine.variants import all_option_specs, default_variant, variant_class, variant_names

VARIANT_TAG = "Variant"
DEFAULT_VARIANT = "international"  # PDN 3.0: a record without GameType is international draughts

# The names of the option tags (every variant's), and every tag the writer
# derives from the variant (never copied from the caller's tags).
OPTION_TAGS = tuple(all_option_specs())
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
            raise ValueError(Reason("pdn.out_tag_form", tag=OUT_TAG, token=token))
        drops.append((int(ply), int(side) - 1))
    return sorted(drops)


def write_out_tag(drops: "list[tuple[int, int]]") -> str:
    """The DamkaOut value of (ply, 0-based side) pairs."""
    return " ".join(f"{side + 1}:{ply}" for ply, side in drops)


# PDN 3.0's GameType numbers (its doc/gametype.rst), to name a game Damka does not play
# instead of misreading it: a Czech or Italian record is refused by its name.
PDN_GAMES = {
    "0": "chess", "1": "Chinese chess", "20": "international draughts", "21": "English draughts",
    "22": "Italian draughts", "23": "American pool checkers", "24": "Spanish draughts",
    "25": "Russian draughts", "26": "Brazilian draughts", "27": "Canadian draughts",
    "28": "Portuguese draughts", "29": "Czech draughts", "30": "Turkish draughts", "31": "Thai draughts",
    "40": "Frisian draughts", "41": "Spantsiretti draughts",
}


def unplayed_game(name: str) -> str | None:
    """PDN's name of the game `name` (a GameType number or a name like `czech`) when it is one
    Damka does not play; None otherwise."""
    try:
        variant_class(name)
        return None  # a name Damka plays (`american` is not PDN's American pool checkers)
    except UnknownVariantError:
        pass
    text = gametype_number(name).lower()
    for number, game in PDN_GAMES.items():
        if text in (number, game.lower(), game.split()[0].lower()) and _gametype_name(number) is None:
            return game
    return None


def gametype_number(gametype: str) -> str:
    return gametype.split(",")[0].strip()


def variant_options(variant: Variant) -> dict[str, object]:
    """The options `find_variant` needs to rebuild `variant`: those differing from its default."""
    return variant.changed_options()


def options_from_tags(tags: Mapping[str, str], factory: type[Variant]) -> dict[str, object]:
    """The options of variant class `factory` that the record's tags ask for
    (defaults left out). RecordError for a bad value, or for an option tag the
    variant does not take unless it says that option's default (`[Teams "no"]`)."""
    declared = {spec.tag: spec for spec in factory.option_specs}
    options: dict[str, object] = {}
    for tag, any_spec in all_option_specs().items():
        text = tags.get(tag, "").strip()
        if not text:
            continue
        spec = declared.get(tag, any_spec)
        try:
            value = spec.parse(text)
        except ValueError as exc:
            raise RecordError(Reason("pdn.tag_value", tag=tag, text=text, why=reason_of(exc))) from None
        if tag not in declared:
            if value != spec.default:
                raise RecordError(Reason("pdn.tag_option", tag=tag, text=text, variant=factory.name, option=spec.name))
        elif value != spec.default:
            options[spec.name] = value
    return options


@cache  # speed: building the default variants once
def _gametype_table() -> dict[str, str]:
    """GameType value (whole, and its number alone) -> variant name; first listed wins."""
    gametypes = [(name, default_variant(name).pdn_gametype.replace(" ", "")) for name in variant_names()]
    table: dict[str, str] = {}
    for name, gametype in gametypes:
        if gametype:
            table.setdefault(gametype, name)
    for name, gametype in gametypes:
        if gametype:
            table.setdefault(gametype_number(gametype), name)
    return table


def variant_from_tags(tags: Mapping[str, str], default_variant: str | None = DEFAULT_VARIANT,
                      warn: Callable[[str], None] | None = None) -> Variant:
    """The variant a record is in: its Variant tag, else GameType, else `default_variant`.

    A Variant tag Damka does not know next to a GameType it knows is read as
    that GameType (other software writes `[Variant "Brazilian draughts"]`),
    and `warn` is told. UnknownVariantError for a name or GameType Damka does
    not play (or no tag and no default); RecordError or ValueError for bad
    option tags. Variants are shared between records (`_cached`).
    """
    name = tags.get(VARIANT_TAG, "").strip()
    gametype = tags.get("GameType", "").strip()
    if name:
        try:
            factory = variant_class(name)
        except UnknownVariantError:
            found = _gametype_name(gametype) if gametype else None
            if found is None:
                raise
            if warn is not None:
                warn(f"Variant {name!r} is not a game Damka knows by that name; GameType {gametype} ({found}) is used")
            return _build(found, tags)
        return _build(factory.name, tags)
    if gametype:
        found = _gametype_name(gametype)
        if found is None and unplayed_game(gametype):
            raise UnknownVariantError(Reason("pdn.gametype_unplayed", number=gametype_number(gametype),
                                             game=unplayed_game(gametype)))
        if found is None:
            table = _gametype_table()
            known = ", ".join(f"{number} {name}" for number, name in table.items() if "," not in number)
            raise UnknownVariantError(Reason("pdn.gametype_unknown", gametype=gametype, known=known))
        return _build(found, tags)
    if default_variant is None:
        raise UnknownVariantError(Reason("pdn.no_game_tag"))
    return _build(default_variant, tags)


def _gametype_name(gametype: str) -> str | None:
    table = _gametype_table()
    return table.get(gametype.replace(" ", "")) or table.get(gametype_number(gametype))


def _build(name: str, tags: Mapping[str, str]) -> Variant:
    factory = variant_class(name)
    options = options_from_tags(tags, factory)
    if not options:
        return default_variant(factory.name)
    return _cached(factory.name, tuple(sorted(options.items())))


@lru_cache(maxsize=32)  # speed: a variant builds its move tables; a file repeats a few variants many times
def _cached(name: str, options: tuple[tuple[str, object], ...]) -> Variant:
    """The variant `name` with `options`, built once (shared: only read, never changed)."""
    return variant_class(name).create(**dict(options))


def variant_tags(variant: Variant) -> dict[str, str]:
    """The tags that name `variant` in a record: GameType and/or Variant, and the options."""
    options = variant.changed_options()
    tags: dict[str, str] = {}
    if variant.pdn_gametype:
        tags["GameType"] = variant.pdn_gametype
    tags.update(variant.record_tags())
    for spec in variant.option_specs:
        if spec.name in options:
            tags[spec.tag] = spec.format(options[spec.name])
    try:
        rebuilt = variant_from_tags(tags, None)
        named = rebuilt.name != variant.name or rebuilt.changed_options() != options
    except (DamkaError, ValueError):
        named = True
    if named:
        gametype = {"GameType": tags.pop("GameType")} if "GameType" in tags else {}
        tags = {**gametype, VARIANT_TAG: variant.name, **tags}
    return tags


# -- results ------------------------------------------------------------------


def _points_text(points: float) -> str:
    value = Fraction(points).limit_denominator(8)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def result_text(variant: Variant | type[Variant], result: Result | None) -> str:
    """The PDN result token, points per side in order of play joined by `-`:
    `2-0 0-2 1-1` (draughts, points doubled as PDN writes them), american
    `1-0 0-1 1/2-1/2`, multiwarcaby `1-0`, `0-0`, `22-18-24`; `*` if unfinished."""
    if result is None:
        return "*"
    scale = variant.pdn_points_scale
    return "-".join(_points_text(points * scale) for points in result.points)
