"""The clock, the store and the board's reading need nothing from the layers above them.

`controller/clock/` may import the engine and itself; `controller/store/` the
engine, itself and the clock (a stored game keeps its time control and clock
times as the clock writes them). So either can be read, tested and reused
without the session, the app or the board (the engine and `base/`, the
bounded file reader every layer shares, are below them all). `controller/board/` (the tracker,
the LED frame, the hints) sits under the session: it may read the game record,
the words and the hardware's interfaces, never the session or the app (the
loop that runs the app on the devices is `controller/board_loop.py`, above
them). Read with `ast`, like the other layer tests, so an import in a module
no test imports is caught too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_layers import ROOT, imported_modules, python_files

ALLOWED = {
    "clock": ("damka.controller.clock",),
    "store": ("damka.controller.store", "damka.controller.clock"),
    "board": ("damka.controller.board", "damka.controller.words", "damka.controller.game.record",
              "damka.hardware.interfaces"),
}


def controller_imports_outside(folder: Path, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    """Per file under `folder`: the damka modules it imports that are neither the engine nor `allowed`."""
    found: dict[str, list[str]] = {}
    for path in python_files(str(folder)):
        bad = sorted(name for name in imported_modules(path)
                     if (name == "damka" or name.startswith("damka."))
                     and not name.startswith(("damka.engine", "damka.base"))
                     and not any(name == ok or name.startswith(ok + ".") for ok in allowed))
        if bad:
            found[str(path)] = bad
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_nothing_of_the_controller_outside_itself(package: str) -> None:
    assert controller_imports_outside(ROOT / "controller" / package, ALLOWED[package]) == {}


def test_the_check_catches_an_import_of_the_controller(tmp_path: Path) -> None:
    (tmp_path / "clock.py").write_text("from damka.controller.events import FlagFell\n"
                                       "from damka.controller.clock.errors import ClockError\n"
                                       "from damka.engine.variant import Variant\n", encoding="utf-8")
    assert controller_imports_outside(tmp_path, ALLOWED["clock"]) == {
        str(tmp_path / "clock.py"): ["damka.controller.events"]}


def test_the_check_fails_on_a_folder_with_no_files(tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match="no Python files"):
        controller_imports_outside(tmp_path, ALLOWED["store"])
