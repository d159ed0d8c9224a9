"""`damka replay VARIANT LOG`: re-run a sensor log headless and print what the board made of it.

The log (see `controller/board/eventlog.py`) has one event a line: `MS up SQ`,
`MS down SQ`, `MS press SIDE`, `MS button NAME`. The virtual board starts
with the start position (or `--fen`) on it, so the game begins at once; each
event happens at its time in virtual time, and after the last one time runs on
until nothing is pending. Output, one JSON object a line:

    {"ply": 1, "side": "white", "move": "c3-d4", "captures": [], "time_ms": 480}
                                     (multiwarcaby adds "scores": the small points after the move)
    {"event": "takeback", "plies": 1, "time_ms": 5200}          (also redo, new_game, refused)
                                     (with a clock, a take-back adds the times after it: "clock")
    {"time_ms": 130, "leds": {"c3": "lifted", "d4": "legal_target"}}   (--leds only)
    {"final": "W:W...:B...", "result": null, "scores": [0, 0], "message": "black to move"}

With `--time-control TC` a tournament clock runs in virtual time (the log's
MS stamps; `FakeTime`-style, nothing waits): it starts for the first side to
move when the game begins (at 0 when the board is set up from the start,
as the log assumes), the `press` lines drive it, and the session finds flags
at their exact millisecond. Move lines that end a turn add the main time
left per side after the press, a flag is a line of its own, and the last line
has the clock at the end:

    {"ply": 7, "side": "white", "move": "e3xg5", ..., "clock": {"white": 291730, "black": 296120}}
    {"event": "flag", "side": "black", "time_ms": 304100, "stage": 1, "final": true}
    {"event": "out", "side": "2", "time_ms": 90000, "reason": "on time"}    (3-4 players)
    {"final": ..., "result": {...}, ..., "clock": {"white": ..., "black": ...}}

After the last event time runs on only for the session's own work
(settling): no flag is invented for a log that simply ends. `--until MS` lets
the clock run on to MS. `--pdn FILE` writes the game's PDN with `[%clock]`
annotations and the TimeControl tag (`--pdn -`: to standard output, instead
of the JSON lines).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from damka.commands.options import add_position_arguments, count_argument, load_position
from damka.controller import events as ev
from damka.controller.players.chooser import GreedyChooser
from damka.controller.clock.clock import Clock
from damka.controller.board.eventlog import MAX_TIME_MS, EventLogError, LogEvent, parse_side, read_log, read_log_stream
from damka.controller.events import EventHistory
from damka.controller.game.factory import build_game
from damka.controller.session import Mode, Session, SessionSettings
from damka.controller.game.setup import GameSetup
from damka.controller.game_pdn import game_pdn
from damka.controller.clock.controls import read_controls
from damka.controller.config.user_files import check_writable, write_file
from damka.engine.pdn_tags import variant_options
from damka.engine.variant import Result, Variant
from damka.sim.virtual_board import VirtualBoard


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay",
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
    parser.add_argument("--time-control", metavar="TC",
                        help="run a tournament clock: compact form (5+3, 5+3d, 50/120:25/60, 5+3|3+3), "
                             "pdn:SECONDS form (pdn:300+3) or a preset name (blitz-100)")
    parser.add_argument("--until", metavar="MS", type=count_argument("--until", 0, MAX_TIME_MS),
                        help="with a clock: let virtual time run on to MS after the last event (flags fall)")
    parser.add_argument("--pdn", metavar="FILE",
                        help="write the game's PDN (with clock annotations) to FILE ('-': standard output, "
                             "instead of the JSON lines)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    variant, position = load_position(args)
    source = "<stdin>" if args.log == "-" else args.log
    events = read_log_stream(sys.stdin.buffer, source) if args.log == "-" else read_log(args.log)
    settings = SessionSettings(mode=Mode(args.mode), computer_sides=_sides(args.computer, variant))
    controls = args.time_control
    if controls:
        read_controls(controls, len(variant.sides))  # a bad time control: one clear error before anything runs
    if args.until is not None and not controls:
        raise ValueError("--until needs --time-control (without a clock nothing waits)")
    if args.pdn and args.pdn != "-":
        check_writable(args.pdn)  # a FIFO, a device or a missing folder: said before the replay runs
    records: list[str] = []
    try:
        lines = replay(variant, events, settings, position=position if args.fen else None, leds=args.leds,
                       controls=controls, until=args.until, pdn_out=records if args.pdn else None)
    except EventLogError as exc:
        raise EventLogError(f"{source}: {exc}") from None
    if args.pdn == "-":
        out.write(records[0])
        return 0
    if args.pdn:
        write_file(args.pdn, records[0])
    for line in lines:
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
           leds: bool = False, controls: str | None = None, until: int | None = None,
           pdn_out: list[str] | None = None, tags: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Run `events` through a game built as the board builds it (`game/factory.py`)
    on a virtual board; the JSON-ready output lines.

    `controls`: the time control text, for a clock in virtual time; `until`:
    let the clock run on to that ms after the last event; `pdn_out`: a list
    that gets the game's PDN record appended (with `tags`)."""
    geometry = variant.geometry
    start = position if position is not None else variant.start_position()
    board = VirtualBoard(geometry.names_of(variant.occupancy(start)),
                         files=max(9, geometry.width), ranks=max(9, geometry.height))
    setup = GameSetup(variant=variant.name, options=tuple(variant_options(variant).items()),
                      mode=settings.mode.value, time_control=controls or "")
    built = build_game(setup, position=position, chooser=GreedyChooser(), time=lambda: board.now,
                       tracker=settings.tracker, computer_sides=settings.computer_sides, coach=False)
    session, clock = built.session, built.clock
    writer = JsonLines(variant)
    history = EventHistory()
    session.bus.subscribe(writer)
    session.bus.subscribe(history)
    board.connect(session)
    seen_leds = 0

    def drain_leds() -> None:
        nonlocal seen_leds
        if leds:
            for time, frame in board.led_history[seen_leds:]:
                writer.lines.append({"time_ms": time, "leds": {sq: role.value for sq, role in sorted(frame.items())}})
            seen_leds = len(board.led_history)

    drain_leds()
    for event in events:
        if event.time_ms > board.now:
            board.advance(event.time_ms - board.now)
            drain_leds()
        try:
            _apply(board, variant, event)
        except ValueError as exc:
            raise EventLogError(f"line {event.line}: {exc}") from None
        drain_leds()
    if clock is None:
        board.run_until_idle()
    else:
        if until is not None and until > board.now:
            board.advance(until - board.now)
            drain_leds()
        _run_on(board, session, clock)
    drain_leds()
    lines = writer.lines
    lines.append(_final_line(variant, session, clock))
    if pdn_out is not None:
        pdn_out.append(game_pdn(session, built.controls, tags, history.events))
    return lines


def _final_line(variant: Variant, session: Session, clock: Clock | None) -> dict[str, Any]:
    final: dict[str, Any] = {
        "final": variant.format_position(session.game.position),
        "result": _result(variant, session.result),
        "scores": list(session.scores),
        "message": session.message,
    }
    if clock is not None:
        clock_ms = session.clock_ms()
        if clock_ms is not None:
            final["clock"] = _per_side(variant, clock_ms)
    return final


def _run_on(board: VirtualBoard, session: Session, clock: Clock) -> None:
    """Let the session finish what it waits for (settling a move), but stop
    before the clock's next flag: the log ended, nobody knows what came next."""
    for _ in range(10_000):
        due = session.next_deadline()
        if due is None:
            return
        flag_at = clock.next_deadline(board.now)
        if flag_at is not None and due >= flag_at:
            return
        board.advance(max(0, due - board.now))


def _per_side(variant: Variant, values: Any) -> dict[str, int]:
    return {name: int(value) for name, value in zip(variant.sides, values)}


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


class JsonLines:
    """The replay's JSON writer: one listener on the game's events, one line per event it prints."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.lines: list[dict[str, Any]] = []
        self._handlers: dict[type, Any] = {
            ev.MoveCommitted: self._move, ev.FlagFell: self._flag, ev.SideOut: self._out,
            ev.TakenBack: self._plies, ev.Redone: self._plies, ev.NewGame: self._plain, ev.MoveRefused: self._refused,
        }

    def __call__(self, event: ev.GameEvent) -> None:
        handler = self._handlers.get(type(event))
        if handler is not None:
            self.lines.append(handler(event))

    def _move(self, event: ev.MoveCommitted) -> dict[str, Any]:
        line: dict[str, Any] = {"ply": event.ply, "side": event.side_name, "move": event.text,
                                "captures": list(event.captures), "time_ms": event.time_ms}
        if self.variant.shows_scores:
            line["scores"] = list(event.scores)
        if event.clock_ms is not None:
            line["clock"] = _per_side(self.variant, event.clock_ms)
        return line

    def _flag(self, event: ev.FlagFell) -> dict[str, Any]:
        return {"event": "flag", "side": self.variant.sides[event.side], "time_ms": event.time_ms,
                "stage": event.stage, "final": event.final}

    def _out(self, event: ev.SideOut) -> dict[str, Any]:
        return {"event": "out", "side": self.variant.sides[event.side], "time_ms": event.time_ms,
                "reason": event.reason}

    def _plies(self, event: ev.TakenBack | ev.Redone) -> dict[str, Any]:
        kind = "takeback" if isinstance(event, ev.TakenBack) else "redo"
        line: dict[str, Any] = {"event": kind, "plies": event.plies, "time_ms": event.time_ms}
        if isinstance(event, ev.TakenBack) and event.clock_ms is not None:
            line["clock"] = _per_side(self.variant, event.clock_ms)  # the clock handed back
        return line

    def _plain(self, event: ev.NewGame) -> dict[str, Any]:
        return {"event": "new_game", "time_ms": event.time_ms}

    def _refused(self, event: ev.MoveRefused) -> dict[str, Any]:
        line: dict[str, Any] = {"event": "refused", "time_ms": event.time_ms, "reason": event.reason}
        if event.clock_ms is not None:
            line["clock"] = _per_side(self.variant, event.clock_ms)
        return line


def _result(variant: Variant, result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "points": list(result.points),
        "places": list(result.places),
        "reason": result.reason,
        "winner": None if result.winner is None else variant.sides[result.winner],
    }
