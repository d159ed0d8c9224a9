"""The clock's memory of recent presses, for the arbiter's undo and a
take-back on the board: what every side had just before each accepted
press, and what the press that ended a turn added (increment, next stage)."""

from __future__ import annotations

UNDO_DEPTH = 200


class PressHistory:
    """The last `depth` presses, newest last, as clock snapshots."""

    def __init__(self, depth: int = UNDO_DEPTH) -> None:
        self._depth = depth
        self._entries: list[dict] = []

    def __bool__(self) -> bool:
        return bool(self._entries)

    def push(self, snapshot: dict) -> None:
        """The clock as it was just before a press it accepted."""
        self._entries.append(snapshot)
        del self._entries[:-self._depth]

    def ended_turn(self, bonus_ms: int) -> None:
        """The last press ended its turn and added `bonus_ms` to the mover's time."""
        self._entries[-1]["bonus_ms"] = bonus_ms

    def pop(self) -> dict | None:
        """The newest press, forgotten (the arbiter's undo)."""
        return self._entries.pop() if self._entries else None

    def pop_turn_of(self, side: int) -> dict | None:
        """The newest press if it ended a turn of `side` (forgotten then), else None and nothing changes."""
        if not self._entries:
            return None
        entry = self._entries[-1]
        if entry["active"] != side or "bonus_ms" not in entry:
            return None
        return self._entries.pop()
