"""The store on a full disk and a read-only card: a failed write is one
StoreError naming the file and leaves everything stored as it was; reading
commands still read; a failed import leaves nothing of its own behind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from disk_faults import FailingConnection, SmallDisk, read_only_view, small_disk, unmount  # noqa: F401
from damka.cli import main
from damka.controller.store.schema import StoreError
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.engine import Game, find_variant


def a_game(plies: int = 8) -> Game:
    game = Game(find_variant("classic"))
    for ply in range(plies):
        moves = game.legal_moves()
        game.push(moves[ply % len(moves)])
    return game


def stored(db: Path) -> str:
    """Everything the database holds, as the PDN of each game."""
    with Store(db, readonly=True) as store:
        return "\n".join(export_pdn(store.load_game(g.id)) for g in store.list_games())


def pdn_file(tmp_path: Path) -> Path:
    db = tmp_path / "source.db"
    with Store(db) as store:
        text = export_pdn(store.load_game(store.add_record(a_game(), players=["Ala", "Ola"])))
    path = tmp_path / "game.pdn"
    path.write_text(text * 3, encoding="utf-8")
    return path


def run_cli(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def files_under(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# -- a failed write ---------------------------------------------------------------------


def test_a_commit_that_fails_is_rolled_back_one_line_and_can_be_retried(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    game = a_game(3)
    with Store(db) as store:
        game_id = store.new_game(game.variant)
        failing = FailingConnection(store._conn)
        store._conn = failing  # type: ignore[assignment]
        failing.full = True
        with pytest.raises(StoreError) as raised:
            store.record_plies(game_id, game, [1, 2, 3])
        message = str(raised.value)
        assert "\n" not in message and str(db) in message and "disk is full" in message
        assert not store._conn.in_transaction and store.load_game(game_id).game.ply == 0
        failing.full = False
        store.record_plies(game_id, game, [1, 2, 3])  # the same write again: now it goes through
        store.record_plies(game_id, game, [3])        # (repeating one replaces, never doubles)
        assert store.load_game(game_id).game.moves == game.moves


@pytest.mark.parametrize("board_running", [False, True])
def test_import_onto_a_full_disk_is_one_line_exit_2_and_stores_nothing(small_disk: SmallDisk, tmp_path: Path,
                                                                       capsys, board_running: bool) -> None:
    """With the board running the database is open (its WAL files are there):
    the import's open succeeds and its COMMIT meets the full disk."""
    db = small_disk.path / "games.db"
    with Store(db) as store:
        store.add_record(a_game(), players=["Ada", "Bob"])
    before = stored(db)
    source = pdn_file(tmp_path)
    board = Store(db) if board_running else None
    small_disk.fill()
    code, out, err = run_cli(capsys, "import", str(source), "--db", str(db))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and str(db) in err and "disk is full" in err, err
    small_disk.free()
    if board is not None:
        board.close()
    assert stored(db) == before
    with Store(db) as store:
        assert store.integrity_check() == "ok"


def test_import_into_a_new_database_on_a_full_disk_leaves_nothing(small_disk: SmallDisk, tmp_path: Path,
                                                                  capsys) -> None:
    source = pdn_file(tmp_path)
    small_disk.fill()
    before = files_under(small_disk.path)
    for db in (small_disk.path / "games.db", small_disk.path / "new" / "deeper" / "games.db"):
        code, _, err = run_cli(capsys, "import", str(source), "--db", str(db))
        assert code == 2 and len(err.splitlines()) == 1 and str(db) in err, err
        assert files_under(small_disk.path) == before


def test_a_failed_import_removes_only_what_it_created(tmp_path: Path, capsys,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    source = pdn_file(tmp_path)
    card = tmp_path / "card"
    card.mkdir()
    (card / "notes.txt").write_text("mine")
    existing = tmp_path / "kept.db"
    with Store(existing) as store:
        store.add_record(a_game(), players=["Ada", "Bob"])
    before = stored(existing)

    def full(self: Store, records: object, **how: object) -> list[int]:
        raise StoreError(f"{self.path}: cannot write the game database: database or disk is full")

    monkeypatch.setattr(Store, "add_records", full)
    monkeypatch.setattr(Store, "add_new_records", full)
    code, _, err = run_cli(capsys, "import", str(source), "--db", str(card / "new" / "games.db"))
    assert code == 2 and "disk is full" in err
    assert files_under(card) == ["notes.txt"]  # the folder and the empty database it made are gone
    code, _, _ = run_cli(capsys, "import", str(source), "--db", str(existing))
    assert code == 2 and existing.exists() and stored(existing) == before  # not ours to remove


# -- reading where nothing can be written ------------------------------------------------


@pytest.fixture
def read_only_card(tmp_path: Path):
    """A folder with a game database, seen through a read-only mount (root
    writes through chmod, not through a read-only mount)."""
    folder = tmp_path / "data"
    folder.mkdir()
    with Store(folder / "games.db") as store:
        store.add_record(a_game(), players=["Ada", "Bob"])
    view = tmp_path / "card"
    try:
        read_only_view(folder, view)
    except OSError as exc:
        pytest.skip(f"cannot make a read-only mount here: {exc}")
    yield view
    unmount(view)


def test_games_and_export_read_a_read_only_card(read_only_card: Path, capsys) -> None:
    db = read_only_card / "games.db"
    assert not os.access(read_only_card, os.W_OK) or os.statvfs(read_only_card).f_flag & os.ST_RDONLY
    code, out, err = run_cli(capsys, "games", "--db", str(db))
    assert code == 0 and "Ada - Bob" in out, err
    code, out, err = run_cli(capsys, "export", "1", "--db", str(db))
    assert code == 0 and '[White "Ada"]' in out, err


def test_writing_to_a_read_only_card_is_one_line_naming_the_file(read_only_card: Path) -> None:
    with pytest.raises(StoreError) as raised:
        Store(read_only_card / "games.db")
    assert "\n" not in str(raised.value) and str(read_only_card / "games.db") in str(raised.value)
    with Store(read_only_card / "games.db", readonly=True) as store, pytest.raises(StoreError) as raised:
        store.finish(1, None)
    assert "\n" not in str(raised.value) and "read" in str(raised.value)


def test_games_and_export_read_a_full_disk(small_disk: SmallDisk, capsys) -> None:
    db = small_disk.path / "games.db"
    with Store(db) as store:
        store.add_record(a_game(), players=["Ada", "Bob"])
    small_disk.fill()
    code, out, err = run_cli(capsys, "games", "--db", str(db))
    assert code == 0 and "Ada - Bob" in out, err
    code, out, err = run_cli(capsys, "export", "last", "--db", str(db))
    assert code == 0 and '[Black "Bob"]' in out, err


def test_reading_waits_for_moves_in_the_wal(tmp_path: Path, capsys) -> None:
    """A read-only open sees what a running board has committed but not yet checkpointed."""
    db = tmp_path / "games.db"
    with Store(db) as board:
        game = a_game(5)
        game_id = board.new_game(game.variant, players=["Ada", "Bob"])
        board.record_plies(game_id, game, [1, 2, 3, 4, 5])
        assert (tmp_path / "games.db-wal").stat().st_size > 0
        with Store(db, readonly=True) as reader:
            assert reader.load_game(game_id).game.moves == game.moves
