"""No dead code in the engine, the tracker, the sensor log or the config: every
function, class, method and attribute set on `self` is named somewhere else in
the program, its tests, benchmarks or firmware (code or a string, as `getattr`
would; a comment does not count).

A name used once is defined and never called. The scope is the modules whose
owner keeps them clean; widen it as others are cleaned."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_FOLDERS = {".venv", "build", "dist", ".git", "node_modules"}
CHECKED = ["engine", "controller/board/tracker.py", "controller/board/eventlog.py", "controller/config/config_file.py",
           "controller/config/board_config.py", "hardware/config.py", "hall/config.py", "web/settings.py", "damka", "base"]


def program_files() -> list[Path]:
    found = [path for path in ROOT.rglob("*.py") if not SKIP_FOLDERS & set(path.relative_to(ROOT).parts)]
    assert len(found) > 100, f"only {len(found)} Python files under {ROOT}"
    return found


def name_counts(paths: list[Path]) -> Counter[str]:
    """How often each word appears as a name or inside a string, comments left out."""
    counts: Counter[str] = Counter()
    for path in paths:
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME:
                counts[token.string] += 1
            elif token.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)):
                counts.update(re.findall(r"\w+", token.string))
    return counts


def defined_names(path: Path) -> list[str]:
    """Functions, classes, methods and `self.x = ...` attributes defined in `path`."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [t.attr for t in targets if isinstance(t, ast.Attribute)
                      and isinstance(t.value, ast.Name) and t.value.id == "self"]
    return [name for name in names if not (name.startswith("__") and name.endswith("__"))]


def checked_files() -> list[Path]:
    files: list[Path] = []
    for entry in CHECKED:
        path = ROOT / entry
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.is_file() else []
        assert found, f"{entry}: nothing to check"
        files += found
    return files


def test_every_name_defined_is_used_somewhere_else() -> None:
    counts = name_counts(program_files())
    unused = sorted(f"{path.relative_to(ROOT)}: {name}" for path in checked_files()
                    for name in defined_names(path) if counts[name] <= 1)
    assert unused == []
