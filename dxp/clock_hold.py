"""The board's clock while a DXP peer is gone: stopped, and running again when it is back.

Nobody can move for the peer while the connection is down, so neither side's
time may run. `ClockHold` belongs to the DXP feature (feature.py) and acts only through the App's public
clock commands (`pause_clock` / `resume_clock`), so every stop and restart
is an `ArbiterActed` event, in the clock's log and the stored game's arbiter
log:

- the drop pauses a running clock (by `DROP_BY`) and the board *holds* it;
- a move made on the board while the peer is gone commits with the clock
  (a paused clock restarts at a committed move, `game/factory.py` ResumableClock):
  a held clock is paused again at the same instant, so no time runs;
- the peer back (the resume handshake done) restarts a held clock, once
  the pieces stand (a resumed game's are put back as lit first: nobody's
  time runs meanwhile, `App.resume_clock`);
- a clock the arbiter paused by hand before the drop stays paused when the
  peer is back (held during the drop all the same: a move does not restart
  it); an arbiter's own restart, pause or undo during the drop ends the
  hold: the clock is then the arbiter's;
- `--resume`: a game whose stored clock was running (the board went down
  with it) or held for a drop is held again until the peer is back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from damka.controller import events as ev
from damka.controller.app import CommandRefused
from damka.controller.clock.records import State
from damka.controller.session.types import Phase

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.dxp.game import DxpGame

DROP_BY = "DXP: connection lost"
KEEP_BY = "DXP: connection lost (paused by hand before)"
BACK_BY = "DXP: peer back"
ARBITER_CLOCK_ACTIONS = ("pause", "resume", "undo")


def held_when_stored(clock_state: dict[str, Any] | None) -> bool:
    """Whether a stored clock was stopped by the DXP drop (or not stopped at
    all: the board went down with it running), not by the arbiter."""
    if not clock_state:
        return False
    if clock_state.get("state") == "running":
        return True
    pauses = [entry for entry in clock_state.get("log", ()) if entry.get("action") == "pause"]
    return clock_state.get("state") == "paused" and bool(pauses) and pauses[-1].get("by") == DROP_BY


class ClockHold:
    """Whether the board holds the clock for a peer that is gone; it owns
    `clock_held` and `restart_when_back`, and reads the App and the game."""

    def __init__(self, app: App, game: DxpGame) -> None:
        self.app = app
        self.game = game
        self.clock_held = False         # the peer is gone: the clock must not run
        self.restart_when_back = False  # the drop stopped it (not the arbiter): it runs again when the peer is back

    def on_arbiter(self, event: ev.ArbiterActed) -> None:
        """The arbiter acted (the feature hears it, `DxpFeature.on_event`)."""
        if not event.who.startswith("DXP:") and event.action in ARBITER_CLOCK_ACTIONS:
            self.clock_held = self.restart_when_back = False   # the arbiter has taken the clock in hand

    def _clock_state(self) -> State | None:
        """The clock of a game still in play (None: no game, over, or no clock)."""
        game = self.app.read_model().game
        return None if game is None or game.over else game.clock_state

    def _in_play(self) -> bool:
        return self._clock_state() is not None

    def hold(self, restart: bool) -> None:
        """The peer is gone (a drop, or `--resume` before it is back): the clock
        stays stopped; `restart`: it runs again when the peer is back."""
        self.clock_held, self.restart_when_back = self._in_play(), restart and self._in_play()

    def on_link(self, up: bool) -> None:
        """The DXP game's connection went down (False) or the peer is back (True)."""
        if not self._in_play():
            self.clock_held = self.restart_when_back = False
        elif not up:
            running = self._clock_state() is State.RUNNING
            if running:
                self._clock_command(self.app.pause_clock, DROP_BY)
            self.hold(restart=running)
        else:
            self.clock_held = False
            self._restart_when_set_up()

    def _restart_when_set_up(self) -> None:
        """The peer is back: the clock the drop stopped runs again, once the
        pieces stand (a resumed game's are put back as lit first)."""
        if not self.restart_when_back or self.game.link is None:
            return
        game = self.app.read_model().game
        if game is None or game.over or game.clock_state is not State.PAUSED:
            self.restart_when_back = False              # over, or running already (a committed move)
        elif game.phase is not Phase.SETUP:
            self.restart_when_back = False
            self._clock_command(self.app.resume_clock, BACK_BY)

    def keep(self) -> None:
        """After every input: a held clock that a committed move restarted is
        paused again; a clock waiting for the pieces runs once they stand."""
        if self.clock_held and self.game.link is None and self._clock_state() is State.RUNNING:
            self._clock_command(self.app.pause_clock, DROP_BY if self.restart_when_back else KEEP_BY)
        self._restart_when_set_up()

    @staticmethod
    def _clock_command(command: Any, where: str) -> None:
        try:
            command(where)
        except CommandRefused:
            pass   # (the clock is not in a state to change: nothing to do)
