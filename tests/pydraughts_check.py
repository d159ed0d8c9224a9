"""pydraughts (the dev extra: an implementation of the rules and of PDN that is not ours) checks
a Damka export of an international, Russian or american game.

What pydraughts checks, for every record:
- its PDN reader reads the export's tags: the Result tag and the FEN (the same start position);
- its reader reads the movetext itself (comments and variations taken out, as its reader cuts
  at every '.', comments' too) with the same moves and the same result, except where its pairing
  of moves after a FEN is known to be wrong (below);
and for every record with a FEN (`replay`): its own Board, set up from that FEN, plays every move
of the export in turn: each must be one of pydraughts' legal moves, and after the last one its
board must hold the same pieces, with the same side to move, as the stored game's last position,
and both must agree whether that side has a move left (the end of the game by the rules).
Beside it, Damka's own reader must read the stored game's moves back from the export.

What it cannot check: pydraughts 0.6.7 (PDN.py, `_PDNGame._read`) pairs the moves after a FEN by
the FEN's colour, not by the move numbers: from a FEN with Black to move it reads the first move
twice (`1... 7-12 2. 8x17` gives 7-12, 7-12, 8x17; its own writer's records too, and american
`1. 11-16 19-15` gives 11-16, 11-16), and from White to move it takes two moves after every
number (`1... 32-27 2. 9-14` would give 32-27, "2", 9-14; Damka writes american `1. 32-27 9-14`,
which it reads). For those records (`pairing_misread`) its reader's move list is not compared:
the moves are checked by the replay alone, which does not go through that code. It drops a
result it does not know (`4-6`): there its reader must say `*`; the Result tag is compared.
Records from the start position are not replayed: pydraughts' move generator is slow (the CI
sample's 215 games took 59 CPU-seconds, the whole corpus would take most of an hour); there its
reader's moves are compared instead, and a wrong move is seen by that and by Damka's reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from damka.engine.draughts_position import DraughtsPosition
from damka.engine.game import Game
from damka.engine.pdn import read_game
from damka.engine.variant import Position, Variant

NAMES = {"international": "standard", "russian": "russian", "american": "english"}
KNOWN_RESULTS = {"1-0", "1/2-1/2", "0-1", "2-0", "1-1", "0-2", "0-0", "*"}  # the results its reader knows


@dataclass
class Verdict:
    """What pydraughts made of one export: `direct` when its reader itself gave the same moves
    and result (else the moves were checked only by the replay); `problems` says each
    disagreement (none: it agrees)."""

    direct: bool = False
    problems: list[str] = field(default_factory=list)


def main_line(text: str) -> str:
    """A PDN record without its comments and variations (they may nest: from the inside out)."""
    while True:
        bare = re.sub(r"\{[^{}]*\}|\([^()]*\)", " ", text)
        if bare == text:
            return text
        text = bare


def placement(variant: Variant, position: Position) -> str:
    """The pieces and the side to move, as a FEN without our draw counter (pydraughts' has none)."""
    assert isinstance(position, DraughtsPosition)
    return variant.format_position(position._replace(quiet=0))


def pairing_misread(text: str) -> bool:
    """Whether pydraughts 0.6.7's reader pairs this record's moves wrongly (see the module's
    docstring): a FEN with Black to move, or a record that starts with the second move of a round."""
    return '[FEN "B' in text or re.search(r"^1\.\.\. ", text, re.MULTILINE) is not None


def check_export(text: str, stored: Game) -> Verdict:
    """pydraughts' reading and replay of `text`, an export of the stored game `stored`."""
    from draughts import Board  # the dev extra: the caller skips without it
    from draughts.PDN import PDNReader

    verdict = Verdict()
    problems = verdict.problems
    variant = stored.variant
    ours = read_game(text)
    problems += [f"Damka's reader: {error}" for error in ours.errors]
    theirs = PDNReader(pdn_text=main_line(text)).games[0]
    if theirs.tags.get("Result") != ours.result:
        problems.append(f"Result tag {theirs.tags.get('Result')!r}, ours {ours.result!r}")
    fen = theirs.tags.get("FEN")
    if (placement(variant, variant.parse_position(fen)) if fen else None) != (
            placement(variant, stored.start) if "FEN" in ours.tags else None):
        problems.append(f"FEN {fen!r}, ours {variant.format_position(stored.start)!r}")

    if ours.moves != list(stored.moves):
        problems.append(f"the export's moves {ours.texts} are not the stored game's")
    if fen is not None:
        replay(Board(NAMES[variant.name], fen), ours.texts, stored, problems)
    if not ours.texts:  # pydraughts' reader stops before the variant when there are no moves
        verdict.direct = not problems and theirs.moves == [] and theirs.game_ending == ours.result
        return verdict
    if theirs.variant != NAMES[variant.name]:
        problems.append(f"pydraughts reads the game as {theirs.variant!r}")
    ending = ours.result if ours.result in KNOWN_RESULTS else "*"
    if theirs.game_ending != ending:
        problems.append(f"pydraughts reads the result {theirs.game_ending!r}, ours {ending!r}")
    if not pairing_misread(text):
        if theirs.moves != ours.texts:
            problems.append(f"pydraughts reads the moves {theirs.moves}, ours {ours.texts}")
        verdict.direct = not problems
    return verdict


def replay(board: Any, texts: list[str], stored: Game, problems: list[str]) -> None:
    """Play `texts` on pydraughts' `board`: each must be legal there, and the board must end as
    the stored game ends (same pieces, side to move, and whether that side has a move)."""
    from draughts import Move

    variant = stored.variant
    for ply, move in enumerate(texts, 1):
        try:
            board.push(Move(board, pdn_move=move))
        except (KeyError, ValueError, IndexError):
            legal = sorted(legal.pdn_move for legal in board.legal_moves())
            problems.append(f"move {ply} {move!r} is not legal for pydraughts (legal: {', '.join(legal)})")
            return
    final = stored.position
    if placement(variant, variant.parse_position(board.fen)) != placement(variant, final):
        problems.append(f"pydraughts ends on {board.fen!r}, ours on {placement(variant, final)!r}")
    if (not board.legal_moves()) != (not variant.legal_moves(final)):
        problems.append(f"pydraughts says the side to move has {len(board.legal_moves())} moves, "
                        f"ours {len(variant.legal_moves(final))}")
