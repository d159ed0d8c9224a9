"""Every file of the real corpus (../shared/pdn-corpus/) through `damka import` with the game it
is in (tests/pdn_corpus.txt): each legal record of a game Damka plays stored as that game and no
other, each other record refused with its reason; export -> import -> export the same text; and
pydraughts (an implementation of the rules and of PDN not ours) confirms each international,
Russian and american export, FEN records included: the same tags, every move legal on its own
board to the same last position, and (where its reader does not pair moves wrongly after a
FEN) the same moves and result read from the text; tests/pydraughts_check.py says the limits.
Of the corpus' 3,696 FEN records, pydraughts' reader reads 3,691 itself; the other 5 (a FEN with
Black to move) are confirmed by the replay on its board alone.

CI imports a sample that holds every form and every game (about 20 s); the whole corpus (about
7,800 records, a few minutes) runs with --slow. docs/pdn-corpus-report.md lists every refusal.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from pdn_corpus import corpus_dir, corpus_files, variant_argument
from pydraughts_check import check_export, pairing_misread

CORPUS = corpus_dir()
FILES = corpus_files()

# Stored per game, and refused, per file (docs/pdn-corpus-report.md says why each was refused).
EXPECTED: dict[str, tuple[dict[str, int], int]] = {
    "checkerboard/11_man_english.pdn": ({"american": 2400}, 0),
    "checkerboard/11_man_italian.pdn": ({}, 2400),                   # Italian draughts: refused by name
    "checkerboard/games/tinsley.pdn": ({"american": 723}, 1),        # game 541: 32-28 with no piece on 32
    "lidraughts/lidraughts_PdnIOPerfTest.pdn": ({"international": 1}, 0),
    "lidraughts/lidraughts_russian_sample.pdn": ({"russian": 2}, 0),
    "wiegerw/games/fail/40Camp.DamaInternazionaleAssoluto.pdn": ({"international": 45}, 0),
    "wiegerw/games/fail/Cat.A1.pdn": ({"international": 35}, 0),
    "wiegerw/games/fail/Cat.C1.pdn": ({"international": 45}, 1),     # game 46: 36x27 from an empty square
    "wiegerw/games/fail/abatsiev.pdn": ({"russian": 55}, 1),         # game 36: moves written "- -"
    "wiegerw/games/fail/delfts.pdn": ({"international": 2}, 0),
    "wiegerw/games/fail/mrdrcd07.pdn": ({}, 72),                     # Czech draughts: refused by name
    "wiegerw/games/fail/mrdrcd08.pdn": ({}, 40),
    "wiegerw/games/fail/nested_comment.pdn": ({}, 1),                # `{ ... { ... } }`: not PDN
    "wiegerw/games/succeed/090417ronde12.pdn": ({"international": 7}, 0),
    "wiegerw/games/succeed/Campionato Assoluto 2005.pdn": ({}, 53),
    "wiegerw/games/succeed/Cat.B1.pdn": ({"international": 37}, 0),
    "wiegerw/games/succeed/Cat.D1.pdn": ({"international": 19}, 0),
    "wiegerw/games/succeed/DUTCH96H.pdn": ({"international": 13}, 0),
    "wiegerw/games/succeed/OCA_2.0.pdn": ({"american": 43}, 0),
    "wiegerw/games/succeed/PROF2.pdn": ({"international": 16}, 0),
    "wiegerw/games/succeed/PWCP 2a.pdn": ({"international": 59}, 0),
    "wiegerw/games/succeed/PWCP_2.pdn": ({"international": 51}, 0),
    "wiegerw/games/succeed/Principles of Strategy.pdn": ({"american": 16}, 0),
    "wiegerw/games/succeed/Tricks traps and shots.pdn": ({"american": 91}, 0),
    "wiegerw/games/succeed/alphanumeric.pdn": ({"russian": 1}, 0),
    "wiegerw/games/succeed/beginner.pdn": ({"american": 57}, 1),     # game 10: a white man on 1, its crowning row
    "wiegerw/games/succeed/borderclassics.pdn": ({"american": 183}, 0),
    "wiegerw/games/succeed/bridges.pdn": ({"american": 266}, 1),     # game 14: FEN "W::." has no pieces
    "wiegerw/games/succeed/candidate95.pdn": ({"international": 8}, 0),
    "wiegerw/games/succeed/fen.pdn": ({"american": 2, "international": 1}, 0),
    "wiegerw/games/succeed/gameterminator.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/gem.pdn": ({"american": 162}, 0),
    "wiegerw/games/succeed/goulds.pdn": ({"american": 261}, 1),      # game 93: a white man on 3, its crowning row
    "wiegerw/games/succeed/inferno.pdn": ({"american": 68}, 0),
    "wiegerw/games/succeed/kurnik.pdn": ({"international": 4}, 0),
    "wiegerw/games/succeed/linecomment.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/lpc.pdn": ({"american": 96}, 4),   # games 36, 63, 65: black men on 30-32; 73: a white man on 4 (crowning rows)
    "wiegerw/games/succeed/movestrength.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/mrcd2000kval.pdn": ({}, 40),
    "wiegerw/games/succeed/mrcd2006.pdn": ({}, 44),
    "wiegerw/games/succeed/mrcd2007.pdn": ({}, 102),
    "wiegerw/games/succeed/nk ronde 01.pdn": ({"international": 7}, 0),
    "wiegerw/games/succeed/nk ronde 02.pdn": ({"international": 7}, 0),
    "wiegerw/games/succeed/nk2003-amsterdam.pdn": ({"international": 32}, 1),  # game 33: tags only, no move
    "wiegerw/games/succeed/rk ronde 12.pdn": ({"international": 7}, 0),
    "wiegerw/games/succeed/schildpad.pdn": ({"international": 33}, 1),  # game 3: 36x16 two ways, moves after fit neither
    "wiegerw/games/succeed/string.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/unicode.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/ussr1947.pdn": ({"russian": 153}, 0),
    "wiegerw/games/succeed/variation.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/windragon.pdn": ({"international": 1}, 0),
    "wiegerw/games/succeed/wk2003.pdn": ({"international": 23}, 0),
}

# The CI sample: every game (and a refused one), every form of issue 24's item 7, comments and
# variations, a %clock export; the rest runs with --slow.
SAMPLE = {
    "lidraughts/lidraughts_PdnIOPerfTest.pdn", "lidraughts/lidraughts_russian_sample.pdn",
    "wiegerw/games/fail/Cat.C1.pdn", "wiegerw/games/fail/delfts.pdn", "wiegerw/games/fail/mrdrcd08.pdn",
    "wiegerw/games/succeed/DUTCH96H.pdn", "wiegerw/games/succeed/OCA_2.0.pdn",
    "wiegerw/games/succeed/Tricks traps and shots.pdn", "wiegerw/games/succeed/alphanumeric.pdn",
    "wiegerw/games/succeed/fen.pdn", "wiegerw/games/succeed/kurnik.pdn", "wiegerw/games/succeed/movestrength.pdn",
    "wiegerw/games/succeed/nk ronde 01.pdn", "wiegerw/games/succeed/variation.pdn",
    "wiegerw/games/succeed/windragon.pdn", "wiegerw/games/succeed/Campionato Assoluto 2005.pdn",
}


def test_the_corpus_is_there_and_every_file_has_its_game() -> None:
    assert CORPUS is not None, "no ../shared/pdn-corpus beside the repository (or set DAMKA_SHARED)"
    found = sorted(str(path.relative_to(CORPUS)) for path in CORPUS.rglob("*.pdn"))
    assert len(found) >= 50 and found == sorted(FILES) == sorted(EXPECTED)
    assert SAMPLE <= set(FILES)


def files() -> list[object]:
    return [pytest.param(name, id=name.rsplit("/", 1)[1], marks=() if name in SAMPLE else pytest.mark.slow)
            for name in sorted(EXPECTED)]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", files())
def test_corpus_file(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert CORPUS is not None
    games, refused = EXPECTED[name]
    db = tmp_path / "games.db"
    code, _, err = run_cli(capsys, "import", str(CORPUS / name), "--db", str(db), *variant_argument(FILES[name]))
    if not games:  # a game Damka does not play: every record refused, by the game's name
        assert code == 2 and ("Czech draughts" in err or "Italian draughts" in err or "'}'" in err), err
        assert not db.exists()
        return
    assert err.count(" is not stored: ") == refused, err
    with Store(db) as store:
        stored = [store.load_game(game.id) for game in store.list_games()]
    assert Counter(game.game.variant.name for game in stored) == games  # none stored as another game
    exports = [export_pdn(game) for game in stored]

    # export -> import -> export: the same text.
    again = tmp_path / "again.pdn"
    again.write_text("\n".join(exports), encoding="utf-8")
    code, _, err = run_cli(capsys, "import", str(again), "--db", str(tmp_path / "again.db"))
    assert code == 0 and err == "", err
    with Store(tmp_path / "again.db") as store:
        assert [export_pdn(store.load_game(game.id)) for game in store.list_games()] == exports

    # pydraughts (an implementation not ours) confirms every game, FEN or not: its reader reads the
    # export's tags, its Board replays every move from the export's FEN to the same last position,
    # and its reader reads the same moves and result where its pairing of moves after a FEN is not
    # known to be wrong (tests/pydraughts_check.py says what it checks and what it cannot).
    pytest.importorskip("draughts.PDN", reason="pydraughts (the dev extra) is the outside reader")
    verdicts = [check_export(text, game.game) for text, game in zip(exports, stored)]
    for text, verdict in zip(exports, verdicts):
        assert verdict.problems == [], f"{verdict.problems}\n{text}"
    assert all(verdict.direct for text, verdict in zip(exports, verdicts) if not pairing_misread(text))
