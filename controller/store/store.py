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

Size: one class over one SQLite schema (`schema.py` holds the schema and
the connection); its reads and writes share the row formats.
"""

from __future__ import annotations

import json
import re
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from damka.controller.store.schema import StoreError, connect, rollback, sqlite_reason
from damka.engine import notation
from damka.engine.errors import DamkaError
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.pdn_tags import result_text as pdn_result_text
from damka.engine.variants import variant_class
from damka.engine.variant import Result, Variant

__all__ = [
    "GameSummary", "Store", "StoreError", "StoredGame", "StoredMove", "default_path", "move_text", "result_text",
]


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


def variant_options(variant: Variant) -> dict[str, Any]:
    """The find_variant options that rebuild `variant`: every option it declares
    that differs from the default (draw count, threefold, free capture, sides...)."""
    return variant.changed_options()


def move_text(variant: Variant, before: Any, move: Move) -> str:
    """The move as people write it (PDN style, `engine/notation.py`), from
    the position before it."""
    return notation.format_move(variant, before, move)


def result_text(variant_name: str, result: Result | None) -> str:
    """The result as `damka export` writes it in PDN (`2-0`, `0-2`, `1-1` for
    draughts, `1-0` american, the small points for multiwarcaby; `*`
    unfinished): one form per variant, the same everywhere (`pdn_tags.result_text`)."""
    try:
        factory = variant_class(variant_name)
    except DamkaError:
        # A name this version does not know: the plain points (only the class's
        # points scale is read, so the abstract base serves).
        factory = Variant  # type: ignore[type-abstract]
    return pdn_result_text(factory, result)


def _result_json(result: Result | None) -> str | None:
    if result is None:
        return None
    return json.dumps({"points": list(result.points), "places": list(result.places),
                       "reason": result.reason, "winner": result.winner})


def _result_from_json(text: str | None) -> Result | None:
    if not text:
        return None
    data = json.loads(text)
    return Result(tuple(data["points"]), tuple(data["places"]), data["reason"], data.get("winner"))


def _loads(text: str | None, default: Any = None) -> Any:
    return default if text is None else json.loads(text)


def _clock_list(clock_ms: Sequence[int] | None) -> str | None:
    return None if clock_ms is None else json.dumps([int(ms) for ms in clock_ms])


# Which imported records are stored already (a key per record, web/importer.py): the same file
# uploaded twice stores its games once. Made on the first keyed import (IF NOT EXISTS), like the outbox.
_IMPORTED = "CREATE TABLE IF NOT EXISTS imported (key TEXT PRIMARY KEY, game_id INTEGER NOT NULL)"

_INSERT_MOVE = ("INSERT INTO moves (game_id, ply, side, text, start, path, captures, position, clock, time)"
                " VALUES (?,?,?,?,?,?,?,?,?,?)")


def _move_row(game_id: int, variant: Variant, ply: int, move: Move, before: Any, after: Any, text: str | None,
              clock_ms: Sequence[int] | None, stamp: str) -> tuple[Any, ...]:
    """The `moves` row of move `ply`, played in `before`, giving `after`."""
    name = variant.geometry.name
    return (
        game_id,
        ply,
        variant.side_to_move(before),
        text if text is not None else move_text(variant, before, move),
        name(move.start),
        " ".join(name(sq) for sq in move.path),
        " ".join(name(sq) for sq in sorted(move.captures)),
        variant.format_position(after),
        _clock_list(clock_ms),
        stamp,
    )


@dataclass(frozen=True)
class GameSummary:
    """One line of `damka games`."""

    id: int
    created: str
    variant: str
    players: tuple[str, ...]
    moves: int
    result: str  # '*' while unfinished
    finished: bool
    mode: str
    time_control: str | None


@dataclass(frozen=True)
class StoredMove:
    ply: int
    side: int
    text: str
    move: Move
    position: str
    clock_ms: tuple[int, ...] | None
    time: str


@dataclass(frozen=True)
class StoredDrop:
    """A player out of play after ply `ply` (0-based side), as the arbiter log keeps it."""

    ply: int
    side: int
    reason: str


# The arbiter log row of a player going out: readable, and parsed back on load.
DROP_ACTION = "side out"
_DROP_DETAIL = re.compile(r"side (\d+) out after ply (\d+)(?:: (.*))?$")


def drop_detail(side: int, ply: int, reason: str) -> str:
    return f"side {side + 1} out after ply {ply}: {reason}"


def parse_drop(detail: str) -> StoredDrop | None:
    match = _DROP_DETAIL.match(detail)
    if match is None:
        return None
    return StoredDrop(int(match.group(2)), int(match.group(1)) - 1, match.group(3) or "")


@dataclass
class StoredGame:
    """A game read back: the engine's Game at its last committed move, and the clock."""

    id: int
    game: Game
    variant: str
    options: dict[str, Any]
    players: tuple[str, ...]
    mode: str
    time_control: str | None
    created: str
    finished: str | None
    result: Result | None
    clock_start: tuple[int, ...] | None
    clock_ms: tuple[int, ...] | None  # ms per side at the last save: where the clock resumes
    clock_state: Any
    moves: list[StoredMove] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    drops: list[StoredDrop] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)
    """What an imported record said beside its moves (comments, variations, NAGs: store/pdn.py)."""
    """Players who went out (3-4 player multiwarcaby: flag or resignation), re-applied on load."""

    @property
    def is_finished(self) -> bool:
        return self.finished is not None


StoreHook = Callable[[sqlite3.Connection, str, int, dict], None]


class Store:
    """The game database. One connection, used from one thread (the app loop)."""

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 now: Callable[[], datetime] = _utc_now, readonly: bool = False) -> None:
        """`readonly`: only reading is asked (`damka games`, `export`): the
        file must exist, and it is read even on a read-only card or a full disk."""
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._now = now
        self.readonly = readonly
        self._conn = connect(self.path, readonly=readonly)
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
            game_id = self._insert_game(conn, variant, start, options, players, mode, time_control,
                                        clock_ms, clock_state, tags, at)
            if self._hooks:
                self._notify(conn, "open", game_id, **self._game_row(conn, game_id))
            return game_id

    @staticmethod
    def _game_row(conn: sqlite3.Connection, game_id: int) -> dict[str, Any]:
        names = ("variant", "options", "start_position", "players", "mode", "time_control", "clock_start", "tags",
                 "created")
        row = conn.execute(f"SELECT {', '.join(names)} FROM games WHERE id = ?", (game_id,)).fetchone()
        return dict(zip(names, row))

    def _insert_game(self, conn: sqlite3.Connection, variant: Variant, start: Any,
                     options: Mapping[str, Any] | None, players: Sequence[str] | None, mode: str,
                     time_control: str | None, clock_ms: Sequence[int] | None, clock_state: Any,
                     tags: Mapping[str, str] | None, at: str | None = None) -> int:
        position = variant.start_position() if start is None else start
        names = list(players) if players else list(variant.sides)
        cursor = conn.execute(
            "INSERT INTO games (variant, options, start_position, sides, players, mode, time_control,"
            " clock_start, clock, clock_state, tags, created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                variant.name,
                json.dumps(dict(options) if options is not None else variant_options(variant), sort_keys=True),
                variant.format_position(position),
                json.dumps(list(variant.sides)),
                json.dumps(names),
                mode,
                time_control,
                _clock_list(clock_ms),
                _clock_list(clock_ms),
                None if clock_state is None else json.dumps(clock_state),
                json.dumps(dict(tags or {}), sort_keys=True),
                at or self._stamp(),
            ),
        )
        assert cursor.lastrowid is not None  # an INSERT always sets it
        return cursor.lastrowid

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
            if clock_ms is not None or clock_state is not None:
                conn.execute("UPDATE games SET clock = coalesce(?, clock), clock_state = coalesce(?, clock_state)"
                             " WHERE id = ?", (_clock_list(clock_ms),
                                               None if clock_state is None else json.dumps(clock_state), game_id))

    def _insert_move(self, conn: sqlite3.Connection, game_id: int, game: Game, ply: int, text: str | None,
                     clock_ms: Sequence[int] | None, at: str | None = None) -> None:
        conn.execute("DELETE FROM moves WHERE game_id = ? AND ply >= ?", (game_id, ply))
        positions = game.positions
        conn.execute(_INSERT_MOVE, _move_row(game_id, game.variant, ply, game.moves[ply - 1], positions[ply - 1],
                                             positions[ply], text, clock_ms, at or self.stamp()))

    def take_back(self, game_id: int, ply: int, *, clock_ms: Sequence[int] | None = None,
                  clock_state: Any = None) -> None:
        """Forget the moves after ply `ply` (the board took them back); the
        clock as the take-back left it (whose turn it is now), for a resume."""
        with self._transaction() as conn:
            conn.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))
            if clock_ms is not None or clock_state is not None:
                conn.execute("UPDATE games SET clock = coalesce(?, clock), clock_state = coalesce(?, clock_state)"
                             " WHERE id = ?", (_clock_list(clock_ms),
                                               None if clock_state is None else json.dumps(clock_state), game_id))
            self._notify(conn, "takeback", game_id, ply=ply)

    def save_clock(self, game_id: int, clock_ms: Sequence[int], clock_state: Any = None) -> None:
        """Checkpoint the running clock between moves (the app does it every
        few seconds), so a power cut costs at most that much thinking time."""
        with self._transaction() as conn:
            conn.execute("UPDATE games SET clock = ?, clock_state = coalesce(?, clock_state) WHERE id = ?",
                         (_clock_list(clock_ms), None if clock_state is None else json.dumps(clock_state), game_id))

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
                         (at or self._stamp(), _result_json(result), _clock_list(clock_ms), game_id))
            self._notify(conn, "finish", game_id, result=_result_json(result),
                         clock_ms=None if clock_ms is None else list(clock_ms))

    def add_record(self, game: Game, **details: Any) -> int:
        """Store a whole game at once (an imported record) in one transaction;
        `details` as for `add_records`."""
        return self.add_records([(game, details)])[0]

    def add_records(self, records: Iterable[tuple[Game, Mapping[str, Any]]],
                    on_stored: Callable[[int, Game, Mapping[str, Any]], None] | None = None) -> list[int]:
        """Store whole games (an imported file) all or nothing, in one transaction.

        `records` may be a generator reading a file game by game: each game is
        stored as it comes and then dropped (`on_stored(id, game, details)`
        sees it), so a large file is never held whole; an exception from it
        rolls everything back. Each record is a Game and its details: `texts`
        and `clocks` per move, `players`, `mode`, `time_control`,
        `clock_start`, `tags`, `result` (default: the game's own), `finished`
        (default True; False leaves it to be resumed on the board), `drops`
        ((ply, side) players out), `notes` (comments, variations, NAGs: store/pdn.py)."""
        ids = []
        with self._transaction() as conn:
            for game, details in records:
                ids.append(self._insert_record(conn, game, **details))
                if on_stored is not None:
                    on_stored(ids[-1], game, details)
        return ids

    def add_new_records(self, records: Iterable[tuple[str, Game, Mapping[str, Any]]],
                        on_stored: Callable[[int, Game, Mapping[str, Any]], None] | None = None,
                        ) -> tuple[list[int], int]:
        """Store the records whose key was never stored, in one transaction: (the new ids, how many
        were there already). A key names a record's content (and its place among equal ones), so
        importing the same file again adds nothing."""
        ids, known = [], 0
        with self._transaction() as conn:
            conn.execute(_IMPORTED)
            for key, game, details in records:
                if conn.execute("SELECT 1 FROM imported WHERE key = ?", (key,)).fetchone():
                    known += 1
                    continue
                ids.append(self._insert_record(conn, game, **details))
                conn.execute("INSERT INTO imported (key, game_id) VALUES (?, ?)", (key, ids[-1]))
                if on_stored is not None:
                    on_stored(ids[-1], game, details)
        return ids, known

    def _insert_record(
        self,
        conn: sqlite3.Connection,
        game: Game,
        *,
        texts: Sequence[str | None] | None = None,
        clocks: Sequence[Sequence[int] | None] | None = None,
        players: Sequence[str] | None = None,
        mode: str = "casual",
        time_control: str | None = None,
        clock_start: Sequence[int] | None = None,
        tags: Mapping[str, str] | None = None,
        result: Result | None = None,
        finished: bool = True,
        drops: Sequence[tuple[int, int]] = (),
        notes: Mapping[str, Any] | None = None,
    ) -> int:
        last_clock = next((c for c in reversed(clocks or []) if c is not None), clock_start)
        game_id = self._insert_game(conn, game.variant, game.start, None, players, mode, time_control,
                                    clock_start, None, tags)
        # Replayed so that each move is stored with the position it gave, as
        # the live game stores it: a player going out changes the position
        # only after the move of that ply was stored.
        variant = game.variant
        replay = Game(variant, game.start)

        def players_out_after(ply: int) -> None:
            for drop_ply, side in drops:
                if drop_ply == ply:
                    replay.amend(variant.drop_side(replay.position, side))  # type: ignore[attr-defined]
                    conn.execute("INSERT INTO arbiter (game_id, time_ms, time, action, detail) VALUES (?,?,?,?,?)",
                                 (game_id, None, self._stamp(), DROP_ACTION, drop_detail(side, ply, "imported")))

        players_out_after(0)
        stamp = self._stamp()
        rows = []  # speed: one executemany a game, no DELETE (the game is new)
        moves = game.moves
        for ply in range(1, game.ply + 1):
            text = texts[ply - 1] if texts and ply - 1 < len(texts) else None
            clock = clocks[ply - 1] if clocks and ply - 1 < len(clocks) else None
            before = replay.position
            replay.push_unchecked(moves[ply - 1])
            rows.append(_move_row(game_id, variant, ply, moves[ply - 1], before, replay.position, text, clock, stamp))
            players_out_after(ply)
        conn.executemany(_INSERT_MOVE, rows)
        final = result if result is not None else game.result
        conn.execute("UPDATE games SET clock = ?, finished = ?, result = ?, notes = ? WHERE id = ?",
                     (_clock_list(last_clock), self._stamp() if finished else None,
                      _result_json(final if finished else None),
                      json.dumps(dict(notes), sort_keys=True) if notes else None, game_id))
        return game_id

    # -- reading ------------------------------------------------------------

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
            " (SELECT count(*) FROM moves m WHERE m.game_id = g.id) FROM games g " + tail, args)
        return [
            GameSummary(
                id=row[0], created=row[1], variant=row[2], players=tuple(json.loads(row[3])),
                moves=row[9], result=result_text(row[2], _result_from_json(row[5])),
                finished=row[6] is not None, mode=row[7], time_control=row[8],
            )
            for row in rows
        ]

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

    # Long on purpose: a stored game rebuilt move by move, players going out applied in order.
    def load_game(self, game_id: int) -> StoredGame:
        """The game rebuilt with the engine, every stored move checked against
        the rules and the stored position; StoreError if anything disagrees."""
        from damka.engine.variants import find_variant

        rows = self._query("SELECT variant, options, start_position, players, mode, time_control, clock_start,"
                           " clock, clock_state, tags, created, finished, result, notes FROM games WHERE id = ?",
                           (game_id,))
        if not rows:
            raise StoreError(f"{self.path}: there is no game {game_id}")
        (name, options, start, players, mode, time_control, clock_start, clock, clock_state, tags, created,
         finished, result, notes) = rows[0]
        where = f"{self.path}: game {game_id}"
        try:
            variant = find_variant(name, **json.loads(options))
            game = Game(variant, variant.parse_position(start))
        except DamkaError as exc:
            raise StoreError(f"{where}: cannot rebuild it: {exc}") from None
        geometry = variant.geometry
        stored_moves: list[StoredMove] = []
        drops = self.drops(game_id)
        pending = list(drops)

        def apply_drops() -> None:
            # A player who went out after this ply: the position changes without a move.
            while pending and pending[0].ply <= game.ply:
                drop = pending.pop(0)
                if drop.ply != game.ply:
                    continue  # (after a later take-back: not in this line of play)
                try:
                    game.amend(variant.drop_side(game.position, drop.side))  # type: ignore[attr-defined]
                except (AttributeError, ValueError, DamkaError) as exc:
                    raise StoreError(f"{where}: cannot take side {drop.side + 1} out after ply {drop.ply}: {exc}") \
                        from None

        for ply, side, text, m_start, m_path, m_captures, position, m_clock, m_time in self._query(
                "SELECT ply, side, text, start, path, captures, position, clock, time FROM moves"
                " WHERE game_id = ? ORDER BY ply", (game_id,)):
            apply_drops()
            if ply != game.ply + 1:
                raise StoreError(f"{where}: move {game.ply + 1} is missing")
            try:
                move = Move(geometry.parse(m_start), tuple(geometry.parse(s) for s in m_path.split()),
                            frozenset(geometry.parse(s) for s in m_captures.split()))
                game.push(move)
            except DamkaError as exc:
                raise StoreError(f"{where}, move {ply} ({text}): not legal there: {exc}") from None
            if variant.format_position(game.position) != position:
                raise StoreError(f"{where}, move {ply} ({text}): the position after it differs from the saved one")
            clock_after = _loads(m_clock)
            stored_moves.append(StoredMove(ply, side, text, move, position,
                                           None if clock_after is None else tuple(clock_after), m_time))
        apply_drops()
        final = _result_from_json(result)
        if final is not None and game.result != final:
            game.declare(final)
        clock_now = _loads(clock)
        return StoredGame(
            id=game_id, game=game, variant=name, options=json.loads(options), players=tuple(json.loads(players)),
            mode=mode, time_control=time_control, created=created, finished=finished, result=final,
            clock_start=None if clock_start is None else tuple(json.loads(clock_start)),
            clock_ms=None if clock_now is None else tuple(clock_now), clock_state=_loads(clock_state),
            moves=stored_moves, tags=json.loads(tags), drops=drops, notes=_loads(notes, {}),
        )

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: cannot read the game database: {exc}") from None

    def integrity_check(self) -> str:
        """'ok', or what SQLite found wrong (PRAGMA integrity_check)."""
        return "; ".join(row[0] for row in self._query("PRAGMA integrity_check"))
