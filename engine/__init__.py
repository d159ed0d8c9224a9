"""The rules engine: pure Python, no I/O, imports nothing else of Damka.

Start here: `find_variant(name)` gives a `Variant`; `Game(variant)` plays it.

The names below load on first use, so a program that needs only
`damka.engine.errors` (the command line listing its commands) does not pay
for the move generators.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Each public name and the module that defines it.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        ("AmbiguousMoveError", "DamkaError", "EngineError", "IllegalMoveError", "InvalidMoveError",
         "InvalidSquareError", "MoveError", "PositionError", "RecordError", "UnknownVariantError"), "errors"),
    "Game": "game",
    "Geometry": "geometry",
    "Move": "move",
    "OptionSpec": "option_spec",
    "Result": "variant",
    "Variant": "variant",
    **dict.fromkeys(("VariantInfo", "find_variant", "variant_catalogue", "variant_class", "variant_names"),
                    "variants"),
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from damka.engine.errors import (
        AmbiguousMoveError,
        DamkaError,
        EngineError,
        IllegalMoveError,
        InvalidMoveError,
        InvalidSquareError,
        MoveError,
        PositionError,
        RecordError,
        UnknownVariantError,
    )
    from damka.engine.game import Game
    from damka.engine.geometry import Geometry
    from damka.engine.move import Move
    from damka.engine.option_spec import OptionSpec
    from damka.engine.variant import Result, Variant
    from damka.engine.variants import VariantInfo, find_variant, variant_catalogue, variant_class, variant_names


def __getattr__(name: str) -> Any:
    """Load a public name from its module the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
