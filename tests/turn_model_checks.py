"""The invariants of the turn machine, checked after every action of a model
sequence (`turn_model.py`), through the App's read model only: the clock's
view, the session's record and frame, the store, the LEDs the board shows,
the events on `App.bus`.
"""

from __future__ import annotations

from dataclasses import dataclass

from damka.controller import events as ev
from damka.controller.app import AppState
from damka.controller.clock.view import ClockView
from damka.controller.session import Phase
from damka.hardware.interfaces import Role

from turn_model import Violation, World, lit, playing, seat_not_at_the_table

# Events after which the clock's times may change otherwise than by running.
CLOCK_EVENTS = (ev.MoveCommitted, ev.ClockPressed, ev.TakenBack, ev.Redone, ev.FlagFell, ev.SideOut, ev.GameOver,
                ev.ClockStarted, ev.ArbiterActed, ev.NewGame, ev.GameStarted, ev.MoveRefused)
# Events after which the store has something new to hold.
STORE_EVENTS = (ev.MoveCommitted, ev.TakenBack, ev.Redone, ev.SideOut, ev.GameOver, ev.NewGame)


@dataclass
class Before:
    """What the checks remember from just before an action."""

    app: object
    now: int
    clock: ClockView | None
    committed: list[str]
    over: bool


class Checker:
    """Runs the invariants; `store_every`: also compare the store after every action that changed the game."""

    def __init__(self, store_every: bool = True) -> None:
        self.store_every = store_every
        self.before: Before | None = None

    def start(self, world: World) -> None:
        app, session = world.app, world.session
        clock = app.clock.view(world.board.now) if app.clock is not None else None
        self.before = Before(app, world.board.now, clock, [c.text for c in session.committed] if session else [],
                             session is not None and session.result is not None)

    def after(self, world: World, action: tuple) -> None:
        self.over_takes_no_move(world)
        self.clock_runs_for_the_side_to_move(world)
        self.clock_times(world)
        self.pause_takes_no_time(world)
        self.planned_move_lit(world)
        self.leds_ask_for_a_real_board(world)
        self.result_shown(world)
        if action[0] == "power_cut":
            self.resumed_as_cut(world)
        if self.store_every and world.watch.any(*STORE_EVENTS):
            self.store_matches(world)

    # -- the invariants ------------------------------------------------------------------

    def over_takes_no_move(self, world: World) -> None:
        over = self.before.over and self.before.app is world.app
        for event in world.watch.events:
            if isinstance(event, ev.GameOver):
                over = True
            elif isinstance(event, (ev.TakenBack, ev.NewGame, ev.Redone, ev.GameStarted)):
                over = False
            elif isinstance(event, ev.MoveCommitted) and over:
                raise Violation("move after the end", f"{event.text} committed at ply {event.ply} after the game "
                                "ended")

    def clock_runs_for_the_side_to_move(self, world: World) -> None:
        clock, session = world.app.clock, world.session
        if clock is None or session is None:
            return
        view = clock.view(world.board.now)
        if view.state != "running":
            return
        if session.result is not None or world.app.state is not AppState.GAME:
            raise Violation("clock runs after the end", f"result {session.result}, clock {view.state}")
        if session.phase is not Phase.PLAYING:
            raise Violation("clock runs before play", f"phase {session.phase}")
        if self.carried_out_on_nobodys_time(world):
            raise Violation("clock runs while a program's move is carried out", f"side {view.active}'s clock runs "
                            f"(carrying_out nobody, ply {session.game.ply}); screen: {session.message!r}")
        if view.active != self.clock_side(world):
            raise Violation("wrong clock runs", f"side {view.active}'s clock runs, side {session.game.turn} "
                            f"to move (ply {session.game.ply}); times {view.remaining_ms}; "
                            f"screen: {session.message!r}")

    @staticmethod
    def carried_out_on_nobodys_time(world: World) -> bool:
        """Whether people carry out an outside program's lit move now, on nobody's time."""
        session = world.session
        return (world.config.carrying_out == "nobody" and bool(session.planned) and seat_not_at_the_table(world)
                and session.game.turn not in world.app.remote_sides())

    @staticmethod
    def clock_side(world: World) -> int:
        """Whose clock should run: the side to move, or, while people carry out an
        outside program's lit move with carrying_out "next", the side after it."""
        session = world.session
        if (world.config.carrying_out != "next" or not session.planned or not seat_not_at_the_table(world)
                or session.game.turn in world.app.remote_sides()):   # (the remote page: a person, no program)
            return session.game.turn
        after = session.game.copy()
        for move in session.planned:
            after.push(move)
        return after.turn

    def clock_times(self, world: World) -> None:
        """While nothing but time passed, only the side to move's time went down, by the time passed."""
        before = self.before
        clock = world.app.clock
        if (before.app is not world.app or before.clock is None or clock is None
                or world.watch.any(*CLOCK_EVENTS)):
            return
        view = clock.view(world.board.now)
        if view.state != before.clock.state:
            return
        elapsed = world.board.now - before.now
        delay = any(side.delay_ms for side in before.clock.sides)
        for side, (was, now) in enumerate(zip(before.clock.remaining_ms, view.remaining_ms)):
            running = view.state == "running" and side == view.active
            if not running and was != now:
                raise Violation("a clock that is not running changed",
                                f"side {side}: {was} -> {now} ms in {elapsed} ms (clock {view.state}, "
                                f"side {view.active} active)")
            if running and not (0 <= was - now <= elapsed):
                raise Violation("the running clock lost the wrong time", f"side {side}: {was} -> {now} in {elapsed} ms")
            if running and elapsed > 0 and was > 0 and was == now and not delay and not view.sides[side].untimed:
                raise Violation("the side to move's clock stands", f"side {side}: {was} ms for {elapsed} ms")

    def pause_takes_no_time(self, world: World) -> None:
        """Pausing or restarting the clock, at once, changes no side's time
        (a restart stamped before it was asked for charges the pause to the side to move)."""
        before = self.before
        clock = world.app.clock
        if before.app is not world.app or before.clock is None or clock is None or world.board.now != before.now:
            return
        acted = [event for event in world.watch.events if isinstance(event, ev.ArbiterActed)]
        others = [event for event in world.watch.events
                  if isinstance(event, CLOCK_EVENTS) and not isinstance(event, ev.ArbiterActed)]
        if not acted or others or any(event.action not in ("pause", "resume") for event in acted):
            return
        now = clock.view(world.board.now).remaining_ms
        if now != before.clock.remaining_ms:
            raise Violation("pausing changed the clock", f"{before.clock.remaining_ms} -> {now} ms "
                            f"({', '.join(event.action for event in acted)})")

    def planned_move_lit(self, world: World) -> None:
        """Once the computer's (or the remote seat's) move is known, the LEDs show it."""
        session = world.session
        if not playing(world) or not session.planned:
            return
        offer = world.app.pending_offer
        if offer is not None and offer.kind == "takeback" and offer.where == "board":
            return   # the position waits for the far side's answer to a take-back: nothing to do on the board
        if lit(world, Role.TAKE_AWAY, Role.PUT_HERE):
            return   # the board is put right first (a wrong move undone): the guidance may cover the move
        in_hand = {world.name(move.start) for move in session.planned} & lit(world, Role.LIFTED)
        if not lit(world, Role.COMPUTER_FROM, Role.COMPUTER_TO) and not in_hand:
            raise Violation("planned move not lit", f"planned {[str(m) for m in session.planned]}, LEDs "
                            f"{world.board.leds}, screen {session.message!r}")

    def leds_ask_for_a_real_board(self, world: World) -> None:
        """Guidance (put here / take away) leads to a board some legal sequence gives."""
        take, put = lit(world, Role.TAKE_AWAY), lit(world, Role.PUT_HERE)
        if not take and not put:
            return
        flagged = lit(world, Role.FLAG)
        target = (world.board.pieces - take) | put
        if not any(target - flagged == seen - flagged for seen in world.seen):
            session = world.session
            raise Violation("LEDs ask for an impossible board", f"take away {sorted(take)}, put on {sorted(put)}; "
                            f"screen {session.message if session else ''!r}")

    def result_shown(self, world: World) -> None:
        session = world.session
        if session is not None and session.game.is_over and world.app.state is AppState.GAME \
                and world.app.overlay is None:
            raise Violation("game over not shown", f"result {session.game.result} but the app is in a game; "
                            f"screen {session.message!r}")

    def resumed_as_cut(self, world: World) -> None:
        before, session = self.before, world.session
        if before.over or session is None or world.app.state is not AppState.GAME:
            return
        now = [c.text for c in session.committed]
        if now != before.committed:
            raise Violation("resume lost moves", f"before the cut {before.committed}, resumed {now}")
        clock = world.app.clock
        if before.clock is None or clock is None or before.clock.state not in ("running", "paused"):
            return
        view = clock.view(world.board.now)
        for side, (was, back) in enumerate(zip(before.clock.remaining_ms, view.remaining_ms)):
            slack = world.app.checkpoint_ms if before.clock.state == "running" and side == before.clock.active else 0
            if not 0 <= back - was <= slack:
                raise Violation("resume changed the clock", f"side {side}: {was} ms at the cut, {back} ms resumed "
                                f"(clock was {before.clock.state}, side {before.clock.active} active)")

    def store_matches(self, world: World) -> None:
        """The stored game (moves, their clock times, the result) is the session's."""
        app, session = world.app, world.session
        if app.game_id is None or session is None:
            return
        stored = app.store.load_game(app.game_id)
        mine = [(c.text, c.clock_ms) for c in session.committed]
        kept = [(m.text, m.clock_ms) for m in stored.moves]
        if [t for t, _ in kept] != [t for t, _ in mine]:
            raise Violation("stored moves differ", f"stored {[t for t, _ in kept]}, played {[t for t, _ in mine]}")
        for (text, ms), (_, stored_ms) in zip(mine, kept):
            if ms is not None and stored_ms != ms:
                raise Violation("stored clock times differ", f"{text}: stored {stored_ms}, played {ms}")
        if (stored.result is None) != (session.result is None) or (
                session.result is not None and stored.result.points != session.result.points):
            raise Violation("stored result differs", f"stored {stored.result}, played {session.result}")
