"""The board's config is composed at the top (damka/config.py) from sections
each layer parses for itself: the hardware parses only the hardware's tables,
and no config module reaches back into another layer's parser (the import
cycle hall/config.py -> hardware/config.py -> hardware/backends.py is gone)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each layer's section parser, and the shared reader; damka/config.py composes them.
CONFIG_MODULES = {
    "damka.config": ROOT / "damka" / "config.py",
    "damka.controller.config.config_file": ROOT / "controller" / "config" / "config_file.py",
    "damka.controller.config.board_config": ROOT / "controller" / "config" / "board_config.py",
    "damka.hardware.config": ROOT / "hardware" / "config.py",
    "damka.hall.config": ROOT / "hall" / "config.py",
    "damka.web.settings": ROOT / "web" / "settings.py",
}


def damka_imports(path: Path) -> set[str]:
    """Every damka module `path` imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return {name for name in names if name.startswith("damka.")}


def test_the_config_modules_exist() -> None:
    missing = sorted(name for name, path in CONFIG_MODULES.items() if not path.is_file())
    assert missing == []


def test_the_hardware_parses_only_the_hardware_sections() -> None:
    imports = damka_imports(CONFIG_MODULES["damka.hardware.config"])
    foreign = sorted(name for name in imports
                     if not name.startswith("damka.hardware.") and name != "damka.controller.config.config_file")
    assert foreign == []


def test_the_shared_reader_needs_no_layers_parser() -> None:
    imports = damka_imports(CONFIG_MODULES["damka.controller.config.config_file"])
    assert sorted(imports) == ["damka.base.files", "damka.hardware.errors"]   # the bounded reader below every layer


def test_only_the_top_composes_the_sections() -> None:
    """No layer's parser imports the composer or another layer's parser."""
    layers = {"damka.controller.config.board_config", "damka.hardware.config", "damka.hall.config", "damka.web.settings"}
    found = {name: sorted(damka_imports(CONFIG_MODULES[name]) & (layers | {"damka.config"}) - {name})
             for name in layers}
    assert {name: names for name, names in found.items() if names} == {}


@pytest.mark.parametrize("module", sorted(CONFIG_MODULES))
def test_each_config_module_imports_first_without_a_cycle(module: str) -> None:
    """Imported first in a fresh interpreter, so a cycle cannot hide behind an earlier import."""
    result = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_no_config_module_is_long() -> None:
    lengths = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in CONFIG_MODULES.items()}
    assert {name: n for name, n in lengths.items() if n > 400} == {}
