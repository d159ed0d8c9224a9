"""`damka games`, `damka export`, `damka import`, and bad input to the app's
commands: one clear message, exit 2, nothing overwritten."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.store import Store
from damka.controller.store_pdn import export_pdn, format_clock, import_records, parse_clock
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


def test_malformed_pdn_stores_nothing(tmp_path: Path, capsys) -> None:
    db = tmp_path / "games.db"
    stored_game(db)
    before = digest(db)
    pdn = tmp_path / "bad.pdn"
    pdn.write_text('[GameType "26"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n\n[GameType "26"]\n\n1. c3-d5 *\n')
    code, _, err = run_cli(capsys, "import", str(pdn), "--db", str(db))
    assert code == 2 and err.count("\n") == 1
    assert "game 2" in err and "c3-d5" in err
    assert digest(db) == before
    with Store(db) as store:
        assert len(store.list_games()) == 1  # the good first record was not stored either


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
