"""The app: what runs on the board (and in the simulator window).

It wires the inputs (occupancy snapshots, clock presses, menu buttons) to the
session, the clock and the game store, and gives out what the LEDs show
(`frame`) and what the screen shows (`view()`). It has the same shape as the
session (`handle`, `tick`, `next_deadline`, `frame`), so whatever drives a
session (the virtual board, the hardware loop, the pygame window) drives the
app unchanged.

States: the new-game menu, the resume offer (an unfinished game was stored),
a game (with the in-game menu over it on the menu button), and the result
with the match standings. Every committed move is stored in its own
transaction as soon as the session commits it; the running clock is
checkpointed every `CHECKPOINT_MS` (0.75 s).
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field
from typing import Any, Sequence

from damka.controller import resume as resume_mod
from damka.controller import timecontrol
from damka.controller.chooser import Chooser
from damka.controller.clock import Clock, State
from damka.controller.clock_errors import ClockError
from damka.controller.coach import Coach
from damka.controller.opponent import ComputerOpponent
from damka.controller.session import CommittedMove, Mode, Phase, Session, SessionSettings
from damka.controller.store import Store, StoredGame
from damka.display.menu import GameMenu, GameSetup, Menu, MenuAction, Row, game_actions_menu, game_menu, resume_menu
from damka.display.screen import GameView, MenuView, ResultView, SideLine, Standing, View
from damka.display.widgets import side_colour
from damka.engine.game import Game
from damka.engine.variant import Result, Variant
from damka.engine.variants import find_variant
from damka.hardware.interfaces import Button, ButtonPress, ClockPress, InputEvent, LedFrame, Role, Snapshot

# The running clock is saved this often between moves: a power cut costs a
# player at most this much thinking time (plus one loop pass). One small
# transaction (one fsync) a second is nothing for the SD card or the CPU.
CHECKPOINT_MS = 750


class AppState(enum.Enum):
    MENU = "menu"
    RESUME = "resume"
    GAME = "game"
    RESULT = "result"


class SessionClock:
    """The clock as the session sees it: a clock paused after a resume starts
    again with the first move committed (the players have resumed play).

    It is the real clock otherwise: the session polls it (`update`,
    `next_deadline`), so the session alone drains its events and acts on the
    flags (loss on time, a player out, an earlier-stage flag shown); the app
    reads what happened from the session's events."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock

    @property
    def state(self) -> State:
        return self.clock.state

    def update(self, now: int | None = None) -> list:
        return self.clock.update(now)

    def next_deadline(self, now: int | None = None) -> int | None:
        return self.clock.next_deadline(now)

    def view(self, now: int | None = None) -> Any:
        return self.clock.view(now)

    def stop(self, now: int | None = None, reason: str = "game over", loser: int | None = None) -> None:
        self.clock.stop(now, reason, loser)

    def press(self, side: int, now: int | None = None, *, board_ok: bool = True, reason: str = "",
              moves: int = 1) -> Any:
        if board_ok and self.clock.state is State.PAUSED:
            self.clock.resume(now)
        if self.clock.state is not State.RUNNING:
            return None
        return self.clock.press(side, now, board_ok=board_ok, reason=reason, moves=moves)


@dataclass
class Match:
    """Standings over the games of one sitting: points for two sides, small
    points for three or four players; the first turn rotates after each game."""

    players: list[str]
    points: dict[str, float] = field(default_factory=dict)
    small_points: dict[str, int] = field(default_factory=dict)
    games: int = 0

    def order(self) -> list[str]:
        """Players in the order of the sides for the next game (rotates each game)."""
        shift = self.games % len(self.players)
        return self.players[shift:] + self.players[:shift]

    def record(self, players: Sequence[str], result: Result, scores: Sequence[int]) -> None:
        for index, name in enumerate(players):
            self.points[name] = self.points.get(name, 0.0) + (result.points[index] if index < len(result.points) else 0)
            self.small_points[name] = self.small_points.get(name, 0) + (scores[index] if index < len(scores) else 0)
        self.games += 1

    def standings(self, colours: dict[str, tuple[int, int, int]]) -> list[Standing]:
        return [Standing(name, colours.get(name, (200, 200, 200)), self.points.get(name, 0.0),
                         self.small_points.get(name, 0), self.games) for name in self.players]


def make_opponent(setup: GameSetup, variant: Variant, seed: int | None = None) -> ComputerOpponent:
    """The computer at the game's level and time per move, thinking off the loop."""
    return ComputerOpponent(variant, setup.level, time_per_move=setup.move_time, seed=seed)


def make_coach(setup: GameSetup, variant: Variant) -> Coach | None:
    """Learning mode's coach: hints (the game's limit) and blunder warnings."""
    if setup.mode != "learning":
        return None
    return Coach(variant, hint_limit=setup.hint_limit)


def make_variant(setup: GameSetup) -> Variant:
    return find_variant(setup.variant, **setup.variant_options())


def make_clock(setup: GameSetup, variant: Variant) -> Clock | None:
    """The clock for `setup` (None: no clock)."""
    if not setup.time_control:
        return None
    if setup.time_control == "casual":
        control = timecontrol.casual_preset(variant.name, len(variant.sides)).control
    else:
        control = timecontrol.control(setup.time_control)
    return Clock(control, sides=len(variant.sides), moves_per_turn=variant.moves_per_turn)


class App:
    """Menus, one session at a time, its clock, the store and the match."""

    def __init__(self, *, store: Store | None = None, setup: GameSetup | None = None,
                 players: Sequence[str] | None = None, offer_resume: bool = True, start_game: bool = False,
                 seed: int | None = None, checkpoint_ms: int = CHECKPOINT_MS,
                 chooser: Chooser | None = None, inline_thinking: bool = False) -> None:
        """`chooser`: the computer's moves from this `Chooser`, at once (tests
        that want determinism); by default the search (`ComputerOpponent`)
        thinks off the loop at the game's level.

        `inline_thinking`: after every input and tick, wait for the
        computer's search and the coach's work to finish (`Session.settle`),
        so they take no time on the board's clock: for scripted replays in
        virtual time (`sim.window.play_script`, tests). The board's own loop
        leaves it off and keeps polling."""
        if players and start_game:
            sides = len(make_variant(setup or GameSetup()).sides)
            if len(players) != sides:
                raise ValueError(f"--players: {len(players)} name{'s' if len(players) != 1 else ''} "
                                 f"({', '.join(players)}) for a game of {sides} sides; give one name per side")
        self.store = store
        self.chooser = chooser
        self.inline_thinking = inline_thinking
        self.setup = setup or GameSetup()
        self.now = 0
        self.random = random.Random(seed)
        self.checkpoint_ms = checkpoint_ms
        self.occupied: frozenset[str] = frozenset()
        self.session: Session | None = None
        self.clock: Clock | None = None
        self.game_id: int | None = None
        self.game_players: list[str] = []
        self.overlay: Menu | None = None
        self.result_view: ResultView | None = None
        self.menu: Menu = game_menu(self.setup)
        self.state = AppState.MENU
        self.notice = ""
        self._events_seen = 0
        self._log_seen = 0
        self._next_checkpoint: int | None = None
        self._resume_offer: StoredGame | None = None
        self._named_players = list(players) if players else []
        self.match = Match(list(players) if players else [])
        if players and self.setup.colours == "lot":
            self.random.shuffle(self.match.players)  # colours (draughts) or order of play by lot
        self._handlers: dict[type, Any] = {
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

    # -- the listener interface (same as the session's) ------------------------

    def handle(self, event: InputEvent) -> None:
        self.now = max(self.now, event.time_ms)
        self._handlers[type(event)](event)
        self._settle()
        self._after()

    def _on_snapshot(self, snapshot: Snapshot) -> None:
        self.occupied = snapshot.occupied
        if self.session is not None:
            self.session.handle(snapshot)  # the session keeps watching the board, menus open or not

    def _on_clock(self, press: ClockPress) -> None:
        if self.state is AppState.GAME and self.session is not None and self.overlay is None:
            self.session.handle(press)

    def tick(self, now_ms: int) -> None:
        self.now = max(self.now, now_ms)
        if self.session is not None:
            self.session.tick(self.now)
        self._settle()
        self._after()

    def _settle(self) -> None:
        if self.inline_thinking and self.session is not None and self.state is AppState.GAME:
            self.session.settle()

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
            if self._next_checkpoint is not None:
                due.append(self._next_checkpoint)
        future = [time for time in due if time > self.now]
        return min(future) if future else None

    @property
    def board_game(self) -> Game | None:
        """The game whose pieces belong on the board: the session's, or the one offered for resuming."""
        if self.session is not None:
            return self.session.game
        return self._resume_offer.game if self._resume_offer is not None else None

    @property
    def frame(self) -> LedFrame:
        if self.state is AppState.GAME and self.session is not None:
            return self.session.frame
        if self.state is AppState.RESUME and self._resume_offer is not None:
            return resume_mod.guidance_frame(self._resume_offer, self.occupied)
        return {}

    # -- buttons ----------------------------------------------------------------

    def _on_button(self, press: ButtonPress) -> None:
        button = press.button
        if self.state is AppState.GAME and self.overlay is None:
            if button is Button.MENU:
                self.overlay = game_actions_menu(clock_running=bool(self.clock and self.clock.state is State.RUNNING),
                                                 can_take_back=self.setup.mode != "tournament")
            elif button is Button.OK and self.clock is not None and self.clock.state is State.PAUSED:
                self.clock.resume(self.now)
            elif self.session is not None:
                self.session.handle(press)
            return
        menu = self.overlay if self.overlay is not None else self.menu
        action = menu.press(button)
        if action is not None:
            self._act(action)

    def step_menu(self, delta: int) -> None:
        """Keyboard left/right in a menu: step the current setting."""
        menu = self.overlay if self.overlay is not None else self.menu
        if self.state in (AppState.MENU, AppState.GAME) and not menu.current.is_action:
            menu.step(delta)

    def _act(self, action: MenuAction) -> None:
        handler = {
            "start": self._start_from_menu, "back": self._back, "continue": self._close_overlay,
            "resume": self._resume, "new": self._open_new_menu, "draw": self._agree_draw, "resign": self._resign,
            "takeback": self._menu_takeback, "pause": self._pause, "unpause": self._unpause,
        }.get(action.name)
        if handler is not None:
            handler()

    def _start_from_menu(self) -> None:
        setup = self.menu.setup() if isinstance(self.menu, GameMenu) else self.setup  # "next game": the same
        self.new_game(setup)

    def _back(self) -> None:
        if self.overlay is not None:
            self.overlay = None
        elif self.state is AppState.RESULT:
            self._open_new_menu()
        elif self.state is AppState.MENU and self.session is not None and self.session.phase is not Phase.OVER:
            self.state = AppState.GAME

    def _close_overlay(self) -> None:
        self.overlay = None

    def _open_new_menu(self) -> None:
        if self.state is AppState.RESUME and self._resume_offer is not None and self.store is not None:
            self.store.finish(self._resume_offer.id, None)  # declined: kept as abandoned ('*')
            self._resume_offer = None
        self.overlay = None
        self.menu = game_menu(self.setup)
        self.state = AppState.MENU

    def _agree_draw(self) -> None:
        self._declare_end(None, "agreement")

    def _resign(self) -> None:
        if self.session is not None:
            self._declare_end(self.session.game.turn, "resignation")

    def _menu_takeback(self) -> None:
        self.overlay = None
        if self.session is not None:
            self.session.handle(ButtonPress(Button.TAKE_BACK, self.now))

    def _pause(self) -> None:
        self.overlay = None
        if self.clock is not None and self.clock.state is State.RUNNING:
            self.clock.pause(self.now)
            self._checkpoint()

    def _unpause(self) -> None:
        self.overlay = None
        if self.clock is not None and self.clock.state is State.PAUSED:
            self.clock.resume(self.now)

    # -- games ------------------------------------------------------------------

    def new_game(self, setup: GameSetup) -> None:
        """Start a game as `setup` says: the board guides the pieces to the start."""
        self._abandon_current()
        self.setup = setup
        variant = make_variant(setup)
        self.clock = make_clock(setup, variant)
        computer: frozenset[int] = frozenset()
        if setup.mode == "computer":
            computer = setup.computer_seats(len(variant.sides), draw=self.random.sample)
        settings = SessionSettings(mode=Mode(setup.mode), computer_sides=computer or frozenset({1}))
        self.session = Session(variant, settings, clock=SessionClock(self.clock) if self.clock else None,
                               chooser=self.chooser, coach=make_coach(setup, variant))
        if computer and self.chooser is None:
            self.session.opponent = make_opponent(setup, variant, seed=self.random.randrange(1 << 30))
        if not self.match.players or len(self.match.players) != len(variant.sides):
            named = self._named_players
            if named and len(named) == len(variant.sides):
                self.match = Match(list(named))           # the names given fit this game again
            else:
                if named:
                    self.notice = (f"{len(named)} player names for a game of {len(variant.sides)} sides: "
                                   "the sides' own names are used")
                self.match = Match(self._default_players(variant, computer))
        self.game_players = self.match.order()
        self._start_session()

    def _abandon_current(self) -> None:
        """A game left for a new one is kept, unfinished no more: result '*'."""
        if self.session is not None and self.session.result is None and self.game_id is not None:
            if self.store is not None:
                self.store.finish(self.game_id, None, clock_ms=self.clock_ms())
        if self.session is not None:
            self.session.close()  # a search still running is abandoned
        self.game_id = None

    def _default_players(self, variant: Variant, computer: frozenset[int]) -> list[str]:
        names = []
        for index, side in enumerate(variant.sides):
            name = side if variant.family == "draughts" else (side if side.startswith("team") else f"player {side}")
            names.append(f"{name} (computer)" if index in computer else name)
        return [name[:1].upper() + name[1:] for name in names]

    def _start_session(self) -> None:
        self.state = AppState.GAME
        self.overlay = None
        self.result_view = None
        self.game_id = None
        self._events_seen = 0
        self._log_seen = 0
        self._next_checkpoint = None
        if self.session is not None:
            self.session.handle(Snapshot(self.occupied, self.now))  # what the board shows now

    def _resume(self) -> None:
        offer = self._resume_offer
        if offer is None:
            return
        self._resume_offer = None
        self.session, self.clock, self.setup = resume_mod.resume_session(offer)
        if self.clock is not None:
            self.session.clock = SessionClock(self.clock)
        if self.session.mode is Mode.COMPUTER:
            if self.chooser is not None:
                self.session.chooser = self.chooser
            else:
                self.session.opponent = make_opponent(self.setup, self.session.variant,
                                                      seed=self.random.randrange(1 << 30))
        self.session.coach = make_coach(self.setup, self.session.variant)
        self.match = Match(list(offer.players))
        self.game_players = list(offer.players)
        self._start_session()
        self.game_id = offer.id
        self._events_seen = len(self.session.events)

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
        if self.store is not None and self.game_id is not None:
            self.store.log_arbiter(self.game_id, "result", reason, time_ms=self.now)
        session.declare(result, at_ms=self.now)  # the session stops the clock
        self._finish(result)

    def _drop(self, side: int, reason: str) -> None:
        """A player out of a 3-4 player game: through the clock when it runs
        (the same path as a flag: the clock passes the turn on, the session
        takes the side out and guides the board back), else straight to the session."""
        session = self.session
        assert session is not None
        if self.clock is not None and self.clock.state in (State.RUNNING, State.PAUSED):
            try:
                self.clock.drop(side, self.now, reason)
            except ClockError:
                pass
            session.tick(self.now)  # the session drains the clock: SideOut (or GameOver) is acted on now
        if session.result is None and side in _active_sides(session):
            session.drop_side(side, reason, at_ms=self.now)
        self._after()

    # -- after every input: clock, store, screen state ---------------------------

    def _after(self) -> None:
        session = self.session
        if session is None or self.state is not AppState.GAME:
            return
        if self.clock is not None and session.phase is Phase.PLAYING and self.clock.state is State.READY:
            self.clock.start(self.now, first=session.game.turn)
        if self.clock is not None and self.clock.state is State.RUNNING and self._next_checkpoint is None:
            self._next_checkpoint = self.now + self.checkpoint_ms  # (also a clock running again after a resume)
        if session.phase is Phase.PLAYING and self.game_id is None and self.store is not None:
            self._open_record()
        # The clock's events (flags) are drained by the session alone (it polls
        # the clock on every input and tick); they reach the store as its events.
        self._store_events()
        if (self.clock is not None and self._next_checkpoint is not None and self.now >= self._next_checkpoint
                and self.clock.state is State.RUNNING):
            self._checkpoint()

    def _open_record(self) -> None:
        session = self.session
        assert session is not None and self.store is not None
        clock_ms = self.clock_ms()
        self.game_id = self.store.new_game(
            session.variant, start=session.game.start, players=self.game_players, mode=self.setup.mode,
            time_control=self.setup.time_control or None, clock_ms=clock_ms,
            clock_state=self.clock.snapshot(self.now) if self.clock else None, tags=self._record_tags())

    def _record_tags(self) -> dict[str, str]:
        """What a resume needs beyond the game: which sides the computer plays
        and at which level, the hints allowed in learning mode."""
        session = self.session
        if session is None:
            return {}
        if session.mode is Mode.COMPUTER:
            return {resume_mod.COMPUTER_TAG: ",".join(str(side) for side in sorted(session.settings.computer_sides)),
                    resume_mod.LEVEL_TAG: self.setup.level}
        if session.mode is Mode.LEARNING:
            limit = self.setup.hint_limit
            return {resume_mod.HINTS_TAG: "" if limit is None else str(limit)}
        return {}

    def clock_ms(self) -> list[int] | None:
        """Time left per side now (None: no clock)."""
        if self.clock is None:
            return None
        return [side.remaining_ms for side in self.clock.view(self.now).sides]

    def _checkpoint(self) -> None:
        if self.store is not None and self.game_id is not None and self.clock is not None:
            self.store.save_clock(self.game_id, self.clock_ms() or [], self.clock.snapshot(self.now))
        self._next_checkpoint = self.now + self.checkpoint_ms

    def _store_events(self) -> None:
        """Store what the session committed since the last look: one transaction per turn."""
        session = self.session
        assert session is not None
        events = session.events[self._events_seen:]
        self._events_seen = len(session.events)
        store, game_id = self.store, self.game_id
        plies: list[int] = []
        texts: list[str] = []
        for event in events:
            kind = event["type"]
            if kind == "move":
                plies.append(event["ply"])
                texts.append(event["text"])
                continue
            self._flush_moves(plies, texts)
            plies, texts = [], []
            if kind == "takeback" and store is not None and game_id is not None:
                store.take_back(game_id, session.game.ply, clock_ms=self.clock_ms())
            elif kind == "new_game" and store is not None:
                if game_id is not None:
                    store.finish(game_id, None)
                self._open_record()
                game_id = self.game_id
            elif kind == "side_out":
                if store is not None and game_id is not None:
                    store.record_drop(game_id, event["ply"], event["side"], event["reason"],
                                      time_ms=event["time_ms"],
                                      clock_state=self.clock.snapshot(self.now) if self.clock else None)
            elif kind == "flag" and not event["final"]:  # (a last-stage flag: the result or a side out)
                if store is not None and game_id is not None:
                    store.log_arbiter(game_id, "flag", f"side {event['side'] + 1} in stage {event['stage']}: "
                                      "play goes on", time_ms=event["time_ms"])
            elif kind == "result":
                if event["reason"] == "on time" and store is not None and game_id is not None:
                    store.log_arbiter(game_id, "result", "on time", time_ms=event["time_ms"])
                self._finish(session.game.result)
        self._flush_moves(plies, texts)
        if store is not None and self.game_id is not None and len(session.sensor_log) > self._log_seen:
            store.record_events(self.game_id, [(e.time_ms, str(e)) for e in session.sensor_log[self._log_seen:]])
            self._log_seen = len(session.sensor_log)

    def _flush_moves(self, plies: list[int], texts: list[str]) -> None:
        if not plies or self.store is None or self.game_id is None or self.session is None:
            return
        game = self.session.game
        valid = [(ply, text) for ply, text in zip(plies, texts) if ply <= game.ply]
        if valid:
            self.store.record_plies(self.game_id, game, [p for p, _ in valid], texts=[t for _, t in valid],
                                    clock_ms=self.clock_ms(),
                                    clock_state=self.clock.snapshot(self.now) if self.clock else None)
            if self._next_checkpoint is not None:
                self._next_checkpoint = self.now + self.checkpoint_ms

    def _finish(self, result: Result | None) -> None:
        session = self.session
        if session is None or self.state is AppState.RESULT:
            return
        if self.store is not None and self.game_id is not None:
            self._store_events_pending_moves()
            self.store.finish(self.game_id, result, clock_ms=self.clock_ms())
        if result is not None:
            self.match.record(self.game_players, result, session.scores)
        self.result_view = self._result_view(result)
        self.state = AppState.RESULT
        self.menu = Menu("Result", [Row("start", "Next game"), Row("new", "Menu")])

    def _store_events_pending_moves(self) -> None:
        """Moves committed in the same call as the result are stored before it."""
        session = self.session
        assert session is not None
        pending = [e for e in session.events[self._events_seen:] if e["type"] == "move"]
        self._events_seen = len(session.events)
        self._flush_moves([e["ply"] for e in pending], [e["text"] for e in pending])

    # -- the screen ---------------------------------------------------------------

    def colours(self) -> dict[str, tuple[int, int, int]]:
        variant = self.session.variant if self.session is not None else None
        sides = variant.sides if variant is not None else ()
        return {name: side_colour(sides[i] if i < len(sides) else "", i) for i, name in enumerate(self.game_players)}

    def view(self) -> View:
        if self.overlay is not None:
            return MenuView(self.overlay, subtitle=self._title())
        if self.state is AppState.RESULT and self.result_view is not None:
            return self.result_view
        if self.state in (AppState.MENU, AppState.RESUME) or self.session is None:
            return MenuView(self.menu, subtitle=self.menu.description)
        return self._game_view()

    def _title(self) -> str:
        if self.session is None:
            return ""
        return f"{self.session.variant.title} - {self.setup.mode}"

    def _game_view(self) -> GameView:
        session = self.session
        assert session is not None
        variant = session.variant
        game = session.game
        playing = session.phase is Phase.PLAYING and not game.is_over
        multi = variant.family == "multiwarcaby"
        scores = game.scores
        active = _active_sides(session)
        sides = [
            SideLine(self.game_players[i] if i < len(self.game_players) else side,
                     side_colour(side, i), scores[i] if multi else None, to_move=playing and game.turn == i,
                     out=i not in active)
            for i, side in enumerate(variant.sides)
        ]
        clock = self.clock.view(self.now) if self.clock is not None and self.clock.state is not State.READY else None
        if self.clock is not None and clock is None:
            clock = self.clock.view(self.now)
        last = _last_turn(session.committed)
        if session.phase is Phase.SETUP:
            status = "Set up the pieces"
        elif game.is_over:
            status = "Game over"
        elif session.thinking:
            status = "The computer is thinking..."
        else:
            mover = sides[game.turn].name
            status = f"{mover}: second move" if multi and game.move_in_turn else f"{mover} to move"
        if self.clock is not None and self.clock.state is State.PAUSED:
            status += " (clock paused: ok to start)"
        frame_roles = set(session.frame.values())
        alert = bool(frame_roles & {Role.FLAG, Role.PUT_HERE, Role.TAKE_AWAY}) or session.warning is not None
        message = session.message
        messages = [message] if message and message.lower() != status.lower() else []
        return GameView(
            title=self._title(), sides=sides, clock=clock, status=status, last_move=last,
            move_number=(game.ply // max(1, variant.moves_per_turn)) // max(1, len(variant.sides)) + 1,
            messages=messages, alert=alert, hints_left=session.hints_left if session.coach is not None else None,
            thinking=session.thinking,
        )

    def _result_view(self, result: Result | None) -> ResultView:
        session = self.session
        assert session is not None
        names = self.game_players
        if result is None:
            title = "Game abandoned"
        elif result.winner is not None:
            title = f"{names[result.winner]} wins"
        elif result.is_draw:
            title = "Draw"
        else:
            firsts = [names[i] for i, place in enumerate(result.places) if place == 1]
            title = f"1st: {', '.join(firsts)}"
        reason = result.reason if result is not None else ""
        if session.variant.family == "multiwarcaby":
            reason += "  (small points " + " ".join(str(s) for s in session.scores) + ")"
        multi_player = len(self.match.players) > 2
        upcoming = self.match.order()
        return ResultView(title, reason.strip(), self.match.standings(self.colours()), by_small_points=multi_player,
                          next_first=f"Next game: {upcoming[0]} starts" if upcoming else "")


def _active_sides(session: Session) -> set[int]:
    """The sides still in play (all of them outside 3-4 player multiwarcaby)."""
    active = getattr(session.game.position, "active", None)
    if active is None:
        return set(range(len(session.variant.sides)))
    return {side for side, playing in enumerate(active) if playing}


def _last_turn(committed: Sequence[CommittedMove]) -> str:
    if not committed:
        return ""
    last = committed[-1]
    return " ".join(c.text for c in committed if c.turn == last.turn)


class BoardLoop:
    """The app on real devices: poll the sensor and the buttons, tick the app
    at its deadlines, show its LED frame, redraw the screen. Time comes from
    the injected monotonic `now_ms` (tests pass a fake one)."""

    def __init__(self, app: App, sensor: Any, leds: Any, buttons: Any, *, now_ms: Any,
                 draw: Any = None, poll_ms: int = 5, redraw_ms: int = 100) -> None:
        self.app, self.sensor, self.leds, self.buttons = app, sensor, leds, buttons
        self.now_ms = now_ms
        self.draw = draw
        self.poll_ms = poll_ms
        self.redraw_ms = redraw_ms
        self._last_occupied: frozenset[str] | None = None
        self._last_frame: dict | None = None
        self._next_redraw = 0

    def step(self) -> None:
        """One pass: new snapshot, presses, due ticks, LEDs, screen."""
        now = self.now_ms()
        snapshot = self.sensor.snapshot()
        if snapshot.occupied != self._last_occupied:
            self._last_occupied = snapshot.occupied
            self.app.handle(Snapshot(snapshot.occupied, now))
        for press in self.buttons.presses():
            self.app.handle(type(press)(press.side if isinstance(press, ClockPress) else press.button, now))
        self.app.tick(now)
        frame = dict(self.app.frame)
        if frame != self._last_frame:
            self._last_frame = frame
            self.leds.show(frame)
        if self.draw is not None and now >= self._next_redraw:
            self.draw(self.app.view())
            self._next_redraw = now + self.redraw_ms

    def run(self, sleep: Any, should_stop: Any = lambda: False) -> None:
        while not should_stop():
            self.step()
            sleep(self.poll_ms / 1000)
