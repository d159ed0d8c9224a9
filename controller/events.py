"""What happens in a game, as typed events, and the bus that hands them out.

The session (and the app around it) publish one frozen event object for each
thing that happens: a move committed, a press refused, a take-back, a flag, a
player out, the result... Each carries its time, the game's ply after it, and
what a listener needs without reaching back into the session. The store's
recorder, the replay's JSON writer, the screen wording, the PDN comments (and
later the web page and MQTT) are each one listener:

    bus = EventBus()
    unsubscribe = bus.subscribe(print)                      # every event
    bus.subscribe(on_move, MoveCommitted)                   # only moves

A listener is called synchronously, in subscription order. An event published
while listeners are still being told of another (a listener that acts, the
act publishes) waits until the first has reached every listener, so every
listener sees the events in one and the same order.

A listener that raises never stops the game or the other listeners: the error
is logged on the `damka.events` logger with its traceback (one line naming
the listener and the event first), counted in `EventBus.failures`, and the
event goes on to the next listener.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from damka.controller.board.takeback_guide import TakebackGuide
from damka.engine.move import Move
from damka.engine.variant import Result

log = logging.getLogger("damka.events")


@dataclass(frozen=True)
class GameEvent:
    """The base: when (ms on the board's clock) and the game's ply just after it."""

    time_ms: int
    ply: int


@dataclass(frozen=True)
class GameStarted(GameEvent):
    """The board shows the game's position: play begins (also after a resume)."""

    position: str
    resumed: bool = False


@dataclass(frozen=True)
class NewGame(GameEvent):
    """The pieces were set up again mid-session: a fresh game from the start."""

    position: str


@dataclass(frozen=True)
class MoveCommitted(GameEvent):
    """One move entered the record (a multiwarcaby turn is two of these)."""

    turn: int                      # 1-based turn number
    side: int
    side_name: str
    move: Move
    text: str                      # PDN text
    captures: tuple[str, ...]
    position: str                  # FEN / position string after the move
    pressed: bool                  # committed by a clock press (else by settling)
    redo: bool                     # a taken-back move put back on the board
    scores: tuple[int, ...]
    clock_ms: tuple[int, ...] | None = None
    """Main time left per side after the press that ended the turn (the turn's
    last move only; None without a countdown clock)."""


@dataclass(frozen=True)
class MoveRefused(GameEvent):
    """A press (or a move) was refused: the squares concerned flash FLAG."""

    side: int
    reason: str
    squares: tuple[str, ...]
    clock_ms: tuple[int, ...] | None = None


@dataclass(frozen=True)
class TakenBack(GameEvent):
    """Moves taken back: the side to move again is to move, its clock runs."""

    plies: int
    position: str
    clock_ms: tuple[int, ...] | None = None   # the times after the take-back (None: no countdown clock)


@dataclass(frozen=True)
class Redone(GameEvent):
    """Taken-back moves put back on the board: they count again."""

    plies: int
    position: str


@dataclass(frozen=True)
class ClockPressed(GameEvent):
    """A side's turn was accepted and its clock pressed."""

    side: int
    clock_ms: tuple[int, ...] | None


@dataclass(frozen=True)
class ClockStarted(GameEvent):
    """The clock began to run (the first press, or the first move, of the game)."""

    side: int                      # whose time runs first


@dataclass(frozen=True)
class ClockHeldForCarryingOut(GameEvent):
    """An outside program's move (a DXP peer's, a Hub engine's) is lit for people
    to carry out, and the clock did as the board's config says: it stopped
    (`by` "nobody") or it pressed the mover's turn so the next side's time runs
    (`by` "next"). Not a move: the store keeps the clock as it is now, or a
    power cut would give the program back the time it thought."""

    side: int                      # the program's side, whose move is being carried out
    by: str                        # the config's carrying_out: "nobody" or "next"
    clock_ms: tuple[int, ...] | None


@dataclass(frozen=True)
class FlagFell(GameEvent):
    side: int
    stage: int                     # 1-based
    final: bool                    # the last stage: a loss on time or a player out follows


@dataclass(frozen=True)
class SideOut(GameEvent):
    """A player out of a 3-4 player multiwarcaby game (on time, resignation)."""

    side: int
    reason: str
    position: str
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameOver(GameEvent):
    result: Result
    scores: tuple[int, ...]


@dataclass(frozen=True)
class ComputerPlanned(GameEvent):
    """The computer chose its move (turn): the board lights it for a person to carry out."""

    moves: tuple[str, ...]


@dataclass(frozen=True)
class HintShown(GameEvent):
    moves: tuple[str, ...]
    hints_left: int | None


@dataclass(frozen=True)
class BlunderWarned(GameEvent):
    """Learning mode: the coach holds a move that loses material."""

    move: str
    loss: float


@dataclass(frozen=True)
class EngineFellBack(GameEvent):
    """An external engine (opponent or coach) died, hung or broke the rules:
    Damka's own engine took over (`controller/players/hub_opponent.py`)."""

    text: str


@dataclass(frozen=True)
class PositionUnknown(GameEvent):
    """The board shows what no move explains: the players are guided back."""

    missing: tuple[str, ...]
    extra: tuple[str, ...]


@dataclass(frozen=True)
class TakebackGuided(GameEvent):
    """A take-back begins on the board: the turns taken back and the pieces
    to put back or take off (`controller/board/takeback_guide.py`), for the voice."""

    guide: TakebackGuide


@dataclass(frozen=True)
class PositionRecovered(GameEvent):
    """The board makes sense again after a `PositionUnknown`."""


@dataclass(frozen=True)
class SensorChanged(GameEvent):
    """One line of the raw sensor log (`controller/board/eventlog.py` format):
    'MS up SQ', 'MS down SQ', 'MS press SIDE', 'MS button NAME'."""

    line: str


@dataclass(frozen=True)
class MessageShown(GameEvent):
    """The one line the screen shows changed."""

    text: str


@dataclass(frozen=True)
class ExerciseSaid(GameEvent):
    """A lesson (an exercise at the board) says something: an instruction, why a try was wrong, well done."""

    text: str


@dataclass(frozen=True)
class ExerciseFinished(GameEvent):
    """A lesson or a puzzle ended at the board (not one left half-way): the learner's
    progress (teaching/progress.py) is recorded from it, and the page hears it."""

    kind: str                      # "lesson" or "puzzle"
    name: str                      # the lesson's name or the puzzle's id
    variant: str
    learner: str
    solved: bool                   # done without the answer shown
    stars: int                     # 0-3 (a lesson: 3)
    hints: int
    tries: int                     # wrong tries


@dataclass(frozen=True)
class OfferMade(GameEvent):
    """A draw offered or a take-back asked, waiting for the other player's
    answer (`controller/app/offers.py`): by `side` (None: the board as a whole),
    from `where` ("board", "page", "remote page")."""

    kind: str                      # "draw" or "takeback"
    side: int | None
    where: str
    moves: int                     # a take-back: how many moves back (0 for a draw)
    text: str                      # one line for screens and the record


@dataclass(frozen=True)
class OfferAnswered(GameEvent):
    """The pending offer ended: accepted or declined from `where`, or lapsed
    (a move committed, the game's end; `where` is "" then)."""

    kind: str
    answer: str                    # "accepted", "declined" or "lapsed"
    where: str
    offered_from: str
    text: str


@dataclass(frozen=True)
class ArbiterActed(GameEvent):
    """An arbiter's (or a player's) action on the clock or the result, from the
    board's menu or outside (`app/commands.py`): who (where from), what, details."""

    who: str
    action: str                    # pause, resume, adjust, set-time, undo, result
    detail: str


E = TypeVar("E", bound=GameEvent)
Listener = Callable[[Any], None]


@dataclass
class _Subscription:
    listener: Listener
    types: tuple[type, ...]
    active: bool = True


@dataclass
class ListenerFailure:
    """A listener raised: which, on what event, and the error."""

    listener: str
    event: GameEvent
    error: BaseException


class EventBus:
    """Hands each published event to its subscribers; see the module docstring."""

    def __init__(self) -> None:
        self._subscriptions: list[_Subscription] = []
        self._queue: deque[GameEvent] = deque()
        self._delivering = False
        self.failures: list[ListenerFailure] = []
        self.published = 0

    def subscribe(self, listener: Callable[[E], None], *types: type[E]) -> Callable[[], None]:
        """Call `listener(event)` for every event (or only those of `types`,
        subclasses included). Returns the function that unsubscribes it."""
        subscription = _Subscription(listener, tuple(types))
        self._subscriptions.append(subscription)

        def unsubscribe() -> None:
            subscription.active = False
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)

        return unsubscribe

    def publish(self, event: GameEvent) -> None:
        self._queue.append(event)
        if self._delivering:
            return  # delivered in order once the event being delivered has reached everyone
        self._delivering = True
        try:
            while self._queue:
                self._deliver(self._queue.popleft())
        finally:
            self._delivering = False

    def _deliver(self, event: GameEvent) -> None:
        self.published += 1
        for subscription in list(self._subscriptions):
            if not subscription.active or (subscription.types and not isinstance(event, subscription.types)):
                continue
            try:
                subscription.listener(event)
            except Exception as error:  # noqa: BLE001 - one broken listener must not stop the game
                name = getattr(subscription.listener, "__qualname__", repr(subscription.listener))
                self.failures.append(ListenerFailure(name, event, error))
                log.error("listener %s failed on %s: %s", name, type(event).__name__, error, exc_info=error)


@dataclass
class EventHistory:
    """A listener that keeps every event it is given (tests, tools, the replay's PDN comments)."""

    events: list[GameEvent] = field(default_factory=list)

    def __call__(self, event: GameEvent) -> None:
        self.events.append(event)

    def of(self, kind: type[E]) -> list[E]:
        return [event for event in self.events if isinstance(event, kind)]
