"""Run mypy over the whole `damka` package, as it is installed, from the source tree.

The repository keeps one folder per layer (`engine/`, `controller/`, ...) and
setup.py installs each as `damka.<folder>`. mypy cannot follow that mapping
(the editable install reaches it through an import hook), so this lays out a
tree of links under build/mypy/ the way the wheel lays out the files, checks
`-p damka` there, and writes each error back with the path of the real file.
The configuration is pyproject.toml's [tool.mypy]. Not a test module: the test
is tests/test_types.py; by hand:

    .venv/bin/python tests/typecheck.py
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from setup import layer_folders  # noqa: E402  (the one list of what installs as damka.<folder>)

WORK = ROOT / "build" / "mypy"
TREE = WORK / "tree"
CACHE = WORK / "cache"
# mypy's lines: "path:line: error: text  [code]" (notes and summaries are other lines).
ERROR_LINE = re.compile(r"^(?P<path>[^:\s]+\.py):(?P<line>\d+): error: (?P<text>.*?)(?:  \[(?P<code>[a-z-]+)\])?$")


@dataclass(frozen=True)
class Finding:
    """One error mypy reported, at the real file (relative to the repository)."""

    path: str
    line: int
    text: str
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}  [{self.code}]"


def lay_out_tree(root: Path = ROOT, tree: Path = TREE) -> Path:
    """build/mypy/tree/damka: the `damka/` folder's entries plus one link per
    layer folder, as `damka.<folder>`. Remade each run (links only: cheap), so
    a new layer or file in `damka/` is always seen."""
    package = tree / "damka"
    package.mkdir(parents=True, exist_ok=True)
    for old in package.iterdir():
        old.unlink()
    for entry in (root / "damka").iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for folder in layer_folders(root):
        if folder != "damka":
            (package / folder).symlink_to(root / folder, target_is_directory=True)
    return tree


def real_path(reported: str, root: Path = ROOT) -> str:
    """'damka/engine/move.py' (in the tree) -> 'engine/move.py' (in the repository)."""
    parts = Path(reported).parts
    if len(parts) > 2 and parts[0] == "damka" and parts[1] in layer_folders(root) and parts[1] != "damka":
        return str(Path(*parts[1:]))
    return reported


def run_mypy(root: Path = ROOT) -> tuple[list[Finding], str]:
    """(errors, mypy's whole output). Raises RuntimeError when mypy itself failed
    (a crash or a bad configuration is never 'no errors')."""
    tree = lay_out_tree(root)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(root / "pyproject.toml"),
         "--cache-dir", str(CACHE), "--explicit-package-bases", "--no-color-output",
         "--no-error-summary", "--hide-error-context", "-p", "damka"],
        cwd=tree, capture_output=True, text=True)
    output = result.stdout + result.stderr
    errors = []
    for line in output.splitlines():
        match = ERROR_LINE.match(line)
        if match:
            errors.append(Finding(real_path(match["path"], root), int(match["line"]),
                                     match["text"], match["code"] or ""))
    if result.returncode not in (0, 1) or (result.returncode == 1 and not errors):
        raise RuntimeError(f"mypy failed (exit {result.returncode}):\n{output}")
    return errors, output


def main() -> int:
    errors, _ = run_mypy()
    for error in errors:
        print(error)
    print(f"{len(errors)} errors", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
