"""DXP is a feature beside the controller, as the web page and the hall are:
the controller knows nothing of it, no class subclasses the App, and the
feature talks to the App only through its public hooks and commands. These
read the source with `ast`, so a module no test imports is checked too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_FOLDERS = ("controller", "dxp", "web", "hall", "sim", "damka", "bridges", "display", "hardware")


def sources(*folders: str) -> list[Path]:
    found = sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))
    assert found, f"no Python files under {folders}"   # a moved folder must not make this pass on nothing
    return found


def imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_controller_knows_nothing_of_dxp() -> None:
    offenders = {}
    for path in sources("controller"):
        dxp = sorted(name for name in imported(ast.parse(path.read_text())) if "dxp" in name.lower())
        if dxp or "dxp" in path.name:
            offenders[str(path.relative_to(ROOT))] = dxp
    assert offenders == {}


def test_dxp_is_one_package_of_its_own() -> None:
    outside = [str(path.relative_to(ROOT)) for path in sources(*PACKAGE_FOLDERS)
               if "dxp" in path.stem and path.parent.name != "dxp" and path.parent.name != "commands"]
    assert outside == []
    assert len(sources("dxp")) >= 10


def test_no_class_subclasses_the_app() -> None:
    offenders = []
    for path in sources(*PACKAGE_FOLDERS):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    (isinstance(base, ast.Name) and base.id == "App")
                    or (isinstance(base, ast.Attribute) and base.attr == "App") for base in node.bases):
                offenders.append(f"{path.relative_to(ROOT)}: {node.name}")
    assert offenders == []


def test_dxp_never_touches_the_apps_private_fields() -> None:
    """`app._anything` (or `self.app._anything`): the App's own business."""
    offenders = []
    for path in sources("dxp"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and ((isinstance(node.value, ast.Name) and node.value.id == "app")
                         or (isinstance(node.value, ast.Attribute) and node.value.attr == "app"))):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: app.{node.attr}")
    assert offenders == []


def test_the_dxp_game_has_no_mixins() -> None:
    """The handshake after a drop is a part the game owns (`Reconnection`), not a mixin on its fields."""
    from damka.dxp.game import DxpGame
    from damka.dxp.reconnect import Reconnection

    assert DxpGame.__mro__ == (DxpGame, object) and Reconnection.__mro__ == (Reconnection, object)
