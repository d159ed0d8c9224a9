"""PDN writing, strict (PDN 3.0): every move legal, tags in the PDN order, lines wrapped at 80.

The tags come in the roster's order (Event, Site, Date, Round, players,
Result), then GameType / Variant and the options, then one setup tag and FEN
when the game does not start from the start position, then every other tag
of the source as it was. After each move: its NAGs (`$1`), one comment
(`[%clock ...]` and the other `[%name value]` annotations first, then the
text) and its variations `( ... )`, as read (`pdn.PdnGame`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from damka.engine.errors import RecordError
from damka.engine.move import Move
from damka.engine.notation import format_move, route_captures
from damka.engine.pdn_tags import VARIANT_TAGS, result_text, variant_from_tags, variant_tags
from damka.engine.safe_text import one_line
from damka.engine.variant import Position, Result, Variant

LINE_WIDTH = 80
_TAG_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_]")   # what a reader's tag name may not hold (pdn_tokens._TAG_RE)

ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
ROSTER_DEFAULTS = {"Date": "????.??.??"}
SETUP_TAGS = ("SetUp", "Setup")  # PDN 1.0 asks for one next to FEN; files spell it both ways


def _tag_line(name: str, value: str) -> str:
    """One tag, whatever it came from: the name of PDN's letters, digits and '_' (others become '_'), the
    value on one line (engine/safe_text.py: no control character, no direction override), `\\` and `"`
    escaped as PDN does. A file's or a board's text never breaks the record nor reads as moves."""
    name = _TAG_NAME_UNSAFE.sub("_", str(name)) or "_"
    escaped = one_line(str(value)).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _comment_atoms(comment: str, annotations: Mapping[str, str] | None) -> list[str]:
    words = [one_line(f"[%{name} {value}]").replace("}", ")") for name, value in (annotations or {}).items()]
    words += one_line(comment or "").replace("}", ")").replace("{", "(").split()
    if not words:
        return []
    words[0] = "{" + words[0]
    words[-1] += "}"
    return words


def _wrap(atoms: Sequence[str], width: int = LINE_WIDTH) -> str:
    lines: list[str] = []
    line = ""
    for atom in atoms:
        if line and len(line) + 1 + len(atom) > width:
            lines.append(line)
            line = atom
        else:
            line = f"{line} {atom}" if line else atom
    if line:
        lines.append(line)
    return "\n".join(lines)


# Long on purpose: one record written in order (tags, moves, comments, clocks, result).
def write_game(
    variant: Variant,
    start: Position | None,
    moves: Sequence[Move],
    tags: Mapping[str, str] | None = None,
    *,
    comments: Sequence[str | None] | None = None,
    annotations: Sequence[Mapping[str, str] | None] | None = None,
    clocks: Sequence[str | None] | None = None,
    intro: str = "",
    result: Result | str | None = None,
    nags: Sequence[Sequence[str]] | None = None,
    variations: Sequence[Sequence[str]] | None = None,
) -> str:
    """A PDN record of the game (ends with a newline).

    `nags[i]`, `comments[i]`, `annotations[i]`, `clocks[i]` (written
    `[%clock ...]`) and `variations[i]` (each a whole `( ... )`) follow move i. `result` is an engine `Result`, a PDN token, or None to use
    the Result tag (`*` if there is none). RecordError if a move is illegal.
    """
    start = variant.start_position() if start is None else start
    given = dict(tags or {})
    if isinstance(result, Result):
        result_token = result_text(variant, result)
    elif result:
        result_token = str(result)
    else:
        result_token = given.get("Result", "*") or "*"
    players = [variant.player_tag(side) for side in range(len(variant.sides))]

    out: dict[str, str] = {}
    for name in ROSTER:
        if name in ("White", "Black") and name not in players:
            continue  # the roster's player tags, where the variant's players are named so
        out[name] = result_token if name == "Result" else given.get(name, ROSTER_DEFAULTS.get(name, "?"))
    out.update(variant_tags(variant))
    for name in (*VARIANT_TAGS, *SETUP_TAGS):
        given.pop(name, None)  # the variant decides these
    for name in players:
        if name not in out:
            out[name] = given.get(name, "?")
    # FEN when a reader rebuilding the variant from the tags would start elsewhere, and in a
    # record of no move: without a move or a setup position a record is not a game to a reader.
    fen = variant.format_position(start)
    given.pop("FEN", None)
    if not moves or fen != variant.format_position(variant_from_tags(out, None).start_position()):
        out["SetUp"] = "1"  # PDN 1.0 asks for it next to FEN
        out["FEN"] = fen
    for name, value in given.items():
        out.setdefault(name, value)

    atoms = _comment_atoms(intro, None)
    position = start
    number = 1
    for index, move in enumerate(moves):
        legal = variant.legal_moves(position)
        if move not in legal:
            raise RecordError(f"move {index + 1} ({move!r}) is not legal in {variant.format_position(position)!r}")
        if move.captures and route_captures(variant, position, (move.start, *move.path)) != move.captures:
            move = legal[legal.index(move)]  # the caller's route is not one: write the engine's
        first_of_group = variant.starts_move_number(position, start)
        text = format_move(variant, position, move, legal)
        if first_of_group:
            if index:
                number += 1
            text = f"{number}. {text}"  # one atom: a number never ends a line
        elif index == 0:
            text = f"{number}... {text}"
        atoms.append(text)
        atoms += [nag for nag in (nags[index] if nags and index < len(nags) else ()) if nag]
        notes = dict(annotations[index] or {}) if annotations and index < len(annotations) else {}
        if clocks and index < len(clocks) and clocks[index]:
            notes["clock"] = clocks[index]  # type: ignore[assignment]
        comment = comments[index] if comments and index < len(comments) else ""
        atoms += _comment_atoms(comment or "", notes)
        for variation in (variations[index] if variations and index < len(variations) else ()):
            atoms += one_line(variation).split()
        position = variant.play(position, move)
    atoms.append(result_token)

    header = "\n".join(_tag_line(name, value) for name, value in out.items())
    return f"{header}\n\n{_wrap(atoms)}\n"


def write_games(records: Sequence[str]) -> str:
    """Records from `write_game` joined into one file (a blank line between)."""
    return "\n".join(records)
