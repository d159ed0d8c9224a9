"""`damka dxp`: a board game against another program over DXP (DamExchange).

`--listen [PORT]` waits for the peer's game request (the board as follower,
port 27531 by default); `--connect HOST:PORT` sends one (the board as
initiator, the person playing `--colour`, `--minutes`/`--moves` on the clock).
The game is international draughts (the one game DXP version 1 names); it is
stored like every board game (`damka export` writes its PDN). After a drop the
follower listens again on its port and the initiator calls again (back-off);
`--resume GAME_ID` takes up a stored unfinished DXP game in a new process.
See docs/dxp.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from damka.dxp.protocol import DEFAULT_PORT
from damka.commands.deadline import StopAfter
from damka.commands.run import CONFIG_HELP
from damka.commands.net import port_number
from damka.dxp.redial import GIVE_UP_S
from damka.logs import add_verbose_argument, level_of, logging_to_stderr

if TYPE_CHECKING:
    from damka.config import BoardConfig
    from damka.controller.app import App
    from damka.controller.store.store import Store


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from damka.commands.games import add_db_argument

    parser = subparsers.add_parser(
        "dxp", help="play a board game against another program over DXP (DamExchange, TCP)",
        description="The board against a DXP peer: its moves are lit for the person to carry out, "
        "the person's moves are sent when committed. International draughts.")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--listen", type=port_number, nargs="?", const=DEFAULT_PORT, metavar="PORT",
                       help=f"wait for the peer's game request on PORT (default {DEFAULT_PORT})")
    where.add_argument("--connect", metavar="HOST:PORT", help="ask the peer at HOST:PORT for a game")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--colour", choices=("white", "black"), default="white",
                        help="--connect: the colour the person at the board plays (default white)")
    parser.add_argument("--minutes", type=int, default=0, help="--connect: minutes per side (0: no clock)")
    parser.add_argument("--moves", type=int, default=0, help="--connect: moves in that time (0: the whole game)")
    parser.add_argument("--resume", type=int, default=None, metavar="GAME_ID",
                        help="go on with the stored unfinished DXP game GAME_ID (after the board restarted): "
                        "the peer's GAMEREQ (--listen) or ours (--connect) carries its position; "
                        "`damka games` lists the stored games with their ids (an unfinished one has "
                        "result '*'; the web page's archive shows them too)")
    parser.add_argument("--give-up", type=float, default=GIVE_UP_S, metavar="SECONDS",
                        help=f"after a drop, look for the peer this long (default {GIVE_UP_S:.0f}), "
                        "then the menu adjudicates or a later --resume goes on")
    parser.add_argument("--config", metavar="FILE", type=Path, default=None, help=CONFIG_HELP)
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="stop after S seconds, waiting for the peer included (tests)")
    add_db_argument(parser)
    add_verbose_argument(parser)
    parser.set_defaults(func=run)


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"--connect {text!r}: expected HOST:PORT, e.g. 127.0.0.1:{DEFAULT_PORT}")
    return host, int(port)


def run(args: argparse.Namespace) -> int:
    from damka.commands.run import find_config
    from damka.config import BoardConfig, load_config

    stop = StopAfter(args.seconds)
    path = find_config(args.config)
    config = load_config(path) if path is not None else BoardConfig()  # a mistake: one line, before any wait
    with logging_to_stderr(level_of(config.log_level, args.verbose)):
        return _serve(args, config, stop)


def _serve(args: argparse.Namespace, config: BoardConfig, stop: StopAfter) -> int:
    from damka.controller.store.store import Store
    from damka.dxp.feature import dxp_of

    from damka.commands.run import app_options

    store = Store(args.db)
    try:
        try:
            app = open_app(args, store, stop, **app_options(config))
        except TimeoutError:
            print(f"damka dxp: no DXP peer came in {args.seconds:g} s (--seconds); stopped", flush=True)
            return 0
        try:
            return _play(app, config, stop)
        finally:
            dxp_of(app).close()
    finally:
        store.close()


def open_app(args: argparse.Namespace, store: Store, stop: StopAfter | None = None, **app_options: Any) -> App:
    """The board's App with the DXP feature as the arguments say: a new game after the handshake,
    or (`--resume`) the stored game waiting for the peer; `app_options`: the board config's
    (`commands.run.app_options`). ValueError says why not;
    TimeoutError: `stop`'s deadline came while waiting for the peer."""
    from damka.dxp.door import DxpDoor
    from damka.dxp.link import DxpLink, DxpServer
    from damka.dxp.redial import Redialer
    from damka.dxp.feature import DxpResumeError
    from damka.dxp.start import DxpStartError, follow_at, initiate, make_app, resume_app
    from damka.controller.store.schema import StoreError

    if args.minutes < 0 or args.moves < 0:
        raise ValueError("--minutes and --moves must be 0 or more")
    if args.give_up <= 0:
        raise ValueError(f"--give-up {args.give_up:g}: must be more than 0 seconds")
    port = args.listen if args.listen is not None else DEFAULT_PORT
    if args.connect:
        host, port = parse_address(args.connect)
        redial = Redialer.calling(host, port, give_up_s=args.give_up)
    else:
        try:
            door = DxpDoor(DxpServer(args.host, port))     # open for the whole game: strays never close it
        except OSError as error:
            raise ValueError(f"cannot listen on {args.host}:{port}: {error}") from None
        redial = Redialer.listening(args.host, port, door=door, give_up_s=args.give_up)
    try:
        if args.resume is not None:
            print(f"damka dxp: game {args.resume}: {redial.describe.replace(' again', '')} for the peer", flush=True)
            return resume_app(store, args.resume, initiator=bool(args.connect), redial=redial, **app_options)
        if args.connect:
            link = DxpLink.connect(host, port)
            request, peer_side, name = initiate(link, person_colour="W" if args.colour == "white" else "Z",
                                                minutes=args.minutes, moves=args.moves)
        else:
            print(f"damka dxp: waiting for a DXP peer on {args.host}:{port}", flush=True)
            link, request, peer_side = follow_at(door, timeout=stop.left() if stop is not None else None)
            name = request.name
        return make_app(link, request, peer_side, name, initiator=bool(args.connect), redial=redial, store=store,
                        **app_options)
    except TimeoutError as error:
        redial.close()
        if stop is not None and stop():
            raise  # the --seconds deadline, waiting for the peer
        raise ValueError(f"no DXP game: {error}") from None
    except (OSError, DxpStartError) as error:
        redial.close()
        raise ValueError(f"no DXP game: {error}") from None
    except (DxpResumeError, StoreError) as error:
        redial.close()
        raise ValueError(str(error)) from None


def _play(app: App, config: BoardConfig, stop: StopAfter) -> int:
    from damka.commands.run import _screen, board_loop

    if config.backend == "sim":
        from damka.sim.interactive import run_window

        return run_window(app, should_stop=stop)
    from damka.hardware.backends import open_board

    with open_board(config) as board:
        now_ms = lambda: time.monotonic_ns() // 1_000_000  # noqa: E731
        loop = board_loop(app, board, config, now_ms=now_ms, draw=_screen(app, now_ms))
        loop.run(time.sleep, should_stop=stop)
    return 0
