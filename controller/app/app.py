"""The app: what runs on the board (and in the simulator window).

It routes the inputs (occupancy snapshots, clock presses, menu buttons) to
the menus or to the game and gives out what the LEDs show (`frame`) and what
the screen shows (`view()`). It has the same shape as the session (`handle`,
`tick`, `next_deadline`, `frame`), so whatever drives a session (the virtual
board, the board loop, the pygame window) drives the app.

`App` is the coordinator; each part owns its own state:

- `games.Games`: the game on the board (built by `game/factory.py`, the one
  path shared with `damka replay`), its recorder, the match and its players,
  the stored game offered for resuming;
- `screens.Screens`: which screen shows (a menu, the resume offer, a game,
  the result) and the menu over it;
- `menu_actions.MenuActions`: what a menu row does;
- `offer_desk.OfferDesk`: draw offers and take-back requests;
- `commands.ArbiterCommands`: the arbiter's commands (clock, result, resign);
- `hooks.AppListener`: the one way a part outside the App hears it (the page,
  the hall, the cues, the LEDs' light, DXP): `App.listen(listener)`.

Everything a game publishes is also published on `App.bus`; a listener that
overrides `AppListener.on_event` is subscribed to it once for all games.
What the App shows, outside parts read from `read_model()`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from damka.controller import events as ev
from damka.controller.app import resume as resume_mod
from damka.controller.app.commands import ArbiterCommands
from damka.controller.app.games import Games
from damka.controller.app.hooks import AppListener
from damka.controller.app.teaching_desk import TeachingDesk
from damka.controller.app.listeners import Listeners
from damka.controller.app.menu_actions import MenuActions
from damka.controller.app.offer_desk import OfferDesk
from damka.controller.app.app_view import app_frame, app_view
from damka.controller.app.read_model import AppReadModel, ReadModelKeeper
from damka.controller.app.screens import AppState, Screens
from damka.controller import words
from damka.controller.app.board_settings import SETTINGS_MENU, BoardSettings, settings_menu
from damka.controller.players.chooser import Chooser
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import State
from damka.controller.game.factory import build_variant
from damka.controller.app.menus import game_menu
from damka.controller.players import Opponent
from damka.controller.app.recorder import CHECKPOINT_MS, WriteQueue
from damka.controller.session import CarryingOut, Session
from damka.controller.game.setup import GameSetup
from damka.controller.store.rows import StoredGame
from damka.controller.store.store import Store
from damka.controller.app.view_builder import player_colours
from damka.controller.app.views import Colour, View
from damka.controller.words import say
from damka.engine.game import Game
from damka.hardware.interfaces import Button, ButtonPress, ClockPress, InputEvent, LedFrame, Snapshot

# Clock buttons in a menu, by side: the first side's moves up, the second's
# down, and so on round the board.
NAVIGATION = (Button.UP, Button.DOWN)


# Any: a property whose value is the part's own field or bound method (typed there).
def _owned_by(part: str, name: str, doc: str | None = None) -> Any:
    """A read-only App attribute (or command) that one of its parts owns: one
    owner, read everywhere; a command's doc is its owner's."""
    return property(lambda app: getattr(getattr(app, part), name), doc=doc)


def _command_of(owner: type, name: str) -> Any:
    """The App's command `name`, done by its part of class `owner` (its doc says what it does)."""
    parts: dict[type, str] = {OfferDesk: "offer_desk", ArbiterCommands: "commands"}
    part = parts[owner]
    return _owned_by(part, name, getattr(owner, name).__doc__)


class App:
    """Menus, one game at a time, the store's recorder and the match."""

    # Read from the part that owns each (games.py, screens.py).
    built = _owned_by("games", "built", "The game on the board (session, clock, setup), or None.")
    recorder = _owned_by("games", "recorder", "The game's recorder (None without a store).")
    setup = _owned_by("games", "setup", "The setup of the game on the board (and of the next one).")
    engines = _owned_by("games", "engines", "The external engines the board config names.")
    match = _owned_by("games", "match", "The match: its players and standings.")
    game_players = _owned_by("games", "game_players", "The players of the game on the board, by side.")
    state = _owned_by("screens", "state", "Which screen shows (AppState).")
    menu = _owned_by("screens", "menu", "The menu under the game (the new-game menu, the result's).")
    overlay = _owned_by("screens", "overlay", "The menu open over the game or a menu (None: none).")
    result_view = _owned_by("screens", "result_view", "The last game's result, as its screen shows it.")
    shown_menu = _owned_by("screens", "shown_menu", "The menu on the screen now (None: the game or the result).")
    # Offers (offer_desk.py): a draw offered, a take-back asked, and answered.
    offers = _owned_by("offer_desk", "offers", "The offers of the game on the board (a new game: none pending).")
    pending_offer = _owned_by("offer_desk", "pending_offer", "The offer waiting for its answer (None: none).")
    remote_sides = _command_of(OfferDesk, "remote_sides")
    remote_line = _command_of(OfferDesk, "remote_line")
    offer = _command_of(OfferDesk, "offer")
    answer_offer = _command_of(OfferDesk, "answer_offer")
    offer_line = _command_of(OfferDesk, "offer_line")
    # The arbiter's commands (commands.py): each says what it did, or raises CommandRefused.
    side_label = _command_of(ArbiterCommands, "side_label")
    pause_clock = _command_of(ArbiterCommands, "pause_clock")
    resume_clock = _command_of(ArbiterCommands, "resume_clock")
    adjust_clock = _command_of(ArbiterCommands, "adjust_clock")
    set_clock = _command_of(ArbiterCommands, "set_clock")
    undo_clock_press = _command_of(ArbiterCommands, "undo_clock_press")
    declare_result = _command_of(ArbiterCommands, "declare_result")
    resign = _command_of(ArbiterCommands, "resign")
    menu_action = _command_of(ArbiterCommands, "menu_action")

    def __init__(self, *, store: Store | None = None, setup: GameSetup | None = None,
                 players: Sequence[str] | None = None, offer_resume: bool = True, start_game: bool = False,
                 seed: int | None = None, checkpoint_ms: int = CHECKPOINT_MS, chooser: Chooser | None = None,
                 inline_thinking: bool = False, side_buttons: int = 4, carrying_out: CarryingOut = CarryingOut.NOBODY,
                 ) -> None:
        """`chooser`: the computer's moves from this `Chooser`, at once (tests
        that want determinism); by default the search (`ComputerOpponent`)
        thinks off the loop at the game's level.

        `inline_thinking`: after every input and tick, wait for the
        computer's search and the coach's work to finish (`Session.settle`),
        so they take no time on the board's clock: for scripted replays in
        virtual time (`sim.window.play_script`, tests). The board's own loop
        leaves it off and keeps polling.

        `side_buttons`: the board's turn/clock buttons (2 on the minimal six-button board): a side
        without its own ends its turn with ok. `carrying_out`: the board config's, for every game."""
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
        self.board_settings = BoardSettings()
        self.bus = ev.EventBus()   # every event of every game: the listeners' `on_event`, the tests
        self._listeners = Listeners(self.bus)   # the parts outside that hear it (hooks.py)
        self.now = 0
        self.random = random.Random(seed)
        self.checkpoint_ms = checkpoint_ms
        self.occupied: frozenset[str] = frozenset()
        self.sensed = False     # a snapshot of the board has come in
        self.banner = ""  # a line of an outside driver (the web page's pairing code, who changed what)
        setup = setup or GameSetup()
        self.screens = Screens(game_menu(setup))
        self.games = Games(self, setup, players, carrying_out)
        self.menu_actions = MenuActions(self)
        self.offer_desk = OfferDesk(self)
        self.commands = ArbiterCommands(self)
        self._read_model = ReadModelKeeper()
        self.teaching = TeachingDesk(self)   # lessons, puzzles, the learner and their progress
        self.listen(self.teaching.ticks)
        self._handlers: dict[type, Callable[[Any], None]] = {
            Snapshot: self._on_snapshot, ClockPress: self._on_clock, ButtonPress: self._on_button,
        }
        if offer_resume and store is not None:
            offer = store.last_unfinished()
            if offer is not None:
                self.games.offer_stored(offer)
        if start_game and self.state is AppState.MENU:
            self.new_game(self.setup)

    # -- what the game is -----------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.games.session

    @property
    def clock(self) -> Clock | None:
        return self.games.clock

    @property
    def game_id(self) -> int | None:
        recorder = self.recorder
        return recorder.game_id if recorder is not None else None

    @property
    def notice(self) -> str:
        """A line for whoever is at the board (names that did not fit, a file saved): on its screen."""
        return self.games.notice

    @notice.setter
    def notice(self, text: str) -> None:
        self.games.notice = text

    @property
    def board_game(self) -> Game | None:
        """The game whose pieces belong on the board: a lesson's or puzzle's, the session's, or the one offered."""
        if self.state is AppState.LESSON and self.teaching.board_game is not None:
            return self.teaching.board_game
        if self.session is not None:
            return self.session.game
        offer = self.games.resume_offer
        return offer.game if offer is not None else None

    @property
    def frame(self) -> LedFrame:
        return app_frame(self)

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
        self.flush()

    def tick(self, now_ms: int) -> None:
        self.now = max(self.now, now_ms)
        if self.session is not None:
            self.session.tick(self.now)
        for listener in self._listeners:
            listener.tick(self.now)
        self._settle()
        self.flush()

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
        due.extend(time for time in (listener.next_deadline(self.now) for listener in self._listeners)
                   if time is not None)
        future = [time for time in due if time > self.now]
        return min(future) if future else None

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        self.occupied = snapshot.occupied
        self.sensed = True
        if self.state is AppState.LESSON:
            self.teaching.see(snapshot.occupied, self.now)  # a game left under the menu does not see the lesson's board
        elif self.session is not None:
            self.session.handle(snapshot)  # the session keeps watching the board, menus open or not

    def _on_clock(self, press: ClockPress) -> None:
        if self.screens.in_game and self.session is not None:
            self.session.handle(press)
        else:
            # No game on the board (a menu, the result): the clock buttons move
            # between rows, so a board without up/down buttons reaches every menu.
            self._on_button(ButtonPress(NAVIGATION[press.side % len(NAVIGATION)], press.time_ms))

    def _on_button(self, press: ButtonPress) -> None:
        button = press.button
        if self.screens.in_game:
            if button is Button.MENU:
                menu = self.offer_desk.game_actions()  # (Accept/Decline while an offer waits)
                for listener in self._listeners:
                    menu = listener.game_menu(menu)
                self.screens.open_overlay(menu)
            elif button is Button.OK and self.clock is not None and self.clock.state is State.PAUSED:
                # logged like every restart
                self.menu_actions.from_board(lambda: self.resume_clock(say("where.ok_button")))
            elif button is Button.OK and self.session is not None and self.session.game.turn >= self.side_buttons:
                self.session.handle(ClockPress(self.session.game.turn, press.time_ms))  # no button of its own
            elif self.session is not None:
                self.session.handle(press)
            return
        if self.state is AppState.LESSON and self.overlay is None:
            self.teaching.press(button)
            return
        menu = self.overlay if self.overlay is not None else self.menu
        action = menu.press(button)
        self.menu_actions.settings_changed(menu)
        if action is not None:
            self.menu_actions.act(action)

    def _settle(self) -> None:
        if self.inline_thinking and self.session is not None and self.state is AppState.GAME:
            self.session.settle()

    def flush(self) -> None:
        """After every input: store what is buffered, checkpoint a running clock, tell the listeners."""
        if self.recorder is not None:
            self.recorder.flush()
            if self.state is AppState.GAME:
                self.recorder.checkpoint_due(self.now)
        elif self.writes is not None:
            self.writes.drain()
        self._listeners.after_input()

    # -- the listeners ------------------------------------------------------------------

    def listen(self, listener: AppListener, *, first: bool = False) -> Callable[[], None]:
        """`listener` hears the App from now on (`first`: before those added already,
        as the page's driver runs its queued commands before anyone looks); the
        returned function takes it away again (as `unlisten`)."""
        return self._listeners.add(listener, first=first)

    def unlisten(self, listener: AppListener) -> None:
        """`listener` hears the App no more (nothing happens if it did not)."""
        self._listeners.remove(listener)

    @property
    def listeners(self) -> tuple[AppListener, ...]:
        """The listeners, in the order they are told."""
        return tuple(self._listeners)

    def remote_maker(self) -> resume_mod.RemoteMaker | None:
        """Who plays a resumed game's seats from afar (None: they come back to the table)."""
        return self._listeners.remote_maker()

    # -- games ------------------------------------------------------------------------

    def new_game(self, setup: GameSetup, *, remote: Opponent | None = None,
                 remote_label: str | None = None) -> None:
        """Start a game as `setup` says: the board guides the pieces to the start.

        `remote`: the seats `setup` gives the computer (mode "computer"), or
        the remote's own `seats` when it names them (any seat), are played by
        this opponent instead (a player on the web page): the board lights its
        moves for the person at the table exactly as the computer's. Beside the
        remote's own seats, `setup.computers` other seats are the computer's
        (3-4 players; `SeatOpponents` routes each turn), the rest at the table."""
        self.games.new_game(setup, remote=remote, remote_label=remote_label)

    def take_up(self, stored: StoredGame) -> None:
        """Play on `stored` (an unfinished game) now, as the resume offer would:
        the board guides the pieces to its position (a feature's own resume: DXP)."""
        self.games.take_up(stored)

    def adjudicate(self, winner: int | None, reason: str) -> None:
        """End the game as the arbiter decides (`winner` None: a draw), stored
        with `reason` in the result and the arbiter log (a feature's own
        adjudication: DXP after the peer is gone)."""
        self.games.declare_end(None if winner is None else 1 - winner, reason)

    def set_player_names(self, names: Sequence[str]) -> None:
        """The players' names for the next game (one per side; none: the sides' own names)."""
        self.games.set_player_names(names)

    # -- menus and settings -------------------------------------------------------------

    def step_menu(self, delta: int) -> None:
        """Keyboard left/right in a menu: step the current setting."""
        self.menu_actions.step_menu(delta)

    def tap_menu(self, index: int) -> None:
        """A tap (touch screen, mouse) on the `index`-th row of the menu shown: as ok on that row."""
        self.menu_actions.tap_menu(index)

    def set_board_settings(self, settings: BoardSettings) -> None:
        """New board settings (the menu, the config at start, later the web page): tell the listeners."""
        if settings != self.board_settings:
            before = words.language()
            words.follow(settings)  # first: the menus open and the listeners speak the new language
            self.screens.retell(before)
            self.games.retell_players(before)  # "Black (computer)" -> "Czarne (komputer)"
            if self.session is not None:
                self.session.line.retell(before)  # "set up the pieces" -> "ustaw pionki"
            self.teaching.retell()  # (its menus' rows are lesson titles and filled-in lines)
            self.board_settings = settings
            overlay = self.overlay
            if overlay is not None and overlay.name == SETTINGS_MENU:  # open while the page changed them:
                shown = settings_menu(settings)                          # it shows them (and keeps them)
                shown.cursor = overlay.cursor
                self.screens.open_overlay(shown)
            for listener in self._listeners:
                listener.settings_changed(settings)

    # -- the screen ---------------------------------------------------------------------

    def colours(self) -> dict[str, Colour]:
        return player_colours(self.session, self.game_players)

    def view(self) -> View:
        return app_view(self)

    # -- the read model: what everyone outside reads --------------------------------------

    def read_model(self) -> AppReadModel:
        """The App as the screen, the page, the hall and DXP read it: a frozen
        snapshot whose `version` moves exactly when something it shows changed
        since the last one (controller/app/read_model.py)."""
        return self._read_model.read(self)
