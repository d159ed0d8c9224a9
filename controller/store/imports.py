"""A whole game stored at once (an imported record): its moves replayed
so each is stored with the position it gave, as a live game stores them, and
the players who went out kept in the arbiter log after their ply."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Callable, Mapping, Sequence

from damka.controller.store.rows import (DROP_ACTION, INSERT_MOVE, clock_list, drop_detail, insert_game, move_row,
                                         result_json)
from damka.engine.game import Game
from damka.engine.variant import Result


def insert_record(
    conn: sqlite3.Connection,
    game: Game,
    stamp: Callable[[], str],
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
    """A whole game into a new row, its moves, its players out and its end; its id.
    The details are those of `Store.add_records`."""
    last_clock = next((c for c in reversed(clocks or []) if c is not None), clock_start)
    game_id = insert_game(conn, game.variant, game.start, None, players, mode, time_control,
                          clock_start, None, tags, stamp())
    insert_replayed_moves(conn, game_id, game, texts=texts, clocks=clocks, drops=drops, stamp=stamp)
    final = result if result is not None else game.result
    conn.execute("UPDATE games SET clock = ?, finished = ?, result = ?, notes = ? WHERE id = ?",
                 (clock_list(last_clock), stamp() if finished else None,
                  result_json(final if finished else None),
                  json.dumps(dict(notes), sort_keys=True) if notes else None, game_id))
    return game_id


def insert_replayed_moves(conn: sqlite3.Connection, game_id: int, game: Game, *,
                          texts: Sequence[str | None] | None, clocks: Sequence[Sequence[int] | None] | None,
                          drops: Sequence[tuple[int, int]], stamp: Callable[[], str]) -> None:
    """Every move of `game` into game `game_id` (a new game: no row to
    replace), in one executemany; `drops`: (ply, side) players out."""
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
                             (game_id, None, stamp(), DROP_ACTION, drop_detail(side, ply, "imported")))

    players_out_after(0)
    at = stamp()
    rows = []  # speed: one executemany a game, no DELETE (the game is new)
    moves = game.moves
    for ply in range(1, game.ply + 1):
        text = texts[ply - 1] if texts and ply - 1 < len(texts) else None
        clock = clocks[ply - 1] if clocks and ply - 1 < len(clocks) else None
        before = replay.position
        replay.push_unchecked(moves[ply - 1])
        rows.append(move_row(game_id, variant, ply, moves[ply - 1], before, replay.position, text, clock, at))
        players_out_after(ply)
    conn.executemany(INSERT_MOVE, rows)
