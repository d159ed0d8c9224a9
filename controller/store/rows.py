"""The store's rows and what it gives back: how a move, a result, clock
times and a player going out are written in the tables (`schema.py`), and
the records read from them (`GameSummary`, `StoredGame`, ...)."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from damka.engine import notation
from damka.engine.errors import DamkaError
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.pdn_tags import result_text as pdn_result_text
from damka.engine.variant import Result, Variant
from damka.engine.variants import variant_class


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


def result_json(result: Result | None) -> str | None:
    if result is None:
        return None
    return json.dumps({"points": list(result.points), "places": list(result.places),
                       "reason": result.reason, "winner": result.winner})


def result_from_json(text: str | None) -> Result | None:
    if not text:
        return None
    data = json.loads(text)
    return Result(tuple(data["points"]), tuple(data["places"]), data["reason"], data.get("winner"))


def json_or(text: str | None, default: Any = None) -> Any:
    """A JSON column's value; `default` for NULL."""
    return default if text is None else json.loads(text)


def clock_list(clock_ms: Sequence[int] | None) -> str | None:
    return None if clock_ms is None else json.dumps([int(ms) for ms in clock_ms])


# Which imported records are stored already (a key per record, web/importer.py): the same file
# uploaded twice stores its games once. Made on the first keyed import (IF NOT EXISTS), like the outbox.
IMPORTED = "CREATE TABLE IF NOT EXISTS imported (key TEXT PRIMARY KEY, game_id INTEGER NOT NULL)"

INSERT_MOVE = ("INSERT INTO moves (game_id, ply, side, text, start, path, captures, position, clock, time)"
                " VALUES (?,?,?,?,?,?,?,?,?,?)")


def state_json(clock_state: Any) -> str | None:
    """The clock's snapshot as its column keeps it (NULL: none)."""
    return None if clock_state is None else json.dumps(clock_state)


def move_row(game_id: int, variant: Variant, ply: int, move: Move, before: Any, after: Any, text: str | None,
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
        clock_list(clock_ms),
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
    played: str = ""  # the day it was played, "2009-04-08", when its record says (an import's Date tag)

    @property
    def date(self) -> str:
        """When the game was played as a list shows it: the record's day, else when it was stored here."""
        return self.played or self.created[:16].replace("T", " ")


_PDN_DATE = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")


def played_on(tags_json: str | None) -> str:
    """The day a record's Date tag gives in full ("2009.04.08" -> "2009-04-08"); "" for none, a part
    unknown ("2009.??.??") or tags that do not read."""
    try:
        tags = json.loads(tags_json or "{}")
    except ValueError:
        return ""
    date = tags.get("Date") if isinstance(tags, dict) else None
    match = _PDN_DATE.fullmatch(date.strip()) if isinstance(date, str) else None
    return "-".join(match.groups()) if match else ""


def summary_from_row(row: Sequence[Any]) -> GameSummary:
    """A line of the list from (id, created, variant, players, sides, result, finished, mode, time_control, moves,
    tags)."""
    return GameSummary(id=row[0], created=row[1], variant=row[2], players=tuple(json.loads(row[3])),
                       moves=row[9], result=result_text(row[2], result_from_json(row[5])),
                       finished=row[6] is not None, mode=row[7], time_control=row[8], played=played_on(row[10]))


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


def insert_game(conn: sqlite3.Connection, variant: Variant, start: Any,
                options: Mapping[str, Any] | None, players: Sequence[str] | None, mode: str,
                time_control: str | None, clock_ms: Sequence[int] | None, clock_state: Any,
                tags: Mapping[str, str] | None, at: str) -> int:
    """A new `games` row (`start` None: the variant's start; `players` None: the side names); its id."""
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
            clock_list(clock_ms),
            clock_list(clock_ms),
            state_json(clock_state),
            json.dumps(dict(tags or {}), sort_keys=True),
            at,
        ),
    )
    assert cursor.lastrowid is not None  # an INSERT always sets it
    return cursor.lastrowid


def keep_clock(conn: sqlite3.Connection, game_id: int, clock_ms: Sequence[int] | None, clock_state: Any) -> None:
    """The clock where a resume takes it up (either part None: the stored one stays)."""
    if clock_ms is not None or clock_state is not None:
        conn.execute("UPDATE games SET clock = coalesce(?, clock), clock_state = coalesce(?, clock_state)"
                     " WHERE id = ?", (clock_list(clock_ms), state_json(clock_state), game_id))
