"""Real PDN as the draughts world writes it (issue 24): each form a real file uses, read; each
record stored whole (tags, comments, variations, NAGs) and written back with one setup tag."""

from __future__ import annotations

from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.engine.pdn import read_game


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def imported(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | bytes,
             *options: str) -> tuple[int, list[str], str]:
    """Import `text` as a file; (exit code, each stored game exported, stderr)."""
    pdn = tmp_path / "in.pdn"
    if isinstance(text, bytes):
        pdn.write_bytes(text)
    else:
        pdn.write_text(text, encoding="utf-8")
    db = tmp_path / "games.db"
    code, _, err = run_cli(capsys, "import", str(pdn), "--db", str(db), *options)
    if not db.exists():
        return code, [], err
    with Store(db) as store:
        return code, [export_pdn(store.load_game(game.id)) for game in store.list_games()], err


# -- 1, 2: the variant of an 8x8 archive without GameType -----------------------------------------

OCA = '[Event "Manchester 1841"]\n[Black "Moorhead, W."]\n[White "Wyllie, J."]\n[Result "0-1"]\n' \
      '1. 11-15 24-20 2. 8-11 28-24 0-1\n'


def test_an_8x8_archive_without_gametype_is_read_as_its_game(tmp_path: Path, capsys) -> None:
    code, games, err = imported(tmp_path, capsys, OCA)
    assert code == 0 and err == ""
    assert '[GameType "21"]' in games[0] and "1. 11-15 24-20 2. 8-11 28-24 0-1" in games[0]


def test_variant_option_names_the_game_of_untagged_records(tmp_path: Path, capsys) -> None:
    code, games, _ = imported(tmp_path, capsys, '[Event "x"]\n1. c3-d4 f6-g5 *\n', "--variant", "russian")
    assert code == 0 and '[GameType "25"]' in games[0]
    code, _, err = run_cli(capsys, "import", str(tmp_path / "in.pdn"), "--variant", "czech",
                           "--db", str(tmp_path / "other.db"))
    assert code == 2 and "Czech draughts is a game Damka does not play" in err  # refused by name
    assert not (tmp_path / "other.db").exists()


def test_an_english_ballot_is_not_stored_as_international(tmp_path: Path, capsys) -> None:
    ballot = '[FEN "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9"] *\n'
    code, games, _ = imported(tmp_path, capsys, ballot)
    assert code == 0 and '[GameType "21"]' in games[0]


def test_a_czech_gametype_is_refused_by_name() -> None:
    game = read_game('[GameType "29"]\n1. c3-d4 *')
    assert "GameType 29 is Czech draughts, a game Damka does not play" in game.errors[0]


# -- 4, 5, 8: what the source says is written back ------------------------------------------------

ANNOTATED = """[Event "NK 2009"]
[Site "Amsterdam"]
[Date "2009.04.08"]
[Round "3"]
[White "Derkx,B."]
[Black "Meijer,Hein"]
[Result "2-0"]
[GameType "20"]
[WhiteTime "2.23"]
[Setup "1"]
[FEN "W:W31-50:B1-20"]

{An opening word.} 1. 32-28 $1 {A good start.} 19-23 (18-23 2. 37-32) 2. 28x19 14x23 {Black resigns.} 2-0
"""


def test_export_keeps_the_source_tags(tmp_path: Path, capsys) -> None:
    _, games, _ = imported(tmp_path, capsys, ANNOTATED)
    for tag in ('[Event "NK 2009"]', '[Site "Amsterdam"]', '[Date "2009.04.08"]', '[Round "3"]',
                '[White "Derkx,B."]', '[Black "Meijer,Hein"]', '[WhiteTime "2.23"]'):
        assert tag in games[0]


def test_export_keeps_comments_variations_and_nags(tmp_path: Path, capsys) -> None:
    _, games, _ = imported(tmp_path, capsys, ANNOTATED)
    assert "{An opening word.} 1. 32-28 $1 {A good start.} 19-23 (18-23 2. 37-32) 2. 28x19 14x23 " \
           "{Black resigns.} 2-0" in " ".join(games[0].split("\n\n", 1)[1].split())


def test_export_writes_one_setup_tag(tmp_path: Path, capsys) -> None:
    text = ANNOTATED.replace('[FEN "W:W31-50:B1-20"]', '[FEN "W:W31-50:B1-19"]')
    _, games, _ = imported(tmp_path, capsys, text)
    assert sum(line.lower().startswith("[setup ") for line in games[0].splitlines()) == 1


def test_export_import_export_is_the_same_text(tmp_path: Path, capsys) -> None:
    _, games, _ = imported(tmp_path, capsys, ANNOTATED)
    again = tmp_path / "again"
    again.mkdir()
    _, twice, _ = imported(again, capsys, games[0])
    assert twice == games


# -- 6, 7: the forms real files use --------------------------------------------------------------

def test_a_latin1_file_is_read(tmp_path: Path, capsys) -> None:
    text = '[GameType "20"]\n[White "Jan Wöltgens"]\n[Event "Zaterdag café"]\n\n1. 32-28 *\n'
    code, games, _ = imported(tmp_path, capsys, text.encode("latin-1"))
    assert code == 0 and '[White "Jan Wöltgens"]' in games[0] and "café" in games[0]


def test_a_bom_and_crlf_are_read(tmp_path: Path, capsys) -> None:
    text = '\ufeff[GameType "20"]\r\n[White "Ala"]\r\n\r\n1. 32-28 19-23 *\r\n'
    code, games, _ = imported(tmp_path, capsys, text.encode("utf-8"))
    assert code == 0 and '[White "Ala"]' in games[0] and "1. 32-28 19-23 *" in games[0]


@pytest.mark.parametrize(("name", "record", "moves"), [
    ("ellipsis", '[GameType "20"]\n[FEN "B:W31-50:B1-20"]\n1. ... 20-24 2. 31-27 *', ["20-24", "31-27"]),
    ("spaced squares", '[GameType "20"]\n1. 32-28 17-22 2. 28x17 12x21 3. 37-32  7-12 4. 41-37  1- 7 *',
     ["32-28", "17-22", "28x17", "12x21", "37-32", "7-12", "41-37", "1-7"]),  # candidate95.pdn
    ("no separator", '[GameType "25"]\n1. c3d4 f6g5 *', ["c3-d4", "f6-g5"]),
    ("short route", '[GameType "20"]\n[FEN "W:W20,24,27,37,38,45,46,49:B13,15,16,18,34,36,39,40."]\n'
     '1. 49-43 39x48 2. 24-19 48x22 3. 19x8 15x24 4. 46-41 36x47 5. 8-2 47x29 6. 2x30x11 *',  # Cat.C1.pdn
     ["49-43", "39x48", "24-19", "48x22", "19x8", "15x24", "46-41", "36x47", "8-2", "47x29", "2x30x39x11"]),
])
def test_real_move_forms_are_read(name: str, record: str, moves: list[str]) -> None:
    game = read_game(record)
    assert game.errors == [] and game.texts == moves


def test_a_fen_with_an_unknown_side_to_move_is_read() -> None:
    game = read_game('[GameType "20"]\n[FEN "?:W29,13,11:B22,4,2"]\n*')
    assert game.errors == [] and game.start is not None
    assert any("'?'" in warning for warning in game.warnings)


@pytest.mark.parametrize("result", ["1 1/2 - 1/2", "1+ - 1-", "4-6", "1.02-0.98", "2-1"])
def test_any_result_string_is_kept_as_text(tmp_path: Path, capsys, result: str) -> None:
    code, games, err = imported(tmp_path, capsys, f'[GameType "20"]\n[Result "{result}"]\n\n1. 32-28 {result}\n')
    assert code == 0, err
    assert f'[Result "{result}"]' in games[0] and games[0].rstrip().endswith(result)


def test_an_ambiguous_short_capture_is_read_by_the_moves_after_it() -> None:
    # 10x26 is 10x17x26 or 10x19x26 (Tricks traps and shots, game 57); only one lets 26-31 follow.
    game = read_game('[GameType "21"]\n[FEN "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13"]\n1. 10x26 18-14 2. 26-31 *')
    assert game.errors == [] and game.texts[0] == "10x17x26"
    assert any("matches 2 legal moves" in warning for warning in game.warnings)


def test_a_game_played_on_after_a_threefold_repetition_is_stored(tmp_path: Path, capsys) -> None:
    # The start position a third time after move 4 (kurnik.pdn's game 3 goes on so, 60 moves).
    shuffle = "1. 47-42 3-9 2. 42-47 9-3 3. 47-42 3-9 4. 42-47 9-3"
    record = f'[GameType "20"]\n[FEN "W:WK47,35:BK3,16"]\n[Result "*"]\n\n{shuffle} 5. 35-30 *\n'
    code, games, err = imported(tmp_path, capsys, record)
    assert code == 0, err
    assert "5. 35-30 *" in games[0]
