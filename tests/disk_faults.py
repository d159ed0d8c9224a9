"""Disks that fail on purpose, for the store's fault tests.

`SmallDisk`: a real size-limited file system (a tmpfs the test mounts in its
own tmp folder) that `fill()` fills to the last block and `free()` empties
again, so SQLite meets a real ENOSPC. `read_only_view(folder)`: the same
folder through a read-only bind mount, as a write-protected card is. Both need
root (or CAP_SYS_ADMIN); `mount_problem()` says why they cannot be made here.

`FailingConnection`: the injected stand-in where mounting is impossible: the
store's SQLite connection, whose COMMIT fails as on a full disk while `full`.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest

_problem: str | None = None
_checked = False


def _run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True)


def mount_problem(tmp: Path) -> str | None:
    """Why a tmpfs cannot be mounted here (None: it can); checked once."""
    global _problem, _checked
    if not _checked:
        _checked = True
        probe = tmp / "mount-probe"
        probe.mkdir()
        done = _run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(probe))
        if done.returncode != 0:
            _problem = f"cannot mount a tmpfs here ({done.stderr.strip() or 'mount failed'}; needs root)"
        else:
            _run("umount", str(probe))
    return _problem


class SmallDisk:
    """A tmpfs of `size_kb` mounted at `path`."""

    def __init__(self, path: Path, size_kb: int) -> None:
        self.path = path
        self.filler = path / "filler"
        path.mkdir()
        done = _run("mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755", "tmpfs", str(path))
        if done.returncode != 0:
            raise OSError(done.stderr.strip())

    def fill(self) -> None:
        """Take every free block, as a card filled by a log or a photo would."""
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        chunk = b"\0" * 4096
        try:
            while True:
                os.write(fd, chunk)
        except OSError as exc:
            assert exc.errno == 28, exc  # ENOSPC: the disk is full now
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def unmount(self) -> None:
        _run("umount", "-l", str(self.path))


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    problem = mount_problem(tmp_path)
    if problem:
        pytest.skip(problem)
    disk = SmallDisk(tmp_path / "card", 2048)
    try:
        yield disk
    finally:
        disk.unmount()


def read_only_view(folder: Path, view: Path) -> None:
    """`folder`, read-only at `view` (a bind mount remounted ro): even root cannot write there."""
    view.mkdir()
    for argv in (("mount", "--bind", str(folder), str(view)), ("mount", "-o", "remount,ro,bind", str(view))):
        done = _run(*argv)
        if done.returncode != 0:
            _run("umount", str(view))
            raise OSError(done.stderr.strip())


def unmount(view: Path) -> None:
    _run("umount", "-l", str(view))


class FailingConnection:
    """The store's connection, with COMMIT failing while `full` as SQLite's does on a full disk."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.full = False
        self.failures = 0

    def execute(self, sql: str, *args: Any) -> Any:
        if self.full and sql.strip().upper() == "COMMIT":
            self.failures += 1
            raise sqlite3.OperationalError("database or disk is full")
        return self._conn.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)
