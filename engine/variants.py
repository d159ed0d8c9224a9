"""The registry of variants: `find_variant("classic", free_capture=True)`."""

from __future__ import annotations

from typing import Any

from damka.engine.errors import UnknownVariantError
from damka.engine.variant import Variant


def _factories() -> dict[str, Any]:
    # Imported here so the registry module stays cheap to import on its own.
    from damka.engine import draughts, multiwarcaby

    table: dict[str, Any] = {}
    for factory in (*draughts.VARIANTS, *multiwarcaby.VARIANTS):
        table[factory.name] = factory
        for alias in factory.aliases:
            table[alias] = factory
    return table


def variant_names() -> list[str]:
    """Canonical names, in the order RULES.md lists the games."""
    from damka.engine import draughts, multiwarcaby

    return [factory.name for factory in (*multiwarcaby.VARIANTS, *draughts.VARIANTS)]


def find_variant(name: str, **options: Any) -> Variant:
    """The variant named `name` (or an alias), built with its options.

    Options: `free_capture=True` (classic, classic81), `symmetric=True`
    (classic81), `sides=2..4` and `teams=True` (multiwarcaby). An option a
    variant does not take is an error, not silently ignored.
    """
    table = _factories()
    factory = table.get(name.strip().lower())
    if factory is None:
        raise UnknownVariantError(f"unknown variant {name!r}; known: {', '.join(variant_names())}")
    return factory.create(**options)
