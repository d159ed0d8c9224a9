"""The hall's topic tree and its messages (docs/hall.md has the table).

    damka/<hall>/<board>/status   retained {"online": bool}; the board's last will says false
    damka/<hall>/<board>/state    retained: variant, players, position, clocks, scores, result
    damka/<hall>/<board>/game     QoS 1: a game opened, moves taken back, a player out
    damka/<hall>/<board>/move     QoS 1: one committed move
    damka/<hall>/<board>/result   QoS 1: the game's result
    damka/<hall>/<board>/clock    QoS 0: clock started, pressed, flag fell (the move carries the times too)
    damka/<hall>/<board>/cmd      the arbiter's commands to the board (only the arbiter may write it)

Every `game`/`move`/`result` message carries the board's game id and a
per-game sequence number (1, 2, ...): the hall applies each once, in order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypeGuard

ROOT = "damka"
NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
LOGGED = ("game", "move", "result")       # the outbox's topics: delivered once, in order
READ = ("status", "state", "game", "move", "result", "clock")   # what the hall reads (its account's ACL)
KIND_TOPIC = {"open": "game", "takeback": "game", "drop": "game", "move": "move", "finish": "result"}
MAX_PAYLOAD = 64 * 1024
ID_MAX = 2 ** 53          # game ids and seqs above this are refused (SQLite holds 2**63; JSON readers 2**53)
GAMES_CLAIMED = 50        # unconfirmed games a board's state names (the oldest), and the hall reads


class MessageError(ValueError):
    """A message the hall cannot use: one line saying what and where."""


def check_name(name: str, what: str) -> str:
    if not NAME.match(name):
        raise ValueError(f"{what} {name!r}: use 1-64 letters, digits, '-' or '_'")
    return name


def topic(hall: str, board: str, leaf: str) -> str:
    return f"{ROOT}/{hall}/{board}/{leaf}"


@dataclass(frozen=True)
class Address:
    hall: str
    board: str
    leaf: str


def parse_topic(text: str) -> Address | None:
    """`damka/<hall>/<board>/<leaf>` split; None for anything else."""
    parts = text.split("/")
    if len(parts) != 4 or parts[0] != ROOT or not all(NAME.match(p) for p in parts[1:]):
        return None
    return Address(parts[1], parts[2], parts[3])


def encode(payload: dict[str, Any]) -> str:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True)


def decode(raw: bytes, where: str) -> dict[str, Any]:
    """The JSON object of a message; MessageError for anything else."""
    if len(raw) > MAX_PAYLOAD:
        raise MessageError(f"{where}: message of {len(raw)} bytes, more than {MAX_PAYLOAD}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise MessageError(f"{where}: not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise MessageError(f"{where}: expected a JSON object, got {type(data).__name__}")
    return data


def is_id(value: object) -> TypeGuard[int]:
    """A game id or seq: an int from 1 to ID_MAX (never a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= ID_MAX


def game_claims(state: dict[str, Any]) -> dict[int, int]:
    """A board's state's games: game id -> last seq written (`games`, and its current `game`/`seq`);
    entries that are not ids are left out, at most GAMES_CLAIMED + 1."""
    claims: dict[int, int] = {}
    games = state.get("games")
    for key, seq in list(games.items())[:GAMES_CLAIMED] if isinstance(games, dict) else []:
        game = int(key) if isinstance(key, str) and key.isdecimal() and len(key) <= 16 else 0
        if is_id(game) and is_id(seq):
            claims[game] = seq
    current, seq = state.get("game"), state.get("seq")
    if is_id(current) and is_id(seq):
        claims[current] = max(seq, claims.get(current, 0))
    return claims


def field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """`data[key]` of the type asked; MessageError naming the key otherwise."""
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise MessageError(f"{where}: {key!r} missing or not {getattr(kind, '__name__', kind)}")
    if isinstance(value, int) and not -ID_MAX <= value <= ID_MAX:   # SQLite would raise OverflowError
        raise MessageError(f"{where}: {key!r} is out of range")
    return value
