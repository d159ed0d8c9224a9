"""The real PDN corpus (../shared/pdn-corpus/, SOURCES.txt) and the game each file is in.

Used by tests/test_pdn_corpus.py and benchmarks/pdn_import.py --corpus. The
suite runs with `shared/` beside the repository (or beside a folder above
it, as for a worktree under /work/wt/); DAMKA_SHARED names it elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

TABLE = Path(__file__).with_name("pdn_corpus.txt")
DETECT = "detect"  # the file says its game: no --variant


def corpus_dir() -> Path | None:
    """The corpus folder, or None where it is not (a checkout without ../shared)."""
    if os.environ.get("DAMKA_SHARED"):
        found = Path(os.environ["DAMKA_SHARED"]) / "pdn-corpus"
        return found if found.is_dir() else None
    for folder in Path(__file__).resolve().parents:
        found = folder / "shared" / "pdn-corpus"
        if found.is_dir():
            return found
    return None


def corpus_files() -> dict[str, str]:
    """Each corpus file (path under the corpus folder) -> its variant, or DETECT."""
    table: dict[str, str] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            path, variant = line.rsplit("\t", 1)
            table[path] = variant
    return table


def variant_argument(variant: str) -> list[str]:
    """The `damka import` arguments that name the file's game."""
    return [] if variant == DETECT else ["--variant", variant]
