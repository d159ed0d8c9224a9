"""The archive's budget: how many games and how many megabytes imports may fill.

A PDN upload needs only the pairing code, and one 2 MiB upload stored 190,632
games (82.5 MB) in six minutes: a few of them fill the SD card the board's
system lives on. So an import stops at the budget ([archive] in the board
config, docs/board.example.toml); the games stored before it stay.

The budget counts every game in the archive, the board's own too, but only an
import is ever stopped by it: a game played at the board is always stored (a
game in play is never lost), and the board only warns that the archive is over.

The size is what the database's pages in use hold (`page_count` less the free
pages, times the page size), asked of SQLite on the connection that writes:
no second handle on the file, and pages freed by deleting games count as room
again (SQLite reuses them before it grows the file).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

MEGABYTE = 1_000_000    # as SD cards are sold: 1 MB = 1,000,000 bytes
# Defaults for an 8 GB card beside the OS: a real game takes about 6 KB (docs/board.example.toml [archive]).
DEFAULT_GAMES = 50_000
DEFAULT_MEGABYTES = 512


@dataclass(frozen=True)
class ArchiveBudget:
    """[archive]: at most `games` games and `megabytes` MB of database, for imports."""

    games: int = DEFAULT_GAMES
    megabytes: int = DEFAULT_MEGABYTES


@dataclass(frozen=True)
class ArchiveUse:
    """How full the archive is: its games and the bytes its pages in use hold."""

    games: int
    bytes: int

    def over(self, budget: ArchiveBudget) -> str:
        """Which part of `budget` is used up: "games", "megabytes", or "" while there is room."""
        if self.games >= budget.games:
            return "games"
        if self.bytes >= budget.megabytes * MEGABYTE:
            return "megabytes"
        return ""


class ArchiveFull(Exception):
    """An import stopped at the budget; what it stored before is kept (committed).
    `ids`: the games it stored, `known`: its records stored before, `limit`: "games" or
    "megabytes" (`ArchiveUse.over`), `budget` the one reached."""

    def __init__(self, ids: list[int], known: int, limit: str, budget: ArchiveBudget) -> None:
        super().__init__(f"the archive is full ({limit}): {len(ids)} games stored")
        self.ids, self.known, self.limit, self.budget = ids, known, limit, budget


# One statement (18 us; three PRAGMAs took 30-60 us, a tenth of storing a one-move game).
_USED_BYTES = ("SELECT (p.page_count - f.freelist_count) * s.page_size"
               " FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s")


def used_bytes(conn: sqlite3.Connection) -> int:
    """The bytes the database's pages in use hold (free pages are room), as SQLite sees them."""
    return int(conn.execute(_USED_BYTES).fetchone()[0])


def archive_use(conn: sqlite3.Connection) -> ArchiveUse:
    return ArchiveUse(conn.execute("SELECT count(*) FROM games").fetchone()[0], used_bytes(conn))


class BudgetWatch:
    """The budget watched through one import's transaction: the games there before it, counted
    once, and the bytes asked of SQLite before each new game (no budget: always room)."""

    def __init__(self, conn: sqlite3.Connection, budget: ArchiveBudget | None) -> None:
        self.conn, self.budget = conn, budget
        self.before = archive_use(conn).games if budget is not None else 0

    def full(self, stored: int) -> str:
        """With `stored` games stored by this import: what is used up ("games", "megabytes"), or ""."""
        if self.budget is None:
            return ""
        return ArchiveUse(self.before + stored, used_bytes(self.conn)).over(self.budget)
