"""Messages the hall holds because they came ahead of a gap, bounded per board.

One board's messages can never fill the hall's memory: per board at most
GAMES games, COUNT messages and BYTES bytes of payload are held. A message
not held is not lost: the board keeps every message until the hall confirms
it, and sends it again when the hall asks for the gap (hall/record.py).
"""

from __future__ import annotations

from typing import Any

GAMES = 8                  # games of one board with messages held
COUNT = 2000               # messages held for one board
BYTES = 4 * 1024 * 1024    # payload bytes held for one board


class Held:
    """`add` a message ahead of its gap, `pop` it once the gap is filled, `forget` a game."""

    def __init__(self) -> None:
        self._boards: dict[str, dict[int, dict[int, tuple[dict[str, Any], int]]]] = {}
        self._bytes: dict[str, int] = {}

    def add(self, board: str, game: int, seq: int, data: dict[str, Any], size: int) -> bool:
        """Hold `data` (`size` bytes on the wire) if the board's share allows; whether it was held."""
        games = self._boards.setdefault(board, {})
        messages = games.get(game)
        full = (messages is None and len(games) >= GAMES or self.count(board) >= COUNT
                or self._bytes.get(board, 0) + size > BYTES)
        if full or messages is not None and seq in messages:
            if not games:
                del self._boards[board]
            return False
        games.setdefault(game, {})[seq] = (data, size)
        self._bytes[board] = self._bytes.get(board, 0) + size
        return True

    def pop(self, board: str, game: int, seq: int) -> dict[str, Any] | None:
        """The message held for `seq`, taken out (None if none)."""
        messages = self._boards.get(board, {}).get(game)
        if not messages or seq not in messages:
            return None
        data, size = messages.pop(seq)
        self._bytes[board] -= size
        if not messages:
            self.forget(board, game)
        return data

    def forget(self, board: str, game: int) -> None:
        """Drop whatever is held for one game."""
        games = self._boards.get(board, {})
        for _, size in games.pop(game, {}).values():
            self._bytes[board] -= size
        if board in self._boards and not games:
            del self._boards[board], self._bytes[board]

    def count(self, board: str) -> int:
        return sum(len(messages) for messages in self._boards.get(board, {}).values())

    def size(self, board: str) -> int:
        """Payload bytes held for `board`."""
        return self._bytes.get(board, 0)
