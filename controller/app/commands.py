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
from damka.controller import wording
from damka.controller.clock import Clock, State
from damka.controller.clock_errors import ClockError
from damka.controller.app.errors import BadArgument, CommandRefused
from damka.controller.menus import MenuAction
from damka.controller.session.types import Phase
from damka.controller.view_builder import active_sides
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
            raise CommandRefused("there is no game on the board")
        if self.app.clock is None:
            raise CommandRefused("this game has no clock")
        if self.app.clock.state is State.FINISHED or self.app.session.result is not None:
            raise CommandRefused("the game is over: its clock is stopped for good")
        return self.app.clock

    def _session(self) -> Session:
        session = self.app.session
        if session is None:
            raise CommandRefused("there is no game on the board")
        return session

    def _check_side(self, side: object) -> int:
        sides = len(self._session().variant.sides)
        if not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < sides:
            raise BadArgument(f"side: {side!r} is not a side of this game (0-{sides - 1})")
        return side

    def side_label(self, side: int) -> str:
        """The side as the console lists it: the player's name and the variant's own word for the side."""
        variant = self._session().variant
        word = wording.engine_side_name(variant, side)
        name = self.app.game_players[side] if side < len(self.app.game_players) else word
        return name if name == word or word in name else f"{name} ({word})"

    def _acted(self, action: str, detail: str, where: str, *, store: bool = True) -> str:
        """Log the action everywhere it is kept; the line to show."""
        line = f"{detail} (by {where})"
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
            raise CommandRefused(f"the clock is {clock.state}: only a running clock can be paused")
        clock.pause(self.app.now, by=where)
        self._store_clock()
        return self._acted("pause", "clock paused", where)

    def resume_clock(self, where: str) -> str:
        clock = self._game_clock()
        if clock.state is not State.PAUSED:
            raise CommandRefused(f"the clock is {clock.state}: only a paused clock can be restarted")
        if self._session().phase is Phase.SETUP:
            # A resumed game: nobody's time runs while the pieces are put back as lit.
            raise CommandRefused("the pieces are not set up yet: the clock runs again when play goes on")
        try:
            clock.resume(self.app.now)
        except ClockError as error:
            raise CommandRefused(str(error)) from None
        self._store_clock()
        return self._acted("resume", "clock running again", where)

    def _check_ms(self, ms: object, what: str) -> int:
        if not isinstance(ms, int) or isinstance(ms, bool) or not -MAX_CLOCK_MS <= ms <= MAX_CLOCK_MS:
            raise BadArgument(f"{what}: {ms!r} is not a time in ms (at most a day)")
        return ms

    def adjust_clock(self, side: int, ms: int, where: str) -> str:
        """Give `side` `ms` more (negative: less) time."""
        clock = self._game_clock()
        side = self._check_side(side)
        if self._check_ms(ms, "ms") == 0:
            raise BadArgument("ms: 0 changes nothing (give a time to add, or a negative one to take off)")
        try:
            clock.adjust(side, ms, self.app.now, reason=f"by {where}")
        except ClockError as error:
            raise CommandRefused(str(error)) from None
        self._store_clock()
        return self._acted("adjust", f"{self.side_label(side)} {_ms_text(ms, sign=True)}", where)

    def set_clock(self, side: int, ms_left: int, where: str) -> str:
        """Set `side`'s remaining (main) time to `ms_left`."""
        clock = self._game_clock()
        side = self._check_side(side)
        if self._check_ms(ms_left, "ms_left") <= 0:
            raise BadArgument(f"ms_left: {ms_left} is no time left (the arbiter declares the result instead)")
        try:
            clock.set_time(side, ms_left, self.app.now, reason=f"by {where}")
        except ClockError as error:
            raise CommandRefused(str(error)) from None
        self._store_clock()
        return self._acted("set-time", f"{self.side_label(side)} set to {_ms_text(ms_left)}", where)

    def undo_clock_press(self, where: str) -> str:
        """Undo the last press: the clock as it was before it (paused), and the
        turn that press ended taken back, so the board and the clock agree
        again (the board guides the player to put the pieces back)."""
        clock = self._game_clock()
        session = self._session()
        committed = session.committed
        if not committed:
            raise CommandRefused("no clock press to undo: no move has been played")
        plies = sum(1 for move in committed if move.turn == committed[-1].turn)
        if not session.record.can_take_back(plies):
            raise CommandRefused("the last press cannot be undone: a player went out after it")
        try:
            clock.undo(self.app.now)
        except ClockError as error:
            raise CommandRefused(f"{error} (a resumed game keeps no presses to undo)") from None
        mover = committed[-1].side
        text = " ".join(move.text for move in committed[-plies:])
        session.take_back(plies, clock_undone=True)   # the session's own take-back (record, screen, TakenBack event)
        return self._acted("undo", f"last press of {self.side_label(mover)} undone ({text} taken back; "
                                   "clock paused)", where)

    # -- the result -----------------------------------------------------------------

    def declare_result(self, winner: int | None, reason: str, where: str) -> str:
        """End the game: a win for `winner` (every other side loses), or a draw (None)."""
        session = self.app.session
        if session is None or session.result is not None:
            raise CommandRefused("there is no game in play")
        if winner is not None:
            winner = self._check_side(winner)
        reason = str(reason).strip() or "arbiter"
        sides = len(session.variant.sides)
        what = "draw" if winner is None else f"{self.side_label(winner)} wins"
        line = self._acted("result", what, where, store=False)
        if winner is None or sides == 2:
            self.app.games.declare_end(None if winner is None else 1 - winner, reason)  # logs the result itself
        else:
            self.app.screens.open_overlay(None)
            if self.app.recorder is not None:
                self.app.recorder.log_arbiter("result", f"{what}: {reason}", self.app.now)
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
            raise CommandRefused("there is no game on the board")
        if session.result is not None:
            raise CommandRefused("the game is over already")
        if side is None:
            side = session.game.turn
            if side in self.app.built.computer_sides:
                # Against the computer (or a remote player) the one side at the table
                # resigns whoever is to move: a child resigning while the computer thinks.
                table = [s for s in active_sides(session) if s not in self.app.built.computer_sides]
                if len(table) != 1:
                    who = "the remote player" if side in self.app.remote_sides() else "the computer"
                    raise CommandRefused(f"it is {self.side_label(side)}'s turn, played by {who}: with several "
                                         "sides at the table, the board resigns the side to move on its turn")
                side = table[0]
        elif side not in active_sides(session):
            raise CommandRefused(f"{self.side_label(self._check_side(side))} is out of the game already")
        self.app.games.declare_end(side, "resignation")
        return f"{self.side_label(side)} resigned (from {where})"

    # -- players and menus ----------------------------------------------------------

    def menu_action(self, name: str, where: str) -> None:
        """A row of the board's menu chosen from outside: the same path as the button."""
        if name not in MENU_COMMANDS:
            raise BadArgument(f"action: {name!r} is not one of {', '.join(MENU_COMMANDS)}")
        if name in ("resign", "draw", "takeback", "pause", "unpause") and self.app.session is None:
            raise CommandRefused("there is no game on the board")
        if name == "resume" and self.app.screens.state.value != "resume":
            raise CommandRefused("there is no stored game to resume")
        if name in ("resign", "draw") and self._session().result is not None:
            raise CommandRefused("the game is over already")
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
