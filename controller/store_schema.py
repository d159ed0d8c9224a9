"""The game database's file: opening it safely, its schema, its migrations.

A file is opened only when it is ours. Something that is not SQLite at all, a
SQLite database of another program, one written by a newer Damka, or one whose
pages are damaged is reported as one `StoreError` naming the file, and the
file is left exactly as it was: it may be the only copy of someone's games,
so nothing here ever deletes, truncates or "repairs" it.

Durability: WAL journal with `synchronous=FULL`. In WAL mode, NORMAL is safe
against a crash of the program but a power cut may lose the last committed
transactions; the board is unplugged for real (that is the case we resume
from), and one fsync per committed move (a few a minute) costs little, so we
choose FULL: a move reported as committed survives a power cut.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Callable

from damka.engine.errors import DamkaError

# "DAMK": marks the file as ours (PRAGMA application_id), so another
# program's SQLite database is never mistaken for an empty games database.
APPLICATION_ID = 0x44414D4B
SCHEMA_VERSION = 1
SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(DamkaError):
    """The game database cannot be used: not ours, damaged, or from a newer Damka."""


SCHEMA_V1 = """
CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    variant        TEXT NOT NULL,              -- canonical variant name
    options        TEXT NOT NULL DEFAULT '{}', -- JSON: find_variant options
    start_position TEXT NOT NULL,              -- variant.format_position(start)
    sides          TEXT NOT NULL,              -- JSON list: side names in order of play
    players        TEXT NOT NULL,              -- JSON list: a player (or team) name per side
    mode           TEXT NOT NULL DEFAULT 'casual',
    time_control   TEXT,                       -- e.g. '5+3' (controller/timecontrol), NULL: no clock
    clock_start    TEXT,                       -- JSON list: ms per side at the start
    clock          TEXT,                       -- JSON list: ms per side at the last save (checkpoint)
    clock_state    TEXT,                       -- JSON: the clock's own extra state (stages, periods)
    tags           TEXT NOT NULL DEFAULT '{}', -- JSON: extra PDN tags (Event, Site, Round, ...)
    created        TEXT NOT NULL,              -- ISO 8601 UTC
    finished       TEXT,                       -- ISO 8601 UTC, NULL while unfinished
    result         TEXT                        -- JSON: points, places, reason, winner
);
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,  -- 1 = the first move
    side       INTEGER NOT NULL,  -- index into sides
    text       TEXT NOT NULL,     -- the move as people write it
    start      TEXT NOT NULL,     -- machine form: square names
    path       TEXT NOT NULL,     -- landing squares, space separated
    captures   TEXT NOT NULL,     -- captured squares, space separated, sorted
    position   TEXT NOT NULL,     -- variant.format_position after the move
    clock      TEXT,              -- JSON list: ms per side after the move
    time       TEXT NOT NULL,     -- ISO 8601 UTC, wall clock
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE events (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    time_ms  INTEGER NOT NULL,   -- monotonic ms, as in the sensor log
    line     TEXT NOT NULL       -- raw sensor log line: 'MS up SQ', 'MS press SIDE', ...
);
CREATE INDEX events_game ON events(game_id, id);
CREATE TABLE arbiter (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    time_ms  INTEGER,
    time     TEXT NOT NULL,      -- ISO 8601 UTC
    action   TEXT NOT NULL,      -- pause, adjust, penalty, result, ...
    detail   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_unfinished ON games(finished, id);
"""

# MIGRATIONS[n] turns a version-n database into version n+1, inside the
# transaction that also bumps user_version. Add one entry per schema change.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {}


def _check_header(path: Path) -> None:
    """A non-empty file that is not SQLite is refused before SQLite touches it."""
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except IsADirectoryError:
        raise StoreError(f"{path}: is a directory, not a game database") from None
    if header and header != SQLITE_HEADER:
        raise StoreError(f"{path}: not a Damka game database (not an SQLite file); left untouched")


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating when absent) the game database at `path`, migrated to the
    current schema; StoreError when the file is not a usable Damka database."""
    path = Path(path)
    _check_header(path)
    existed = path.exists() and path.stat().st_size > 0
    if not existed:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the game database: {exc}") from None
    try:
        _prepare(conn, path, existed)
    except sqlite3.OperationalError as exc:  # no permission, disk full, locked for too long
        conn.close()
        raise StoreError(f"{path}: cannot use the game database: {exc}") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path}: damaged game database ({exc}); left untouched") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _prepare(conn: sqlite3.Connection, path: Path, existed: bool) -> None:
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application_id != APPLICATION_ID and (application_id != 0 or tables or version):
        raise StoreError(f"{path}: an SQLite database of another program, not a Damka game database; left untouched")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer Damka (schema {version}, this one reads up to {SCHEMA_VERSION}); left untouched"
        )
    if existed and tables:
        check = conn.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            check = "; ".join(line.strip() for line in check.splitlines() if line.strip())  # one line
            raise StoreError(f"{path}: damaged game database (integrity check: {check}); left untouched")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    if version == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if version == 0:
            # executescript would commit on its own; statement by statement
            # keeps the schema and user_version in one transaction.
            for statement in SCHEMA_V1.split(";"):
                if statement.strip():
                    conn.execute(statement)
            version = 1
        while version < SCHEMA_VERSION:
            MIGRATIONS[version](conn)
            version += 1
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={version}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
