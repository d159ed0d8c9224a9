"""The recorder: keeps the game store in step with the game, as one listener.

Every committed turn is stored in its own transaction as soon as it is
published (the moves of one turn together), the raw sensor log goes along,
a take-back, a player out, a flag and the result are written as they happen,
and the running clock is checkpointed every `checkpoint_ms` so that a power
cut costs a player at most that much thinking time.
"""

from __future__ import annotations

from typing import Any, Callable

from damka.controller import events as ev
from damka.controller.clock import Clock, State
from damka.controller.session import Session
from damka.controller.store import Store

# The running clock is saved this often between moves: a power cut costs a
# player at most this much thinking time (plus one loop pass). One small
# transaction (one fsync) a second is nothing for the SD card or the CPU.
CHECKPOINT_MS = 750


class Recorder:
    """Subscribe it to a game's bus; call `flush` after each input and
    `checkpoint_due` when time passes."""

    def __init__(self, store: Store, session: Session, clock: Clock | None, *, players: list[str], mode: str,
                 time_control: str, tags: dict[str, str], now: Callable[[], int],
                 game_id: int | None = None, checkpoint_ms: int = CHECKPOINT_MS) -> None:
        self.store = store
        self.session = session
        self.clock = clock
        self.players = players
        self.mode = mode
        self.time_control = time_control
        self.tags = tags
        self.now = now
        self.game_id = game_id
        self.checkpoint_ms = checkpoint_ms
        self.next_checkpoint: int | None = None
        self._plies: list[tuple[int, str]] = []
        self._sensor: list[tuple[int, str]] = []
        self._handlers: dict[type, Callable[[Any], None]] = {
            ev.GameStarted: self._started, ev.TakenBack: self._taken_back, ev.NewGame: self._new_game,
            ev.SideOut: self._side_out, ev.FlagFell: self._flag, ev.GameOver: self._over,
            ev.ClockStarted: self._clock_started,
        }

    def __call__(self, event: ev.GameEvent) -> None:
        if isinstance(event, ev.MoveCommitted):
            self._plies.append((event.ply, event.text))
            return
        if isinstance(event, ev.SensorChanged):
            self._sensor.append((event.time_ms, event.line))
            return
        self._store_moves()  # the turn's moves are all published: one transaction
        handler = self._handlers.get(type(event))
        if handler is not None:
            handler(event)

    # -- what the store gets ----------------------------------------------------

    def clock_ms(self) -> list[int] | None:
        if self.clock is None:
            return None
        return [side.remaining_ms for side in self.clock.view(self.now()).sides]

    def _clock_state(self) -> dict | None:
        return self.clock.snapshot(self.now()) if self.clock is not None else None

    def _open(self) -> None:
        session = self.session
        self.game_id = self.store.new_game(
            session.variant, start=session.game.start, players=self.players, mode=self.mode,
            time_control=self.time_control or None, clock_ms=self.clock_ms(), clock_state=self._clock_state(),
            tags=self.tags)

    def _started(self, event: ev.GameStarted) -> None:
        if self.game_id is None:
            self._open()

    def _store_moves(self) -> None:
        if not self._plies or self.game_id is None:
            return
        game = self.session.game
        valid = [(ply, text) for ply, text in self._plies if ply <= game.ply]
        self._plies = []
        if valid:
            self.store.record_plies(self.game_id, game, [p for p, _ in valid], texts=[t for _, t in valid],
                                    clock_ms=self.clock_ms(), clock_state=self._clock_state())
            if self.next_checkpoint is not None:
                self.next_checkpoint = self.now() + self.checkpoint_ms

    def _clock_started(self, event: ev.ClockStarted) -> None:
        """A running clock is stored at once: a power cut right after the start resumes it paused, not unstarted."""
        self.checkpoint(event.time_ms)

    def _taken_back(self, event: ev.TakenBack) -> None:
        if self.game_id is not None:
            self.store.take_back(self.game_id, event.ply, clock_ms=self.clock_ms())

    def _new_game(self, event: ev.NewGame) -> None:
        if self.game_id is not None:
            self.store.finish(self.game_id, None)
        self._open()

    def _side_out(self, event: ev.SideOut) -> None:
        if self.game_id is not None:
            self.store.record_drop(self.game_id, event.ply, event.side, event.reason, time_ms=event.time_ms,
                                   clock_state=self._clock_state())

    def _flag(self, event: ev.FlagFell) -> None:
        if not event.final and self.game_id is not None:  # (a last-stage flag: the result or a side out)
            self.store.log_arbiter(self.game_id, "flag", f"side {event.side + 1} in stage {event.stage}: "
                                   "play goes on", time_ms=event.time_ms)

    def _over(self, event: ev.GameOver) -> None:
        if self.game_id is None:
            return
        if event.result.reason == "on time":
            self.store.log_arbiter(self.game_id, "result", "on time", time_ms=event.time_ms)
        self.store.finish(self.game_id, event.result, clock_ms=self.clock_ms())

    # -- driven by the app --------------------------------------------------------

    def flush(self) -> None:
        """Store what is still buffered: the moves of a turn, the sensor log."""
        self._store_moves()
        if self._sensor and self.game_id is not None:
            self.store.record_events(self.game_id, self._sensor)
            self._sensor = []

    def abandon(self) -> None:
        """The game is left unfinished for another: kept, with result '*'."""
        self.flush()
        if self.game_id is not None and self.session.result is None:
            self.store.finish(self.game_id, None, clock_ms=self.clock_ms())

    def checkpoint_due(self, now: int) -> None:
        """Save the running clock when a checkpoint is due (and plan the next)."""
        clock = self.clock
        if clock is None or clock.state is not State.RUNNING:
            return
        if self.next_checkpoint is None:
            self.next_checkpoint = now + self.checkpoint_ms  # (also a clock running again after a resume)
        elif now >= self.next_checkpoint:
            self.checkpoint(now)

    def checkpoint(self, now: int) -> None:
        if self.game_id is not None and self.clock is not None:
            self.store.save_clock(self.game_id, self.clock_ms() or [], self._clock_state())
        self.next_checkpoint = now + self.checkpoint_ms
