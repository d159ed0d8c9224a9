"""The App is a coordinator of parts that each own their state (controller/app/):
no mixins writing one another's private fields, no class over about 40
methods, no module over about 400 lines; a part works on its own."""

from __future__ import annotations

import ast
from pathlib import Path

from damka.controller.app import App, AppState
from damka.controller.app.screens import Screens
from damka.controller.app.menus import Menu, Row
from damka.controller.app.views import ResultView

ROOT = Path(__file__).resolve().parent.parent
MAX_METHODS = 40
MAX_LINES = 400


def sources(folder: str) -> list[Path]:
    found = sorted((ROOT / folder).glob("*.py"))
    assert len(found) >= 5, f"{folder}: the App's parts are not there"   # never pass on an empty folder
    return found


def test_the_app_has_no_mixins() -> None:
    assert App.__mro__ == (App, object)


def test_no_part_writes_the_apps_fields() -> None:
    """A part asks the App or another part for a change; it never assigns `app.x = ...`."""
    offenders = []
    for path in sources("controller/app"):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else \
                [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
            for target in targets:
                owner = target.value if isinstance(target, ast.Attribute) else None
                if (isinstance(owner, ast.Name) and owner.id == "app") or \
                        (isinstance(owner, ast.Attribute) and owner.attr == "app"):
                    offenders.append(f"{path.name}:{node.lineno}: app.{target.attr}")
    assert offenders == []


def test_no_class_over_40_methods_and_no_module_over_400_lines() -> None:
    big = []
    for path in sources("controller/app") + sources("dxp"):
        text = path.read_text()
        if text.count("\n") > MAX_LINES:
            big.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) for item in node.body)
                if methods > MAX_METHODS:
                    big.append(f"{path.relative_to(ROOT)}: {node.name} has {methods} methods")
    assert big == []


def test_the_screens_part_alone() -> None:
    screens = Screens(Menu("New game", [Row("start", "Start")]))
    assert screens.state is AppState.MENU and screens.shown_menu.title == "New game"
    screens.show_game()
    assert screens.in_game and screens.shown_menu is None
    screens.open_overlay(Menu("Game", [Row("continue", "Continue")]))
    assert not screens.in_game and screens.shown_menu.title == "Game"
    result = ResultView("White wins", "on time")
    screens.show_result(result)
    assert screens.state is AppState.RESULT and screens.result_view is result
