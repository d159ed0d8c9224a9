"""tests/pydraughts_check.py, the outside check of the corpus' exports, sees a wrong move: in a
record pydraughts' reader reads itself, and in one it misreads (after a FEN with Black to move),
where the replay on its Board sees it."""

from __future__ import annotations

import pytest

from damka.engine import Game
from damka.engine.pdn import read_game, write_game
from pydraughts_check import check_export, pairing_misread

pytest.importorskip("draughts.PDN", reason="pydraughts (the dev extra) is the outside reader")

# Records of the corpus (wiegerw/games/fail/Cat.A1.pdn, Tricks traps and shots.pdn, an opening).
FROM_FEN_BLACK = '[GameType "20"]\n[FEN "B:W8,25,30:B7,15,18"]\n\n1... 7-12 2. 8x17 18-23 3. 17-12 23-28 1-0\n'
FROM_FEN_WHITE = '[GameType "21"]\n[FEN "W:W25,29,32:B6,9,20"]\n\n1... 32-27 2. 9-14 25-22 3. 6-10 29-25 0-1\n'
FROM_START = '[GameType "21"]\n\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 *\n'.replace("17x10", "17-14")


def stored_and_export(record: str) -> tuple[Game, str]:
    """The game of `record` as Damka stores it, and Damka's export of it."""
    read = read_game(record, strict=True)
    assert read.variant is not None and read.start is not None
    game = Game(read.variant, read.start)
    for move in read.moves:
        game.push(move)
    return game, write_game(read.variant, read.start, read.moves, {"Result": read.result})


@pytest.mark.parametrize("record", [FROM_FEN_BLACK, FROM_FEN_WHITE, FROM_START])
def test_an_export_pydraughts_agrees_with(record: str) -> None:
    game, export = stored_and_export(record)
    verdict = check_export(export, game)
    assert verdict.problems == []
    assert verdict.direct is not pairing_misread(export)  # its reader itself, where it pairs right


@pytest.mark.parametrize(("record", "right", "wrong"), [
    (FROM_FEN_BLACK, "23-28", "23-29"),    # the last move: another legal one, another last position
    (FROM_FEN_BLACK, "8x17", "8-3"),       # not legal there (a capture is due)
    (FROM_FEN_WHITE, "29-25", "32-28"),    # no piece left on 32
    (FROM_START, "22-17", "22-18"),      # then 9-13 and 17-14 are not moves of that game
])
def test_a_wrong_move_in_the_export_is_seen(record: str, right: str, wrong: str) -> None:
    game, export = stored_and_export(record)
    assert f" {right} " in export
    broken = export.replace(f" {right} ", f" {wrong} ")
    problems = check_export(broken, game).problems
    assert problems, broken
    assert any(wrong in problem or "ends on" in problem for problem in problems), problems


@pytest.mark.parametrize("record", [FROM_FEN_BLACK, FROM_FEN_WHITE, FROM_START])
def test_another_legal_last_move_is_seen(record: str) -> None:
    game, _ = stored_and_export(record)
    before = Game(game.variant, game.start)
    for move in game.moves[:-1]:
        before.push(move)
    other = next(move for move in before.legal_moves() if move != game.moves[-1])
    broken = write_game(game.variant, game.start, [*game.moves[:-1], other], {"Result": "*"})
    problems = check_export(broken, game).problems
    assert "the export's moves" in problems[0]
    if "[FEN " in broken:  # and pydraughts' own board ends elsewhere
        assert any("pydraughts ends on" in problem for problem in problems), problems


def test_a_misread_record_is_known_as_one() -> None:
    assert pairing_misread(stored_and_export(FROM_FEN_BLACK)[1])
    assert not pairing_misread(stored_and_export(FROM_START)[1])
