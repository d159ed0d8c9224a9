"""Stored games to PDN and back (`damka export`, `damka import`).

The record is written by `engine/pdn.py`; here we add what the store knows:
players, date, the time control (`TimeControl` tag in PDN's seconds form, plus
`DamkaTimeControl` in our compact form when PDN cannot say it, e.g. a delay),
the mode, and each move's clock times as `{[%clock w0:04:58 b0:05:00]}`.

Clock annotation: one `LABEL H:MM:SS` per side (whole seconds, rounded down;
`.mmm` is read too), the label being the
variant's `clock_labels()`: the side's initial for draughts (`w0:04:58`),
`p1=`..`p4=` for multiwarcaby (`p1=0:04:58`). Reading takes the sides in
order when a label is missing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from damka.controller.clock import pdn_tag, timecontrol
from damka.controller.clock.controls import variant_controls
from damka.controller.clock.errors import TimeControlError
from damka.controller.clock.pdn import format_clock, parse_clock, stored_control_tags
from damka.controller.store.rows import StoredGame
from damka.engine import pdn, pdn_tags
from damka.engine.errors import RecordError
from damka.engine.game import Game
from damka.engine.pdn_tags import unplayed_game
from damka.engine.reasons import Reason, reason_of
from damka.engine.variant import Result, Variant
from damka.engine.variants import variant_class

# An end the moves do not show, as PGN's Termination tag words it (the board's reasons: session/ends.py).
_TERMINATIONS = {"on time": "time forfeit", "time": "time forfeit"}


def export_pdn(stored: StoredGame) -> str:
    """The stored game as a PDN record (with clock annotations and time control); an
    imported game keeps its source's tags, comments, variations and NAGs."""
    game = stored.game
    variant = game.variant
    source = stored.tags
    tags: dict[str, str] = {"Event": source.get("Event", f"Damka game {stored.id}"),
                            "Site": source.get("Site", "Damka board"),
                            "Date": source.get("Date", stored.created[:10].replace("-", "."))}
    for side, player in enumerate(stored.players[:len(variant.sides)]):
        tags[variant.player_tag(side)] = source.get(variant.player_tag(side), player)
    if stored.time_control:
        tags.update(stored_control_tags(variant, stored.time_control))
    tags["DamkaMode"] = stored.mode
    if stored.drops:
        # Players out of play (side:ply, 1-based side): a reader re-applies them after those plies.
        tags[pdn_tags.OUT_TAG] = pdn_tags.write_out_tag([(drop.ply, drop.side) for drop in stored.drops])
    for name, value in stored.tags.items():
        tags.setdefault(name, value)
    termination = _TERMINATIONS.get(stored.result.reason) if stored.result is not None else None
    if termination:   # a game lost on time says so (its result alone reads as any other win)
        tags.setdefault("Termination", termination)
    clocks = [format_clock(variant, m.clock_ms) if m.clock_ms else None for m in stored.moves]
    notes = stored.notes
    per_move = [notes.get("moves", {}).get(str(ply), {}) for ply in range(1, len(game.moves) + 1)]
    return pdn.write_game(variant, game.start, game.moves, tags, clocks=clocks,
                          result=stored.result if stored.result is not None else source.get("Result"),
                          intro=notes.get("intro", ""), comments=[note.get("comment", "") for note in per_move],
                          annotations=[note.get("annotations") for note in per_move],
                          nags=[note.get("nags", []) for note in per_move],
                          variations=[note.get("variations", []) for note in per_move])


def record_notes(record: pdn.PdnGame, plies: int) -> dict[str, Any]:
    """What `record` says beside its first `plies` moves, in the store's `notes` form:
    `{"intro": text, "moves": {"PLY": {"comment", "annotations", "nags", "variations"}}}`
    (each part only when there is one; a `[%clock]` goes with the move's clock instead)."""
    moves: dict[str, dict[str, Any]] = {}
    for index in range(min(plies, len(record.moves))):
        note: dict[str, Any] = {
            "comment": record.comments[index],
            "annotations": {name: value for name, value in record.annotations[index].items() if name != "clock"},
            "nags": record.nags[index], "variations": record.move_variations[index],
        }
        note = {name: value for name, value in note.items() if value}
        if note:
            moves[str(index + 1)] = note
    notes: dict[str, Any] = {"intro": record.intro} if record.intro else {}
    if moves:
        notes["moves"] = moves
    return notes


def _result_from_token(variant: Variant, token: str) -> Result | None:
    """An engine Result for a PDN result token ('*' and one Damka cannot read: None, the
    caller keeps the text)."""
    token = token.strip()
    if token in ("", "*"):
        return None
    n = len(variant.sides)
    if n == 2:
        candidates = (Result((1.0, 0.0), (1, 2), "as recorded", 0), Result((0.0, 1.0), (2, 1), "as recorded", 1),
                      Result((0.5, 0.5), (1, 1), "as recorded"))
        for candidate in candidates:
            if pdn.result_text(variant, candidate) == token:
                return candidate
        return None  # `4-6`, `2-1`: a ResultFormat's or a typing error, kept as text
    try:
        points = [float(Fraction(part)) for part in token.split("-")]
    except (ValueError, ZeroDivisionError):
        return None  # PDN 3.0: a result Damka cannot read (`1 1/2 - 1/2`, `4-6`) is kept as text
    if len(points) != n:
        return None
    places = tuple(1 + sum(other > mine for other in points) for mine in points)
    winners = [index for index, place in enumerate(places) if place == 1]
    return Result(tuple(points), places, "as recorded", winners[0] if len(winners) == 1 else None)


def import_records(text: str, *, name: str = "PDN", keep_open: bool = False,
                   upto_ply: int | None = None) -> list[tuple[Game, dict[str, Any]]]:
    """Every record of `text` (see `iter_records`), as a list."""
    return list(iter_records([text], name=name, keep_open=keep_open, upto_ply=upto_ply))


def iter_records(chunks: Iterable[str], *, name: str = "PDN", keep_open: bool = False,
                 upto_ply: int | None = None, warn: Callable[[str], None] | None = None,
                 variant: str | None = pdn.DEFAULT_VARIANT) -> Iterator[tuple[Game, dict[str, Any]]]:
    """Read the records of PDN text coming in pieces (a file read a block at a
    time), one game at a time, strictly: RecordError (naming the record and the
    line) on the first problem, so that a caller storing them in one
    transaction stores nothing from a bad file. `warn` gets each warning
    (`"NAME, game N: line:col: ..."`), e.g. an unknown Variant name read as its GameType.

    `keep_open` stores the games unfinished (the board then offers to go on
    with the last one); `upto_ply` cuts each game after that many moves."""
    number = 0
    for number, record in enumerate(pdn.iter_games(chunks, pdn.DETECT, named=variant), 1):
        where = f"{name}, game {number}"
        if record.errors:
            raise RecordError(f"{where}: {record.first_error()}")
        if warn is not None:
            for warning in record.warnings:
                warn(f"{where}: {warning}")
        try:
            yield _stored_form(record, keep_open, upto_ply)
        except RecordError as exc:
            raise RecordError(f"{where}: {exc}") from None
    if not number:
        raise RecordError(f"{name}: no game record found")


@dataclass(frozen=True)
class Outcome:
    """One record of a file as read: `record` (Game and `Store.add_records` details) when it can
    be stored, else `reason` (the engine's English, a Reason a board says in its own language:
    `words.said`); `number` counts records from 1, `line` is where it starts."""

    number: int
    line: int
    record: tuple[Game, dict[str, Any]] | None = None
    reason: str = ""
    warnings: tuple[str, ...] = ()


def iter_outcomes(chunks: Iterable[str], *, variant: str | None = None, keep_open: bool = False,
                  upto_ply: int | None = None) -> Iterator[Outcome]:
    """Each record of PDN text coming in pieces, good or bad, one at a time: a bad record is
    an Outcome with its reason, and reading goes on. A record with no tag naming its game is
    read as `variant` unless its FEN and first moves plainly say another board, or (None) as
    they say (`pdn_detect.detect_variant`, as `damka puzzles make` reads them)."""
    for number, record in enumerate(pdn.iter_games(chunks, pdn.DETECT, named=variant), 1):
        warnings = tuple(record.warnings)
        if record.errors:
            yield Outcome(number, record.line, reason=record.first_error(), warnings=warnings)
            continue
        try:
            yield Outcome(number, record.line, _stored_form(record, keep_open, upto_ply), warnings=warnings)
        except RecordError as exc:
            yield Outcome(number, record.line, reason=reason_of(exc), warnings=warnings)


def import_variant(name: str | None) -> str | None:
    """The variant named by `--variant` (or the web upload's choice) (its Damka name); ValueError naming a game Damka does
    not play (`czech`: Czech draughts) rather than reading its records as another game."""
    if name is None:
        return None
    game = unplayed_game(name)
    if game is not None:
        raise ValueError(f"--variant {name}: {game} is a game Damka does not play; nothing is stored")
    return variant_class(name).name


def record_key(game: Game, details: Mapping[str, Any]) -> str:
    """A digest of what a record stores (variant, start, moves, tags, players, result...): equal
    records have equal keys whatever the file's spacing or comments, other records other keys."""
    variant = game.variant
    content = [variant.name, variant.format_position(game.start),
               [[m.start, list(m.path), sorted(m.captures)] for m in game.moves], dict(details)]
    text = json.dumps(content, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _stored_form(record: pdn.PdnGame, keep_open: bool, upto_ply: int | None) -> tuple[Game, dict[str, Any]]:
    """The Game and the `Store.add_records` details of one record read without errors; RecordError
    for one that cannot be stored."""
    if not record.moves and "FEN" not in record.tags:
        raise RecordError(Reason("pdn.empty_record"))  # tags alone: 20,000 of them were 20,000 empty games
    if record.variant is None:
        raise RecordError(Reason("pdn.no_variant"))
    moves = record.moves if upto_ply is None else record.moves[:upto_ply]
    drops = [(ply, side) for ply, side in record.drops if ply <= len(moves)]
    game = _played(record.variant, record, moves, drops)
    variant = game.variant
    tags = dict(record.tags)
    players = [tags.get(variant.player_tag(side), "?") for side in range(len(variant.sides))]
    players = [player if player not in ("", "?") else side for player, side in zip(players, variant.sides)]
    time_control = tags.pop("DamkaTimeControl", None)
    pdn_control = tags.pop("TimeControl", None)
    if time_control is None and pdn_control not in (None, "", "?", "-"):
        try:
            parsed = pdn_tag.parse_pdn(pdn_control)
        except TimeControlError:
            parsed = None
            tags["TimeControl"] = pdn_control  # a control Damka cannot read (`90 min`): kept as the file wrote it
        time_control = timecontrol.format_control(parsed) if parsed is not None else None
    mode = tags.pop("DamkaMode", "casual")
    for tag in ("FEN", *pdn.SETUP_TAGS, pdn.VARIANT_TAG, "GameType", *pdn.OPTION_TAGS, "MovesPerTurn", pdn.OUT_TAG):
        tags.pop(tag, None)  # the variant and the start position say these
    clocks = [parse_clock(variant, clock) if clock else None for clock in record.clocks][:len(moves)]
    cut = upto_ply is not None and upto_ply < len(record.moves)
    result = None if cut else _result_from_token(variant, record.result)
    if result is None and not cut and record.result.strip() not in ("", "*"):
        tags["Result"] = record.result  # kept as text, written back on export
    else:
        tags.pop("Result", None)
    finished = not keep_open and (result is not None or game.result is not None or not cut)
    return game, {
        "players": players, "mode": mode, "time_control": time_control, "tags": tags, "clocks": clocks,
        "result": result, "finished": finished, "drops": drops, "texts": record.texts[:len(moves)],
        "clock_start": _start_clock(variant, time_control), "notes": record_notes(record, len(moves)),
    }


# Draws the players claim rather than the rules impose: a real game may go on after them
# (nobody claimed), and is then stored with that rule off, so that it is kept as played.
_CLAIMED_DRAWS: dict[str, dict[str, object]] = {"threefold repetition": {"threefold": False}, "king moves": {"draw_moves": 1000}}


def _played(variant: Variant, record: pdn.PdnGame, moves: Sequence[Any], drops: Sequence[tuple[int, int]]) -> Game:
    """The record's moves played in a Game; RecordError for a move after the game ended."""
    game = Game(variant, record.start)
    for ply, move in enumerate(moves):
        _drop_sides(game, drops, ply)
        if game.result is not None:
            rule = next((options for reason, options in _CLAIMED_DRAWS.items() if reason in game.result.reason), None)
            if rule is not None and any(variant.changed_options().get(name) != value for name, value in rule.items()):
                options = {**variant.changed_options(), **rule}
                return _played(type(variant).create(**options), record, moves, drops)
            raise RecordError(Reason("pdn.after_end", number=ply + 1, move=record.texts[ply],
                                     ending=game.result.reason))
        game.push_unchecked(move)  # speed: the reader checked it against the legal moves
    _drop_sides(game, drops, len(moves))
    return game


def _drop_sides(game: Game, drops: Sequence[tuple[int, int]], ply: int) -> None:
    """Take out the players who went out after `ply` moves."""
    for drop_ply, side in drops:
        if drop_ply == ply:
            game.amend(game.variant.drop_side(game.position, side))  # type: ignore[attr-defined]


def _start_clock(variant: Variant, time_control: str | None) -> list[int] | None:
    """Each side's time at the start (None: no countdown clock), read as the game reads it."""
    if not time_control:
        return None
    try:
        controls = variant_controls(variant, time_control)
    except TimeControlError:
        return None
    if not controls or any(control.untimed or not control.stages for control in controls):
        return None
    return [control.initial_ms() for control in controls]
