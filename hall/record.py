"""The hall's record: every game of every board, each message applied once, in order.

Games live in an ordinary Damka store (so the hall's PDN is written by the
same `export_pdn` as the board's own export); next to them, `hall_games` maps
(board, board's game id) to the hall's game and the next sequence number
expected. A Store hook writes that number in the same transaction as the move,
so a hall killed at any moment applies each message exactly once when the
messages come again. A message ahead of the next expected is held until the
gap fills (and the board is asked to send again from the gap; what is held is
bounded per board, hall/held.py, as is every other table here); one behind is a
duplicate and ignored. A message that is malformed, out of turn or illegal is
counted against its board and skipped: it never reaches another board's game.
What one board account may make the hall do is bounded (hall/limits.py): a
message over its board's limits is refused (not applied, asked for again with
its gap), its game's tags are cut, and a board keeps at most GAMES_PER_BOARD
games here (the retention rule, hall/retention.py). Problems are logged at most one
line per board and kind every few seconds (damka/log_limit.py).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import re
import sqlite3
import time
from collections import OrderedDict
from pathlib import Path
from typing import Any, Callable

from damka.controller.store.schema import StoreError
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.controller.store.rows import result_from_json
from damka.engine.errors import DamkaError
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.safe_text import one_line
from damka.engine.variants import find_variant
from damka.hall import limits, retention, topics
from damka.hall.board_logs import BoardLogs
from damka.hall.held import Held
from damka.hall.schema import HALL_SCHEMA
from damka.hall.limits import AccountLimits, OverLimit, bounded_tags
from damka.hall.topics import MessageError, field

log = logging.getLogger("damka.hall")
RESEND_EVERY_S = 2.0     # ask a board again for a gap at most this often
GAPS = topics.GAMES_CLAIMED + 1   # games of one board with a gap followed up at once
GAMES_CACHED = 2048      # games kept replayed in memory (the rest are replayed from the store when needed)
PDNS_KEPT = 4096         # games' PDN text kept (a finished game's never changes; about 3 KB each)
GAMES_PER_BOARD = 300    # a board's games kept (a tournament's board plays some 10 a day): the retention rule
LOGGED_BYTES = 4096      # a move, take-back, drop or result message (an honest one is under 1 KB)
FIELD_CHARS = 200        # characters of a message's text fields (a move's text, a time, a reason, a clock)
LOG_EVERY_S = 5.0        # one line per board and kind of problem at most this often
GAME_KEY = re.compile(rb'"game":(\d{1,16})[,}]')   # a message's keys, as topics.encode writes them (a quote
SEQ_KEY = re.compile(rb'"seq":(\d{1,16})[,}]')     # inside a JSON string is always escaped: never a key)


def short(data: dict[str, Any], key: str, where: str, *, required: bool = True) -> Any:
    """A text field of a message, of at most FIELD_CHARS characters (None when missing and not required)."""
    if not required and data.get(key) is None:
        return None
    value = field(data, key, str, where)
    if len(value) > FIELD_CHARS:
        raise MessageError(f"{where}: {key!r} of {len(value):,} characters, more than {FIELD_CHARS}")
    return value


class HallRecord:
    """Apply messages with `apply(board, leaf, payload)`; read with `boards()`, `round_pdn()`, `results()`."""

    def __init__(self, path: Path, request: Callable[[str, int, int], None] = lambda b, g, s: None,
                 confirm: Callable[[str, int, int], None] = lambda b, g, s: None,
                 account_limits: AccountLimits | None = None) -> None:
        self.store = Store(path)
        self.db = sqlite3.connect(self.store.path, timeout=10.0, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA foreign_keys=ON")   # a game dropped (the retention rule) takes its moves along
        for statement in HALL_SCHEMA.split(";"):
            if statement.strip():
                self.db.execute(statement)
        self.store.add_hook(self._hook)
        self.request = request
        self.confirm = confirm
        self.games: OrderedDict[int, Game] = OrderedDict()   # the last used last, at most GAMES_CACHED
        self._pdns: OrderedDict[int, tuple[tuple[int, int], str]] = OrderedDict()   # game_id -> (version, PDN)
        self.held = Held()
        # board -> game -> [seq missing, since, asked at, last seq known to be missing]
        self._behind: dict[str, dict[int, list[float]]] = {}
        self._context: tuple[str, int, int] | None = None
        self.counts = {"applied": 0, "duplicate": 0, "held": 0, "bad": 0, "refused": 0, "dropped": 0}
        self.limits = account_limits or AccountLimits()
        self._logs = BoardLogs(log, LOG_EVERY_S, 4 * limits.BOARDS)
        self._unsaid: dict[str, int] = {}   # board -> refusals not yet written to its row

    def close(self) -> None:
        self.db.close()
        self.store.close()

    # -- messages ------------------------------------------------------------------------

    def apply(self, board: str, leaf: str, raw: bytes) -> str:
        """One message from `board`'s topic `leaf`; what became of it (applied, duplicate, held, bad, ...)."""
        where = topics.topic("*", board, leaf)
        if not self.limits.message(board):   # before any parse: a storm costs the hall a dict look-up a message
            if leaf in topics.LOGGED:
                self._note_refused(board, raw)
            return self._refuse(board, f"{where}: more than {self.limits.messages_per_minute:g} messages a minute")
        if leaf == "state" and len(raw) > limits.STATE_BYTES:
            return self._refuse(board, f"{where}: a state of {len(raw):,} bytes, more than {limits.STATE_BYTES:,}")
        try:
            data = topics.decode(raw, where)
            if leaf == "status":
                self._board(board, online=1 if data.get("online") is True else 0)
                return "status"
            if leaf == "state":
                self._board(board, state=topics.encode(data))
                self._check_behind(board, data)
                return "state"
            if leaf in topics.LOGGED:
                return self._logged(board, data, where, len(raw))
            return "ignored"
        except MessageError as exc:
            return self._bad(board, str(exc))

    def _logged(self, board: str, data: dict[str, Any], where: str, size: int) -> str:
        board_game, seq = field(data, "game", int, where), field(data, "seq", int, where)
        if not (topics.is_id(board_game) and topics.is_id(seq)):
            raise MessageError(f"{where}: game and seq must be whole numbers from 1 to {topics.ID_MAX}")
        key = (board, board_game)
        expected = self._next_seq(key)
        if seq < expected:
            self.counts["duplicate"] += 1
            return "duplicate"
        if seq > expected + limits.SEQ_AHEAD:
            self._ask(key, expected)
            return self._refuse(board, f"{where} game {board_game}: message {seq} is more than {limits.SEQ_AHEAD}"
                                       f" ahead of the game (the hall has up to {expected - 1})")
        if size > LOGGED_BYTES and data.get("kind") != "open":
            raise MessageError(f"{where} game {board_game} seq {seq}: {size:,} bytes, more than {LOGGED_BYTES:,}")
        if seq > expected:
            self.held.add(board, board_game, seq, data, size)   # (not held: asked for again with the gap)
            self.counts["held"] += 1
            self._ask(key, expected)
            return "held"
        outcome = self._apply_one(key, seq, data, where)
        if outcome == "refused":
            self._ask(key, seq)
            return outcome
        while (following := self.held.pop(board, board_game, seq := seq + 1)) is not None:
            self._apply_one(key, seq, following, where)
        return outcome

    def _apply_one(self, key: tuple[str, int], seq: int, data: dict[str, Any], where: str) -> str:
        board, board_game = key
        self._context = (board, board_game, seq)
        try:
            self._dispatch(key, data, f"{where} game {board_game} seq {seq}")
            self.counts["applied"] += 1
            return "applied"
        except OverLimit as exc:
            return self._refuse(board, f"{where} game {board_game}: {exc}")
        except (MessageError, DamkaError, StoreError, KeyError, TypeError, ValueError, OverflowError) as exc:
            self._skip(key, seq)
            return self._bad(board, str(exc) if isinstance(exc, MessageError) else f"{where} seq {seq}: {exc}")
        finally:
            self._context = None

    def _dispatch(self, key: tuple[str, int], data: dict[str, Any], where: str) -> None:
        kind = data.get("kind")
        if kind == "open":
            self._open(key, data, where)
            return
        game_id = self._game_id(key)
        if game_id is None:
            raise MessageError(f"{where}: {kind} before the game was opened")
        game = self._game(game_id)
        if kind == "move":
            self._move(game_id, game, data, where)
        elif kind == "takeback":
            ply = field(data, "ply", int, where)
            while game.ply > max(ply, 0):
                game.pop()
            self.store.take_back(game_id, ply)
        elif kind == "drop":
            ply, side = field(data, "ply", int, where), field(data, "side", int, where)
            game.amend(game.variant.drop_side(game.position, side))  # type: ignore[attr-defined]
            self.store.record_drop(game_id, ply, side, str(data.get("reason", ""))[:FIELD_CHARS],
                                   time_ms=data.get("time_ms"))
        elif kind == "finish":
            result = result_from_json(data.get("result"))
            if result is not None and game.result != result:
                game.declare(result)
            clock = data.get("clock_ms")
            self.store.finish(game_id, result, clock_ms=clock if isinstance(clock, list) else None)
            self.games.pop(game_id, None)   # over: not kept in memory (a later take-back replays it)
        else:
            raise MessageError(f"{where}: unknown kind {kind!r}")

    def _move(self, game_id: int, game: Game, data: dict[str, Any], where: str) -> None:
        ply = field(data, "ply", int, where)
        if not 1 <= ply <= game.ply + 1:
            raise MessageError(f"{where}: move {ply} after only {game.ply} moves")
        while game.ply >= ply:  # the board took moves back and played others: its record replaces them
            game.pop()
        geometry, variant = game.variant.geometry, game.variant
        if field(data, "side", int, where) != variant.side_to_move(game.position):
            raise MessageError(f"{where}: move {ply} by side {data['side'] + 1}, out of turn")
        move = Move(geometry.parse(field(data, "start", str, where)),
                    tuple(geometry.parse(s) for s in field(data, "path", str, where).split()),
                    frozenset(geometry.parse(s) for s in str(data.get("captures", "")).split()))
        game.push(move)
        if variant.format_position(game.position) != data.get("position"):
            game.pop()
            raise MessageError(f"{where}: move {ply}: the position after it differs from the board's")
        clock = data.get("clock")
        self.store.record_plies(game_id, game, [ply], texts=[short(data, "text", where)],
                                clock_ms=json.loads(clock) if clock else None, at=short(data, "time", where))

    def _open(self, key: tuple[str, int], data: dict[str, Any], where: str) -> None:
        """A game opened: within the board's opens a minute, its tags and names cut to the limits."""
        board = key[0]
        if self._game_id(key) is not None:
            raise MessageError(f"{where}: the game is already open")
        variant = find_variant(field(data, "variant", str, where), **json.loads(field(data, "options", str, where)))
        start = variant.parse_position(field(data, "start_position", str, where))
        players = json.loads(field(data, "players", str, where))
        if not isinstance(players, list):
            raise MessageError(f"{where}: 'players' is not a list")
        tags, cut = bounded_tags(json.loads(data.get("tags") or "{}"))
        if not self.limits.open(board):
            raise OverLimit(f"more than {self.limits.opens_per_minute:g} games opened a minute")
        self._make_room(board, where)
        if cut:
            self._say(board, "tags", f"{where}: {'; '.join(cut[:3])}")
        clock = data.get("clock_start")
        self.store.new_game(variant, start=start, options=json.loads(data["options"]),
                            players=[one_line(str(p))[:limits.PLAYER_NAME] for p in players[:len(variant.sides)]],
                            mode=str(data.get("mode"))[:FIELD_CHARS], time_control=short(data, "time_control", where,
                                                                                         required=False),
                            clock_ms=json.loads(clock) if clock else None, tags=tags, at=short(data, "created", where))

    def _note_refused(self, board: str, raw: bytes) -> None:
        """A logged message refused unread: its game's gap is noted (from its "game" and "seq", found without
        parsing it), so `tick` asks the board for it again once its bucket has room; at most GAPS games a board."""
        game, seq = GAME_KEY.search(raw), SEQ_KEY.search(raw)
        if game and seq and topics.is_id(number := int(game.group(1))) and topics.is_id(int(seq.group(1))):
            expected = self._next_seq((board, number))
            if int(seq.group(1)) >= expected:
                self._ask((board, number), expected, int(seq.group(1)))

    def _make_room(self, board: str, where: str) -> None:
        """The retention rule (hall/retention.py): the board's oldest game never played dropped for a new one."""
        count, dropped = retention.make_room(self.db, board, GAMES_PER_BOARD)
        if dropped is None:
            return
        self.games.pop(dropped, None)
        self._pdns.pop(dropped, None)
        self.counts["dropped"] += 1
        self._say(board, "dropped", f"{where}: {count} games kept; the oldest never played dropped for the new one")

    # -- bookkeeping -------------------------------------------------------------------------

    def _hook(self, conn: sqlite3.Connection, kind: str, game_id: int, details: dict[str, Any]) -> None:
        if self._context is None:
            return
        board, board_game, seq = self._context
        conn.execute("INSERT INTO hall_games (board, board_game, game_id, next_seq) VALUES (?,?,?,?)"
                     " ON CONFLICT (board, board_game) DO UPDATE SET next_seq = excluded.next_seq",
                     (board, board_game, game_id, seq + 1))

    def _skip(self, key: tuple[str, int], seq: int) -> None:
        """A bad message is passed over (its sequence number counts), so the game does not stall behind it."""
        game_id = self._game_id(key)
        self.db.execute("INSERT INTO hall_games (board, board_game, game_id, next_seq) VALUES (?,?,?,?)"
                        " ON CONFLICT (board, board_game) DO UPDATE SET next_seq = excluded.next_seq",
                        (key[0], key[1], game_id or 0, seq + 1))
        if game_id:
            self.games.pop(game_id, None)  # rebuilt from the store: a half-applied move is not kept

    def _bad(self, board: str, problem: str) -> str:
        self.counts["bad"] += 1
        self._say(board, "bad", problem)
        self._board(board, problem=problem[:300])
        self.db.execute("UPDATE hall_boards SET bad = bad + 1 WHERE board = ?", (board,))
        return "bad"

    def _refuse(self, board: str, problem: str) -> str:
        """A message over its board's limits: counted; the board's row (its flag, its count of problems) is
        written only when the line is logged, so a storm costs no database write a message."""
        self.counts["refused"] += 1
        self._unsaid[board] = self._unsaid.get(board, 0) + 1
        if self._say(board, "refused", f"refused: {problem}"):
            self._board(board, problem=f"refused: {problem}"[:300])
            self.db.execute("UPDATE hall_boards SET bad = bad + ? WHERE board = ?", (self._unsaid.pop(board), board))
        return "refused"

    def _say(self, board: str, kind: str, line: str) -> bool:
        return self._logs.say(board, kind, line)

    def _board(self, board: str, **values: Any) -> None:
        self.db.execute("INSERT OR IGNORE INTO hall_boards (board) VALUES (?)", (board,))
        for name, value in values.items():
            self.db.execute(f"UPDATE hall_boards SET {name} = ? WHERE board = ?", (value, board))

    def _next_seq(self, key: tuple[str, int]) -> int:
        row = self.db.execute("SELECT next_seq FROM hall_games WHERE board = ? AND board_game = ?", key).fetchone()
        return row[0] if row else 1

    def _game_id(self, key: tuple[str, int]) -> int | None:
        row = self.db.execute("SELECT game_id FROM hall_games WHERE board = ? AND board_game = ?", key).fetchone()
        return row[0] if row and row[0] else None

    def _game(self, game_id: int) -> Game:
        if game_id not in self.games:
            self.games[game_id] = self.store.load_game(game_id).game
            while len(self.games) > GAMES_CACHED:
                self.games.popitem(last=False)
        self.games.move_to_end(game_id)
        return self.games[game_id]

    def _ask(self, key: tuple[str, int], from_seq: int, upto: int = 0) -> None:
        """Note a gap: `tick` asks the board to send again if it is still there after RESEND_EVERY_S
        (most gaps fill on their own: messages re-sent after a reconnect come slightly out of order).
        `upto`: a later message known to be missing too (refused unread), so the gap is followed until then.
        At most GAPS games of a board at once: the others are noted again by its next state or message."""
        gaps = self._behind.setdefault(key[0], {})
        if key[1] in gaps or len(gaps) < GAPS:
            gap = gaps.setdefault(key[1], [from_seq, time.monotonic(), -RESEND_EVERY_S, from_seq])
            gap[3] = max(gap[3], upto)

    def tick(self) -> None:
        """Ask the boards for what is still missing (called about once a second)."""
        now = time.monotonic()
        for board, gaps in list(self._behind.items()):
            for game, gap in list(gaps.items()):
                from_seq, since, asked, upto = gap
                expected = self._next_seq((board, game))
                if expected > upto:
                    del gaps[game]
                    self.confirm(board, game, expected - 1)  # the gap is filled: the board may rest those rows
                elif expected > from_seq:
                    gap[0], gap[1] = expected, now   # partly filled: the rest is given time to come
                elif now - since >= RESEND_EVERY_S and now - asked >= RESEND_EVERY_S:
                    gap[2] = now
                    self.request(board, game, int(expected))
            if not gaps:
                del self._behind[board]

    def _check_behind(self, board: str, state: dict[str, Any]) -> None:
        """Every game the board's state says it has (its current one and each the hall has not confirmed):
        ask for what the hall lacks, confirm what it has in full. Retained, the state comes again after
        each of the hall's reconnects, so a stretch the broker acknowledged but never delivered is asked for."""
        claims = topics.game_claims(state)
        for game, seq in claims.items():
            expected = self._next_seq((board, game))
            if seq >= expected:
                self._ask((board, game), expected)
            else:
                self.confirm(board, game, seq)

    # -- reading ------------------------------------------------------------------------------

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Read the hall's database (the page's views)."""
        return self.db.execute(sql, params).fetchall()

    def game_keys(self) -> list[tuple[str, int, int]]:
        """(board, board's game id, hall game id) of every opened game, by board then game."""
        return self.db.execute("SELECT board, board_game, game_id FROM hall_games WHERE game_id > 0"
                               " ORDER BY board, board_game").fetchall()

    def game_pdn(self, board_game: int, game_id: int) -> str:
        """The game as its board exports it (the board's own game id in the Event tag). Made again only
        when the game changed (its next seq): a broadcast polling the round's PDN every few seconds
        replays no game twice (a 20-board round took 1.3 s of CPU a poll, under the hall's lock)."""
        row = self.db.execute("SELECT next_seq FROM hall_games WHERE game_id = ?", (game_id,)).fetchone()
        version = (board_game, row[0] if row else -1)
        cached = self._pdns.get(game_id)
        if cached is not None and cached[0] == version:
            self._pdns.move_to_end(game_id)
            return cached[1]
        text = export_pdn(dataclasses.replace(self.store.load_game(game_id), id=board_game))
        self._pdns[game_id] = (version, text)
        self._pdns.move_to_end(game_id)
        while len(self._pdns) > PDNS_KEPT:
            self._pdns.popitem(last=False)
        return text

    def boards(self) -> list[dict[str, Any]]:
        rows = self.db.execute("SELECT board, online, state, bad, problem FROM hall_boards ORDER BY board").fetchall()
        return [{"board": b, "online": bool(o), "state": json.loads(s), "bad": bad, "problem": p}
                for b, o, s, bad, p in rows]
