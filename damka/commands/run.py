"""`damka run [--config FILE]`: the board itself. The devices named in the
board config (GPIO matrix or the microcontroller over serial); with no config,
or `backend = "sim"`, the simulator window stands in for the board."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from damka.commands.games import add_db_argument

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from damka.commands.sim import add_game_arguments, players_from, setup_from

DEFAULT_CONFIGS = (Path("/etc/damka/board.toml"), Path("~/.config/damka/board.toml"))


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run the board (hardware from the config, else the simulator)",
        description="Run the board: the controller on the hardware named in the board config "
                    "(default: /etc/damka/board.toml or ~/.config/damka/board.toml), or on the "
                    "simulator's virtual board when there is none. Every game is stored; after a "
                    "crash or power cut the board offers to resume.")
    parser.add_argument("--config", metavar="FILE", type=Path, default=None, help="board config (TOML)")
    parser.add_argument("--no-screen", action="store_true", help="no pygame screen (LEDs and buttons only)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="stop the board loop after S seconds (tests, burn-in); default: run until stopped")
    add_game_arguments(parser)
    add_db_argument(parser)
    parser.set_defaults(func=run)


def find_config(path: Path | None) -> Path | None:
    if path is not None:
        return path
    for candidate in DEFAULT_CONFIGS:
        candidate = candidate.expanduser()
        if candidate.exists():
            return candidate
    return None


def run(args: argparse.Namespace) -> int:
    from damka.hardware.config import BoardConfig, load_config

    if args.seconds is not None and not args.seconds > 0:
        raise ValueError(f"--seconds must be a positive number of seconds, not {args.seconds:g}")
    path = find_config(args.config)
    config = load_config(path) if path is not None else BoardConfig()  # ConfigError: one clear message
    setup = setup_from(args)
    if config.engines:  # [engines]: an external Hub engine per variant (docs/computer.md)
        import dataclasses

        setup = dataclasses.replace(setup, engines=tuple(config.engines.items()))
    from damka.controller.app import App
    from damka.controller.board_loop import BoardLoop
    from damka.controller.store import Store

    store = Store(args.db)
    try:
        app = App(store=store, setup=setup, start_game=bool(args.variant), offer_resume=True,
                  players=players_from(args))
        if config.backend == "sim":
            from damka.sim.window import run_window

            return run_window(app)
        from damka.hardware.backends import open_board

        with open_board(config) as board:
            draw = None if args.no_screen else _screen()
            loop = BoardLoop(app, board.sensor, board.leds, board.buttons,
                             now_ms=lambda: time.monotonic_ns() // 1_000_000, draw=draw)
            stop_at = None if args.seconds is None else time.monotonic() + args.seconds
            loop.run(time.sleep, should_stop=lambda: stop_at is not None and time.monotonic() >= stop_at)
    finally:
        store.close()
    return 0


def _screen():
    """The board's small screen, fullscreen, through pygame (None if there is no display)."""
    import pygame

    from damka.display.screen import SIZE, Screen

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        pygame.display.init()
        # Fullscreen on the panel: (0, 0) asks for the panel's own size (480x320, 800x480, upright...).
        fullscreen = os.environ.get("DISPLAY") is None
        display = pygame.display.set_mode((0, 0) if fullscreen else SIZE, pygame.FULLSCREEN if fullscreen else 0)
    except pygame.error:
        return None
    pygame.mouse.set_visible(False)
    screen = Screen(display.get_size())

    def draw(view) -> None:
        pygame.event.pump()
        screen.draw(display, view)
        pygame.display.flip()

    return draw
