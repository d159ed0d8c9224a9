"""The controller's module map in docs/architecture.md, made from the tree:
each package, what it owns (its docstring's first sentence), its modules and
their line counts. Counts go stale with every edit, so they are never typed
by hand; run this after moving or splitting a module. Not a test module:

    .venv/bin/python tests/module_map.py          # print the map
    .venv/bin/python tests/module_map.py --write  # put it into docs/architecture.md
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- module map: made by tests/module_map.py -->"
END = "<!-- end of the module map -->"


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def summary(init: Path) -> str:
    """The first sentence of a package's docstring, on one line."""
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
    first = " ".join(doc.split("\n\n")[0].split())
    depth = 0
    for i, char in enumerate(first):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and char in ".:" and first[i + 1:i + 2] in ("", " "):
            return first[:i]
    return first


def module_map(root: Path = ROOT) -> str:
    """The map as a markdown table: the top level first, then each package."""
    controller = root / "controller"
    rows = ["| package | what it owns | modules (lines) |", "|---|---|---|"]
    top = sorted(p for p in controller.glob("*.py") if p.name != "__init__.py")
    rows.append(f"| `controller/` | {summary(controller / '__init__.py')} | "
                + ", ".join(f"{p.name} {lines(p)}" for p in top) + " |")
    for package in sorted(p for p in controller.iterdir() if (p / "__init__.py").exists()):
        modules = sorted(p for p in package.glob("*.py") if p.name != "__init__.py")
        total = sum(lines(p) for p in modules)
        rows.append(f"| `controller/{package.name}/` | {summary(package / '__init__.py')} | "
                    + ", ".join(f"{p.name} {lines(p)}" for p in modules) + f" (total {total}) |")
    return "\n".join(rows)


def write(doc: Path = DOC) -> None:
    text = doc.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    doc.write_text(text[:start] + "\n" + module_map() + "\n" + text[end:], encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        print(module_map())
