"""The page's one driver: what a request asks is run on the board's thread.

The server's handlers never touch the App: they check the request, then
`Driver.call(fn)` queues `fn` and waits (on the server's loop, not the
board's) for the board's loop to run it from `App.pumps`, after an input or
a tick, as if a button had been pressed then. A failed command raises
`CommandError` with the one-line reason the page shows.
"""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Hashable

from damka.controller.app import AppListener, BadArgument, CommandRefused
from damka.controller.game.factory import build_variant, time_controls
from damka.controller.app.menus import mode_choices
from damka.controller.app.offers import OfferError
from damka.controller.game.setup import OWN_ENGINE, Engines, GameSetup, engine_names
from damka.controller.words import say
from damka.engine import levels
from damka.engine.variant import Variant
from damka.engine.variants import variant_names
from damka.web.feed import WebFeed
from damka.web.remote import RemoteOpponent

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.controller.app.board_settings import BoardSettings

COMMAND_TIMEOUT_S = 10.0


class CommandError(ValueError):
    """A request the board refused; the message says why (HTTP 400/409)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


def setup_from(data: Any, engines: Engines = ()) -> tuple[GameSetup, list[str], int | None]:
    """A `GameSetup` (with player names and the remote seat) from the page's
    form; CommandError(400) naming the field for anything wrong. `engines`:
    the board config's (`App.engines`); the page chooses one by name, never a command."""
    if not isinstance(data, dict):
        raise CommandError("the game must be a JSON object", 400)
    variant = str(data.get("variant", "classic"))
    if variant not in variant_names():
        raise CommandError(f"variant: unknown {variant!r}; known: {', '.join(variant_names())}", 400)
    sides = str(data.get("sides", "2"))
    if sides not in ("2", "3", "4", "teams"):
        raise CommandError(f"sides: {sides!r} is not 2, 3, 4 or teams", 400)
    mode = str(data.get("mode", "casual"))
    if mode not in {name for name, _ in mode_choices()} | {"remote"}:
        raise CommandError(f"mode: unknown {mode!r}", 400)
    level = str(data.get("level", levels.DEFAULT_LEVEL))
    try:
        level = levels.find_level(level).name
    except (KeyError, ValueError) as error:
        raise CommandError(f"level: {error}", 400) from None
    hints = data.get("hint_limit", 3)
    if hints not in (None, "") and not (str(hints).isdigit() and int(hints) <= 99):
        raise CommandError(f"hint_limit: {hints!r} is not a number of hints (0-99, empty: no limit)", 400)
    computers = str(data.get("computers", "0"))
    if computers not in ("0", "1", "2", "3"):
        raise CommandError(f"computers: {computers!r} is not 0-3", 400)
    colours = str(data.get("colours", "lot"))
    if colours not in ("lot", "first", "second"):
        raise CommandError(f"colours: {colours!r} is not lot, first or second", 400)
    setup = GameSetup(variant=variant, sides=2 if sides == "teams" else int(sides), teams=sides == "teams",
                      mode="computer" if mode == "remote" else mode,
                      time_control=str(data.get("time_control", "")).strip(), colours=colours, level=level,
                      computers=int(computers), hint_limit=None if hints in (None, "") else int(hints),
                      engines=engines, engine=engine_from(data.get("engine", ""), engines, variant))
    try:
        variant_obj = build_variant(setup)
        time_controls(setup, variant_obj)
    except ValueError as error:
        field = "time control" if setup.time_control and "variant" not in str(error) else "game"
        raise CommandError(f"{field}: {error}", 400) from None
    names = data.get("players") or []
    if not isinstance(names, list) or not all(isinstance(n, str) and len(n) <= 40 for n in names):
        raise CommandError("players: a list of names (40 characters at most)", 400)
    names = [n.strip() for n in names if n.strip()]
    if names and len(names) != len(variant_obj.sides):
        raise CommandError(f"players: {len(names)} names for a game of {len(variant_obj.sides)} sides", 400)
    remote_seat = _remote_seat(data.get("remote_seat", 1), len(variant_obj.sides)) if mode == "remote" else None
    return setup, names, remote_seat


def engine_from(value: Any, engines: Engines, variant: str) -> str:
    """The page's engine: "" (the variant's default), Damka's own, or a name the
    board config gives for `variant`; anything else is CommandError(400)."""
    name = "" if value is None else str(value).strip()
    if not name:
        return ""
    if name.casefold() == OWN_ENGINE.casefold():
        return OWN_ENGINE
    names = engine_names(engines, variant)
    if name not in names:
        shown = name if len(name) <= 40 and name.isprintable() else name[:40].encode("unicode_escape").decode() + "..."
        raise CommandError(f"engine: {shown!r} is not an engine the board's config names for {variant}; "
                           f"choose one of {', '.join((*names, OWN_ENGINE))}", 400)
    return name


def _remote_seat(value: Any, sides: int) -> int:
    """The seat played from the page: any seat of the game (0-based; the form sends its index)."""
    text = str(value).strip()
    if not text.isdigit() or not 0 <= int(text) < sides:
        raise CommandError(f"remote_seat: {value!r} is not a seat of this game (0 to {sides - 1})", 400)
    return int(text)


class Driver(AppListener):
    """Queues commands for the board's thread; holds the page's remote seat.
    An App listener, told first after every input and tick: it runs what the page queued."""

    def __init__(self, app: App, feed: WebFeed) -> None:
        self.app = app
        self.feed = feed
        self._queue: deque[tuple[Callable[[], Any], Future]] = deque()
        self._reads: dict[Hashable, Future] = {}   # reads queued and not yet begun, by what they read
        self._lock = threading.Lock()
        self.announce: Callable[[str], None] = lambda note: setattr(app, "banner", note)
        self._language = app.board_settings.language
        app.listen(self, first=True)
        feed.remote = self.current_remote

    def close(self) -> None:
        self.app.unlisten(self)

    def after_input(self) -> None:
        self.run_queued()

    def settings_changed(self, settings: BoardSettings) -> None:
        """The screen's line of the page (the pairing code) said again when the board's language changed."""
        if settings.language != self._language:
            self._language = settings.language
            self.announce("")

    def remote_player(self, variant: Variant, seats: frozenset[int]) -> RemoteOpponent:
        return self.resumed_remote(variant, seats)

    def current_remote(self) -> RemoteOpponent | None:
        """The remote seat of the game on the board (None in a game at the table)."""
        game = self.app.read_model().game
        players = game.far_players if game is not None else ()
        return next((p for p in players if isinstance(p, RemoteOpponent)), None)

    @staticmethod
    def resumed_remote(variant: Variant, seats: frozenset[int]) -> RemoteOpponent:
        """The page's player of a resumed game's seats (`App.remote_player`): no
        page holds them until one claims them with the code (`claim`)."""
        return RemoteOpponent(variant, seats, claimed=False)

    # -- either thread ----------------------------------------------------------------

    async def call(self, fn: Callable[[], Any]) -> Any:
        """Run `fn` on the board's thread; its result, or its CommandError."""
        future: Future = Future()
        with self._lock:
            self._queue.append((fn, future))
        return await self._answer(asyncio.wrap_future(future))   # given up on, the command is never run

    async def read(self, key: Hashable, fn: Callable[[], Any]) -> Any:
        """`call` for a read that changes nothing, shared: a request for `key` that comes while one
        for it waits in the queue, not yet begun, takes that one's answer. So a flood of one GET
        from pages that need no code costs the board's thread one run a tick, not one a request,
        and every answer is read after its request came."""
        with self._lock:
            future = self._reads.get(key)
            if future is None:
                future = self._reads[key] = Future()
                self._queue.append((lambda: self._begin_read(key, fn), future))
        return await self._answer(asyncio.shield(asyncio.wrap_future(future)))   # given up on, it runs for the others

    def _begin_read(self, key: Hashable, fn: Callable[[], Any]) -> Any:
        """On the board's thread: a read begins, so a request from now on queues a read of its own."""
        with self._lock:
            self._reads.pop(key, None)
        return fn()

    @staticmethod
    async def _answer(answer: Awaitable[Any]) -> Any:
        """The queued run's answer; a board that does not run it within COMMAND_TIMEOUT_S is CommandError 503."""
        try:
            return await asyncio.wait_for(answer, COMMAND_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise CommandError(say("web.no_answer"), 503) from None

    # -- the board's thread -------------------------------------------------------------

    def run_queued(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    return
                fn, future = self._queue.popleft()
            if not future.set_running_or_notify_cancel():
                continue
            result: Any = None
            error: CommandError | None = None
            try:
                result = fn()
            except CommandError as refused:
                error = refused
            except BadArgument as refused:    # the App's commands: the request was wrong in itself
                error = CommandError(str(refused), 400)
            except CommandRefused as refused:  # ... or cannot be done now
                error = CommandError(str(refused), 409)
            except ValueError as refused:     # a move or a setting the rules refuse: the reason as it is
                error = CommandError(str(refused), 400)
            except Exception as failed:  # noqa: BLE001 - a bad request must never stop the board
                error = CommandError(f"{type(failed).__name__}: {failed}", 400)
            number = self.feed.command_ran()
            if error is not None:
                future.set_exception(error)
            else:   # (the number: the page knows the first state that shows what it did)
                future.set_result({**result, "command": number} if isinstance(result, dict) else result)

    def new_game(self, setup: GameSetup, names: list[str], remote_seat: int | None, who: str) -> dict[str, Any]:
        app = self.app
        if names:
            app.set_player_names(names)
        remote = RemoteOpponent(build_variant(setup), frozenset({remote_seat})) if remote_seat is not None else None
        app.new_game(setup, remote=remote)
        self.announce(say("web.new_game", who=who))
        if remote is None:
            return {"ok": True, "game": app.game_id}
        # The remote seat is this page's: the token goes to it alone (never into the picture).
        return {"ok": True, "game": app.game_id, "seat_token": remote.key.token, "seat_id": remote.key.public}

    def claim(self, role: str, who: str, seat: Any = None) -> dict[str, Any]:
        """The remote seat for this page: open after a resume (the first page
        with the code gets it), else held by one page; the arbiter PIN hands it
        to another (a second device, a page that lost its token). A fresh token."""
        remote = self.current_remote()
        if remote is None:
            raise CommandError(say("web.no_seat"))
        game = self.app.read_model().game
        if game is None or game.over:
            raise CommandError(say("command.over_already"))
        if remote.claimed and remote.key.matches(seat):
            return {"ok": True, "seat_token": remote.key.token, "seat_id": remote.key.public}
        if remote.claimed and role != "arbiter":
            raise CommandError(say("web.seat_held"), 409)
        handed = remote.claimed
        key = remote.claim()
        self.announce(say("web.seat_handed" if handed else "web.seat_claimed", who=who))
        return {"ok": True, "seat_token": key.token, "seat_id": key.public}

    def acts_for_remote(self, token: Any) -> bool:
        """The request comes from the page that plays the remote seat (its seat token)."""
        remote = self.current_remote()
        return remote is not None and remote.key.matches(token)

    def menu_action(self, name: str, who: str, seat: Any = None) -> dict[str, Any]:
        """The same path as the board's menu (resign, pause, unpause, new, resume); a draw
        or a take-back is offered to the other party, accept/decline answer its offer
        (`App.offer`, `App.answer_offer`: the handshake is the controller's). In a game
        with a remote seat the page holding its token (`seat`) acts as the remote
        player; any other page with the code acts for the board's side."""
        app = self.app   # what cannot be done now is refused by the App's commands themselves (409)
        if self.current_remote() is None:
            where = "page"
        else:
            where = "remote page" if self.acts_for_remote(seat) else "board"
        try:
            if name == "resign":
                side = self._remote_side() if where == "remote page" else None
                note = app.resign(who, side)
            elif name in ("draw", "takeback"):
                app.offer(name, None, where)
                made = app.pending_offer  # None: settled at once (at the board, no one far away)
                if name == "draw":
                    note = say("web.draw_offered", who=who)
                elif made is not None:
                    note = say("web.takeback_asked", moves=made.moves, who=who)
                else:
                    note = say("web.takeback_asked_settled", who=who)
            elif name in ("accept", "decline"):
                offer = app.pending_offer
                app.answer_offer(name == "accept", where)  # OfferError when there is none
                assert offer is not None
                answer = say("offer.accepted") if name == "accept" else say("offer.declined")
                note = say("web.draw_answered" if offer.kind == "draw" else "web.takeback_answered", answer=answer,
                           who=who)
            else:
                app.menu_action(name, who)
                note = say("web.action_from", action=name, who=who)
        except OfferError as error:
            raise CommandError(str(error)) from None
        self.announce(note)
        return {"ok": True, "note": note}

    def _remote_side(self) -> int:
        """The remote player's side in the game: the one to move when it is theirs, else their first still in it."""
        game = self.app.read_model().game
        seats = self.app.remote_sides() & game.active if game is not None else frozenset()
        if game is None or not seats:
            raise CommandError(say("web.remote_out"))
        return game.turn if game.turn in seats else min(seats)

    def remote_move(self, text: str, seat: Any = None) -> dict[str, Any]:
        remote = self.current_remote()
        if remote is None:
            raise CommandError(say("web.no_seat"))
        if not self.acts_for_remote(seat):
            raise CommandError(say("web.not_the_seat", why=say("web.no_token") if not seat else say("web.wrong_token")),
                               403)
        turn = remote.submit(text)
        self.app.tick(self.app.now)   # the session picks the answer up now and lights it on the board
        return {"ok": True, "turn_complete": turn is not None}
