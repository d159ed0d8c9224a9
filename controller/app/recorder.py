"""The recorder: keeps the game store in step with the game, as one listener.

Every committed turn is stored in its own transaction as soon as it is
published (the moves of one turn together), the raw sensor log goes along,
a take-back, a player out, a flag and the result are written as they happen,
and the running clock is checkpointed every `checkpoint_ms` so that a power
cut costs a player at most that much thinking time.

Writes go through a `WriteQueue`: each waits there until its transaction
commits. When the store cannot be written (a full disk, a read-only card)
the game goes on in memory, the queue keeps every write in order, the screen
says so (`notice`), and the writes are tried again after each input or tick,
less often the longer it fails; once they go through, every move is stored,
in order and once (a repeated write replaces, never doubles, see
`Store.record_plies`).
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from damka.controller import events as ev
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import State
from damka.controller.session import Session
from damka.controller.store.schema import StoreError
from damka.controller.store.store import Store
from damka.controller.words import say

log = logging.getLogger(__name__)

# The running clock is saved this often between moves: a power cut costs a
# player at most this much thinking time (plus one loop pass). One small
# transaction (one fsync) a second is nothing for the SD card or the CPU.
CHECKPOINT_MS = 750

# After a failed write: try again after RETRY_FIRST_MS, doubling up to
# RETRY_MAX_MS, so a full card is not hammered on every sensor snapshot and
# the moves are saved within half a minute of space coming back.
RETRY_FIRST_MS = 1000
RETRY_MAX_MS = 30_000
# How long the screen says "saved again" once the waiting writes went through.
SAVED_AGAIN_MS = 5000


@dataclass
class GameRef:
    """A game's id in the store, known once its `new_game` write went
    through: the writes queued after it (while it waits) use it then."""

    id: int | None = None
    opened: bool = False  # its new_game write is queued (or done)


@dataclass(frozen=True)
class Write:
    kind: str  # "moves", "clock", ...: consecutive clock checkpoints of one game keep only the last
    ref: GameRef
    run: Callable[[Store, int | None], Any]


class WriteQueue:
    """The store's writes, in order, each kept until its transaction commits.
    One per store, shared by the games one after another, so a game left
    while the store fails is still written, before the next one's."""

    def __init__(self, store: Store, now: Callable[[], int]) -> None:
        self.store = store
        self.now = now
        self.pending: deque[Write] = deque()
        self.error: StoreError | None = None  # why the waiting writes fail (None: all is saved)
        self.retry_at: int | None = None
        self.saved_again_at: int | None = None
        self.failures = 0  # failed attempts so far (the log says the first and the recovery)
        self._backoff = RETRY_FIRST_MS

    @property
    def failing(self) -> bool:
        return self.error is not None

    def put(self, write: Write) -> None:
        last = self.pending[-1] if self.pending else None
        if write.kind == "clock" and last is not None and last.kind == "clock" and last.ref is write.ref:
            self.pending[-1] = write  # a newer checkpoint of the same clock replaces the unsaved one
            return
        self.pending.append(write)

    def drain(self) -> bool:
        """Write what waits, in order, unless a retry is not due yet; True when nothing waits."""
        now = self.now()
        if self.retry_at is not None and now < self.retry_at:
            return False
        while self.pending:
            write = self.pending[0]
            try:
                write.run(self.store, write.ref.id)
            except StoreError as exc:
                self.failures += 1
                if self.error is None:
                    log.warning("%s; the game goes on, the board keeps trying", exc)
                self.error = exc
                self.retry_at = now + self._backoff
                self._backoff = min(self._backoff * 2, RETRY_MAX_MS)
                return False
            self.pending.popleft()
        if self.error is not None:
            log.warning("%s: saved again", self.store.path)
            self.error = None
            self.saved_again_at = now
        self.retry_at = None
        self._backoff = RETRY_FIRST_MS
        return True

    def notice(self, now: int) -> str:
        """What the screen says about saving: why it fails, or that it works again; '' when all is well."""
        if self.error is not None:
            return say("store.not_saved", reason=_reason(self.error), count=len(self.pending))
        if self.saved_again_at is not None and now - self.saved_again_at < SAVED_AGAIN_MS:
            return say("store.saved_again")
        return ""


def _reason(error: StoreError) -> str:
    """The end of the store's one-line message: SQLite's words for what failed."""
    text = str(error)
    return text.rsplit(": ", 1)[-1] if ": " in text else text


class Recorder:
    """Subscribe it to a game's bus; call `flush` after each input and
    `checkpoint_due` when time passes."""

    def __init__(self, store: Store, session: Session, clock: Clock | None, *, players: list[str], mode: str,
                 time_control: str, tags: dict[str, str], now: Callable[[], int],
                 game_id: int | None = None, checkpoint_ms: int = CHECKPOINT_MS,
                 queue: WriteQueue | None = None) -> None:
        self.store = store
        self.session = session
        self.clock = clock
        self.players = players
        self.mode = mode
        self.time_control = time_control
        self.tags = tags
        self.now = now
        self.ref = GameRef(game_id, opened=game_id is not None)
        self.queue = queue if queue is not None else WriteQueue(store, now)
        self.checkpoint_ms = checkpoint_ms
        self.next_checkpoint: int | None = None
        self._plies: list[tuple[int, str]] = []
        self._sensor: list[tuple[int, str]] = []
        self._handlers: dict[type, Callable[[Any], None]] = {
            ev.GameStarted: self._started, ev.TakenBack: self._taken_back, ev.NewGame: self._new_game,
            ev.SideOut: self._side_out, ev.FlagFell: self._flag, ev.GameOver: self._over,
            ev.ClockStarted: self._clock_changed, ev.ClockHeldForCarryingOut: self._clock_changed,
            ev.OfferMade: self._offer, ev.OfferAnswered: self._offer,
        }

    @property
    def game_id(self) -> int | None:
        """The game's id in the store (None until its first write went through)."""
        return self.ref.id

    @property
    def opened(self) -> bool:
        """The game has a record, stored or waiting in the queue."""
        return self.ref.opened

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
        self.queue.drain()

    # -- what the store gets ----------------------------------------------------

    def clock_ms(self) -> list[int] | None:
        if self.clock is None:
            return None
        return list(self.clock.view(self.now()).remaining_ms)

    def _clock_state(self) -> dict | None:
        return self.clock.snapshot(self.now()) if self.clock is not None else None

    def _put(self, kind: str, run: Callable[[Store, int], Any]) -> None:
        """Queue a write to this game's record. It runs after the game's own
        new_game write (the queue keeps the order), so the id is known then."""
        def with_id(store: Store, game_id: int | None) -> Any:
            if game_id is None:  # no record to write to (its new_game never went through)
                return None
            return run(store, game_id)

        self.queue.put(Write(kind, self.ref, with_id))

    def _open(self) -> None:
        session, ref = self.session, self.ref
        variant, start, clock_ms, clock_state = session.variant, session.game.start, self.clock_ms(), self._clock_state()
        players, mode, time_control, tags, at = (list(self.players), self.mode, self.time_control or None,
                                                 dict(self.tags), self.store.stamp())

        def open_game(store: Store, _: int | None) -> None:
            ref.id = store.new_game(variant, start=start, players=players, mode=mode, time_control=time_control,
                                    clock_ms=clock_ms, clock_state=clock_state, tags=tags, at=at)
        ref.opened = True
        self.queue.put(Write("open", ref, open_game))

    def _started(self, event: ev.GameStarted) -> None:
        if not self.opened:
            self._open()

    def _store_moves(self) -> None:
        if not self._plies or not self.opened:
            return
        game = self.session.game
        valid = [(ply, text) for ply, text in self._plies if ply <= game.ply]
        self._plies = []
        if valid:
            snapshot = game.copy()  # the game as it is now: a write that waits must not see later moves
            plies, texts = [p for p, _ in valid], [t for _, t in valid]
            clock_ms, clock_state, at = self.clock_ms(), self._clock_state(), self.store.stamp()
            self._put("moves", lambda store, gid: store.record_plies(
                gid, snapshot, plies, texts=texts, clock_ms=clock_ms, clock_state=clock_state, at=at))
            if self.next_checkpoint is not None:
                self.next_checkpoint = self.now() + self.checkpoint_ms

    def _clock_changed(self, event: ev.ClockStarted | ev.ClockHeldForCarryingOut) -> None:
        """The clock changed with no move to store it: stored at once. Started: a
        power cut right after the start resumes it paused, not unstarted. Stopped,
        or pressed early, for people carrying out a program's move: a paused clock
        is saved at no other time, and an early press is no move."""
        self.checkpoint(event.time_ms)

    def _taken_back(self, event: ev.TakenBack) -> None:
        if self.opened:
            clock_ms, clock_state = self.clock_ms(), self._clock_state()
            self._put("takeback", lambda store, gid: store.take_back(gid, event.ply, clock_ms=clock_ms,
                                                                     clock_state=clock_state))

    def _new_game(self, event: ev.NewGame) -> None:
        if self.opened:
            self._finish(None)
        self.ref = GameRef()
        self._open()

    def _side_out(self, event: ev.SideOut) -> None:
        if self.opened:
            clock_state, at = self._clock_state(), self.store.stamp()
            self._put("drop", lambda store, gid: store.record_drop(
                gid, event.ply, event.side, event.reason, time_ms=event.time_ms, clock_state=clock_state, at=at))

    def _flag(self, event: ev.FlagFell) -> None:
        if not event.final:  # (a last-stage flag: the result or a side out)
            self.log_arbiter("flag", f"side {event.side + 1} in stage {event.stage}: play goes on", event.time_ms)

    def _offer(self, event: ev.OfferMade | ev.OfferAnswered) -> None:
        """Offers and their answers go in the arbiter log, in turn with the moves (who, from where, what)."""
        action = "offer" if isinstance(event, ev.OfferMade) else f"offer {event.answer}"
        self.log_arbiter(action, event.text, event.time_ms)

    def _over(self, event: ev.GameOver) -> None:
        if not self.opened:
            return
        if event.result.reason == "on time":
            self.log_arbiter("result", "on time", event.time_ms)
        self._finish(event.result)

    def _finish(self, result: Any) -> None:
        clock_ms, at = self.clock_ms(), self.store.stamp()
        self._put("finish", lambda store, gid: store.finish(gid, result, clock_ms=clock_ms, at=at))

    def log_arbiter(self, action: str, detail: str, time_ms: int | None) -> None:
        """An arbiter's action for the record (a declared result, a flag), in turn with the moves."""
        if self.opened:
            at = self.store.stamp()
            self._put("arbiter", lambda store, gid: store.log_arbiter(gid, action, detail, time_ms=time_ms, at=at))
            self.queue.drain()

    # -- driven by the app --------------------------------------------------------

    def flush(self) -> None:
        """Store what is still buffered: the moves of a turn, the sensor log
        (and whatever waits from before, when a retry is due)."""
        self._store_moves()
        if self._sensor and self.opened:
            lines, self._sensor = self._sensor, []
            self._put("events", lambda store, gid: store.record_events(gid, lines))
        self.queue.drain()

    def abandon(self) -> None:
        """The game is left unfinished for another: kept, with result '*'."""
        self.flush()
        if self.opened and self.session.result is None:
            self._finish(None)
            self.queue.drain()

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
        if self.opened and self.clock is not None:
            clock_ms, clock_state = self.clock_ms() or [], self._clock_state()
            self._put("clock", lambda store, gid: store.save_clock(gid, clock_ms, clock_state))
            self.queue.drain()
        self.next_checkpoint = now + self.checkpoint_ms
