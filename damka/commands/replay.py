"""`damka replay VARIANT LOG`: re-run a sensor log headless and print what the board made of it.

The log (see `controller/eventlog.py`) has one event a line: `MS up SQ`,
`MS down SQ`, `MS press SIDE`, `MS button NAME`. The virtual board starts
with the start position (or `--fen`) on it, so the game begins at once; each
event happens at its time in virtual time, and after the last one time runs on
until nothing is pending. Output, one JSON object a line:

    {"ply": 1, "side": "white", "move": "c3-d4", "captures": [], "time_ms": 480}
                                     (multiwarcaby adds "scores": the small points after the move)
    {"event": "takeback", "plies": 1, "time_ms": 5200}          (also redo, new_game, refused)
    {"time_ms": 130, "leds": {"c3": "lifted", "d4": "legal_target"}}   (--leds only)
    {"final": "W:W...:B...", "result": null, "scores": [0, 0], "message": "black to move"}
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from damka.commands.perft import add_position_arguments, load_position
from damka.controller.eventlog import EventLogError, LogEvent, parse_side, read_log
from damka.controller.session import Mode, Session, SessionSettings
from damka.engine.variant import Result, Variant
from damka.sim.virtual_board import VirtualBoard


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="re-run a sensor log through the board controller and print the moves",
        description="Re-run a sensor log (MS up|down SQ, MS press SIDE, MS button NAME) headless through the "
                    "tracker and session; print one JSON line per committed move and a last line with the "
                    "final position and result.",
    )
    add_position_arguments(parser)
    parser.add_argument("log", metavar="LOG", help="the sensor log file ('-' for standard input)")
    parser.add_argument("--mode", choices=[mode.value for mode in Mode], default=Mode.CASUAL.value,
                        help="session mode (default casual)")
    parser.add_argument("--leds", action="store_true", help="also print the LED frame each time it changes")
    parser.add_argument("--computer", metavar="SIDES", default="2",
                        help="computer mode: the computer's sides, 1-based, comma-separated (default 2)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    variant, position = load_position(args)
    if args.log == "-":
        from damka.controller.eventlog import parse_log
        events = parse_log(sys.stdin)
    else:
        events = read_log(args.log)
    settings = SessionSettings(mode=Mode(args.mode), computer_sides=_sides(args.computer, variant))
    for line in replay(variant, events, settings, position=position if args.fen else None, leds=args.leds):
        print(json.dumps(line), file=out)
    return 0


def _sides(text: str, variant: Variant) -> frozenset[int]:
    sides = set()
    for part in text.split(","):
        index = parse_side(part.strip(), variant.sides)
        if index is None:
            raise ValueError(f"--computer: {part!r} is not a side of {variant.name} (1-{len(variant.sides)})")
        sides.add(index)
    return frozenset(sides)


def replay(variant: Variant, events: list[LogEvent], settings: SessionSettings, *, position: Any = None,
           leds: bool = False) -> list[dict[str, Any]]:
    """Run `events` through a session on a virtual board; the JSON-ready output lines."""
    geometry = variant.geometry
    start = position if position is not None else variant.start_position()
    board = VirtualBoard(geometry.names_of(variant.occupancy(start)),
                         files=max(9, geometry.width), ranks=max(9, geometry.height))
    session = Session(variant, settings, position=position)
    board.connect(session)
    lines: list[dict[str, Any]] = []
    seen_events = 0
    seen_leds = 0

    def drain() -> None:
        nonlocal seen_events, seen_leds
        for event in session.events[seen_events:]:
            line = _event_line(variant, event)
            if line is not None:
                lines.append(line)
        seen_events = len(session.events)
        if leds:
            for time, frame in board.led_history[seen_leds:]:
                lines.append({"time_ms": time, "leds": {sq: role.value for sq, role in sorted(frame.items())}})
            seen_leds = len(board.led_history)

    drain()
    for event in events:
        if event.time_ms > board.now:
            board.advance(event.time_ms - board.now)
            drain()
        try:
            _apply(board, variant, event)
        except ValueError as exc:
            raise EventLogError(f"line {event.line}: {exc}") from None
        drain()
    board.run_until_idle()
    drain()
    result = session.result
    lines.append({
        "final": variant.format_position(session.game.position),
        "result": _result(variant, result),
        "scores": list(session.scores),
        "message": session.message,
    })
    return lines


def _apply(board: VirtualBoard, variant: Variant, event: LogEvent) -> None:
    if event.kind == "up":
        board.lift(event.arg)
    elif event.kind == "down":
        board.drop(event.arg)
    elif event.kind == "press":
        side = parse_side(event.arg, variant.sides)
        if side is None:
            raise ValueError(f"{event.arg!r} is not a side of {variant.name}")
        board.press(side)
    else:
        board.button(event.arg)


def _event_line(variant: Variant, event: dict[str, Any]) -> dict[str, Any] | None:
    kind = event["type"]
    if kind == "move":
        line = {"ply": event["ply"], "side": variant.sides[event["side"]], "move": event["text"],
                "captures": event["captures"], "time_ms": event["time_ms"]}
        if variant.family == "multiwarcaby":
            line["scores"] = event["scores"]
        return line
    if kind in ("takeback", "redo"):
        return {"event": kind, "plies": event["plies"], "time_ms": event["time_ms"]}
    if kind in ("new_game", "refused"):
        line = {"event": kind, "time_ms": event["time_ms"]}
        if kind == "refused":
            line["reason"] = event["reason"]
        return line
    return None


def _result(variant: Variant, result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "points": list(result.points),
        "places": list(result.places),
        "reason": result.reason,
        "winner": None if result.winner is None else variant.sides[result.winner],
    }
