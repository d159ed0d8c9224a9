"""The rules engine: pure Python, no I/O, imports nothing else of Damka.

Start here: `find_variant(name)` gives a `Variant`; `Game(variant)` plays it.
"""

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

__all__ = [
    "AmbiguousMoveError", "DamkaError", "EngineError", "Game", "Geometry", "IllegalMoveError",
    "InvalidMoveError", "InvalidSquareError", "Move", "MoveError", "OptionSpec", "PositionError", "RecordError",
    "Result", "UnknownVariantError", "Variant", "VariantInfo", "find_variant", "variant_catalogue", "variant_class",
    "variant_names",
]
