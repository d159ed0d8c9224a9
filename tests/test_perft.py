"""Perft of the draughts variants against the data files in tests/perft/.

Each `tests/perft/*.perft` file whose variant is a draughts variant gives
cases: `variant NAME [option=value ...]`, `fen start` or `fen <PDN FEN>`, then
`DEPTH NODES` lines (`DEPTH NODES slow` for those run only with --slow).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.engine import draughts

PERFT_DIR = Path(__file__).parent / "perft"
DRAUGHTS = {cls.name: cls for cls in draughts.VARIANTS}


def _option(text: str) -> tuple[str, object]:
    key, _, value = text.partition("=")
    if value in ("True", "False"):
        return key, value == "True"
    return key, int(value)


def load_cases() -> list:
    cases = []
    for path in sorted(PERFT_DIR.glob("*.perft")):
        name, options, fen = None, {}, "start"
        for number, raw in enumerate(path.read_text().splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            if word == "variant":
                name, *opts = rest.split()
                options = dict(_option(opt) for opt in opts)
                fen = "start"
            elif word == "fen":
                fen = rest.strip()
            elif name in DRAUGHTS:
                depth, nodes, *flags = line.split()
                marks = [pytest.mark.slow] if "slow" in flags else []
                opts = "".join(f"-{key}" for key in options)
                case_id = f"{path.stem}:{number}-{name}{opts}-d{depth}"
                cases.append(pytest.param(name, options, fen, int(depth), int(nodes), marks=marks, id=case_id))
    return cases


@pytest.mark.parametrize(("name", "options", "fen", "depth", "nodes"), load_cases())
def test_perft(name: str, options: dict, fen: str, depth: int, nodes: int) -> None:
    variant = DRAUGHTS[name].create(**options)
    position = variant.start_position() if fen == "start" else variant.parse_position(fen)
    assert variant.perft(position, depth) == nodes


def test_every_draughts_variant_has_a_perft_file() -> None:
    names = {case.values[0] for case in load_cases()}
    assert {"classic", "russian", "american", "international"} <= names


def test_perft_depth_one_is_the_number_of_legal_moves() -> None:
    for cls in draughts.VARIANTS:
        variant = cls.create()
        position = variant.start_position()
        assert variant.perft(position, 1) == len(variant.legal_moves(position))
        assert variant.perft(position, 0) == 1
