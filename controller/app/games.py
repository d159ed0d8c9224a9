"""The games' lifecycle: which game is on the board, from its start to its result.

`Games` owns the game on the board (`built`: session and clock, built by
`game/factory.py` as `damka replay` builds them), its `recorder` (the store),
the setup of the next game, the match and its players, the stored game
offered for resuming, and the line about the players' names (`notice`).
It starts a game (new or resumed), ends it (agreement, resignation, the
arbiter) and records the result in the match.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from damka.controller import events as ev
from damka.controller.words import wording
from damka.controller.app import resume as resume_mod
from damka.controller.app.errors import BadArgument
from damka.controller.app.screens import AppState
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import State
from damka.controller.clock.errors import ClockError
from damka.controller.game.factory import BuiltGame, build_game, build_variant
from damka.controller.app.match import Match
from damka.controller.app.menus import game_menu, resume_menu
from damka.controller.players import Opponent
from damka.controller.app.recorder import GameRef, Recorder, Write
from damka.controller.players.seat_opponents import engine_seats, seat_remote
from damka.controller.session import Session
from damka.controller.session.types import CarryingOut
from damka.controller.game.setup import GameSetup
from damka.controller.store.rows import StoredGame
from damka.controller.app.view_builder import active_sides, result_view
from damka.controller.words import say
from damka.engine.variant import Result, Variant
from damka.hardware.interfaces import Snapshot

if TYPE_CHECKING:
    from damka.controller.app.app import App

MAX_NAME = 40


class Games:
    """One game at a time: its start, its players, its end."""

    def __init__(self, app: App, setup: GameSetup, players: Sequence[str] | None,
                 carrying_out: CarryingOut = CarryingOut.NOBODY) -> None:
        self.app = app
        self.setup = setup
        # The external engines the board config names (GameSetup.engines): every game set up
        # here (the menu, the web page, a resume) chooses among these, by name.
        self.engines = setup.engines
        # The board config's [clock] carrying_out: every game's, new or resumed.
        self.carrying_out = carrying_out
        self.built: BuiltGame | None = None
        self.recorder: Recorder | None = None
        self.game_players: list[str] = []
        self.notice = ""  # a line for whoever is at the board (names that did not fit): on its screen
        self.resume_offer: StoredGame | None = None
        self._named_players = list(players) if players else []
        self.match = Match(list(players) if players else [])
        if players and setup.colours == "lot":
            app.random.shuffle(self.match.players)  # colours (draughts) or order of play by lot

    @property
    def session(self) -> Session | None:
        return self.built.session if self.built is not None else None

    @property
    def clock(self) -> Clock | None:
        return self.built.clock if self.built is not None else None

    # -- the stored game offered -------------------------------------------------------

    def offer_stored(self, offer: StoredGame) -> None:
        """Offer the unfinished stored game `offer` for resuming (the menu at start)."""
        self.resume_offer = offer
        self.app.screens.show_menu(resume_menu(resume_mod.describe(offer)), AppState.RESUME)

    def open_new_menu(self) -> None:
        """The new-game menu (from the result, or the resume offer declined:
        the stored game is then kept as abandoned)."""
        app = self.app
        if app.screens.state is AppState.RESUME and self.resume_offer is not None and app.writes is not None:
            app.writes.put(Write("finish", GameRef(self.resume_offer.id, True),
                                 lambda store, gid: store.finish(gid, None) if gid is not None else None))
            app.writes.drain()
            self.resume_offer = None
        app.screens.show_menu(game_menu(self.setup))

    def take_up(self, stored: StoredGame) -> None:
        """Play on `stored` (an unfinished game) now, as the resume offer would:
        the board guides the pieces to its position (a feature's own resume: DXP)."""
        self.resume_offer = stored
        self.resume()

    def resume(self) -> None:
        """Play on the stored game offered (the resume menu's row)."""
        offer = self.resume_offer
        if offer is None:
            return
        app = self.app
        self.resume_offer = None
        seed = app.random.randrange(1 << 30) if app.chooser is None else None
        built = resume_mod.resume_game(offer, chooser=app.chooser, seed=seed, engines=self.engines,
                                       remote=app.remote_maker(), carrying_out=self.carrying_out)
        self.setup = built.setup
        variant = built.session.variant
        self.match = Match(list(offer.players), by_side=all(
            name.startswith(wording.engine_side_name(variant, side)) for side, name in enumerate(offer.players)))
        self.game_players = list(offer.players)
        self._start(built, self._recorder_for(built, game_id=offer.id))

    # -- a new game ------------------------------------------------------------------------

    def new_game(self, setup: GameSetup, *, remote: Opponent | None = None,
                 remote_label: str | None = None) -> None:
        """Start a game as `setup` says (`App.new_game` says how `remote` plays)."""
        app = self.app
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
            engine = engine_seats(setup.computers, setup.colours, len(variant.sides), far, app.random.sample)
            computer = far | engine
        elif setup.mode == "computer":
            computer = setup.computer_seats(len(variant.sides), draw=app.random.sample)
        seed = app.random.randrange(1 << 30) if computer and app.chooser is None and (remote is None or engine) \
            else None
        built = build_game(setup, variant=variant, chooser=None if engine else app.chooser, seed=seed,
                           computer_sides=computer, carrying_out=self.carrying_out)
        if remote is not None and computer:
            seat_remote(built.session, remote, far or built.computer_sides, engine)
        opponent = built.session.opponent
        engine_name = opponent.engine_name if opponent is not None else ""   # an external engine's name
        computer_label = f" ({engine_name or say('who.computer')})"
        remote_label = f" ({say('who.remote')})" if remote_label is None else remote_label
        labels = {seat: remote_label if remote is not None and seat not in engine else computer_label
                  for seat in computer}
        self._choose_players(variant, labels)
        self._start(built, self._recorder_for(built))

    @property
    def named_players(self) -> tuple[str, ...]:
        """The names given for the games (the command line, the page), as given."""
        return tuple(self._named_players)

    def set_player_names(self, names: Sequence[str]) -> None:
        """The players' names for the next game (one per side; none: the sides' own names)."""
        if isinstance(names, str) or not all(isinstance(n, str) and len(n.strip()) <= MAX_NAME for n in names):
            raise BadArgument(say("command.players", most=MAX_NAME))
        self._named_players = [n.strip() for n in names if n.strip()]
        self.match.players = []          # the names given are used for the next game

    def _choose_players(self, variant: Variant, labels: dict[int, str]) -> None:
        """The players of the game: the names given (a match that goes on, the
        first turn rotating), else the sides' own words with this game's `labels`
        ("(computer)") by seat, made anew for each game: the computer may play
        another side now, and a side's own word never moves to another side."""
        self.notice = ""
        sides = len(variant.sides)
        named = self._named_players
        if self.match.by_side or len(self.match.players) != sides:
            if named and len(named) == sides:
                self.match = Match(list(named))           # the names given fit this game again
            else:
                if named:
                    self.notice = say("app.names_unused", count=len(named), sides=sides)
                defaults = _default_players(variant, labels)
                if not self.match.by_side or self.match.players != defaults:
                    self.match = Match(defaults, by_side=True)   # (the same sides: the standings go on)
        self.game_players = self.match.order()

    def retell_players(self, before: str) -> None:
        """The players named by their side's own word (no names given: "Black (computer)"), said again in
        the board's new language (it was `before`); the names people gave stay."""
        session = self.app.session
        if session is None:
            return
        retold = {name: wording.retold_side_name(session.variant, i, name, before) for i, name in enumerate(self.game_players)}
        match = self.match
        match.players = [retold.get(name, name) for name in match.players]
        match.points = {retold.get(name, name): points for name, points in match.points.items()}
        match.small_points = {retold.get(name, name): points for name, points in match.small_points.items()}
        self.game_players = [retold[name] for name in self.game_players]

    def _recorder_for(self, built: BuiltGame, game_id: int | None = None) -> Recorder | None:
        app = self.app
        if app.store is None:
            return None
        tags = resume_mod.record_tags(built)
        for listener in app.listeners:
            tags.update(listener.record_tags(built))
        return Recorder(app.store, built.session, built.clock, players=self.game_players, mode=built.setup.mode,
                        time_control=built.time_control, tags=tags,
                        now=lambda: app.now, game_id=game_id, checkpoint_ms=app.checkpoint_ms, queue=app.writes)

    def _start(self, built: BuiltGame, recorder: Recorder | None) -> None:
        """Make `built` the game on the board: wire its events, show what the board shows now."""
        app = self.app
        for listener in app.listeners:
            listener.game_started(built)
        self.built = built
        self.recorder = recorder
        app.screens.show_game()
        variant = built.session.variant
        # The names people gave, by side ("" where the side's own word, with a label, stands in).
        built.session.name_players([name if not name.startswith(wording.engine_side_name(variant, i)) else ""
                                    for i, name in enumerate(self.game_players)])
        bus = built.session.bus
        built.session.takeback_consent = app.offer_desk.board_takeback   # asked of a remote seat
        if recorder is not None:
            bus.subscribe(recorder)
        bus.subscribe(self._game_over, ev.GameOver)
        bus.subscribe(app.bus.publish)
        if app.sensed:  # what the board shows now (before its first snapshot the session waits for it)
            built.session.handle(Snapshot(app.occupied, app.now))

    def _abandon_current(self) -> None:
        """A game left for a new one is kept, unfinished no more: result '*'."""
        if self.recorder is not None:
            self.recorder.abandon()
        if self.session is not None:
            self.session.close()  # a search still running is abandoned
        self.recorder = None

    # -- the end ----------------------------------------------------------------------------

    def declare_end(self, loser: int | None, reason: str) -> None:
        """End the game from the menu (agreement, resignation). With three or
        four players a resignation takes the player out (as a flag does)."""
        app = self.app
        app.screens.open_overlay(None)
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
            self.recorder.log_arbiter("result", reason, app.now)
        session.declare(result, at_ms=app.now)  # the session stops the clock; GameOver ends it here

    def _drop(self, side: int, reason: str) -> None:
        """A player out of a 3-4 player game: through the clock when there is
        one, even before it started (the same path as a flag: the clock passes
        the turn on and skips the side from then on, the session takes the side
        out and guides the board back), else straight to the session."""
        app = self.app
        session = self.session
        assert session is not None
        if self.clock is not None and self.clock.state is not State.FINISHED:
            try:
                self.clock.drop(side, app.now, reason)
            except ClockError:
                pass
            session.tick(app.now)  # the session drains the clock: SideOut (or GameOver) is acted on now
        if session.result is None and side in active_sides(session):
            session.drop_side(side, reason, at_ms=app.now)
        app.flush()

    def _game_over(self, event: ev.GameOver) -> None:
        session = self.session
        if session is None or self.app.screens.state is AppState.RESULT:
            return
        self.match.record(self.game_players, event.result, session.scores)
        self.app.screens.show_result(result_view(session, event.result, self.game_players, self.match))


def _default_players(variant: Variant, labels: dict[int, str]) -> list[str]:
    return [wording.engine_side_name(variant, index) + labels.get(index, "") for index in range(len(variant.sides))]
