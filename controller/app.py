"""The app: what runs on the board (and in the simulator window).

It routes the inputs (occupancy snapshots, clock presses, menu buttons) to
the menus or to the game, builds each game through `game_factory` (the one
path shared with `damka replay`), and gives out what the LEDs show (`frame`)
and what the screen shows (`view()`). It has the same shape as the session
(`handle`, `tick`, `next_deadline`, `frame`), so whatever drives a session
(the virtual board, the board loop, the pygame window) drives the app.

States: the new-game menu, the resume offer (an unfinished game was stored),
a game (with the in-game menu over it on the menu button), and the result
with the match standings. The store is kept by a `Recorder` listening to the
game's events; everything a game publishes is also published on `App.bus`,
where outside listeners (the web page, MQTT) subscribe once for all games.

Size: about 410 lines; the games' lifecycle and the input routing share the
app's state (which game, which menu): the menu controller (`app_menus.py`),
the recorder, the views, the match and the loop are modules of their own.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Protocol, Sequence

from damka.controller import events as ev
from damka.controller import plurals
from damka.controller import resume as resume_mod
from damka.controller.board_settings import BoardSettings
from damka.controller.chooser import Chooser
from damka.controller.clock import Clock, State
from damka.controller.clock_errors import ClockError
from damka.controller.game_factory import BuiltGame, build_game, build_variant
from damka.controller.app_commands import AppCommands
from damka.controller.app_hooks import AppHooks
from damka.controller.app_menus import AppMenus, AppState
from damka.controller.app_offers import AppOffers
from damka.controller.match import Match
from damka.controller.menus import Menu, Row, game_menu, resume_menu
from damka.controller.recorder import CHECKPOINT_MS, Recorder, WriteQueue
from damka.controller.session import Session
from damka.controller.seat_opponents import engine_seats, seat_remote
from damka.controller.players import Opponent
from damka.controller.setup import GameSetup
from damka.controller.store import Store, StoredGame
from damka.controller.view_builder import active_sides, game_view, player_colours, result_view, with_notice
from damka.controller.views import Colour, MenuView, ResultView, View
from damka.engine.game import Game
from damka.engine.variant import Result, Variant
from damka.hardware.interfaces import Button, ButtonPress, ClockPress, InputEvent, LedFrame, Role, Snapshot

__all__ = ["App", "AppState", "CHECKPOINT_MS", "NAVIGATION"]

# Clock buttons in a menu, by side: the first side's moves up, the second's
# down, and so on round the board.
NAVIGATION = (Button.UP, Button.DOWN)


class Ticker(Protocol):
    """Something that watches the app in time: ticked with it, woken at its deadline."""

    def tick(self, now: int) -> None: ...

    def next_deadline(self) -> int | None: ...


class App(AppMenus, AppOffers, AppCommands):
    """Menus, one game at a time, the store's recorder and the match."""

    def __init__(self, *, store: Store | None = None, setup: GameSetup | None = None,
                 players: Sequence[str] | None = None, offer_resume: bool = True, start_game: bool = False,
                 seed: int | None = None, checkpoint_ms: int = CHECKPOINT_MS,
                 chooser: Chooser | None = None, inline_thinking: bool = False, side_buttons: int = 4) -> None:
        """`chooser`: the computer's moves from this `Chooser`, at once (tests
        that want determinism); by default the search (`ComputerOpponent`)
        thinks off the loop at the game's level.

        `inline_thinking`: after every input and tick, wait for the
        computer's search and the coach's work to finish (`Session.settle`),
        so they take no time on the board's clock: for scripted replays in
        virtual time (`sim.window.play_script`, tests). The board's own loop
        leaves it off and keeps polling.

        `side_buttons`: how many turn/clock buttons the board has (2 on the
        minimal six-button board): a side without its own ends its turn with ok."""
        if players and start_game:
            sides = len(build_variant(setup or GameSetup()).sides)
            if len(players) != sides:
                raise ValueError(f"--players: {len(players)} name{'s' if len(players) != 1 else ''} "
                                 f"({', '.join(players)}) for a game of {sides} sides; give one name per side")
        self.store = store
        self.writes = WriteQueue(store, lambda: self.now) if store is not None else None  # kept until written
        self.chooser = chooser
        self.inline_thinking = inline_thinking
        self.side_buttons = side_buttons
        self.tickers: list[Ticker] = []  # watchers of time passing (the cues' clock warnings)
        self.board_settings = BoardSettings()
        self.settings_listeners: list[Callable[[BoardSettings], None]] = []  # the LEDs, the cues
        self.setup = setup or GameSetup()
        # The external engines the board config names (GameSetup.engines): every game set up
        # here (the menu, the web page, a resume) chooses among these, by name.
        self.engines = self.setup.engines
        self.bus = ev.EventBus()
        # Called on the board's thread after every input and tick: an outside
        # driver (the web page) runs the commands it queued here, never from its own thread.
        self.pumps: list[Callable[[], None]] = []
        # Features beside the App (DXP): told of each game and input, they add to the view and menu.
        self.hooks: list[AppHooks] = []
        # Who plays a resumed game's seats from afar (the web page's driver sets it;
        # None: no page, those seats come back at the table).
        self.remote_player: resume_mod.RemoteMaker | None = None
        self._pumping = False
        self.now = 0
        self.random = random.Random(seed)
        self.checkpoint_ms = checkpoint_ms
        self.occupied: frozenset[str] = frozenset()
        self._sensed = False     # a snapshot of the board has come in
        self.built: BuiltGame | None = None
        self.recorder: Recorder | None = None
        self.game_players: list[str] = []
        self.overlay: Menu | None = None
        self.result_view: ResultView | None = None
        self.menu: Menu = game_menu(self.setup)
        self.state = AppState.MENU
        self.notice = ""  # a line for whoever is at the board (names that did not fit): on its screen
        self.banner = ""  # a line of an outside driver (the web page's pairing code, who changed what)
        self._resume_offer: StoredGame | None = None
        self._named_players = list(players) if players else []
        self.match = Match(list(players) if players else [])
        if players and self.setup.colours == "lot":
            self.random.shuffle(self.match.players)  # colours (draughts) or order of play by lot
        self._handlers: dict[type, Callable[[Any], None]] = {
            Snapshot: self._on_snapshot, ClockPress: self._on_clock, ButtonPress: self._on_button,
        }
        if offer_resume and store is not None:
            offer = store.last_unfinished()
            if offer is not None:
                self._resume_offer = offer
                self.menu = resume_menu(resume_mod.describe(offer))
                self.state = AppState.RESUME
        if start_game and self.state is AppState.MENU:
            self.new_game(self.setup)

    # -- what the game is -----------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.built.session if self.built is not None else None

    @property
    def clock(self) -> Clock | None:
        return self.built.clock if self.built is not None else None

    @property
    def game_id(self) -> int | None:
        return self.recorder.game_id if self.recorder is not None else None

    @property
    def board_game(self) -> Game | None:
        """The game whose pieces belong on the board: the session's, or the one offered for resuming."""
        if self.session is not None:
            return self.session.game
        return self._resume_offer.game if self._resume_offer is not None else None

    @property
    def frame(self) -> LedFrame:
        if self.state is AppState.GAME and self.session is not None:
            if not self.board_settings.last_move:
                return {square: role for square, role in self.session.frame.items() if role is not Role.LAST_MOVE}
            return self.session.frame
        if self.state is AppState.RESUME and self._resume_offer is not None:
            return resume_mod.guidance_frame(self._resume_offer, self.occupied)
        return {}

    def clock_ms(self) -> list[int] | None:
        """Time left per side now (None: no clock)."""
        if self.clock is None:
            return None
        return list(self.clock.view(self.now).remaining_ms)

    # -- input ------------------------------------------------------------------------

    def handle(self, event: InputEvent) -> None:
        self.now = max(self.now, event.time_ms)
        self._handlers[type(event)](event)
        self._settle()
        self._after()
        self._tell_hooks()

    def tick(self, now_ms: int) -> None:
        self.now = max(self.now, now_ms)
        if self.session is not None:
            self.session.tick(self.now)
        for ticker in self.tickers:
            ticker.tick(self.now)
        self._settle()
        self._after()
        self._tell_hooks()

    def _tell_hooks(self) -> None:
        for hooks in list(self.hooks):
            hooks.after_input()

    def next_deadline(self) -> int | None:
        due = []
        if self.session is not None:
            deadline = self.session.next_deadline()
            if deadline is not None:
                due.append(deadline)
        if self.clock is not None and self.clock.state is State.RUNNING:
            deadline = self.clock.next_deadline(self.now)
            if deadline is not None:
                due.append(deadline)
            if self.recorder is not None and self.recorder.next_checkpoint is not None:
                due.append(self.recorder.next_checkpoint)
        if self.writes is not None and self.writes.retry_at is not None:
            due.append(self.writes.retry_at)  # the store failed: try again then, input or not
        due.extend(time for time in (ticker.next_deadline() for ticker in self.tickers) if time is not None)
        due.extend(time for time in (hooks.next_deadline(self.now) for hooks in self.hooks) if time is not None)
        future = [time for time in due if time > self.now]
        return min(future) if future else None

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        self.occupied = snapshot.occupied
        self._sensed = True
        if self.session is not None:
            self.session.handle(snapshot)  # the session keeps watching the board, menus open or not

    def _on_clock(self, press: ClockPress) -> None:
        if self.state is AppState.GAME and self.session is not None and self.overlay is None:
            self.session.handle(press)
        else:
            # No game on the board (a menu, the result): the clock buttons move
            # between rows, so a board without up/down buttons reaches every menu.
            self._on_button(ButtonPress(NAVIGATION[press.side % len(NAVIGATION)], press.time_ms))

    def _on_button(self, press: ButtonPress) -> None:
        button = press.button
        if self.state is AppState.GAME and self.overlay is None:
            if button is Button.MENU:
                menu = self._game_actions()  # (app_offers.py: Accept/Decline while an offer waits)
                for hooks in self.hooks:
                    menu = hooks.game_menu(menu)
                self.overlay = menu
            elif button is Button.OK and self.clock is not None and self.clock.state is State.PAUSED:
                self._from_board(lambda: self.resume_clock("the board's ok button"))  # logged like every restart
            elif button is Button.OK and self.session is not None and self.session.game.turn >= self.side_buttons:
                self.session.handle(ClockPress(self.session.game.turn, press.time_ms))  # no button of its own
            elif self.session is not None:
                self.session.handle(press)
            return
        menu = self.overlay if self.overlay is not None else self.menu
        action = menu.press(button)
        self._settings_changed(menu)
        if action is not None:
            self._act(action)

    def _settle(self) -> None:
        if self.inline_thinking and self.session is not None and self.state is AppState.GAME:
            self.session.settle()

    def _after(self) -> None:
        """After every input: store what is buffered, checkpoint a running clock, run the pumps."""
        if self.recorder is not None:
            self.recorder.flush()
            if self.state is AppState.GAME:
                self.recorder.checkpoint_due(self.now)
        elif self.writes is not None:
            self.writes.drain()
        if self.pumps and not self._pumping:
            self._pumping = True  # a pump that drives the app (handle) does not pump again
            try:
                for pump in list(self.pumps):
                    pump()
            finally:
                self._pumping = False

    # -- games ------------------------------------------------------------------------

    def new_game(self, setup: GameSetup, *, remote: Opponent | None = None,
                 remote_label: str = " (remote)") -> None:
        """Start a game as `setup` says: the board guides the pieces to the start.

        `remote`: the seats `setup` gives the computer (mode "computer"), or
        the remote's own `seats` when it names them (any seat), are played by
        this opponent instead (a player on the web page): the board lights its
        moves for the person at the table exactly as the computer's. Beside the
        remote's own seats, `setup.computers` other seats are the computer's
        (3-4 players; `SeatOpponents` routes each turn), the rest at the table."""
        self._abandon_current()
        if self.engines and not setup.engines:
            setup = replace(setup, engines=self.engines)
        self.setup = setup
        variant = build_variant(setup)
        computer: frozenset[int] = frozenset()
        engine: frozenset[int] = frozenset()
        far = frozenset(remote.seats or ()) if remote is not None else frozenset()   # its own seats (any seat)
        if setup.mode == "computer" and far:
            # 3-4 players: `computers` of the other seats are the computer's, the rest at the table.
            engine = engine_seats(setup.computers, setup.colours, len(variant.sides), far, self.random.sample)
            computer = far | engine
        elif setup.mode == "computer":
            computer = setup.computer_seats(len(variant.sides), draw=self.random.sample)
        seed = self.random.randrange(1 << 30) if computer and self.chooser is None and (remote is None or engine) \
            else None
        built = build_game(setup, variant=variant, chooser=None if engine else self.chooser, seed=seed,
                           computer_sides=computer)
        if remote is not None and computer:
            seat_remote(built.session, remote, far or built.computer_sides, engine)
        opponent = built.session.opponent
        engine_name = opponent.engine_name if opponent is not None else ""   # an external engine's name
        computer_label = f" ({engine_name})" if engine_name else " (computer)"
        labels = {seat: remote_label if remote is not None and seat not in engine else computer_label
                  for seat in computer}
        self._choose_players(variant, labels)
        self._start(built, self._recorder_for(built))

    def _choose_players(self, variant: Variant, labels: dict[int, str]) -> None:
        """The players of the game: the names given, else the sides' own with `labels` ("(computer)") by seat."""
        self.notice = ""
        if not self.match.players or len(self.match.players) != len(variant.sides):
            named = self._named_players
            if named and len(named) == len(variant.sides):
                self.match = Match(list(named))           # the names given fit this game again
            else:
                if named:
                    self.notice = (f"{plurals.english(len(named), 'player name')} for a game of "
                                   f"{len(variant.sides)} sides: the sides' own names are used")
                self.match = Match(_default_players(variant, labels))
        self.game_players = self.match.order()

    def _recorder_for(self, built: BuiltGame, game_id: int | None = None) -> Recorder | None:
        if self.store is None:
            return None
        tags = resume_mod.record_tags(built)
        for hooks in self.hooks:
            tags.update(hooks.record_tags(built))
        return Recorder(self.store, built.session, built.clock, players=self.game_players, mode=built.setup.mode,
                        time_control=built.time_control, tags=tags,
                        now=lambda: self.now, game_id=game_id, checkpoint_ms=self.checkpoint_ms, queue=self.writes)

    def _start(self, built: BuiltGame, recorder: Recorder | None) -> None:
        """Make `built` the game on the board: wire its events, show what the board shows now."""
        for hooks in self.hooks:
            hooks.game_started(built)
        self.built = built
        self.recorder = recorder
        self.state = AppState.GAME
        self.overlay = None
        self.result_view = None
        variant = built.session.variant
        # The names people gave, by side ("" where the side's own word, with a label, stands in).
        built.session.name_players([name if not name.startswith(variant.player_name(i)) else ""
                                    for i, name in enumerate(self.game_players)])
        bus = built.session.bus
        built.session.takeback_consent = self._board_takeback   # app_offers.py: asked of a remote seat
        if recorder is not None:
            bus.subscribe(recorder)
        bus.subscribe(self._game_over, ev.GameOver)
        bus.subscribe(self.bus.publish)
        if self._sensed:  # what the board shows now (before its first snapshot the session waits for it)
            built.session.handle(Snapshot(self.occupied, self.now))

    def _abandon_current(self) -> None:
        """A game left for a new one is kept, unfinished no more: result '*'."""
        if self.recorder is not None:
            self.recorder.abandon()
        if self.session is not None:
            self.session.close()  # a search still running is abandoned
        self.recorder = None

    def take_up(self, stored: StoredGame) -> None:
        """Play on `stored` (an unfinished game) now, as the resume offer would:
        the board guides the pieces to its position (a feature's own resume: DXP)."""
        self._resume_offer = stored
        self._resume()

    def _resume(self) -> None:
        offer = self._resume_offer
        if offer is None:
            return
        self._resume_offer = None
        seed = self.random.randrange(1 << 30) if self.chooser is None else None
        built = resume_mod.resume_game(offer, chooser=self.chooser, seed=seed, engines=self.engines,
                                       remote=self.remote_player)
        self.setup = built.setup
        self.match = Match(list(offer.players))
        self.game_players = list(offer.players)
        self._start(built, self._recorder_for(built, game_id=offer.id))

    def adjudicate(self, winner: int | None, reason: str) -> None:
        """End the game as the arbiter decides (`winner` None: a draw), stored
        with `reason` in the result and the arbiter log (a feature's own
        adjudication: DXP after the peer is gone)."""
        self._declare_end(None if winner is None else 1 - winner, reason)

    def _declare_end(self, loser: int | None, reason: str) -> None:
        """End the game from the menu (agreement, resignation). With three or
        four players a resignation takes the player out (as a flag does)."""
        self.overlay = None
        session = self.session
        if session is None or session.result is not None:
            return
        sides = len(session.variant.sides)
        if loser is not None and sides > 2:
            self._drop(loser, reason)
            return
        if loser is None:
            result = Result(tuple(1 / sides for _ in range(sides)) if sides == 2 else tuple(0.0 for _ in range(sides)),
                            tuple(1 for _ in range(sides)), reason)
        else:
            winner = 1 - loser
            result = Result(tuple(1.0 if i == winner else 0.0 for i in range(2)),
                            tuple(1 if i == winner else 2 for i in range(2)), reason, winner)
        if self.recorder is not None:
            self.recorder.log_arbiter("result", reason, self.now)
        session.declare(result, at_ms=self.now)  # the session stops the clock; GameOver ends it here

    def _drop(self, side: int, reason: str) -> None:
        """A player out of a 3-4 player game: through the clock when there is
        one, even before it started (the same path as a flag: the clock passes
        the turn on and skips the side from then on, the session takes the side
        out and guides the board back), else straight to the session."""
        session = self.session
        assert session is not None
        if self.clock is not None and self.clock.state is not State.FINISHED:
            try:
                self.clock.drop(side, self.now, reason)
            except ClockError:
                pass
            session.tick(self.now)  # the session drains the clock: SideOut (or GameOver) is acted on now
        if session.result is None and side in active_sides(session):
            session.drop_side(side, reason, at_ms=self.now)
        self._after()

    def _game_over(self, event: ev.GameOver) -> None:
        session = self.session
        if session is None or self.state is AppState.RESULT:
            return
        self.match.record(self.game_players, event.result, session.scores)
        self.result_view = result_view(session, event.result, self.game_players, self.match)
        self.state = AppState.RESULT
        self.menu = Menu("Result", [Row("start", "Next game"), Row("new", "Menu")])

    # -- the screen ---------------------------------------------------------------------

    def colours(self) -> dict[str, Colour]:
        return player_colours(self.session, self.game_players)

    def view(self) -> View:
        if self.overlay is not None:
            return MenuView(self.overlay, subtitle=_lines(self._title(), self.offer_line(), self.banner))
        if self.state is AppState.RESULT and self.result_view is not None:
            return self.result_view
        if self.state in (AppState.MENU, AppState.RESUME) or self.session is None:
            return MenuView(self.menu, subtitle=_lines(self.menu.description, self.banner), warning=self.notice)
        view = game_view(self.session, self.clock, self.game_players, self._title(), self.now)
        view = with_notice(with_notice(view, self.offer_line() or self.remote_line(), alert=True), self.banner,
                           alert=False)
        view = with_notice(view, self.notice, alert=False)  # wrapped in the screen's message box
        view = with_notice(view, self.writes.notice(self.now) if self.writes is not None else "",
                           alert=self.writes is not None and self.writes.failing)
        return self._hooked_view(view)

    def _hooked_view(self, view: View) -> View:
        for hooks in self.hooks:
            view = hooks.view(view)
        return view

    def _title(self) -> str:
        if self.session is None:
            return ""
        helpers = (self.session.opponent, self.session.coach)
        engine = next((h.engine_name for h in helpers if h is not None and h.engine_name), "")
        return f"{self.session.variant.title} - {self.setup.mode}" + (f" - {engine}" if engine else "")


def _lines(*parts: str) -> str:
    return "  ".join(part for part in parts if part)


def _default_players(variant: Variant, labels: dict[int, str]) -> list[str]:
    return [variant.player_name(index) + labels.get(index, "") for index in range(len(variant.sides))]
