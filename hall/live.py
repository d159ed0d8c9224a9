"""What the hall page draws of a board's current game, read from the hall's record (under its lock).

The position comes from the last stored move (or the start), the squares from
the engine's variant (`web.state.picture`, the board page's own drawing data),
the last move lit in the LEDs' last-move colour, the players in their side
colours, the clocks and the result. Everything a board sends is untrusted:
texts are cut to a bound here, and the page puts them in as text, never HTML.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from damka.controller.store.rows import result_from_json, result_text
from damka.controller.app.views import side_colour
from damka.engine.safe_text import one_line
from damka.engine.variant import Variant
from damka.engine.variants import find_variant
from damka.hall.record import HallRecord
from damka.hardware.interfaces import Role
from damka.web.state import hex_colour, picture, result_data

NAME_MAX = 40        # characters of a player's name shown
TEXT_MAX = 80        # characters of a move or a reason shown


def cut(text: Any, limit: int) -> str:
    """`text` as a string of at most `limit` characters (an ellipsis says it was cut), on one line, without
    control characters or direction overrides (engine/safe_text.py)."""
    text = one_line(str(text))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def epoch_ms(iso: str | None) -> int | None:
    """An ISO 8601 time of the store as milliseconds since 1970 (None if unreadable)."""
    try:
        return int(datetime.fromisoformat(str(iso).replace("Z", "+00:00")).timestamp() * 1000)
    except ValueError:
        return None


def live_game(record: HallRecord, game_id: int, online: bool = True) -> dict[str, Any]:
    """The page's picture of one game: board, players, clocks, result, move count and last move."""
    (name, options, start, players_json, clock, clock_start, result_json, finished), = record.query(
        "SELECT variant, options, start_position, players, clock, clock_start, result, finished"
        " FROM games WHERE id = ?", (game_id,))
    last = record.query("SELECT ply, text, start, path, position, clock, time FROM moves WHERE game_id = ?"
                        " ORDER BY ply DESC LIMIT 1", (game_id,))
    variant = find_variant(name, **json.loads(options))
    position = variant.parse_position(last[0][4] if last else start)
    ply, text, frame, moved_at = 0, "", {}, None
    if last:
        ply, text, from_square, path, _, move_clock, when = last[0]
        frame = {square: Role.LAST_MOVE.value for square in [from_square, *path.split()]}
        moved_at, clock = epoch_ms(when), clock or move_clock
    clock_ms = json.loads(clock or clock_start or "null")
    result = result_from_json(result_json) if finished else None
    names = [cut(p, NAME_MAX) for p in json.loads(players_json)]
    names += list(variant.sides[len(names):])
    scores = variant.scores(position) if variant.shows_scores else None
    to_move = None if finished else variant.side_to_move(position)
    sides = [{"name": names[i], "side": side, "colour": hex_colour(side_colour(side, i)),
              "score": scores[i] if scores else None, "to_move": i == to_move,
              "ms": clock_ms[i] if isinstance(clock_ms, list) and i < len(clock_ms) else None}
             for i, side in enumerate(variant.sides)]
    title = result_data(result, names)
    return {"variant": variant.name, "title": variant.title, "ply": ply, "move": move_number(variant, ply),
            "last": cut(text, TEXT_MAX),
            "board": picture(variant, position, frame), "sides": sides,
            "running": to_move if online and ply > 0 and clock_ms else None, "moved_at": moved_at,
            "result": result_text(name, result) if result else "*",
            "result_title": title["title"] if title else "", "reason": cut(result.reason, TEXT_MAX) if result else ""}


def move_number(variant: Variant, ply: int) -> int:
    """The number of the move `ply` (1 the first) as the board's screen counts it: a move of every side
    (two moves a turn in multiwarcaby) is one number, so black's second move is move 2, not 4 (0: none)."""
    return ((ply - 1) // max(1, variant.moves_per_turn)) // max(1, len(variant.sides)) + 1 if ply > 0 else 0


def moves(record: HallRecord, game_id: int) -> list[dict[str, Any]]:
    """The game's moves (ply, side, text) for the one-board page."""
    return [{"ply": ply, "side": side, "text": cut(text, TEXT_MAX)} for ply, side, text in
            record.query("SELECT ply, side, text FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))]
