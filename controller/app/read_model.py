"""The App as the outside reads it: one frozen snapshot, built in one place.

The screen, the web page, the hall and DXP read `App.read_model()` instead of
reaching into the App, its session or its clock. The snapshot is plain data
(and a few engine objects that never change once made: the variant, a
position, a move): no one can change the App through it.

`version` counts the changes: two snapshots have the same version exactly
when everything they show is the same, apart from a running clock's time
(which moves every millisecond; a page counts it down itself). So a reader
that only wants to know "did anything change?" compares one integer.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from damka.controller.app.app_view import app_frame, app_view, core_view
from damka.controller.app.screens import AppState
from damka.controller.app.board_settings import BoardSettings
from damka.controller.clock.records import State
from damka.controller.clock.view import ClockView, SideView
from damka.controller.game.record import CommittedMove
from damka.controller.app.offers import Offer
from damka.controller.players import Opponent
from damka.controller.players.seat_opponents import remote_players
from damka.controller.session.types import Phase
from damka.controller.app.view_builder import active_sides
from damka.controller.app.menus import Menu
from damka.controller.app.teaching_facts import TeachingFacts
from damka.controller.app.views import GameView, MenuView, View
from damka.engine.variant import Position, Result, Variant
from damka.hardware.interfaces import Role

if TYPE_CHECKING:
    from damka.controller.app.app import App


@dataclass(frozen=True)
class GameFacts:
    """The game on the board, as every reader outside the App sees it."""

    id: int | None                     # the stored game's id (None without a store)
    variant: Variant
    mode: str                          # "casual", "tournament", "computer", ...
    time_control: str
    phase: Phase
    turn: int                          # the side to move
    ply: int
    scores: tuple[int, ...]
    active: frozenset[int]             # the sides still in play
    names: tuple[str, ...]             # the players' names, by side
    labels: tuple[str, ...]            # a side as the arbiter's console names it
    message: str                       # the session's message line
    thinking: bool                     # the computer (or a far player) is choosing its move
    hints_left: int | None
    moves: tuple[CommittedMove, ...]
    result: Result | None
    computer_sides: frozenset[int]
    far_players: tuple[Opponent, ...]  # who plays a seat from afar (the page's seat, a DXP peer)
    screen: GameView                   # the game as the screen words it (before the App's notices)
    clock: ClockView | None            # None: the game has no clock
    clock_state: State | None
    clock_log: int                     # the arbiter's actions on the clock so far (a running clock adjusted)

    @property
    def over(self) -> bool:
        return self.result is not None


@dataclass(frozen=True)
class OfferFacts:
    """The offer waiting for an answer, and how the last one ended."""

    pending: Offer | None
    line: str                          # the pending offer in words
    last: tuple[Offer, str, str] | None  # (offer, answer, answered from)


@dataclass(frozen=True)
class AppReadModel:
    """Everything the App shows, at one instant (`now`)."""

    version: int
    now: int
    state: AppState                    # which screen shows
    menu_open: bool                    # a menu is open over the game or the menu
    view: View                         # what the board's screen draws
    frame: tuple[tuple[str, Role], ...]  # the LEDs (square, role), sorted
    banner: str
    notice: str
    settings: BoardSettings
    board: tuple[Variant, Position] | None  # the game whose pieces belong on the board
    game: GameFacts | None
    offers: OfferFacts | None          # None: no game
    teaching: TeachingFacts | None     # the lesson or puzzle on the board (None: none)

    def lights(self) -> dict[str, Role]:
        return dict(self.frame)

    def at_rest(self) -> tuple[Any, ...]:
        """This snapshot without the time that passes by itself (`now`, a running
        clock's time): what `version` counts the changes of. Every field counts,
        a new one too: none is listed by hand."""
        return tuple(_rest(getattr(self, field.name)) for field in fields(self) if field.name not in ("version", "now"))


def build(app: App, version: int) -> AppReadModel:
    """The App's snapshot now, numbered `version`: the one place it is put together."""
    built, session, clock = app.built, app.session, app.clock
    game: GameFacts | None = None
    core: GameView | None = None
    offers: OfferFacts | None = None
    if session is not None and built is not None:
        variant = session.variant
        names = tuple(app.game_players) or tuple(variant.sides)
        core = core_view(app, session)
        sides = range(len(variant.sides))
        game = GameFacts(
            id=app.game_id, variant=variant, mode=app.setup.mode, time_control=app.setup.time_control,
            phase=session.phase, turn=session.game.turn, ply=session.game.ply,
            scores=tuple(session.game.scores), active=frozenset(active_sides(session)), names=names,
            labels=tuple(app.side_label(side) for side in sides), message=session.message,
            thinking=session.thinking, hints_left=session.hints_left, moves=tuple(session.committed),
            result=session.result, computer_sides=frozenset(built.computer_sides),
            far_players=tuple(remote_players(session.opponent)),
            screen=core, clock=core.clock,
            clock_state=clock.state if clock is not None else None,
            clock_log=len(clock.log) if clock is not None else 0)
        offers = OfferFacts(app.offers.pending, app.offer_line(), app.offers.last)
    board_game = app.board_game
    return AppReadModel(
        version=version, now=app.now, state=app.state, menu_open=app.overlay is not None,
        view=_kept(app_view(app, core)),
        frame=tuple(sorted(app_frame(app).items())), banner=app.banner, notice=app.notice,
        settings=app.board_settings,
        board=(board_game.variant, board_game.position) if board_game is not None else None,
        game=game, offers=offers, teaching=app.teaching.facts())


class ReadModelKeeper:
    """Owns the change counter: it moves when a new snapshot differs, at rest, from the last one read."""

    def __init__(self) -> None:
        self.version = 0
        self._last: tuple[Any, ...] | None = None

    def read(self, app: App) -> AppReadModel:
        model = build(app, self.version)
        rest = model.at_rest()
        if self._last is not None and rest != self._last:
            self.version += 1
            model = replace(model, version=self.version)
        self._last = rest
        return model


def _kept(view: View) -> View:
    """The view with a copy of its menu: the App's own menu changes as buttons
    are pressed, and a snapshot must not change after it was taken."""
    if isinstance(view, MenuView):
        return replace(view, menu=_menu_copy(view.menu))
    return view


def _menu_copy(menu: Menu) -> Menu:
    kept = copy.copy(menu)
    kept.rows = [replace(row) for row in menu.rows]
    return kept


def _clock_at_rest(clock: ClockView | None) -> tuple[Any, ...] | None:
    """A clock without what runs by itself: the running side's times, and the instant."""
    if clock is None:
        return None
    running = clock.state == str(State.RUNNING)
    return (clock.state, clock.active, clock.moves_per_turn, clock.turn_moves,
            tuple(_side_at_rest(side) if running and side.active else side for side in clock.sides))


def _side_at_rest(side: SideView) -> tuple[Any, ...]:
    return (side.side, side.active, side.flagged, side.out, side.turns, side.moves, side.stage, side.stages,
            side.turns_to_control, side.untimed)


def _view_at_rest(view: GameView) -> tuple[Any, ...]:
    return tuple(_rest(getattr(view, field.name)) for field in fields(view))


def _rest(value: Any) -> Any:
    """`value` with what runs by itself taken out (a clock's running time), in any field."""
    if isinstance(value, ClockView):
        return _clock_at_rest(value)
    if isinstance(value, GameView):
        return _view_at_rest(value)
    if isinstance(value, GameFacts):
        return tuple(_rest(getattr(value, field.name)) for field in fields(value))
    if isinstance(value, list):
        return tuple(value)
    return value
