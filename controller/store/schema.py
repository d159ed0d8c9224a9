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

One way into the file: SQLite's. Several processes share it (the board, its
import job, `damka games`, `damka import`), and SQLite keeps them apart with
POSIX advisory locks, which belong to a process: closing ANY descriptor of the
file in that process drops all of them (SQLite's "How To Corrupt An SQLite
Database File", 2.2). The board's page once read the file's first bytes with
Python's open() for each Archive read; the import job, ending, then saw no
other user, deleted the WAL the board was still writing, and the board's next
moves were seen by nobody and lost at a power cut (issue 36). So no code here,
nor anywhere a connection may be open, opens, reads or copies the file (or
its -wal, -shm) but through SQLite: a file that is not SQLite is recognised
by SQLite's own "file is not a database"; sizes come from `os.stat` (which
opens nothing) or from PRAGMA page_count.

Reading asks for no more than reading: `connect(path, readonly=True)` opens
with SQLite's `mode=ro`, so `damka games` and `export` work on a full disk
(where the read-write open, which must create the WAL's shared-memory file,
fails) and beside a running board. Never `immutable=1` on a file another
process may write: SQLite would then read it without locks and without its
WAL. Only where the WAL's shared-memory file (-shm) cannot be made (a
write-protected card, a full disk) AND none is in use (every connection to a
WAL database maps one: nobody has the file open) AND no WAL content waits is
the file opened `immutable`: then it is the whole database and nobody writes it.
"""


from __future__ import annotations

import sqlite3
import stat
import urllib.parse
from pathlib import Path
from typing import Callable

from damka.base.files import file_kind
from damka.engine.errors import DamkaError

# "DAMK": marks the file as ours (PRAGMA application_id), so another
# program's SQLite database is never mistaken for an empty games database.
APPLICATION_ID = 0x44414D4B
SCHEMA_VERSION = 3


class StoreError(DamkaError):
    """The game database cannot be used: not ours, damaged, from a newer
    Damka, or not writable now (disk full, read-only card). One line, naming the file."""


def sqlite_reason(exc: sqlite3.Error) -> str:
    """SQLite's words for what failed, with what it means on a board when that is not obvious."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    hints = {
        "database or disk is full": "the disk is full",
        "disk I/O error": "the disk is full or failing",
        "attempt to write a readonly database": "the card or file is read-only",
        "unable to open database file": "no access to the file or its folder",
    }
    hint = hints.get(text)
    return f"{text} ({hint})" if hint else text


class Footprint:
    """What opening a database at `path` would create (missing folders, the
    file, its WAL files), noted before: a command that fails removes what it
    made, and only that."""

    def __init__(self, path: Path) -> None:
        path = Path(path)
        self.missing: list[Path] = []
        if path.exists():
            return  # its WAL files may be another process's: nothing of an existing database is removed
        folders = [parent for parent in reversed(path.parents) if not parent.exists()]
        files = [p for p in (path, _beside(path, "-wal"), _beside(path, "-shm")) if not p.exists()]
        self.missing = folders + files

    def undo(self) -> None:
        """Remove what was created since (files first, then the folders, deepest first)."""
        for created in reversed(self.missing):
            try:
                if created.is_dir() and not created.is_symlink():
                    created.rmdir()  # only if empty: nothing of anyone else's goes
                else:
                    created.unlink(missing_ok=True)
            except OSError:
                pass


def _beside(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


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

# The hall's outbox (hall/outbox.py): what a board must still send to the
# tournament hall, written in the same transaction as the move it tells of.
# Made when a board first publishes (CREATE ... IF NOT EXISTS), so a board
# without a hall never has it and the schema version stays the same.
OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id       INTEGER PRIMARY KEY,         -- the order of sending
    game_id  INTEGER NOT NULL,            -- games.id
    seq      INTEGER NOT NULL,            -- 1, 2, ... per game: the hall applies each once, in order
    topic    TEXT NOT NULL,               -- under damka/<hall>/<board>/
    payload  TEXT NOT NULL,               -- JSON
    sent     INTEGER NOT NULL DEFAULT 0,  -- 1 once the broker acknowledged it (QoS 1), 2 once the hall did
    UNIQUE (game_id, seq)
);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox(sent, id)
"""


def ensure_outbox(conn: sqlite3.Connection) -> None:
    """Make the outbox table if it is not there yet."""
    for statement in OUTBOX_SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


# MIGRATIONS[n] turns a version-n database into version n+1, inside the
# transaction that also bumps user_version. Add one entry per schema change.
def _add_notes(conn: sqlite3.Connection) -> None:
    """Version 2: `games.notes`, what a PDN record says beside its moves (comments,
    variations, NAGs), kept so that an imported game is exported whole."""
    conn.execute("ALTER TABLE games ADD COLUMN notes TEXT")  # JSON (store/pdn.py); NULL: none


def _add_progress(conn: sqlite3.Connection) -> None:
    """Version 3: the learners and every lesson or puzzle they finished (teaching/progress.py
    reads their progress from these rows: lessons done, puzzles solved, stars, rating)."""
    conn.execute("CREATE TABLE learners (name TEXT PRIMARY KEY, created TEXT NOT NULL)")
    conn.execute("""CREATE TABLE exercises (
        id       INTEGER PRIMARY KEY,
        learner  TEXT NOT NULL,               -- learners.name
        kind     TEXT NOT NULL,               -- 'lesson' or 'puzzle'
        variant  TEXT NOT NULL,
        name     TEXT NOT NULL,               -- the lesson's name or the puzzle's id
        solved   INTEGER NOT NULL,            -- 1: done without the answer shown
        stars    INTEGER NOT NULL,            -- 0-3
        hints    INTEGER NOT NULL,
        tries    INTEGER NOT NULL,            -- wrong tries
        rating   INTEGER NOT NULL,            -- the learner's rating after it
        time     TEXT NOT NULL                -- ISO 8601 UTC
    )""")
    conn.execute("CREATE INDEX exercises_learner ON exercises(learner, id)")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _add_notes, 2: _add_progress}


def _check_kind(path: Path) -> None:
    """Anything but a regular file is refused before SQLite opens it (a FIFO would hang SQLite's
    open, a device or a folder is not a database). A stat only: nothing of the file is opened but
    by SQLite, whose POSIX locks a close of any other descriptor would drop."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return   # made by SQLite
    except OSError as error:
        raise StoreError(f"{path}: cannot be read ({error.strerror})") from None
    if stat.S_ISDIR(mode):
        raise StoreError(f"{path}: is a directory, not a game database")
    if not stat.S_ISREG(mode):
        raise StoreError(f"{path}: {file_kind(mode)}, not a regular file; a game database must be one")


def connect(path: Path, *, readonly: bool = False, verify: bool = True) -> sqlite3.Connection:
    """Open the game database at `path`, migrated to the current schema
    (created when absent, unless `readonly`); StoreError when the file is not
    a usable Damka database. A failed open removes whatever it created.
    `verify=False` (read-only only): no whole-file check (PRAGMA quick_check)."""
    path = Path(path)
    _check_kind(path)
    if readonly:
        return _connect_readonly(path, verify)
    existed = path.exists() and path.stat().st_size > 0
    if existed:  # (its WAL files may be another process's: nothing of it is removed)
        return _open(path, lambda conn: _prepare(conn, path, existed), path)
    footprint = Footprint(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return _open(path, lambda conn: _prepare(conn, path, existed), path)
    except OSError as exc:
        footprint.undo()
        raise StoreError(f"{path}: cannot create the game database: {exc.strerror or exc}") from None
    except BaseException:
        footprint.undo()
        raise


def _open(target: str | Path, prepare: Callable[[sqlite3.Connection], None], path: Path,
          uri: bool = False) -> sqlite3.Connection:
    """Connect to `target` and run `prepare`; SQLite's errors become one StoreError naming `path`."""
    try:
        conn = sqlite3.connect(target, timeout=5.0, isolation_level=None, check_same_thread=False, uri=uri)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: cannot open the game database: {sqlite_reason(exc)}") from None
    try:
        prepare(conn)
    except sqlite3.OperationalError as exc:  # no permission, disk full, locked for too long
        conn.close()
        raise StoreError(f"{path}: cannot use the game database: {sqlite_reason(exc)}") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        if exc.sqlite_errorcode == sqlite3.SQLITE_NOTADB:   # SQLite's own look at the header, before anything
            raise StoreError(f"{path}: not a Damka game database (not an SQLite file); left untouched") from None
        raise StoreError(f"{path}: damaged game database ({sqlite_reason(exc)}); left untouched") from None
    except BaseException:
        conn.close()
        raise
    return conn


def _connect_readonly(path: Path, verify: bool = True) -> sqlite3.Connection:
    if not path.exists():
        raise StoreError(f"{path}: no game database there")
    base = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
    try:
        return _open(base, lambda conn: _check_readable(conn, path, verify), path, uri=True)
    except StoreError:
        # (A failed read-only open on a full disk leaves a -shm of 3 bytes and an empty -wal.)
        if _in_use(_beside(path, "-shm"), WAL_INDEX_REGION) or _in_use(_beside(path, "-wal"), 1):
            raise  # someone has it open, or moves wait in the WAL: immutable would read it wrong
    # The WAL's shared memory cannot be made here (a read-only card, a full disk), and
    # nobody has the file open (each connection to a WAL database maps that file, so
    # none can be writing it) with nothing waiting in the WAL: the file alone is the database.
    return _open(base + "&immutable=1", lambda conn: _check_readable(conn, path, verify), path, uri=True)


WAL_INDEX_REGION = 32768   # the -shm's first region, mapped by every connection before its first read


def _in_use(path: Path, least: int) -> bool:
    """A WAL file holding at least `least` bytes (a stat: nothing is opened)."""
    try:
        return path.stat().st_size >= least
    except FileNotFoundError:
        return False


def _check_readable(conn: sqlite3.Connection, path: Path, verify: bool = True) -> None:
    """The checks of `_prepare` that need no writing; a schema older than
    this Damka's must be upgraded by a read-write open first. `verify`: the
    whole file's pages too (quick_check reads them all)."""
    conn.execute("PRAGMA query_only=ON")
    version = _check_ours(conn, path)
    if version != SCHEMA_VERSION:
        raise StoreError(f"{path}: {'empty' if version == 0 else f'schema {version}'}, not a game database this "
                         "Damka can read without writing to it")
    if not verify:
        return
    check = conn.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise StoreError(f"{path}: damaged game database (integrity check: {check}); left untouched")


def _check_ours(conn: sqlite3.Connection, path: Path) -> int:
    """The schema version of a file that is ours (0: empty); StoreError for anyone else's or a newer one."""
    application_id = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    if application_id != APPLICATION_ID and (application_id != 0 or tables or version):
        raise StoreError(f"{path}: an SQLite database of another program, not a Damka game database; left untouched")
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer Damka (schema {version}, this one reads up to {SCHEMA_VERSION}); left untouched"
        )
    return version


def _prepare(conn: sqlite3.Connection, path: Path, existed: bool) -> None:
    version = _check_ours(conn, path)
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
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
        # Another program may have made or migrated it between the look above and
        # this lock (two imports into a new database at once): look again, locked.
        version = conn.execute("PRAGMA user_version").fetchone()[0]
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
        rollback(conn)
        raise


def rollback(conn: sqlite3.Connection) -> None:
    """End a failed transaction. After a full disk or an I/O error SQLite may
    have rolled it back already (then ROLLBACK itself fails): either way none
    of it is kept, and the first error is the one to report."""
    if conn.in_transaction:
        try:
            conn.execute("ROLLBACK")
        except sqlite3.Error:
            pass
