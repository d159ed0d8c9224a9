"""The hall's own tables, beside the games of its Damka store: which hall game a board's game is
(and the next message expected of it), and each board's row (online, its last retained state, its
count of bad messages and the last of them)."""

HALL_SCHEMA = """
CREATE TABLE IF NOT EXISTS hall_games (
    board      TEXT NOT NULL,
    board_game INTEGER NOT NULL,
    game_id    INTEGER NOT NULL,          -- games.id in this (the hall's) store
    next_seq   INTEGER NOT NULL,
    PRIMARY KEY (board, board_game)
);
CREATE INDEX IF NOT EXISTS hall_games_game ON hall_games (game_id);
CREATE TABLE IF NOT EXISTS hall_boards (
    board    TEXT PRIMARY KEY,
    online   INTEGER NOT NULL DEFAULT 0,
    state    TEXT NOT NULL DEFAULT '{}',  -- the board's last retained state
    bad      INTEGER NOT NULL DEFAULT 0,  -- malformed or out-of-turn messages
    problem  TEXT NOT NULL DEFAULT ''     -- the last of them, in one line
)
"""
