"""The commands the README and docs/ tell a person to type work where they
are told to type them: a module of Damka is run with the Python Damka is
installed in (`.venv/bin/python -m damka...`), never the system's `python3`,
which has no Damka (`python3 -m damka.hall.accounts` failed outside the venv)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "deploy").glob("**/README.md"))]
# `python -m damka...` / `python3 -m damka...`, not preceded by a path (`.venv/bin/python`).
BARE = re.compile(r"(?<![/\w.])python3?\s+-m\s+(damka[\w.]*)")
VENV = re.compile(r"\.venv/bin/python3?\s+-m\s+(damka[\w.]*)")


def test_no_doc_runs_damka_with_the_systems_python() -> None:
    assert len(DOCS) >= 10
    bare = [(path.relative_to(ROOT), match.group(0)) for path in DOCS
            for match in BARE.finditer(path.read_text(encoding="utf-8"))]
    assert not bare, f"the system's python3 has no Damka: {bare}"


def test_every_module_the_docs_run_with_the_venvs_python_starts() -> None:
    modules = sorted({match.group(1) for path in DOCS for match in VENV.finditer(path.read_text(encoding="utf-8"))})
    assert "damka.hall.accounts" in modules
    for module in modules:
        done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=120)
        assert "No module named" not in done.stderr, (module, done.stderr)
        assert done.returncode in (0, 2), (module, done.stderr)


def test_the_accounts_usage_names_the_python_that_has_damka() -> None:
    done = subprocess.run([sys.executable, "-m", "damka.hall.accounts"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith(f"usage: {sys.executable} -m damka.hall.accounts")


# `damka X` where a person reads it as a command: in backticks, after a path (`.venv/bin/damka X`), or at
# the start of a line of a code block.
NAMED = re.compile(r"(?:`|/bin/|^ *\$? *)damka ([a-z][a-z0-9-]*)", re.MULTILINE)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_every_damka_command_the_docs_name_exists() -> None:
    """Issue 38: docs/words.md named a `damka pdn` that never existed."""
    from damka.cli import COMMANDS

    named = {(path.relative_to(ROOT), match.group(1)) for path in DOCS
             for match in NAMED.finditer(path.read_text(encoding="utf-8"))}
    assert len({command for _, command in named}) >= 12
    assert sorted((str(path), command) for path, command in named if command not in COMMANDS) == []


def test_every_link_of_the_docs_leads_to_a_file_of_the_repository() -> None:
    """Issue 38: the README linked the rules at ../shared/RULES.md, which a clone does not have;
    the project's copy is docs/rules.md."""
    links = [(path, match.group(1)) for path in DOCS for match in LINK.finditer(path.read_text(encoding="utf-8"))
             if "://" not in match.group(1) and not match.group(1).startswith("mailto:")]
    assert len(links) > 50
    broken = [(str(path.relative_to(ROOT)), target) for path, target in links
              if not (path.parent / target).resolve().is_relative_to(ROOT) or not (path.parent / target).exists()]
    assert broken == []
    assert [str(path.relative_to(ROOT)) for path in DOCS if "shared/RULES" in path.read_text(encoding="utf-8")] == []
    assert "[docs/rules.md](docs/rules.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
