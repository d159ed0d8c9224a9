"""The package as a user gets it: an sdist and a wheel built by `python -m build`,
installed (not editable) into a fresh virtual environment, run from a folder
that is not the repository.

- Every module of every layer folder is in the wheel (setup.py finds them; a
  hand-kept list once left out `damka.commands` and the command did not start).
- `damka --help`, `damka perft`, `damka replay` work from the installed wheel.
- With only `damka[serial]` (no pygame: what a board with the Pico and no
  screen needs) every controller module imports and `damka run --no-screen`
  commits a move played on the firmware at the far end of a pty.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from pathlib import Path

import pytest

from waiting import DEADLINE_S

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("damka", "engine", "controller", "display", "firmware", "hardware", "sim")
NOT_PROGRAM = {"tests", "benchmarks", "docs", "deploy", "build", "dist"}
WAIT_S = DEADLINE_S  # a condition not met in 60 s even on a loaded CI machine is a bug

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX venv layout and ptys")


def program_folders() -> list[Path]:
    """The layer folders, and any later top-level package folder of the program."""
    found = sorted(p.parent for p in ROOT.glob("*/__init__.py") if p.parent.name not in NOT_PROGRAM)
    assert set(LAYERS) <= {p.name for p in found}
    return found


def installed_name(folder: Path, path: Path) -> str:
    """Where a source file lands in the wheel: `engine/x.py` -> `damka/engine/x.py`."""
    inside = path.relative_to(folder).as_posix()
    return f"damka/{inside}" if folder.name == "damka" else f"damka/{folder.name}/{inside}"


def program_files() -> dict[str, str]:
    """Installed name -> source path of every file the program is made of."""
    files = {}
    for folder in program_folders():
        for path in folder.rglob("*"):
            parts = path.relative_to(ROOT).parts
            if (path.is_file() and "__pycache__" not in parts and not any(p.startswith(".") for p in parts)
                    and not path.name.endswith((".pyc", "~"))):
                files[installed_name(folder, path)] = str(path.relative_to(ROOT))
    return files


def sh(*args: str | Path, cwd: Path | None = None, timeout: float = 120, check: bool = True,
       env: dict | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel built from it, as `python -m build` does for a release."""
    out = tmp_path_factory.mktemp("dist")
    sh(sys.executable, "-m", "build", "--outdir", out, ROOT, timeout=300)
    return {"wheel": next(out.glob("damka-*.whl")), "sdist": next(out.glob("damka-*.tar.gz"))}


def fresh_venv(path: Path, requirement: str) -> Path:
    """A new virtual environment with only `requirement` installed; its bin/."""
    venv.create(path, with_pip=True)
    bin_dir = path / "bin"
    sh(bin_dir / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement,
       timeout=300)
    return bin_dir


def isolated_env() -> dict[str, str]:
    """The environment without anything pointing back at the repository or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def test_the_wheel_holds_every_module_and_the_licence(dist: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(dist["wheel"]).namelist())
    wanted = program_files()
    missing = sorted(f"{source} (as {name})" for name, source in wanted.items() if name not in names)
    assert missing == []
    assert "damka/commands/run.py" in names
    info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
    assert f"{info}/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(dist["wheel"]).read(f"{info}/METADATA").decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    with tarfile.open(dist["sdist"]) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        in_sdist = set(sdist.getnames())
    assert {f"{top}/LICENSE", f"{top}/setup.py", f"{top}/pyproject.toml"} <= in_sdist
    assert "Copyright (c) 2026 the Damka authors" in (ROOT / "LICENSE").read_text()


def expected_perft(variant: str, depth: int) -> int:
    """The count at `depth` from the start position in tests/perft/VARIANT.perft."""
    fen = None
    for line in (ROOT / "tests" / "perft" / f"{variant}.perft").read_text().splitlines():
        words = line.split()
        if words[:1] == ["fen"]:
            fen = words[1]
        elif fen == "start" and words[:1] == [str(depth)]:
            return int(words[1])
    raise AssertionError(f"no depth {depth} from the start in {variant}.perft")


def test_the_installed_wheel_runs_damka(dist: dict[str, Path], tmp_path: Path) -> None:
    bin_dir = fresh_venv(tmp_path / "venv", str(dist["wheel"]))
    env = isolated_env()
    where = sh(bin_dir / "python", "-c", "import damka.commands, damka.engine; print(damka.__file__)",
               cwd=tmp_path, env=env)
    assert Path(where.stdout.strip()).is_relative_to(tmp_path / "venv")  # the wheel, not the checkout

    help_text = sh(bin_dir / "damka", "--help", cwd=tmp_path, env=env).stdout
    for command in ("perft", "replay", "run", "sim", "games"):
        assert command in help_text

    perft = sh(bin_dir / "damka", "perft", "classic", "6", cwd=tmp_path, env=env).stdout.split()
    assert perft[-2:] == ["6", str(expected_perft("classic", 6))]

    log = ROOT / "tests" / "scenarios" / "classic_opening.log"
    replay = sh(bin_dir / "damka", "replay", "classic", log, cwd=tmp_path, env=env).stdout.splitlines()
    moves = [json.loads(line)["move"] for line in replay if '"move"' in line]
    assert moves == ["c3-d4", "f6-e5", "d4xf6"]


def controller_modules() -> list[str]:
    modules = []
    for path in sorted((ROOT / "controller").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules.append(".".join(["damka", *(parts[:-1] if parts[-1] == "__init__" else parts)]))
    assert modules, "no controller modules found: the import check would pass on nothing"
    return modules


IMPORT_EACH = """
import importlib, json, sys
failed = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
print(json.dumps(failed))
"""


def board_colours(board, layout) -> dict[str, tuple[int, int, int]]:
    """Square -> colour of the LED frame the firmware holds now."""
    device = board.device
    return {layout.square(*divmod(i, layout.cols)): device.palette[index][:3]
            for i, index in enumerate(device.cells) if index}


def lift_when_the_game_is_on(board, layout, start: frozenset[str], square: str, lifted,
                             process: subprocess.Popen) -> None:
    """Lift `square` until the board lights it as lifted (learning mode): a lift
    while the app is still starting reads as the board being set up, and the
    LEDs ask for the piece back; put it back then, as a person would, and retry
    (each try that comes too early only costs another try)."""
    end = time.monotonic() + WAIT_S
    while True:
        board.matrix.set(layout.cell(sq) for sq in start - {square})
        try:
            wait_for(lambda: board_colours(board, layout).get(square) == lifted, f"{square} lit as lifted",
                     process, timeout=1.0)
            return
        except TimeoutError:
            if time.monotonic() > end:
                raise
        board.matrix.set(layout.cell(sq) for sq in start)
        wait_for(lambda: board_colours(board, layout) == {}, "the board dark again", process)
        time.sleep(0.5)  # the game begins once the set-up board has been quiet a moment (settle_ms)


def wait_for(predicate, what: str, process: subprocess.Popen, timeout: float = WAIT_S) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if process.poll() is not None:
            raise AssertionError(f"damka run exited {process.returncode} while waiting for {what}:\n"
                                 f"{process.stderr.read()}")
        if time.monotonic() > end:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def controller_modules_importing_the_screen() -> list[str]:
    """controller/ modules that still import display/ or pygame (read with ast)."""
    found = []
    for path in sorted((ROOT / "controller").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.startswith(("damka.display", "pygame")) for n in names):
                found.append(str(path.relative_to(ROOT)))
                break
    return found


# Until the screen code is moved out of controller/ (issue 11), the serial-only
# board cannot start: expected to fail, and strict, so it fails loudly the day
# it passes while the condition still holds.
@pytest.mark.xfail(bool(controller_modules_importing_the_screen()), strict=True,
                   reason=f"{', '.join(controller_modules_importing_the_screen())} import display/ (pygame)")
def test_serial_only_install_runs_the_board_without_pygame(dist: dict[str, Path], tmp_path: Path) -> None:
    from damka.engine import find_variant
    from damka.engine.game import Game
    from damka.hardware.interfaces import Role
    from damka.hardware.layout import Layout
    from damka.hardware.leds import RGB_STYLE
    from damka.hardware.pty_device import PtyBoard

    bin_dir = fresh_venv(tmp_path / "venv", f"{dist['wheel']}[serial]")
    env = isolated_env()
    no_pygame = sh(bin_dir / "python", "-c", "import pygame", cwd=tmp_path, env=env, check=False)
    assert no_pygame.returncode != 0 and "No module named 'pygame'" in no_pygame.stderr
    sh(bin_dir / "python", "-c", "import serial", cwd=tmp_path, env=env)

    imports = sh(bin_dir / "python", "-c", IMPORT_EACH, *controller_modules(), cwd=tmp_path, env=env)
    assert json.loads(imports.stdout) == {}  # controller/ never needs pygame

    variant = find_variant("classic")
    start = frozenset(variant.geometry.names_of(variant.occupancy(Game(variant).position)))
    layout = Layout()
    lifted, last_move = RGB_STYLE[Role.LIFTED][0], RGB_STYLE[Role.LAST_MOVE][0]
    db = tmp_path / "games.db"
    with PtyBoard() as board:
        board.matrix.set(layout.cell(sq) for sq in start)  # set up before the board is switched on
        config = tmp_path / "board.toml"
        config.write_text(f'[board]\nbackend = "serial"\n\n[serial]\nport = "{board.port}"\n\n'
                          f'[leds]\ntype = "ws2812"\ndriver = "serial"\n')
        process = subprocess.Popen(
            [str(bin_dir / "damka"), "run", "--no-screen", "--config", str(config), "--variant", "classic",
             "--mode", "learning", "--db", str(db), "--seconds", "8"],
            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            lift_when_the_game_is_on(board, layout, start, "c3", lifted, process)
            board.matrix.set(layout.cell(sq) for sq in (start - {"c3"}) | {"d4"})
            wait_for(lambda: board_colours(board, layout) == {"c3": last_move, "d4": last_move},
                     "the LEDs to show the committed move c3-d4", process)
            out, err = process.communicate(timeout=WAIT_S)  # --seconds ends it
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, err
    exported = sh(bin_dir / "damka", "export", "last", "--db", db, cwd=tmp_path, env=env).stdout
    assert "1. c3-d4" in exported
