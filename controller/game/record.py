"""The game on the board and its record: one job, kept apart from the turn flow.

It holds the engine's `Game`, the moves as committed (PDN text, time, turn
number, clock), the moves taken back that the board may still put back
(a take-back is never final until a new move is made), and the floor below
which no take-back goes (a player went out there). The session decides
*when* a move counts; this decides what the record then says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from damka.controller.board.tracker import Tracker
from damka.engine.errors import IllegalMoveError
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.notation import format_move, square_name
from damka.engine.variant import Position, Variant

GOING_OUT = "a player going out"


@dataclass(frozen=True)
class CommittedMove:
    ply: int                 # 1-based ply of this move in the game
    turn: int                # 1-based turn number (a multiwarcaby turn has two plies)
    side: int
    side_name: str
    move: Move
    text: str                # PDN text
    captures: tuple[str, ...]
    time_ms: int
    clock_ms: tuple[int, ...] | None = None
    """Main time left per side just after the press that ended the turn (the
    turn's last move only; None without a countdown clock)."""

# One committed move as the events tell it: the record, the position after it and the scores after it.
Entry = tuple[CommittedMove, str, tuple[int, ...]]


class GameRecord:
    def __init__(self, variant: Variant, tracker: Tracker, position: Position | None = None) -> None:
        self.variant = variant
        self.tracker = tracker
        self.game = Game(variant, position)
        self.committed: list[CommittedMove] = []
        self.redo: list[Move] = []         # moves taken back, in order, until a new move is made
        self.floor_ply = 0                 # no take-back to before this ply
        self.floor_reason = GOING_OUT      # what happened there, for the screen
        self.last: tuple[Move, ...] = ()   # the turn just committed (the LAST_MOVE LEDs)
        self._turn_number = 0

    def reset(self, game: Game, committed: list[CommittedMove], *, floor_ply: int = 0) -> None:
        """A saved game (a resume) or a fresh one (a new game)."""
        self.game = game
        self.committed = committed
        self.redo = []
        self.floor_ply = floor_ply
        self.floor_reason = GOING_OUT
        self.last = game.moves[-1:]
        self._turn_number = max((c.turn for c in committed), default=0)

    def commit(self, moves: tuple[Move, ...], now: int) -> list[Entry]:
        """A turn committed: the taken-back moves stay restorable only if it replays them.

        All or nothing: a move after the end of the game (IllegalMoveError
        from the game) leaves the record as it was."""
        entries: list[Entry] = []
        try:
            for move in moves:
                entries.append(self._push(move, now))
        except IllegalMoveError:
            for _ in entries:
                self.game.pop()
                self.committed.pop()
            self._turn_number = max((c.turn for c in self.committed), default=0)
            raise
        if tuple(self.redo[:len(moves)]) == moves:
            del self.redo[:len(moves)]
        else:
            self.redo = []
        self.last = moves
        return entries

    def restore(self, count: int, now: int) -> list[Entry]:
        """Put back the first `count` taken-back moves (the board shows them replayed)."""
        moves, self.redo = self.redo[:count], self.redo[count:]
        entries = [self._push(move, now) for move in moves]
        self.last = (moves[-1],)
        return entries

    def _push(self, move: Move, now: int) -> Entry:
        position = self.game.position
        # The legal moves are indexed already (speed: notation would generate them again).
        text = format_move(self.variant, position, move, self.tracker.index(position).moves)
        mover = self.variant.side_to_move(position)
        if self.variant.move_in_turn(position) == 0:
            self._turn_number += 1
        self.game.push_unchecked(move)
        captures = tuple(square_name(self.variant, sq) for sq in sorted(move.captures))
        record = CommittedMove(self.game.ply, self._turn_number, mover, self.variant.sides[mover], move, text,
                               captures, now)
        self.committed.append(record)
        return record, self.variant.format_position(self.game.position), tuple(self.game.scores)

    def stamp_clock(self, clock_ms: tuple[int, ...]) -> None:
        """The clock's times after the press that ended the turn, on its last move."""
        if self.committed:
            self.committed[-1] = replace(self.committed[-1], clock_ms=clock_ms)

    def can_take_back(self, plies: int) -> bool:
        return self.game.ply - plies >= self.floor_ply

    def take_back(self, plies: int) -> int:
        """Undo `plies` moves (kept restorable); how many were undone."""
        undone = [self.game.pop() for _ in range(plies)]
        self.redo = undone[::-1] + self.redo
        del self.committed[len(self.committed) - plies:]
        self._turn_number = len({c.turn for c in self.committed}) if self.committed else 0
        self.last = ()
        return len(undone)

    def restorable(self, occupancy: int) -> int:
        """How many taken-back moves the board shows replayed (0: none)."""
        position = self.game.position
        two_moves = self.tracker.two_moves
        found = 0
        for k, move in enumerate(self.redo, 1):
            position = self.variant.play(position, move)
            if two_moves and self.variant.turn_goes_on(position):
                continue  # half a turn is never restored alone (a game-ending first move is a turn)
            if self.tracker.occupancy_of(position) == occupancy:
                found = k
        return found

    def void_turn_of(self, side: int) -> None:
        """A player goes out in mid-turn: their half-made turn does not count."""
        while self.game.turn == side and self.game.move_in_turn and self.game.ply > self.floor_ply:
            self.game.pop()
            if self.committed:
                self.committed.pop()

    def amend(self, position: Position) -> None:
        """The position changes without a move (a player out): no take-back to before it."""
        self.game.amend(position)
        self.floor_ply = self.game.ply
        self.floor_reason = GOING_OUT
        self.redo = []

    def hold(self, reason: str) -> None:
        """No take-back to before now: what ended the game here stands (a loss
        on time: the clock that fell cannot be wound back)."""
        self.floor_ply = self.game.ply
        self.floor_reason = reason
        self.redo = []

    def turn_start(self, turns_back: int) -> Position:
        """The position `turns_back` turn starts ago (1: the start of the last turn made)."""
        return self.game.positions[self.turn_start_ply(turns_back)]

    def turn_start_ply(self, turns_back: int) -> int:
        """The ply of the position `turns_back` turn starts ago."""
        positions = self.game.positions
        count = 0
        for k in range(len(positions) - 2, -1, -1):
            if self.tracker.two_moves and self.variant.move_in_turn(positions[k]):
                continue
            count += 1
            if count == turns_back or k == 0:
                return k
        return 0


def rebuild_record(variant: Variant, game: Game) -> list[CommittedMove]:
    """The committed-move record of a game without one (times 0)."""
    committed = []
    replay = Game(variant, game.start)
    turn = 0
    for move in game.moves:
        position = replay.position
        mover = variant.side_to_move(position)
        if variant.move_in_turn(position) == 0:
            turn += 1
        text = format_move(variant, position, move)
        replay.push_unchecked(move)
        captures = tuple(square_name(variant, sq) for sq in sorted(move.captures))
        committed.append(CommittedMove(replay.ply, turn, mover, variant.sides[mover], move, text, captures, 0))
    return committed
