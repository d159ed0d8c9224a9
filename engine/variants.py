"""The registry of variants: `find_variant("classic", free_capture=True)`,
and what a menu or a command line needs to offer them (`variant_catalogue`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from damka.engine.errors import UnknownVariantError
from damka.engine.option_spec import OptionSpec
from damka.engine.reasons import Reason
from damka.engine.variant import Variant


def _factories() -> dict[str, type[Variant]]:
    # Imported here so the registry module stays cheap to import on its own.
    from damka.engine import draughts, multiwarcaby

    table: dict[str, type[Variant]] = {}
    for factory in (*draughts.VARIANTS, *multiwarcaby.VARIANTS):
        table[factory.name] = factory
        for alias in factory.aliases:
            table[alias] = factory
    return table


def variant_classes() -> list[type[Variant]]:
    """Every variant's class, in the order RULES.md lists the games (cheap: nothing is built)."""
    from damka.engine import draughts, multiwarcaby

    return [*multiwarcaby.VARIANTS, *draughts.VARIANTS]


def variant_names() -> list[str]:
    """Canonical names, in the order RULES.md lists the games."""
    return [factory.name for factory in variant_classes()]


def find_variant(name: str, **options: Any) -> Variant:
    """The variant named `name` (or an alias), built with its options.

    Options: `free_capture=True` (classic, classic81), `symmetric=True`
    (classic81), `sides=2..4` and `teams=True` (multiwarcaby). An option a
    variant does not take is an error, not silently ignored.
    """
    return variant_class(name).create(**options)


def variant_class(name: str) -> type[Variant]:
    """The class of the variant named `name` (or an alias): its rules and option declarations."""
    factory = _factories().get(name.strip().lower())
    if factory is None:
        raise UnknownVariantError(Reason("variant.unknown", name=name, known=", ".join(variant_names())))
    return factory


@cache  # speed: building a variant builds its move tables; callers ask for the defaults often
def default_variant(name: str) -> Variant:
    """The variant `name` with no options (shared: only read, never changed)."""
    return find_variant(name)


@dataclass(frozen=True)
class VariantInfo:
    """One game as a menu lists it."""

    name: str
    title: str
    family: str
    board_size: tuple[int, int]  # (width, height) of the board it needs
    options: tuple[OptionSpec, ...]


def variant_catalogue() -> list[VariantInfo]:
    """Every variant in RULES.md order: its name, title, the board it needs
    (9x9 fits the Damka board; 10x10 and 12x12 need a larger one, or the
    simulator) and its option declarations."""
    infos = []
    for name in variant_names():
        variant = default_variant(name)
        infos.append(VariantInfo(name, variant.title, variant.family, variant.board_size, variant.option_specs))
    return infos


def all_option_specs() -> dict[str, OptionSpec]:
    """tag -> the first declaration of each PDN option tag over every variant."""
    table: dict[str, OptionSpec] = {}
    for factory in variant_classes():
        for spec in factory.option_specs:
            table.setdefault(spec.tag, spec)
    return table
