"""The layers stay apart: the engine is pure, hardware libraries stay in hardware/.

These read the source with `ast`, so a forbidden import is caught even in a
module no other test happens to import.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARDWARE_LIBRARIES = {"gpiozero", "serial", "lgpio", "RPi", "rpi_ws281x", "neopixel", "machine", "spidev", "luma"}
# The firmware runs on the microcontroller, where `machine` and friends are its own.
FIRMWARE_OWN = {"machine", "neopixel", "micropython", "utime", "ustruct", "uselect", "usys", "rp2"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def python_files(folder: str) -> list[Path]:
    """The Python files under `folder`; a check over none would pass whatever the code does."""
    found = sorted((ROOT / folder).rglob("*.py"))
    assert found, f"no Python files under {ROOT / folder}: the check would pass on nothing"
    return found


def test_engine_imports_nothing_else_of_damka() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(name for name in imported_modules(path)
                                            if name.startswith("damka.") and not name.startswith("damka.engine"))
        for path in python_files("engine")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_base_imports_nothing_of_damka_but_the_engines_errors() -> None:
    """`base/` (the bounded file reader, the outside-text cleaner) is imported by every
    layer, the hardware's included: importing any of them would make a cycle."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(name for name in imported_modules(path)
                                            if name.startswith("damka") and not name.startswith("damka.base")
                                            and name != "damka.engine.errors")
        for path in python_files("base")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_engine_does_no_io_or_threads() -> None:
    forbidden = {"threading", "multiprocessing", "socket", "subprocess", "sqlite3", "pygame", "asyncio"}
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) & forbidden) for path in python_files("engine")
    }
    assert {path: names for path, names in offenders.items() if names} == {}


def test_only_hardware_and_firmware_touch_hardware_libraries() -> None:
    found: dict[str, list[str]] = {}
    for folder in ("engine", "controller", "display", "sim", "damka"):
        for path in python_files(folder):
            roots = {name.split(".")[0] for name in imported_modules(path)}
            bad = sorted(roots & HARDWARE_LIBRARIES)
            if bad:
                found[str(path.relative_to(ROOT))] = bad
    assert found == {}


def test_firmware_imports_only_micropython_modules_and_itself() -> None:
    allowed = FIRMWARE_OWN | {"time", "struct", "select", "sys", "gc", "micropython", "uasyncio", "asyncio",
                             "array"}
    found: dict[str, list[str]] = {}
    for path in python_files("firmware"):
        roots = {name.split(".")[0] for name in imported_modules(path)}
        bad = sorted(name for name in roots - allowed if not (ROOT / "firmware" / f"{name}.py").exists())
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    assert found == {}


def test_core_imports_without_pygame_or_gpio_libraries() -> None:
    code = (
        "import sys\n"
        "import damka.engine, damka.controller, damka.hardware, damka.cli\n"
        "from damka.engine import find_variant, Game\n"
        "Game(find_variant('classic'))\n"
        "loaded = sorted(m for m in ('pygame', 'gpiozero', 'serial', 'lgpio', 'RPi') if m in sys.modules)\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_controller_never_imports_display_sim_or_pygame() -> None:
    # The board runs the controller without a screen (`damka run --no-screen` on `damka[serial]`).
    found: dict[str, list[str]] = {}
    for path in python_files("controller"):
        bad = sorted(name for name in imported_modules(path)
                     if name.split(".")[0] == "pygame" or name.startswith(("damka.display", "damka.sim")))
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    assert found == {}


def modules_of(folder: str, package: str) -> list[str]:
    return sorted(f"{package}.{path.relative_to(ROOT / folder).with_suffix('').as_posix().replace('/', '.')}"
                  .removesuffix(".__init__") for path in python_files(folder))


def test_every_controller_hardware_and_engine_module_imports_with_pygame_blocked() -> None:
    # Importing each module (not only the package) catches an import hidden in a module nobody imports.
    modules = modules_of("controller", "damka.controller") + modules_of("engine", "damka.engine") + \
        modules_of("bridges", "damka.bridges") + modules_of("base", "damka.base")
    code = (
        "import importlib, sys\n"
        "sys.modules['pygame'] = None  # any import of pygame now fails\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(len(sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert len(modules) > 40


# -- a check over no files fails, not passes --------------------------------------


def test_a_check_over_an_empty_folder_fails(tmp_path: Path) -> None:
    empty = tmp_path / "engine"
    empty.mkdir()
    with pytest.raises(AssertionError, match="no Python files"):
        python_files(str(empty))  # an absolute path: ROOT / it is the path itself


def test_a_test_parametrised_over_no_files_fails_rather_than_skips(tmp_path: Path) -> None:
    """The mpy-cross test is parametrised over the firmware's files: with none it
    must fail (pyproject.toml's empty_parameter_set_mark), not skip quietly."""
    (tmp_path / "test_over_nothing.py").write_text(
        "import pytest\n"
        "@pytest.mark.parametrize('path', [])\n"
        "def test_each(path):\n"
        "    pass\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
                             "--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-q",
                             str(tmp_path / "test_over_nothing.py")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0, result.stdout
    assert "Empty parameter set" in result.stdout, result.stdout
