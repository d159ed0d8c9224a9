"""What the hall page, the live PDN and the CSV show, read from the hall's record (under its lock)."""

from __future__ import annotations

import csv
import io
import json
import time
from typing import Any

from damka.controller.store.rows import result_from_json, result_text
from damka.engine.safe_text import one_line
from damka.hall import live
from damka.hall.record import HallRecord
from damka.web.state import result_data   # the board page's result wording


def games(record: HallRecord, board_name: str | None = None) -> list[dict[str, Any]]:
    """Every game of the hall (of one board when named): board, ids, variant, players, moves, result."""
    found = []
    for board, board_game, game_id in record.game_keys():
        if board_name is not None and board != board_name:
            continue
        row = record.query("SELECT variant, players, result, finished, tags FROM games WHERE id = ?",
                                  (game_id,))[0]
        moves = record.query("SELECT count(*) FROM moves WHERE game_id = ?", (game_id,))[0][0]
        players, result = [one_line(str(p)) for p in json.loads(row[1])], result_from_json(row[2])
        found.append({"board": board, "game": board_game, "hall_game": game_id, "variant": row[0],
                      "players": players, "moves": moves, "finished": row[3] is not None,
                      "result": result_text(row[0], result) if row[3] else "*",
                      "points": list(result.points) if result else None,
                      "round": one_line(str(json.loads(row[4]).get("Round", ""))),
                      "title": result_data(result, players)})
    return found


def standings(all_games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Players by points over the finished games, then by name."""
    table: dict[str, dict[str, Any]] = {}
    for game in all_games:
        for side, player in enumerate(game["players"]):
            entry = table.setdefault(player, {"player": player, "points": 0.0, "games": 0})
            if game["finished"] and game["points"]:
                entry["points"] += game["points"][side]
                entry["games"] += 1
    return sorted(table.values(), key=lambda e: (-e["points"], e["player"]))


def hall_data(record: HallRecord) -> dict[str, Any]:
    """The hall page's JSON: boards (online, flagged), their current games drawn live (`live`),
    standings, counters, and the hall's time (the page runs the clock to move from it)."""
    all_games = games(record)
    latest = {g["board"]: g for g in all_games}
    boards = [board_entry(record, board, latest.get(board["board"])) for board in record.boards()]
    table = [{**entry, "player": live.cut(entry["player"], live.NAME_MAX)} for entry in standings(all_games)]
    return {"boards": boards, "standings": table, "counts": dict(record.counts),
            "now": int(time.time() * 1000)}


def board_entry(record: HallRecord, board: dict[str, Any], game: dict[str, Any] | None) -> dict[str, Any]:
    """One board of the page: its row, flags, current game (`game`) and that game drawn (`live`)."""
    flags = (["offline"] if not board["online"] else []) + (["problem"] if board["bad"] else [])
    drawn = live.live_game(record, game["hall_game"], board["online"]) if game else None
    return {**board, "state": one_line_all(board["state"]), "problem": one_line(board["problem"]), "game": game,
            "live": drawn, "flags": flags, "flag": " ".join(flags)}


def one_line_all(value: Any) -> Any:
    """A board's JSON (its retained state) with every text on one line (engine/safe_text.py), keys too."""
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, list):
        return [one_line_all(item) for item in value]
    if isinstance(value, dict):
        return {one_line(str(key)): one_line_all(item) for key, item in value.items()}
    return value


def board_data(record: HallRecord, name: str) -> dict[str, Any] | None:
    """The one-board page's JSON: the board as on the hall page, and its current game's moves."""
    rows = [b for b in record.boards() if b["board"] == name]
    if not rows:
        return None
    current = [g for g in games(record, name)][-1:]
    board = board_entry(record, rows[0], current[0] if current else None)
    board["moves"] = live.moves(record, current[0]["hall_game"]) if current else []
    return {"board": board, "now": int(time.time() * 1000)}


def round_keys(record: HallRecord, round_name: str | None = None) -> list[tuple[str, int, int]]:
    """(board, board's game id, hall game id) of every game of the round (all games when None)."""
    if round_name is None:
        return record.game_keys()
    return [key for key in record.game_keys()
            if json.loads(record.query("SELECT tags FROM games WHERE id = ?", (key[2],))[0][0]).get("Round", "")
            == round_name]


def round_pdn(record: HallRecord, round_name: str | None = None) -> str:
    """Every game of the round (all games when None), as each board exports it, one after another."""
    return "\n".join(record.game_pdn(board_game, game_id) for _, board_game, game_id in round_keys(record, round_name))


def results_csv(record: HallRecord) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["round", "board", "game", "variant", "players", "result", "moves"])
    for g in games(record):
        writer.writerow([g["round"], g["board"], g["game"], g["variant"], " - ".join(g["players"]), g["result"],
                         g["moves"]])
    return out.getvalue()
