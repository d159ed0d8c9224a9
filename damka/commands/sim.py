"""`damka sim`: the simulator window, or (`--headless`) a sensor log played
through the same app and saved as a screenshot of the window."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from damka.commands.deadline import StopAfter
from damka.commands.games import add_db_argument
from damka.commands.net import port_number

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.controller.cues.listener import CueSettings
    from damka.controller.game.setup import GameSetup

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Screenshot extensions pygame.image.save writes as that format (any other name gets TGA).
IMAGE_TYPES = (".png", ".jpg", ".jpeg", ".bmp", ".tga")


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default=None, help="game to start at once (default: the menu)")
    parser.add_argument("--mode", default="casual", choices=("casual", "learning", "tournament", "computer"))
    parser.add_argument("--sides", default=None, help="multiwarcaby: 2, 3, 4 or 'teams' (default 2)")
    parser.add_argument("--time-control", default="", metavar="TC",
                        help="clock: a preset name (`blitz-64`), '5+3', 'casual'; default none. While "
                             "people carry out an outside program's move (a Hub engine's, a DXP peer's) "
                             "no clock runs, unless a board config's [clock] carrying_out gives that time "
                             "to the mover or the next side (damka run/dxp --config)")
    parser.add_argument("--colours", default="lot", choices=("lot", "first", "second"),
                        help="colours (order of play) by lot, or as --players lists them; against the "
                             "computer: which side you play")
    parser.add_argument("--players", default="", metavar="A,B,...",
                        help="player names for the match standings (one per side)")
    parser.add_argument("--web", type=port_number, default=None, metavar="PORT",
                        help="serve the board's web page on PORT (docs/web.md); 0: any free port")
    parser.add_argument("--bind", default=None, metavar="ADDRESS",
                        help="the web page's address: 127.0.0.1 (default without a board config: this "
                             "computer only), 0.0.0.0 (phones on the same network too); with a board "
                             "config, its [web] bind")
    parser.add_argument("--level", default=None, metavar="LEVEL",
                        help="the computer's strength with --mode computer: beginner, novice, casual "
                             "(default), club, strong or master")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim",
        description="The board in a window: drag pieces, keys for the clock and menu buttons. "
                    "With --headless, play a sensor log ('MS up SQ', 'MS down SQ', 'MS press SIDE', "
                    "'MS button NAME') from the start position and save what the window shows.")
    add_game_arguments(parser)
    parser.add_argument("--headless", action="store_true", help="no window: play --script, save --screenshot")
    parser.add_argument("--voice", action="store_true",
                        help="speak as a board with [voice] enabled does, through espeak-ng (the menu's Voice too)")
    parser.add_argument("--seconds", type=float, default=None, metavar="S",
                        help="close the window after S seconds (tests, demos); default: when you close it")
    parser.add_argument("--script", metavar="LOG", type=Path, help="sensor log to play (headless)")
    parser.add_argument("--screenshot", metavar="FILE.png", type=screenshot_path,
                        help=f"save the window here (headless): {', '.join(IMAGE_TYPES)}; "
                             "into a folder that exists")
    parser.add_argument("--no-store", action="store_true", help="do not store the games")
    parser.add_argument("--lesson", metavar="NAME", default=None,
                        help="start a lesson at once: its name (damka lessons list) or a lesson file (.toml)")
    parser.add_argument("--puzzle", metavar="VARIANT[:ID]", default=None,
                        help="start a puzzle at once: classic, russian, international or multiwarcaby, and a "
                             "puzzle's id (default: the next one for the learner)")
    add_db_argument(parser)
    parser.set_defaults(func=run)


def screenshot_path(text: str) -> Path:
    """--screenshot FILE: a name whose extension pygame writes as that format (it
    writes TGA for any other) in a folder that exists (none is made: a typing
    error would leave one behind), not a folder or a device."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: is a folder; give a file name in it, like {path / 'board.png'}")
    if path.suffix.lower() not in IMAGE_TYPES:
        raise argparse.ArgumentTypeError(f"{text}: the name must end in {', '.join(IMAGE_TYPES)}, the image format"
                                         + (f", not {path.suffix}" if path.suffix else ""))
    if path.exists() and not path.is_file():
        raise argparse.ArgumentTypeError(f"{text}: not a regular file; not overwritten")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: no folder {folder} (it is not made for you)")
    return path




def setup_from(args: argparse.Namespace) -> GameSetup:
    """The game the arguments ask for: a bad or unknown variant, or an option the
    variant does not take, is one clear error now, before any window opens."""
    from damka.controller.game.setup import GameSetup
    from damka.engine import levels
    from damka.engine.variants import variant_class

    sides = "2" if args.sides is None else str(args.sides)
    if sides != "teams" and not (sides in ("2", "3", "4")):
        raise ValueError(f"--sides must be 2, 3, 4 or teams, not {sides!r}")
    if args.variant:
        factory = variant_class(args.variant)  # unknown: the error lists the known ones
        if sides != "2" and not factory.takes_option("sides"):
            raise ValueError(f"--sides {sides}: {factory.name} is a game for two; "
                             f"--sides is for {', '.join(_sides_takers())}")
    level = levels.DEFAULT_LEVEL
    if args.level is not None:
        if args.mode != "computer":
            raise ValueError(f"--level {args.level}: the computer's strength; add --mode computer")
        level = levels.find_level(args.level).name  # an unknown level: one line naming the known ones
    setup = GameSetup(variant=args.variant or "classic", sides=2 if sides == "teams" else int(sides),
                      teams=sides == "teams", mode=args.mode, time_control=args.time_control or "",
                      colours=args.colours, level=level)
    from damka.controller.game.factory import build_variant, time_controls

    # A variant option it cannot take, or a bad time control (in any form the board
    # accepts: compact, per side, pdn:, a preset): one clear error now, before any window.
    time_controls(setup, build_variant(setup))
    return setup


def _sides_takers() -> list[str]:
    from damka.engine.variants import variant_classes

    return [cls.name for cls in variant_classes() if cls.takes_option("sides")]


def players_from(args: argparse.Namespace) -> list[str] | None:
    names = [name.strip() for name in args.players.split(",") if name.strip()]
    return names or None


def run(args: argparse.Namespace) -> int:
    setup = setup_from(args)
    from damka.teaching.lesson_file import find_lesson

    args.lesson_read = find_lesson(args.lesson) if args.lesson else None  # a wrong name: said before anything starts
    args.puzzle_read = puzzle_from(args.puzzle) if args.puzzle else None
    if args.lesson and args.puzzle:
        raise ValueError("--lesson or --puzzle: one at a time")
    args.lesson = args.lesson or args.puzzle  # (either: no game to start, none to offer)
    if not args.headless and (args.script or args.screenshot):
        raise ValueError("--script and --screenshot are for --headless (the window plays what you do)")
    if args.headless:
        return run_headless(args, setup)
    from damka.controller.app import App
    from damka.controller.store.store import Store
    from damka.sim.interactive import run_window

    store = None if args.no_store else Store(args.db)
    try:
        app = App(store=store, setup=setup, start_game=bool(args.variant) and not args.lesson,
                  offer_resume=not args.variant and not args.lesson, players=players_from(args))
        start_lesson(app, args)
        from damka.web.launch import start_web

        web = start_web(app, args.web, bind=args.bind)
        try:
            return run_window(app, should_stop=StopAfter(args.seconds), cues=voice_on(app) if args.voice else None)
        finally:
            if web is not None:
                web.close()
    finally:
        if store is not None:
            store.close()


def voice_on(app: App) -> CueSettings:
    """--voice: the board settings' Voice on (the menu shows it), and the cues that speak."""
    import dataclasses

    from damka.controller.cues.listener import CueSettings

    app.set_board_settings(dataclasses.replace(app.board_settings, voice=True))
    return CueSettings(voice=True)


def puzzle_from(text: str) -> tuple[str, str | None]:
    """--puzzle VARIANT[:ID], checked before anything starts: (variant, id or None)."""
    from damka.controller.app.puzzle_desk import find_puzzle
    from damka.teaching.puzzles import shipped_set

    variant, _, puzzle_id = text.partition(":")
    if variant not in ("classic", "russian", "international", "multiwarcaby") or not shipped_set(variant):
        raise ValueError(f"--puzzle {text}: no puzzles for {variant!r}; there are puzzles for classic, russian, "
                         "international and multiwarcaby")
    if puzzle_id and find_puzzle(variant, puzzle_id) is None:
        raise ValueError(f"--puzzle {text}: no puzzle {puzzle_id!r} in the {variant} set")
    return variant, puzzle_id or None


def start_lesson(app: App, args: argparse.Namespace) -> None:
    """`--lesson`, `--puzzle`: the lesson or puzzle on the board at once (read already by `run`)."""
    if args.lesson_read is not None:
        app.teaching.take_lesson(args.lesson_read)
    if args.puzzle_read is not None:
        app.teaching.start_puzzle(*args.puzzle_read)


def run_headless(args: argparse.Namespace, setup: GameSetup) -> int:
    if args.script is None or args.screenshot is None:
        raise ValueError("--headless needs --script LOG and --screenshot FILE.png")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from damka.controller.app import App
    from damka.controller.board.eventlog import read_log
    from damka.controller.store.store import Store
    from damka.sim.window import build, play_script, save_screenshot

    import pygame

    events = read_log(str(args.script))
    pygame.display.init()
    store = Store(args.db) if args.db and not args.no_store else None
    try:
        app = App(store=store, setup=setup, start_game=not args.lesson, offer_resume=False, players=players_from(args))
        start_lesson(app, args)
        window = build(app)
        window.board.advance(1500)  # the pieces stand at the start: the game begins
        play_script(window, events)
        path = save_screenshot(window, args.screenshot)
    finally:
        if store is not None:
            store.close()
    session = app.session
    moves = len(session.committed) if session is not None else 0
    from damka.controller.words.plurals import english

    print(f"{english(len(events), 'event')} played, {english(moves, 'move')} committed; screenshot saved to {path}",
          file=sys.stderr)
    return 0
