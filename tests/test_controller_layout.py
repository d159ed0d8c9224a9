"""controller/ is a folder a newcomer reads at a glance: a few packages that
each say what they own, a few modules at the top, small modules, no class of
a hundred methods; and a module anywhere in the program that is long says
why in docs/architecture.md (the issue "A controller you can find your way in").

These read the source with `ast`; each check first asserts it found files.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from setup import layer_folders  # noqa: E402  (the one list of the program's folders)

CONTROLLER = ROOT / "controller"
DOC = ROOT / "docs" / "architecture.md"
MAX_LINES = 400
MAX_METHODS = 40
MAX_TOP_LEVEL = 6  # __init__.py and events.py now; room for a module every part needs


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def controller_modules() -> list[Path]:
    found = sorted(p for p in CONTROLLER.rglob("*.py"))
    assert len(found) >= 60, f"controller/ has {len(found)} modules: moved?"
    return found


def program_modules() -> list[Path]:
    found = sorted(p for folder in layer_folders(ROOT) for p in (ROOT / folder).rglob("*.py"))
    assert len(found) >= 200, f"the program has {len(found)} modules: moved?"
    return found


def test_controller_top_level_holds_a_few_modules() -> None:
    top = sorted(p.name for p in CONTROLLER.glob("*.py"))
    assert "events.py" in top
    assert len(top) <= MAX_TOP_LEVEL, top


def test_every_controller_package_says_what_it_owns() -> None:
    packages = sorted(p for p in CONTROLLER.iterdir() if p.is_dir() and any(p.glob("*.py")))
    assert len(packages) >= 8, [p.name for p in packages]
    silent = [p.name for p in packages
              if not (p / "__init__.py").exists() or not ast.get_docstring(ast.parse((p / "__init__.py").read_text()))]
    assert silent == []


def test_no_controller_module_over_400_lines() -> None:
    long = {relative(p): n for p in controller_modules() if (n := lines(p)) > MAX_LINES}
    assert long == {}


def test_no_controller_class_over_40_methods() -> None:
    big = {}
    classes = 0
    for path in controller_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes += 1
                count = sum(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) for item in node.body)
                if count > MAX_METHODS:
                    big[f"{relative(path)}:{node.name}"] = count
    assert classes >= 100
    assert big == {}


def test_every_long_module_says_why_in_the_architecture_doc() -> None:
    """The doc's list of long modules is exactly the modules over 400 lines:
    a new long one must give its reason there, and a split one leaves it."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("### Long modules"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    listed = set(re.findall(r"^- `([\w/]+\.py)`", section, re.M))
    assert listed, "no long modules listed in docs/architecture.md"
    long = {relative(p) for p in program_modules() if lines(p) > MAX_LINES}
    assert long == listed


def test_no_part_touches_another_objects_private_fields() -> None:
    """`self._x` (or `OwnClass._x`) is a class's own; `other._x` reaches into
    another object's state (as the tracker once filled a position index's
    caches). The session has its own check (test_session_layout.py); the App's
    menus are being extended elsewhere, so app/ is not held to it yet."""
    reaches = []
    checked = 0
    for package in ("board", "game", "players", "config", "cues", "words"):
        for path in sorted((CONTROLLER / package).glob("*.py")):
            checked += 1
            tree = ast.parse(path.read_text(encoding="utf-8"))
            own = {"self", "cls"} | {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                        and not (isinstance(node.value, ast.Name) and node.value.id in own)):
                    reaches.append(f"{relative(path)}:{node.lineno} {ast.unparse(node)}")
    assert checked >= 30
    assert reaches == []
