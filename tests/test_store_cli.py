"""`damka games`, `damka export`, `damka import`, and bad input to the app's
commands: one clear message, exit 2, nothing overwritten."""

from __future__ import annotations

import hashlib
import io
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from damka.cli import main
from damka.commands.import_ import Progress
from damka.controller.store.store import Store
from damka.controller.clock.pdn import format_clock, parse_clock
from damka.controller.store.pdn import export_pdn, import_records
from damka.engine import Game, Result, find_variant


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stored_game(db: Path, variant_name: str = "classic", plies: int = 8, **options) -> int:
    variant = find_variant(variant_name, **options)
    game = Game(variant)
    with Store(db) as store:
        gid = store.new_game(variant, players=["Ala", "Ola"] if len(variant.sides) == 2 else None,
                             mode="tournament", time_control="blitz-100", clock_ms=[303_000] * len(variant.sides))
        for ply in range(plies):
            moves = game.legal_moves()
            game.push(moves[ply % len(moves)])
            store.record_move(gid, game, clock_ms=[303_000 - 1500 * ply - 7, 303_000 - 900 * ply][:2]
                              + [300_000] * (len(variant.sides) - 2))
    return gid


def whole_seconds(clock_ms):
    """The clock as PDN keeps it: whole seconds, rounded down."""
    return None if clock_ms is None else tuple(ms // 1000 * 1000 for ms in clock_ms)


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_the_stored_games(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    stored_game(db)
    with Store(db) as store:
        store.finish(store.new_game(find_variant("russian")), Result((0.0, 1.0), (2, 1), "no legal move", 1))
    code, out, _ = run_cli(capsys, "games", "--db", str(db))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "date", "variant", "players", "moves", "result"]
    assert "classic" in lines[1] and "Ala - Ola" in lines[1] and lines[1].split()[-2:] == ["8", "*"]
    assert "russian" in lines[2] and lines[2].split()[-2:] == ["0", "0-2"]  # as the export writes it


def test_games_dates_an_imported_game_by_its_record(tmp_path: Path, capsys) -> None:
    """Issue 38: an imported game was listed by the minute it was imported, not the day it was played;
    a Date with a part unknown, or none, leaves the time it was stored."""
    db, pdn = tmp_path / "games.db", tmp_path / "nk.pdn"
    record = '[Event "NK"]\n[Date "{date}"]\n[White "A"]\n[Black "B"]\n[GameType "20"]\n1. 32-28 19-23 *\n\n'
    pdn.write_text("".join(record.format(date=date).replace('"A"', f'"A{i}"')
                           for i, date in enumerate(("2009.04.08", "2009.??.??"))))
    assert run_cli(capsys, "import", str(pdn), "--db", str(db))[0] == 0
    code, out, _ = run_cli(capsys, "games", "--db", str(db))
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    with Store(db) as store:
        stored = store.list_games()[0].created[:16].replace("T", " ")
    assert code == 0 and lines["1"].split()[1] == "2009-04-08"
    assert lines["2"].split()[1:3] == stored.split(), lines


def test_games_without_a_database_creates_none(tmp_path: Path, capsys) -> None:
    code, out, _ = run_cli(capsys, "games", "--db", str(tmp_path / "none.db"))
    assert code == 0 and "no games" in out
    assert not (tmp_path / "none.db").exists()


def test_export_writes_clocks_and_time_control(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    gid = stored_game(db)
    code, out, _ = run_cli(capsys, "export", str(gid), "--db", str(db))
    assert code == 0
    assert '[White "Ala"]' in out and '[Black "Ola"]' in out
    assert '[TimeControl "300+3"]' in out and '[DamkaTimeControl "blitz-100"]' in out
    assert "{[%clock w0:05:02 b0:05:03]}" in out  # whole seconds, rounded down (302,993 ms)
    assert out.rstrip().endswith("*")


def test_export_to_a_file_and_import_back(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    gid = stored_game(db, plies=12)
    pdn = tmp_path / "game.pdn"
    assert run_cli(capsys, "export", str(gid), "--pdn", str(pdn), "--db", str(db))[0] == 0
    before = digest(pdn)
    code, _, err = run_cli(capsys, "export", str(gid), "--pdn", str(pdn), "--db", str(db))
    assert code == 2 and "exists" in err and digest(pdn) == before
    other = tmp_path / "other.db"
    code, out, _ = run_cli(capsys, "import", str(pdn), "--db", str(other))
    assert code == 0 and "12 moves" in out
    with Store(db) as first, Store(other) as second:
        a, b = first.load_game(gid), second.load_game(1)
    assert b.game.moves == a.game.moves and b.players == a.players
    assert [m.clock_ms for m in b.moves] == [whole_seconds(m.clock_ms) for m in a.moves]
    assert b.time_control == "blitz-100" and b.mode == "tournament"
    assert b.is_finished  # an archive; --continue keeps it open


def test_import_to_continue_from_any_position(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    gid = stored_game(db, plies=10)
    with Store(db) as store:
        text = export_pdn(store.load_game(gid))
    pdn = tmp_path / "g.pdn"
    pdn.write_text(text)
    code, out, _ = run_cli(capsys, "import", str(pdn), "--continue", "--ply", "6", "--db", str(db))
    assert code == 0 and "6 moves, unfinished" in out
    with Store(db) as store:
        resumed = store.last_unfinished()
        assert resumed.id == 2 and resumed.game.ply == 6


def test_multiwarcaby_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    gid = stored_game(db, "multiwarcaby", plies=8, sides=3)
    with Store(db) as store:
        stored = store.load_game(gid)
    text = export_pdn(stored)
    assert "p1=" in text and '[Sides "3"]' in text
    (game, details), = import_records(text)
    assert game.moves == stored.game.moves and details["clocks"][-1] == whole_seconds(stored.moves[-1].clock_ms)


def test_clock_annotations() -> None:
    variant = find_variant("classic")
    assert format_clock(variant, [3_723_000, 59_999]) == "w1:02:03 b0:00:59"  # never more time than there was
    assert parse_clock(variant, "w1:02:03 b0:00:59.999") == (3_723_000, 59_999)
    assert parse_clock(variant, "b0:01:00 w0:02:00") == (120_000, 60_000)
    assert parse_clock(variant, "w0:01:00") is None


# -- bad input: one clear message, exit 2, nothing overwritten ---------------------


@pytest.mark.parametrize("command", ["games", "export", "import"])
def test_corrupt_database(tmp_path: Path, capsys, command: str) -> None:
    db = tmp_path / "games.db"
    db.write_bytes(b"\x00garbage, not a database" * 100)
    before = digest(db)
    pdn = tmp_path / "g.pdn"
    pdn.write_text('[GameType "26"]\n\n1. c3-d4 *\n')
    argv = {"games": ["games"], "export": ["export", "1"], "import": ["import", str(pdn)]}[command]
    code, out, err = run_cli(capsys, *argv, "--db", str(db))
    assert code == 2
    assert err.count("\n") == 1 and str(db) in err and "not a Damka game database" in err
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pdn", "games.db"]


def test_malformed_pdn_stores_nothing_when_strict(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    stored_game(db)
    before = digest(db)
    pdn = tmp_path / "bad.pdn"
    pdn.write_text('[GameType "26"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n\n[GameType "26"]\n\n1. c3-d5 *\n')
    code, _, err = run_cli(capsys, "import", str(pdn), "--strict", "--db", str(db))
    assert code == 2 and err.count("\n") == 1
    assert "game 2" in err and "c3-d5" in err
    assert digest(db) == before
    with Store(db) as store:
        assert len(store.list_games()) == 1  # the good first record was not stored either


def test_each_good_record_is_stored_and_each_bad_one_said_once(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    pdn = tmp_path / "mixed.pdn"
    pdn.write_text('[GameType "26"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 2-0\n\n[GameType "26"]\n\n1. c3-d5 *\n\n'
                   '[GameType "26"]\n\n1. c3-b4 *\n')
    code, out, err = run_cli(capsys, "import", str(pdn), "--db", str(db))
    assert code == 1
    assert len(err.splitlines()) == 1
    assert err.startswith(f"damka import: {pdn}, game 2 (line 5) is not stored: 7:4: move 1 'c3-d5': ")
    assert out.splitlines()[-1] == f"2 games stored in {db}, 1 refused: see the reasons above"
    with Store(db) as store:
        assert [len(store.load_game(g.id).moves) for g in store.list_games()] == [4, 1]
    code, out, _ = run_cli(capsys, "import", str(pdn), "--db", str(db))  # again: nothing twice
    assert out.splitlines()[-1] == f"0 games stored in {db}, 2 stored before, 1 refused: see the reasons above"
    with Store(db) as store:
        assert len(store.list_games()) == 2


def test_pdn_of_an_unknown_variant(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    pdn = tmp_path / "chess.pdn"
    pdn.write_text('[Event "x"]\n[Variant "chess"]\n\n1. e4 e5 *\n')
    code, _, err = run_cli(capsys, "import", str(pdn), "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and "chess" in err
    assert not db.exists() or Store(db).list_games() == []


def test_not_a_pdn_file(tmp_path: Path, capsys) -> None:
    pdn = tmp_path / "empty.pdn"
    pdn.write_text("\n")
    code, _, err = run_cli(capsys, "import", str(pdn), "--db", str(tmp_path / "g.db"))
    assert code == 2 and "no game record" in err


def test_export_of_a_missing_game(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    stored_game(db)
    code, _, err = run_cli(capsys, "export", "7", "--db", str(db))
    assert code == 2 and "no game 7" in err


def test_run_with_a_wrong_pin_in_the_config(tmp_path: Path, capsys) -> None:
    config = tmp_path / "board.toml"
    text = ('[board]\nbackend = "gpio"\n[gpio]\nrows = [4, 5, 6, 7, 8, 9, 10, 11, 40]\n'
            'cols = [12, 13, 14, 15, 16, 17, 18, 19, 20]\n')
    config.write_text(text)
    db = tmp_path / "games.db"
    code, _, err = run_cli(capsys, "run", "--config", str(config), "--db", str(db))
    assert code == 2 and err.count("\n") == 1
    assert str(config) in err and "GPIO40 is not a BCM pin" in err
    assert config.read_text() == text and not db.exists()


def test_sim_with_an_unknown_variant(tmp_path: Path, capsys) -> None:
    code, _, err = run_cli(capsys, "sim", "--variant", "chess", "--headless", "--script", "x", "--screenshot",
                           str(tmp_path / "x.png"))
    assert code == 2 and "unknown variant 'chess'" in err


def test_store_error_names_the_file_for_a_foreign_sqlite(tmp_path: Path, capsys) -> None:
    db = tmp_path / "photos.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE photos (path TEXT)")
    conn.commit()
    conn.close()
    code, _, err = run_cli(capsys, "games", "--db", str(db))
    assert code == 2 and "another program" in err and str(db) in err


# -- issue 12: files that are not regular, large and strange imports, one result form ------


def test_export_force_refuses_a_fifo_and_leaves_it(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    gid = stored_game(db)
    fifo = tmp_path / "pipe.pdn"
    os.mkfifo(fifo)
    code, _, err = run_cli(capsys, "export", str(gid), "--pdn", str(fifo), "--force", "--db", str(db))
    assert code == 2 and err.count("\n") == 1 and "a FIFO (named pipe), not a regular file" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_export_force_writes_through_a_symbolic_link(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    gid = stored_game(db)
    target = tmp_path / "archive.pdn"
    target.write_text("old\n")
    link = tmp_path / "latest.pdn"
    link.symlink_to(target)
    code, _, _ = run_cli(capsys, "export", str(gid), "--pdn", str(link), "--force", "--db", str(db))
    assert code == 0 and link.is_symlink()
    assert target.read_text().startswith('[Event "Damka game 1"]')


def test_import_of_dev_zero_is_one_line(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    code, out, err = run_cli(capsys, "import", "/dev/zero", "--db", str(db))
    assert code == 2 and out == ""
    assert err == ("damka import: error: /dev/zero: a character device, not a regular file; "
                   "a game file (PDN) must be one\n")


def test_import_of_a_huge_line_is_a_short_message(tmp_path: Path, capsys) -> None:
    pdn = tmp_path / "one-line.pdn"
    pdn.write_text('[GameType "26"]\n\n' + "x" * 1_100_000 + "\n")
    code, _, err = run_cli(capsys, "import", str(pdn), "--db", str(tmp_path / "games.db"))
    assert code == 2 and len(err) < 200 and "line 3 is longer than 1,000,000 characters" in err


def test_import_reads_other_softwares_variant_names_with_a_warning(tmp_path: Path, capsys) -> None:
    pdn = tmp_path / "other.pdn"
    pdn.write_text('[Event "club"]\n[GameType "26"]\n[Variant "Brazilian draughts"]\n\n1. c3-d4 f6-e5 0-2\n\n'
                   '[GameType "25"]\n[Variant "Russian draughts"]\n\n1. c3-d4 *\n')
    db = tmp_path / "games.db"
    code, out, err = run_cli(capsys, "import", str(pdn), "--db", str(db))
    assert code == 0 and "game 1: classic, white - black, 2 moves, 0-2" in out and "2 games stored" in out
    assert err.splitlines() == [
        f"damka import: warning: {pdn}, game 1: 3:1: Variant 'Brazilian draughts' is not a game Damka knows by "
        f"that name; GameType 26 (classic) is used",
        f"damka import: warning: {pdn}, game 2: 8:1: Variant 'Russian draughts' is not a game Damka knows by "
        f"that name; GameType 25 (russian) is used"]


def test_games_import_and_export_say_the_same_result(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    with Store(db) as store:
        for name in ("classic", "american"):
            gid = store.new_game(find_variant(name))
            store.finish(gid, Result((0.0, 1.0), (2, 1), "resigned", 1))
    code, out, _ = run_cli(capsys, "games", "--db", str(db))
    assert [line.split()[-1] for line in out.splitlines()[1:]] == ["0-2", "0-1"]
    for gid, token in ((1, "0-2"), (2, "0-1")):
        code, out, _ = run_cli(capsys, "export", str(gid), "--db", str(db))
        assert f'[Result "{token}"]' in out and out.rstrip().endswith(token)


def test_clock_annotations_are_whole_seconds_rounded_down(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    variant = find_variant("classic")
    game = Game(variant)
    with Store(db) as store:
        gid = store.new_game(variant, time_control="5+3", clock_ms=[300_000, 300_000])
        game.push(game.legal_moves()[0])
        store.record_move(gid, game, clock_ms=[173_003, 299_999])
        assert store.load_game(gid).moves[0].clock_ms == (173_003, 299_999)  # the store keeps the ms
    code, out, _ = run_cli(capsys, "export", str(gid), "--db", str(db))
    assert "{[%clock w0:02:53 b0:04:59]}" in out


def test_import_shows_progress_only_when_asked_or_on_a_terminal(tmp_path: Path, capsys) -> None:
    pdn = tmp_path / "many.pdn"
    pdn.write_text('[GameType "26"]\n\n1. c3-d4 *\n\n' * 5)
    code, _, err = run_cli(capsys, "import", str(pdn), "--db", str(tmp_path / "a.db"))
    assert code == 0 and err == ""  # a log gets nothing
    stream = io.StringIO()
    progress = Progress(stream, always=True, every=2)
    for count in range(1, 6):
        progress.update(count)
    progress.done()
    assert stream.getvalue() == "2 games stored\n4 games stored\n"


def test_import_progress_on_a_terminal_is_rewritten_in_place() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    now = [0.0]
    stream = Terminal()
    progress = Progress(stream, clock=lambda: now[0])
    for count in range(1, 40):
        now[0] = count * 0.1
        progress.update(count)
    progress.done()
    shown = stream.getvalue()
    assert not shown.startswith("\r1 ") and "\r10 games stored" in shown  # nothing in the first second
    assert "\n" not in shown and shown.endswith("\r\033[K")  # cleared before the results are printed
