"""The retention rule: a board keeps at most a set number of games in the hall (a tournament's
board plays some 10 a day; a board account that opens games without end must not fill the hall's
disk). Over it, the board's oldest game that was opened and never played (no move, no result) is
dropped for the new one; when every game of the board was played, the new one is refused."""

from __future__ import annotations

import sqlite3

from damka.hall.limits import OverLimit


def make_room(db: sqlite3.Connection, board: str, most: int) -> tuple[int, int | None]:
    """Room for one more game of `board` in the hall's database `db`: (its games, the game dropped
    or None when there was room); OverLimit when it holds `most` and none of them is empty."""
    count, = db.execute("SELECT count(*) FROM hall_games WHERE board = ? AND game_id > 0", (board,)).fetchone()
    if count < most:
        return count, None
    empty = db.execute(
        "SELECT h.game_id FROM hall_games h JOIN games g ON g.id = h.game_id WHERE h.board = ?"
        " AND g.finished IS NULL AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = h.game_id)"
        " ORDER BY h.game_id LIMIT 1", (board,)).fetchone()
    if empty is None:
        raise OverLimit(f"the board has {count} games in the hall, the most kept ({most}),"
                        " and none of them is an empty one to drop")
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("UPDATE hall_games SET game_id = 0 WHERE game_id = ?", empty)
        db.execute("DELETE FROM games WHERE id = ?", empty)
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return count, int(empty[0])
