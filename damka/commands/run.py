"""`damka run [--config FILE]`: the board itself. The devices named in the
board config (GPIO matrix or the microcontroller over serial); with no config,
or `backend = "sim"`, the simulator window stands in for the board."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from damka.commands.deadline import StopAfter
from damka.commands.games import add_db_argument
from damka.logs import add_verbose_argument, level_of, logging_to_stderr

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from damka.commands.sim import add_game_arguments, players_from, setup_from

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.controller.app.board_settings import BoardSettings
    from damka.controller.board_loop import BoardLoop
    from damka.controller.cues.sinks import ThreadedSink
    from damka.controller.game.setup import Engines, GameSetup
    from damka.controller.app.views import View
    from damka.hardware.backends import HardwareBoard
    from damka.config import BoardConfig
    from damka.controller.store.budget import ArchiveBudget
    from damka.controller.store.store import Store

DEFAULT_CONFIGS = (Path("/etc/damka/board.toml"), Path("~/.config/damka/board.toml"))
# What --config says of the board config, in `damka run --help` and `damka dxp --help`.
CONFIG_HELP = ("board config (TOML; docs/board.example.toml): the hardware, the web page, sound, light, "
               "the engines, and [clock] carrying_out: whose time it is while people carry out an outside "
               "program's move (a DXP peer's, a Hub engine's): nobody (the default: the clock stops, the "
               "screen says 'carrying out'), mover (its clock runs on) or next (the next side's starts)")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        description="Run the board: the controller on the hardware named in the board config "
                    "(default: /etc/damka/board.toml or ~/.config/damka/board.toml), or on the "
                    "simulator's virtual board when there is none. Every game is stored; after a "
                    "crash or power cut the board offers to resume.")
    parser.add_argument("--config", metavar="FILE", type=Path, default=None, help=CONFIG_HELP)
    parser.add_argument("--no-screen", action="store_true", help="no pygame screen (LEDs and buttons only)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="stop the board loop after S seconds (tests, burn-in); default: run until stopped")
    add_game_arguments(parser)
    parser.add_argument("--engine", default=None, metavar="NAME",
                        help="the computer's and the coach's engine: a name from the config's [engines] "
                             "for the variant, or Damka (its own); default: the first the config names")
    add_db_argument(parser)
    add_verbose_argument(parser)
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
    from damka.config import BoardConfig, load_config

    stop = StopAfter(args.seconds)
    path = find_config(args.config)
    config = load_config(path) if path is not None else BoardConfig()  # ConfigError: one clear message
    setup = with_engines(setup_from(args), config.engine_table(), args.engine, path)
    with logging_to_stderr(level_of(config.log_level, args.verbose)):   # the service's journal keeps stderr
        return _run_board(args, config, path, setup, stop)


def _run_board(args: argparse.Namespace, config: BoardConfig, path: Path | None, setup: GameSetup,
               stop: StopAfter) -> int:
    from damka.controller.app import App
    from damka.controller.store.store import Store

    store = Store(args.db)
    stack = contextlib.ExitStack()
    try:
        over = archive_over_budget(store, config.archive)
        if over:
            print(over, file=sys.stderr)
        app = App(store=store, setup=setup, start_game=bool(args.variant), offer_resume=True,
                  players=players_from(args), **app_options(config))
        from damka.web.launch import start_web

        web = start_web(app, args.web, config.web if path is not None else None, bind=args.bind,
                        archive=config.archive)
        if web is not None:
            stack.callback(web.close)
        if config.hall is not None:  # [hall]: the games go to the tournament hall too (docs/hall.md)
            try:
                from damka.hall.publisher import start_publisher

                stack.callback(start_publisher(config.hall, store, app).close)
            except ImportError as error:
                print(f"hall off: {error.name} is missing; pip install 'damka[hall]'", file=sys.stderr)
        if config.backend == "sim":
            from damka.controller.cues.listener import CueSettings
            from damka.sim.interactive import run_window

            app.set_board_settings(board_settings(config))   # the window too: language, light, sound, voice
            return run_window(app, should_stop=stop, cues=CueSettings.from_config(config.sound, config.voice))
        from damka.hardware.backends import open_board

        with open_board(config) as board:
            now_ms = lambda: time.monotonic_ns() // 1_000_000  # noqa: E731
            loop = board_loop(app, board, config, now_ms=now_ms,
                              draw=None if args.no_screen else _screen(app, now_ms))
            loop.run(time.sleep, should_stop=stop)
    finally:
        stack.close()
        store.close()
    return 0


def archive_over_budget(store: Store, budget: ArchiveBudget) -> str:
    """A line for the log when the archive is at its budget ([archive]): uploads and `damka import`
    store no more, the board's own games are stored all the same ("" while there is room)."""
    from damka.controller.store.budget import MEGABYTE

    use = store.archive_use()
    limit = use.over(budget)
    if not limit:
        return ""
    return (f"archive full: {use.games} games, {use.bytes / MEGABYTE:.1f} MB in {store.path}, at its budget "
            f"([archive] max_{limit}); imports store no more, games played at the board are stored all the same")


def app_options(config: BoardConfig) -> dict[str, Any]:
    """What the board config says of every game the App plays: whose time
    carrying out an outside program's move is ([clock] carrying_out)."""
    from damka.controller.session.types import CarryingOut

    return {"carrying_out": CarryingOut(config.clock.carrying_out)}


def board_loop(app: App, board: "HardwareBoard", config: "BoardConfig", *, now_ms: Callable[[], int],
               draw: Callable[[Any], None] | None = None) -> "BoardLoop":
    """The board loop on the opened devices, with the config's cues; while the
    board does not answer its screen says so (and one line on stderr, for a
    board run without a screen), and it carries on when the board is back."""
    from damka.controller.board_loop import BoardLoop

    sinks = attach_cues(app, board, config)
    board.closers.extend(sink.close for sink in sinks)
    return BoardLoop(app, board.sensor, board.leds, board.buttons, now_ms=now_ms, draw=draw,
                     missing=_told(board.missing))


def _told(missing: Callable[[], str | None]) -> Callable[[], str | None]:
    """`missing`, with a line on stderr each time the board goes away or comes back."""
    said: list[str | None] = [None]

    def check() -> str | None:
        device = missing()
        if device != said[0]:
            from damka.controller.words.wording import board_missing_text

            print(board_missing_text(device) + " (waiting for it)" if device else "board connected",
                  file=sys.stderr, flush=True)
            said[0] = device
        return device

    return check


def with_engines(setup: GameSetup, engines: Engines, engine: str | None, path: Path | None) -> GameSetup:
    """The setup with the config's [engines] (docs/computer.md) and `--engine`,
    a name the config gives for the game's variant (or Damka): else one line saying so."""
    import dataclasses

    from damka.controller.game.setup import OWN_ENGINE

    setup = dataclasses.replace(setup, engines=engines)
    if engine is None:
        return setup
    if engine.casefold() == OWN_ENGINE.casefold():
        return dataclasses.replace(setup, engine=OWN_ENGINE)
    names = setup.engine_names()
    if engine not in names:
        where = f"the config {path}" if path is not None else "no board config (--config FILE)"
        offered = ", ".join((*names, OWN_ENGINE))
        raise ValueError(f"--engine {engine}: {where} names no such engine for {setup.variant}; "
                         f"choose one of {offered}")
    return dataclasses.replace(setup, engine=engine)


def attach_cues(app: App, board: HardwareBoard, config: BoardConfig) -> list[ThreadedSink]:
    """The buzzer and the voice as the config asks, each on its own thread (never the loop's)."""
    from damka.controller.cues.sinks import ThreadedSink, tune_player
    from damka.controller.cues.listener import CueListener, CueSettings

    from damka.controller.app import AppListener
    from damka.hardware.voice import voice_sink

    app.set_board_settings(board_settings(config))   # first: what follows speaks the board's language
    sinks: list[ThreadedSink] = []
    if board.buzzer is not None:
        sinks.append(ThreadedSink(tune_player(board.buzzer), name="buzzer"))
    voice = voice_sink(config.voice.language)
    if voice is not None:
        sinks.append(voice)
    CueListener.attach(app, sinks, CueSettings.from_config(config.sound, config.voice), voice_missing=voice is None)
    if board.led_style is not None:
        style = board.led_style

        class Relight(AppListener):
            """The LEDs' light follows the board settings."""

            def settings_changed(self, settings: BoardSettings) -> None:
                style.set_light(settings.led_brightness, settings.palette)
                board.leds.show(app.frame)  # the new light at once, not with the next move

        relight = Relight()
        app.listen(relight)
        relight.settings_changed(app.board_settings)
    return sinks


def board_settings(config: BoardConfig) -> BoardSettings:
    """The board settings the config starts with ([board] language, [leds], [light], [sound], [voice])."""
    from damka.controller.app.board_settings import BoardSettings

    light = config.light
    return BoardSettings(
        brightness=config.leds.brightness, night=light.night, night_brightness=light.night_brightness,
        last_move=light.last_move, palette=light.palette, sound=config.sound.enabled, voice=config.voice.enabled,
        language=config.language)


def _screen(app, now_ms):
    """The board's small screen, fullscreen, through pygame (None if there is no
    display); touches and clicks on it act as the buttons would (display/touch.py)."""
    import pygame

    from damka.display.screen import SIZE, Screen
    from damka.display.touch import tap, tap_point

    from damka.display.sdl_env import choose_drivers

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    choose_drivers()  # the panel's own driver: no probe for a desktop the board has not got
    try:
        pygame.display.init()
        # Fullscreen on the panel: (0, 0) asks for the panel's own size (480x320, 800x480, upright...).
        fullscreen = os.environ.get("DISPLAY") is None
        display = pygame.display.set_mode((0, 0) if fullscreen else SIZE, pygame.FULLSCREEN if fullscreen else 0)
    except pygame.error:
        return None
    pygame.mouse.set_visible(False)
    screen = Screen(display.get_size())

    def draw(view: View) -> None:
        for event in pygame.event.get():
            point = tap_point(event, display.get_size())
            if point is not None:
                tap(screen, app, point, now_ms())
                view = app.read_model().view
        screen.draw(display, view)
        pygame.display.flip()

    return draw
