"""The app's commands for outside drivers (the web page, later MQTT) and the board's own menu.

One method per thing a driver may ask: pause or resume the clock, give or
take time, set a side's time, undo the last clock press, declare a result,
name the players, choose a menu row. Each acts on the game on the board at
once (call it on the board's thread), says in one line what it did, and
raises `CommandRefused` (a `ValueError`) with the one-line reason when it
cannot be done now; `BadArgument` when the request itself is wrong (no such
side, a time out of range).

Every clock action and declared result is published on `App.bus` as an
`ArbiterActed` event (who: `where`, what: the line returned; the board's
time), is written to the clock's own log and to the stored game's arbiter
log: the page's console shows the list live, the record keeps it.

`ArbiterCommands` owns no state: it acts on the App's game (`games.py`)
through the App. Draw offers and take-back requests are not here
(`offer_desk.py`); the refusals are `errors.py`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from damka.controller import events as ev
from damka.controller.words import wording
from damka.controller.clock.clock import Clock
from damka.controller.clock.records import State
from damka.controller.clock.errors import ClockError
from damka.controller.app.errors import BadArgument, CommandRefused
from damka.controller.app.menus import MenuAction
from damka.controller.session.clock_binding import CARRYING_OUT
from damka.controller.session.types import Phase
from damka.controller.app.view_builder import active_sides, carrying_out
from damka.controller.words import say, translate
from damka.engine.variant import Result

if TYPE_CHECKING:
    from damka.controller.app.app import App
    from damka.controller.session import Session

MAX_CLOCK_MS = 24 * 3600 * 1000      # no side is given or set more than a day
MENU_COMMANDS = ("resign", "draw", "takeback", "pause", "unpause", "new", "resume")


class ArbiterCommands:
    """The arbiter's commands on the App's game; they own no state (the game
    is the App's `Games`', the screen its `Screens`')."""

    def __init__(self, app: App) -> None:
        self.app = app

    # -- checks ---------------------------------------------------------------------

    def _game_clock(self) -> Clock:
        if self.app.session is None:
            raise CommandRefused(say("command.no_game"))
        if self.app.clock is None:
            raise CommandRefused(say("command.no_clock"))
        if self.app.clock.state is State.FINISHED or self.app.session.result is not None:
            raise CommandRefused(say("command.clock_over"))
        return self.app.clock

    def _session(self) -> Session:
        session = self.app.session
        if session is None:
            raise CommandRefused(say("command.no_game"))
        return session

    def _check_side(self, side: object) -> int:
        sides = len(self._session().variant.sides)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < sides:
            raise BadArgument(say("command.not_a_side", side=repr(side), last=sides - 1))
        return side

    def side_label(self, side: int) -> str:
        """The side as the console lists it: the player's name and the variant's own word for the side."""
        variant = self._session().variant
        word = wording.engine_side_name(variant, side)
        name = self.app.game_players[side] if side < len(self.app.game_players) else word
        return name if name == word or word in name else say("command.side_label", name=name, word=word)

    def _acted(self, action: str, detail: str, where: str, *, store: bool = True) -> str:
        """Log the action everywhere it is kept; the line to show."""
        line = say("command.by", detail=detail, where=translate(where))
        if store and self.app.recorder is not None:
            self.app.recorder.log_arbiter(action, line, self.app.now)
        ply = self.app.session.game.ply if self.app.session is not None else 0
        self.app.bus.publish(ev.ArbiterActed(self.app.now, ply, where, action, detail))
        return line

    # -- the clock ------------------------------------------------------------------

    def _store_clock(self) -> None:
        """The arbiter changed the clock: store it at once and plan the next
        save from now. A paused clock is saved at no other time, and a clock
        restarted in a resumed game has no save planned yet; without this a
        power cut loses the change, or more than one checkpoint's time."""
        if self.app.recorder is not None:
            self.app.recorder.checkpoint(self.app.now)

    def pause_clock(self, where: str) -> str:
        clock = self._game_clock()
        if clock.state is not State.RUNNING:
            raise CommandRefused(say("command.only_running", state=clock.state))
        clock.pause(self.app.now, by=where)
        self._store_clock()
        return self._acted("pause", say("command.clock_paused"), where)

    def resume_clock(self, where: str) -> str:
        clock = self._game_clock()
        if clock.state is not State.PAUSED:
            raise CommandRefused(say("command.only_paused", state=clock.state))
        if self._session().phase is Phase.SETUP:
            # A resumed game: nobody's time runs while the pieces are put back as lit.
            raise CommandRefused(say("command.not_set_up"))
        paused_by = next((entry.by for entry in reversed(clock.log) if entry.action == "pause"), "")
        if paused_by == CARRYING_OUT and carrying_out(self._session()):
            raise CommandRefused(say("command.carrying_out"))   # (its time is nobody's: the commit restarts it)
        try:
            clock.resume(self.app.now)
        except ClockError as error:
            raise CommandRefused(str(error)) from None
        self._session().clock_started_by_hand()   # a program's move lit meanwhile: whose time carrying it out is
        self._store_clock()
        held = clock.state is State.PAUSED   # stopped again at once: the move is carried out on nobody's time
        return self._acted("resume", say("command.clock_held" if held else "command.clock_running"), where)

    def _check_ms(self, ms: object, what: str) -> int:
        if not isinstance(ms, int) or isinstance(ms, bool) or not -MAX_CLOCK_MS <= ms <= MAX_CLOCK_MS:
            raise BadArgument(say("command.not_a_time", what=what, ms=repr(ms)))
        return ms

    def adjust_clock(self, side: int, ms: int, where: str) -> str:
        """Give `side` `ms` more (negative: less) time."""
        clock = self._game_clock()
        side = self._check_side(side)
        if self._check_ms(ms, "ms") == 0:
            raise BadArgument(say("command.zero_ms"))
        try:
            clock.adjust(side, ms, self.app.now, reason=say("command.by_where", where=translate(where)))
        except ClockError as error:
            raise CommandRefused(str(error)) from None
        self._store_clock()
        changed = say("command.time_changed", side=self.side_label(side), time=_ms_text(ms, sign=True))
        return self._acted("adjust", changed, where)

    def set_clock(self, side: int, ms_left: int, where: str) -> str:
        """Set `side`'s remaining (main) time to `ms_left`."""
        clock = self._game_clock()
        side = self._check_side(side)
        if self._check_ms(ms_left, "ms_left") <= 0:
            raise BadArgument(say("command.no_time_left", ms=ms_left))
        try:
            clock.set_time(side, ms_left, self.app.now, reason=say("command.by_where", where=translate(where)))
        except ClockError as error:
            raise CommandRefused(str(error)) from None
        self._store_clock()
        changed = say("command.time_set", side=self.side_label(side), time=_ms_text(ms_left))
        return self._acted("set-time", changed, where)

    def undo_clock_press(self, where: str) -> str:
        """Undo the last press: the clock as it was before it (paused), and the
        turn that press ended taken back, so the board and the clock agree
        again (the board guides the player to put the pieces back)."""
        clock = self._game_clock()
        session = self._session()
        committed = session.committed
        if not committed:
            raise CommandRefused(say("command.no_press"))
        plies = sum(1 for move in committed if move.turn == committed[-1].turn)
        if not session.record.can_take_back(plies):
            raise CommandRefused(say("command.press_stands"))
        try:
            clock.undo(self.app.now)
        except ClockError as error:
            raise CommandRefused(say("command.resumed_no_presses", error=error)) from None
        mover = committed[-1].side
        text = " ".join(move.text for move in committed[-plies:])
        session.take_back(plies, clock_undone=True)   # the session's own take-back (record, screen, TakenBack event)
        return self._acted("undo", say("command.press_undone", side=self.side_label(mover), text=text), where)

    # -- the result -----------------------------------------------------------------

    def declare_result(self, winner: int | None, reason: str, where: str) -> str:
        """End the game: a win for `winner` (every other side loses), or a draw (None)."""
        session = self.app.session
        if session is None or session.result is not None:
            raise CommandRefused(say("command.no_game_in_play"))
        if winner is not None:
            winner = self._check_side(winner)
        reason = str(reason).strip() or "arbiter"
        sides = len(session.variant.sides)
        what = say("command.draw") if winner is None else say("command.wins", side=self.side_label(winner))
        line = self._acted("result", what, where, store=False)
        if winner is None or sides == 2:
            self.app.games.declare_end(None if winner is None else 1 - winner, reason)  # logs the result itself
        else:
            self.app.screens.open_overlay(None)
            if self.app.recorder is not None:
                self.app.recorder.log_arbiter("result", say("command.declared", what=what, reason=reason), self.app.now)
            session.declare(Result(tuple(1.0 if i == winner else 0.0 for i in range(sides)),
                                   tuple(1 if i == winner else 2 for i in range(sides)), reason, winner),
                            at_ms=self.app.now)
        return line

    def resign(self, where: str, side: int | None = None) -> str:
        """`side` resigns: a remote player its own seat, at any time (with
        three or four players it goes out, as on a flag). None: the board
        resigns (its menu, a page acting for it): the side to move when it is
        played at the table, else the table's one side (never a seat of the
        computer or from afar)."""
        session = self.app.session
        if session is None:
            raise CommandRefused(say("command.no_game"))
        if session.result is not None:
            raise CommandRefused(say("command.over_already"))
        if side is None:
            side = session.game.turn
            if side in self.app.built.computer_sides:
                # Against the computer (or a remote player) the one side at the table
                # resigns whoever is to move: a child resigning while the computer thinks.
                table = [s for s in active_sides(session) if s not in self.app.built.computer_sides]
                if len(table) != 1:
                    remote = side in self.app.remote_sides()
                    who = say("command.the_remote_player" if remote else "command.the_computer")
                    raise CommandRefused(say("command.not_your_turn", side=self.side_label(side), who=who))
                side = table[0]
        elif side not in active_sides(session):
            raise CommandRefused(say("command.out_already", side=self.side_label(self._check_side(side))))
        self.app.games.declare_end(side, "resignation")
        return say("command.resigned", side=self.side_label(side), where=translate(where))

    # -- players and menus ----------------------------------------------------------

    def menu_action(self, name: str, where: str) -> None:
        """A row of the board's menu chosen from outside: the same path as the button."""
        if name not in MENU_COMMANDS:
            raise BadArgument(say("command.not_an_action", name=repr(name), names=", ".join(MENU_COMMANDS)))
        if name in ("resign", "draw", "takeback", "pause", "unpause") and self.app.session is None:
            raise CommandRefused(say("command.no_game"))
        if name == "resume" and self.app.screens.state.value != "resume":
            raise CommandRefused(say("command.no_stored_game"))
        if name in ("resign", "draw") and self._session().result is not None:
            raise CommandRefused(say("command.over_already"))
        if name == "pause":
            self.pause_clock(where)
        elif name == "unpause":
            self.resume_clock(where)
        else:
            self.app.menu_actions.act(MenuAction(name))


def _ms_text(ms: int, sign: bool = False) -> str:
    """60000 -> '1:00', -5000 -> '-0:05' (with `sign`: '+1:00')."""
    total = abs(ms) // 1000
    hours, rest = divmod(total, 3600)
    text = f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
    if ms % 1000:
        text += f".{abs(ms) % 1000:03d}".rstrip("0")
    return ("-" if ms < 0 else "+" if sign else "") + text
