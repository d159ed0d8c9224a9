"""The session stays a package a newcomer can find their way in: small
modules, no class of a hundred methods, and parts that keep to their own
fields (the issue "A controller you can find your way in").

These read the source with `ast`; each check first asserts it found files.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "controller" / "session"
MAX_LINES = 400
MAX_METHODS = 40


def modules() -> list[Path]:
    found = sorted(PACKAGE.glob("*.py"))
    assert len(found) >= 10, f"the session package has {len(found)} modules: moved?"
    return found


def classes() -> list[tuple[str, ast.ClassDef]]:
    out = []
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [(path.name, node) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    assert any(node.name == "Session" for _, node in out)
    return out


def test_no_session_module_over_400_lines() -> None:
    long = {path.name: n for path in modules() if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_session_class_over_40_methods() -> None:
    big = {}
    for module, node in classes():
        count = sum(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) for item in node.body)
        if count > MAX_METHODS:
            big[f"{module}:{node.name}"] = count
    assert big == {}


def test_session_is_no_mixin_of_parts() -> None:
    session = next(node for _, node in classes() if node.name == "Session")
    assert session.bases == []


def test_no_part_touches_another_objects_private_fields() -> None:
    """`self._x` is a class's own; `other._x` (or `self.s._x`) reaches into another's."""
    reaches = []
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                reaches.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert reaches == []


def test_the_old_flat_session_modules_are_gone() -> None:
    old = sorted(path.name for path in (ROOT / "controller").glob("session_*.py"))
    old += [name for name in ("session.py", "assistants.py") if (ROOT / "controller" / name).exists()]
    assert old == []
