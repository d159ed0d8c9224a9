"""The log of a long-running command (`damka run`, `damka dxp`, `damka hall`):
every logger's lines at the chosen level to stderr, which the board's service
keeps in its journal (`journalctl -u damka`). Without it Python drops every
INFO line, an engine's stderr (`engine Scan (stderr): ...`) among them.

    with logging_to_stderr(level_of(config.log_level, args.verbose)):
        ...   # the board runs
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator
from typing import TextIO

LEVELS = ("debug", "info", "warning", "error")   # [log] level, in the board config
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def level_of(name: str = "info", verbose: int = 0) -> int:
    """The logging level: `-v` is debug whatever the config says; else the config's [log] level."""
    if verbose:
        return logging.DEBUG
    return getattr(logging, name.upper(), logging.INFO) if name in LEVELS else logging.INFO


@contextlib.contextmanager
def logging_to_stderr(level: int = logging.INFO, stream: TextIO | None = None) -> Iterator[logging.Handler]:
    """Every logger's lines at `level` and above to `stream` (stderr) while the
    block runs; the root logger as it was afterwards (a test's run leaves nothing behind)."""
    root = logging.getLogger()
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.setLevel(level)
    was = root.level
    root.addHandler(handler)
    root.setLevel(min(level, was) if was else level)   # never quieter than it was (pytest's capture)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(was)
        handler.close()


def add_verbose_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="log every detail (debug) to stderr; default: the board config's [log] level (info)")
