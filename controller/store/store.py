"""Every game, kept in SQLite: its setup, each committed move, the raw sensor
log and the arbiter's actions, so a game survives a crash or a power cut and
can be listed, exported, replayed and resumed.

One transaction per committed move (see `schema.py` for the durability
choice). A move is stored twice over: as people write it, and in machine form
(start, path and captures as square names) with the position after it, so a
game is rebuilt with the engine and checked against what was saved.

    store = Store()                       # $DAMKA_HOME/games.db or ~/.local/share/damka/games.db
    gid = store.new_game(variant, players=["Ala", "Ola"], time_control="5+3", clock_ms=[300000, 300000])
    game.push(move); store.record_move(gid, game, clock_ms=[...])
    store.finish(gid, game.result)
    stored = store.last_unfinished()      # StoredGame: .game (engine Game), .clock_ms, ...

The store owns the connection and its transactions; the row formats are
`rows.py`, a game rebuilt from its rows `rebuild.py`, an imported record's
moves `imports.py`, the tables and the connection itself `schema.py`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from damka.controller.store.budget import ArchiveBudget, ArchiveFull, ArchiveUse, BudgetWatch, archive_use
from damka.controller.store.imports import insert_record
from damka.controller.store.progress_rows import (EXERCISES, LEARNERS, ExerciseRow, add_learner, exercise_from_row,
                                                  insert_exercise)
from damka.controller.store.rebuild import rebuild_game
from damka.controller.store.rows import (DROP_ACTION, IMPORTED, INSERT_MOVE, GameSummary, StoredDrop, StoredGame,
                                         clock_list, drop_detail, insert_game, keep_clock, move_row, parse_drop,
                                         result_json, state_json, summary_from_row)
from damka.controller.store.schema import StoreError, connect, rollback, sqlite_reason
from damka.engine.game import Game
from damka.engine.variant import Result, Variant


def default_path() -> Path:
    """Where games live unless configured: $DAMKA_HOME/games.db, else
    $XDG_DATA_HOME/damka/games.db, else ~/.local/share/damka/games.db."""
    home = os.environ.get("DAMKA_HOME")
    if home:
        return Path(home).expanduser() / "games.db"
    data = os.environ.get("XDG_DATA_HOME")
    base = Path(data).expanduser() if data else Path.home() / ".local" / "share"
    return base / "damka" / "games.db"


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


StoreHook = Callable[[sqlite3.Connection, str, int, dict], None]


class Store:
    """The game database. One connection, used from one thread (the app loop)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 now: Callable[[], datetime] = _utc_now, readonly: bool = False, verify: bool = True) -> None:
        """`readonly`: only reading is asked (`damka games`, `export`): the
        file must exist, and it is read even on a read-only card or a full disk.
        `verify=False` (read-only): no whole-file check at the open, for a reader
        of a file checked already (the page's, of the board's own file: it took 215
        of a request's 230 ms with 12,000 games); a damaged page it reads still fails."""
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._now = now
        self.readonly = readonly
        self._conn = connect(self.path, readonly=readonly, verify=verify)
        self._hooks: list[StoreHook] = []
        self._committed: list[Callable[[], None]] = []

    def add_hook(self, hook: "StoreHook", committed: Callable[[], None] | None = None) -> None:
        """`hook(conn, kind, game_id, details)` runs inside the transaction of
        each game write (kinds: open, moves, takeback, drop, finish), so what
        it writes (the hall's outbox) commits or fails with the write itself;
        `committed()` runs after each commit (to wake whoever sends it)."""
        self._hooks.append(hook)
        if committed is not None:
            self._committed.append(committed)

    def _notify(self, conn: sqlite3.Connection, kind: str, game_id: int, **details: Any) -> None:
        for hook in self._hooks:
            hook(conn, kind, game_id, details)

    # -- life cycle ---------------------------------------------------------

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """All of it or none of it. COMMIT is inside: a full disk or an I/O
        error at the commit rolls back and raises one StoreError, so the
        caller may try the same write again later (the recorder does)."""
        conn = self._conn
        rollback(conn)  # (a transaction an earlier failure left open)
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield conn
            conn.execute("COMMIT")
            for committed in self._committed:
                committed()
        except sqlite3.Error as exc:
            rollback(conn)
            raise StoreError(f"{self.path}: cannot write the game database: {sqlite_reason(exc)}") from None
        except BaseException:
            rollback(conn)
            raise

    def stamp(self) -> str:
        """Now, as the store writes times (ISO 8601 UTC): a write that waits
        in the recorder's queue keeps the time it happened."""
        return self._now().astimezone(timezone.utc).isoformat(timespec="milliseconds")

    _stamp = stamp

    # -- writing ------------------------------------------------------------

    def new_game(
        self,
        variant: Variant,
        *,
        start: Any = None,
        options: Mapping[str, Any] | None = None,
        players: Sequence[str] | None = None,
        mode: str = "casual",
        time_control: str | None = None,
        clock_ms: Sequence[int] | None = None,
        clock_state: Any = None,
        tags: Mapping[str, str] | None = None,
        at: str | None = None,
    ) -> int:
        """A new game row; returns its id. `start` is a position (default: the
        variant's start); `players` a name per side (default: the side names);
        `at` when it began (default: now; see `stamp`)."""
        with self._transaction() as conn:
            game_id = insert_game(conn, variant, start, options, players, mode, time_control, clock_ms,
                                  clock_state, tags, at or self._stamp())
            if self._hooks:
                self._notify(conn, "open", game_id, **self._game_row(conn, game_id))
            return game_id

    @staticmethod
    def _game_row(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
        names = ("variant", "options", "start_position", "players", "mode", "time_control", "clock_start", "tags",
                 "created")
        row = conn.execute(f"SELECT {', '.join(names)} FROM games WHERE id = ?", (game_id,)).fetchone()
        return dict(zip(names, row))

    def record_move(self, game_id: int, game: Game, *, text: str | None = None,
                    clock_ms: Sequence[int] | None = None, clock_state: Any = None) -> None:
        """Store the game's last move (ply `game.ply`) in one transaction.
        Moves stored at that ply or later (taken back since) are replaced."""
        if not game.ply:
            raise ValueError("record_move: the game has no move to record")
        self.record_plies(game_id, game, [game.ply], texts=[text], clock_ms=clock_ms, clock_state=clock_state)

    def record_plies(self, game_id: int, game: Game, plies: Sequence[int], *,
                     texts: Sequence[str | None] | None = None, clock_ms: Sequence[int] | None = None,
                     clock_state: Any = None, at: str | None = None) -> None:
        """Store moves `plies` of `game` (a whole multiwarcaby turn: both) in one
        transaction; the clock times go with the last of them. Moves stored at
        those plies or later are replaced, so the same write may be repeated."""
        if not plies:
            return
        with self._transaction() as conn:
            for index, ply in enumerate(plies):
                if not 1 <= ply <= game.ply:
                    raise ValueError(f"record_plies: the game has no move {ply}")
                last = index == len(plies) - 1
                text = texts[index] if texts and index < len(texts) else None
                self._insert_move(conn, game_id, game, ply, text, clock_ms if last else None, at)
            if self._hooks:
                rows = conn.execute("SELECT ply, side, text, start, path, captures, position, clock, time FROM moves"
                                    " WHERE game_id = ? AND ply >= ? ORDER BY ply", (game_id, min(plies))).fetchall()
                self._notify(conn, "moves", game_id, rows=rows)
            keep_clock(conn, game_id, clock_ms, clock_state)

    def _insert_move(self, conn: sqlite3.Connection, game_id: int, game: Game, ply: int, text: str | None,
                     clock_ms: Sequence[int] | None, at: str | None = None) -> None:
        conn.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
        positions = game.positions
        conn.execute(INSERT_MOVE, move_row(game_id, game.variant, ply, game.moves[ply - 1], positions[ply - 1],
                                             positions[ply], text, clock_ms, at or self.stamp()))

    def take_back(self, game_id: int, ply: int, *, clock_ms: Sequence[int] | None = None,
                  clock_state: Any = None) -> None:
        """Forget the moves after ply `ply` (the board took them back); the
        clock as the take-back left it (whose turn it is now), for a resume."""
        with self._transaction() as conn:
            conn.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))
            keep_clock(conn, game_id, clock_ms, clock_state)
            self._notify(conn, "takeback", game_id, ply=ply)

    def save_clock(self, game_id: int, clock_ms: Sequence[int], clock_state: Any = None) -> None:
        """Checkpoint the running clock between moves (the app does it every
        few seconds), so a power cut costs at most that much thinking time."""
        with self._transaction() as conn:
            conn.execute("UPDATE games SET clock = ?, clock_state = coalesce(?, clock_state) WHERE id = ?",
                         (clock_list(clock_ms), state_json(clock_state), game_id))

    def record_events(self, game_id: int, events: Iterable[tuple[int, str]]) -> None:
        """Append raw sensor log lines: (monotonic ms, 'MS up SQ'-style line)."""
        rows = [(game_id, int(ms), line) for ms, line in events]
        if not rows:
            return
        with self._transaction() as conn:
            conn.executemany("INSERT INTO events (game_id, time_ms, line) VALUES (?,?,?)", rows)

    def log_arbiter(self, game_id: int, action: str, detail: str = "", *, time_ms: int | None = None,
                    at: str | None = None) -> None:
        """An arbiter's action (pause, adjust, penalty, declared result), kept for the record."""
        with self._transaction() as conn:
            conn.execute("INSERT INTO arbiter (game_id, time_ms, time, action, detail) VALUES (?,?,?,?,?)",
                         (game_id, time_ms, at or self._stamp(), action, detail))

    def record_drop(self, game_id: int, ply: int, side: int, reason: str = "time", *,
                    time_ms: int | None = None, clock_state: Any = None, at: str | None = None) -> None:
        """A player went out after ply `ply` (3-4 player multiwarcaby): kept in
        the arbiter log, and re-applied there when the game is loaded. Moves
        stored after `ply` (a turn cut short) are forgotten."""
        with self._transaction() as conn:
            conn.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))
            conn.execute("INSERT INTO arbiter (game_id, time_ms, time, action, detail) VALUES (?,?,?,?,?)",
                         (game_id, time_ms, at or self._stamp(), DROP_ACTION, drop_detail(side, ply, reason)))
            self._notify(conn, "drop", game_id, ply=ply, side=side, reason=reason, time_ms=time_ms)
            if clock_state is not None:
                conn.execute("UPDATE games SET clock_state = ? WHERE id = ?", (json.dumps(clock_state), game_id))

    def drops(self, game_id: int) -> list[StoredDrop]:
        """The players out of play, in order."""
        found = []
        for (detail,) in self._query("SELECT detail FROM arbiter WHERE game_id = ? AND action = ? ORDER BY id",
                                     (game_id, DROP_ACTION)):
            drop = parse_drop(detail)
            if drop is not None:
                found.append(drop)
        return found

    def finish(self, game_id: int, result: Result | None, *, clock_ms: Sequence[int] | None = None,
               at: str | None = None) -> None:
        """Close the game with its result (None: abandoned, recorded as '*')."""
        with self._transaction() as conn:
            conn.execute("UPDATE games SET finished = ?, result = ?, clock = coalesce(?, clock) WHERE id = ?",
                         (at or self._stamp(), result_json(result), clock_list(clock_ms), game_id))
            self._notify(conn, "finish", game_id, result=result_json(result),
                         clock_ms=None if clock_ms is None else list(clock_ms))

    def add_record(self, game: Game, **details: Any) -> int:
        """Store a whole game at once (an imported record) in one transaction;
        `details` as for `add_records`."""
        return self.add_records([(game, details)])[0]

    def add_records(self, records: Iterable[tuple[Game, Mapping[str, Any]]],
                    on_stored: Callable[[int, Game, Mapping[str, Any]], None] | None = None,
                    *, budget: ArchiveBudget | None = None) -> list[int]:
        """Store whole games (an imported file) all or nothing, in one transaction.

        `records` may be a generator reading a file game by game: each game is
        stored as it comes and then dropped (`on_stored(id, game, details)`
        sees it), so a large file is never held whole; an exception from it
        rolls everything back. Each record is a Game and its details: `texts`
        and `clocks` per move, `players`, `mode`, `time_control`,
        `clock_start`, `tags`, `result` (default: the game's own), `finished`
        (default True; False leaves it to be resumed on the board), `drops`
        ((ply, side) players out), `notes` (comments, variations, NAGs: store/pdn.py).
        A record that finds the archive over `budget` stores nothing: ArchiveFull."""
        ids: list[int] = []
        with self._transaction() as conn:
            watch = BudgetWatch(conn, budget)
            for game, details in records:
                if full := watch.full(len(ids)):
                    raise ArchiveFull([], 0, full, budget or ArchiveBudget())  # all or nothing: rolled back
                ids.append(insert_record(conn, game, self._stamp, **details))
                if on_stored is not None:
                    on_stored(ids[-1], game, details)
        return ids

    def add_new_records(self, records: Iterable[tuple[str, Game, Mapping[str, Any]]],
                        on_stored: Callable[[int, Game, Mapping[str, Any]], None] | None = None,
                        *, budget: ArchiveBudget | None = None) -> tuple[list[int], int]:
        """Store the records whose key was never stored, in one transaction: (the new ids, how many
        were there already). A key names a record's content (and its place among equal ones), so
        importing the same file again adds nothing. With a `budget`, the first new record that
        finds the archive full is not stored and no more are read: what was stored is committed,
        then ArchiveFull says so (controller/store/budget.py)."""
        ids: list[int] = []
        known = 0
        full = ""
        with self._transaction() as conn:
            conn.execute(IMPORTED)
            watch = BudgetWatch(conn, budget)
            for key, game, details in records:
                if conn.execute("SELECT 1 FROM imported WHERE key = ?", (key,)).fetchone():
                    known += 1
                    continue
                if full := watch.full(len(ids)):
                    break
                ids.append(insert_record(conn, game, self._stamp, **details))
                conn.execute("INSERT INTO imported (key, game_id) VALUES (?, ?)", (key, ids[-1]))
                if on_stored is not None:
                    on_stored(ids[-1], game, details)
        if full and budget is not None:
            raise ArchiveFull(ids, known, full, budget)
        return ids, known

    def archive_use(self) -> ArchiveUse:
        """How many games the archive holds and the bytes they take (its budget: budget.py)."""
        try:
            return archive_use(self._conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot read the game database: {exc}") from None

    def add_learner(self, name: str) -> None:
        """A learner (teaching/progress.py), kept even before the first lesson."""
        with self._transaction() as conn:
            add_learner(conn, name, self._stamp())

    def record_exercise(self, row: ExerciseRow) -> None:
        """A lesson or a puzzle `row.learner` finished (and the learner, if new)."""
        with self._transaction() as conn:
            insert_exercise(conn, row, self._stamp())

    # -- reading ------------------------------------------------------------

    def learners(self) -> list[str]:
        """Every learner, the first one made first."""
        return [row[0] for row in self._query(LEARNERS)]

    def exercises(self, learner: str) -> list[ExerciseRow]:
        """What `learner` finished, oldest first."""
        return [exercise_from_row(row) for row in self._query(EXERCISES, (learner,))]

    def list_games(self) -> list[GameSummary]:
        """Every game, oldest first."""
        return self._summaries("ORDER BY g.id", ())

    def latest_games(self, limit: int, before: int | None = None) -> list[GameSummary]:
        """A page of the list, newest first: at most `limit` games with an id below `before`
        (the page's list of a board with 100,000 games reads a hundred at a time)."""
        where = "WHERE g.id < ? " if before is not None else ""
        return self._summaries(f"{where}ORDER BY g.id DESC LIMIT ?", (*(() if before is None else (before,)), limit))

    def count_games(self) -> int:
        return self._query("SELECT count(*) FROM games")[0][0]

    def _summaries(self, tail: str, args: tuple) -> list[GameSummary]:
        rows = self._query(
            "SELECT g.id, g.created, g.variant, g.players, g.sides, g.result, g.finished, g.mode, g.time_control,"
            " (SELECT count(*) FROM moves m WHERE m.game_id = g.id), g.tags FROM games g " + tail, args)
        return [summary_from_row(row) for row in rows]

    def last_unfinished(self) -> StoredGame | None:
        """The most recent game without a result, rebuilt; None when there is none."""
        rows = self._query("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1")
        return self.load_game(rows[0][0]) if rows else None

    def events(self, game_id: int) -> list[tuple[int, str]]:
        return [(row[0], row[1]) for row in
                self._query("SELECT time_ms, line FROM events WHERE game_id = ? ORDER BY id", (game_id,))]

    def arbiter_log(self, game_id: int) -> list[tuple[int | None, str, str, str]]:
        return [tuple(row) for row in self._query(
            "SELECT time_ms, time, action, detail FROM arbiter WHERE game_id = ? ORDER BY id", (game_id,))]

    def load_game(self, game_id: int) -> StoredGame:
        """The game rebuilt with the engine, every stored move checked against
        the rules and the stored position; StoreError if anything disagrees."""
        rows = self._query("SELECT variant, options, start_position, players, mode, time_control, clock_start,"
                           " clock, clock_state, tags, created, finished, result, notes FROM games WHERE id = ?",
                           (game_id,))
        if not rows:
            raise StoreError(f"{self.path}: there is no game {game_id}")
        drops = self.drops(game_id)
        moves = self._query("SELECT ply, side, text, start, path, captures, position, clock, time FROM moves"
                            " WHERE game_id = ? ORDER BY ply", (game_id,))
        return rebuild_game(game_id, rows[0], moves, drops, f"{self.path}: game {game_id}")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot read the game database: {exc}") from None

    def integrity_check(self) -> str:
        """'ok', or what SQLite found wrong (PRAGMA integrity_check)."""
        return "; ".join(row[0] for row in self._query("PRAGMA integrity_check"))
