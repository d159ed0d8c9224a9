"""One way to build a game: variant, clock, session, computer and coach from a `GameSetup`.

The board (`App`), the simulator, a resumed game and `damka replay` all build
their games here, so a time control the board accepts is one the replay
accepts, and a replay of a sensor log reproduces what the board ran:

    built = build_game(GameSetup("classic", mode="tournament", time_control="5+3|3+3"))
    built.session.handle(snapshot)         # the clock starts at the first press or the first move

Time controls: "" (no clock), "casual" (the variant's casual preset), a preset
name, the compact form (`5+3`, `5+3d`, `50/120:25/60`, `5+3|3+3` per side)
or `pdn:` and the PDN TimeControl form (`pdn:300+3`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from damka.controller.players.chooser import Chooser
from damka.controller.clock.clock import Clock, TimeSource
from damka.controller.clock.records import State
from damka.controller.players.coach import Coach
from damka.controller.events import EventBus
from damka.controller.players.hub_coach import HubCoach
from damka.controller.players.hub_opponent import HubOpponent
from damka.controller.players.computer import ComputerOpponent
from damka.controller.session import Session
from damka.controller.session.types import CarryingOut, Mode, SessionSettings
from damka.controller.game.setup import GameSetup
from damka.controller.clock.timecontrol import TimeControl
from damka.controller.clock.controls import make_clock, stored_control, variant_controls
from damka.controller.board.tracker import TrackerSettings
from damka.engine.variant import Position, Variant
from damka.engine.variants import find_variant


@dataclass
class BuiltGame:
    """A game ready to play: the session (with its bus), its clock and what it was built from."""

    setup: GameSetup
    variant: Variant
    session: Session
    clock: Clock | None
    controls: list[TimeControl] | None
    computer_sides: frozenset[int]

    @property
    def time_control(self) -> str:
        """The time control as the game's record keeps it (`casual` spelt out: `10+3`)."""
        return stored_control(self.variant, self.setup.time_control)


def build_variant(setup: GameSetup) -> Variant:
    return find_variant(setup.variant, **setup.variant_options())


def time_controls(setup: GameSetup, variant: Variant) -> list[TimeControl] | None:
    """One time control per clock side (None: no clock); TimeControlError if the text is none."""
    return variant_controls(variant, setup.time_control)


class ResumableClock:
    """The clock as the session sees it: a clock paused after a resume starts
    again with the first move committed (the players have resumed play).
    Otherwise it is the real clock, which the session polls."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    @property
    def state(self) -> State:
        return self.clock.state

    def start(self, now: int | None = None, first: int = 0) -> None:
        self.clock.start(now, first=first)

    def update(self, now: int | None = None) -> list:
        return self.clock.update(now)

    def next_deadline(self, now: int | None = None) -> int | None:
        return self.clock.next_deadline(now)

    def view(self, now: int | None = None) -> Any:
        return self.clock.view(now)

    def stop(self, now: int | None = None, reason: str = "game over", loser: int | None = None) -> None:
        self.clock.stop(now, reason, loser)

    def take_back(self, movers: Any, now: int | None = None) -> None:
        self.clock.take_back(movers, now)

    @property
    def pin_required(self) -> bool:
        return self.clock.pin_required

    def pause(self, now: int | None = None, *, by: str = "player") -> None:
        self.clock.pause(now, by=by)

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> Any:
        if board_ok and self.clock.state is State.PAUSED:
            self.clock.resume(now)
        if self.clock.state is not State.RUNNING:
            return None
        return self.clock.press(side, now, board_ok=board_ok, reason=reason, moves=moves)


def make_coach(setup: GameSetup, variant: Variant) -> Coach | None:
    """Learning mode's coach: hints (the game's limit) and blunder warnings,
    from the setup's chosen external Hub engine when it has one."""
    if setup.mode != "learning":
        return None
    command, missing = setup.engine_command(), setup.engine_missing()
    if command or missing:
        return HubCoach(variant, command, hint_limit=setup.hint_limit, name=setup.engine or setup.engine_name(),
                        unavailable=missing, cwd=setup.engine_dir())
    return Coach(variant, hint_limit=setup.hint_limit)


def make_opponent(setup: GameSetup, variant: Variant, clock: Clock | None, controls: list[TimeControl] | None,
                  seed: int | None, now: Callable[[], int]) -> ComputerOpponent | HubOpponent:
    """The computer: Damka's own search, or the setup's chosen external Hub
    engine (its time from the clock when there is one) with the own search
    behind it. A chosen engine no longer configured (a resumed game) is said
    once, and Damka's own search plays."""
    own = ComputerOpponent(variant, setup.level, time_per_move=setup.move_time, seed=seed)
    command, missing = setup.engine_command(), setup.engine_missing()
    if not command and not missing:
        return own
    time_left = engine_time(clock, controls, now) if clock is not None and controls is not None else None
    return HubOpponent(variant, command, fallback=own, time_per_move=setup.move_time, time_left=time_left,
                       name=setup.engine or setup.engine_name(), unavailable=missing, cwd=setup.engine_dir())


def engine_time(clock: Clock, controls: list[TimeControl],
                now: Callable[[], int]) -> Callable[[int], tuple[float, float] | None]:
    """What an external engine is told of a side's time: seconds left and the increment."""

    def time_left(side: int) -> tuple[float, float] | None:
        stages = controls[side].stages
        if not stages:
            return None
        return clock.remaining(side, now()) / 1000, stages[0].increment_ms / 1000

    return time_left


def build_game(setup: GameSetup, *, variant: Variant | None = None, bus: EventBus | None = None, position: Position | None = None,
               clock: Clock | None = None, chooser: Chooser | None = None, seed: int | None = None,
               time: TimeSource | None = None, tracker: TrackerSettings | None = None,
               computer_sides: frozenset[int] | None = None, coach: bool = True,
               draw: Callable[[Sequence[int], int], list[int]] | None = None,
               carrying_out: CarryingOut = CarryingOut.NOBODY) -> BuiltGame:
    """The game `setup` describes, waiting for the board to show its position.

    `clock`: a restored clock instead of a new one (a resumed game); `chooser`:
    the computer's moves from it at once, instead of a search thinking off the
    loop (replays, tests); `time`: the clock's time source; `computer_sides`:
    instead of drawing the computer's seats from the setup (`draw`: a
    `random.sample`); `coach=False`: learning mode without the coach's hints
    and blunder checks (a replay of a log recorded without them). ValueError / TimeControlError / UnknownVariantError for
    a setup that names no playable game. `variant`: the setup's variant, when
    the caller built it already (building one builds its move tables).
    `carrying_out`: whose time it is while people carry out an outside
    program's move (the board config's [clock] carrying_out)."""
    variant = variant or build_variant(setup)
    controls = time_controls(setup, variant)
    if clock is None and controls is not None:
        clock = make_clock(variant, controls, time=time)
    computer: frozenset[int] = frozenset()
    if setup.mode == "computer":
        computer = computer_sides if computer_sides is not None else setup.computer_seats(len(variant.sides), draw)
    settings = SessionSettings(mode=Mode(setup.mode), computer_sides=computer or frozenset({1}),
                               tracker=tracker or TrackerSettings(), carrying_out=carrying_out)
    session = Session(variant, settings, position=position, clock=ResumableClock(clock) if clock else None,
                      chooser=chooser, coach=make_coach(setup, variant) if coach else None, bus=bus)
    if computer and chooser is None:
        session.opponent = make_opponent(setup, variant, clock, controls, seed, lambda: session.now)
    return BuiltGame(setup, variant, session, clock, controls, computer)
