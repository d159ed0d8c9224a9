"""The game store: round trips through SQLite, take-backs, and files that are not ours."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from damka.controller.store import schema as store_schema
from damka.controller.store.schema import StoreError
from damka.controller.store.store import Store, default_path
from damka.engine import DamkaError, Game, find_variant


def play(game: Game, plies: int) -> Game:
    """Play the first legal move `plies` times (deterministic)."""
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[len(moves) // 2])
    return game


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def test_moves_and_clock_round_trip(db: Path) -> None:
    variant = find_variant("classic")
    game = Game(variant)
    with Store(db) as store:
        gid = store.new_game(variant, players=["Ala", "Ola"], mode="tournament", time_control="5+3",
                             clock_ms=[300_000, 300_000])
        for ply in range(1, 13):
            play(game, 1)
            store.record_move(gid, game, clock_ms=[300_000 - ply * 700, 300_000 - ply * 500])
    with Store(db) as store:
        stored = store.load_game(gid)
    assert stored.game.moves == game.moves
    assert [m.move.path for m in stored.moves] == [m.path for m in game.moves]
    assert stored.game.position == game.position
    assert stored.clock_ms == (300_000 - 12 * 700, 300_000 - 12 * 500)
    assert stored.clock_start == (300_000, 300_000)
    assert stored.players == ("Ala", "Ola")
    assert stored.mode == "tournament" and stored.time_control == "5+3"
    assert [m.side for m in stored.moves] == [ply % 2 for ply in range(12)]
    assert all(m.text for m in stored.moves)
    assert not stored.is_finished


def test_multiwarcaby_four_players_keeps_sides_and_scores(db: Path) -> None:
    variant = find_variant("multiwarcaby", sides=4)
    game = play(Game(variant), 16)
    with Store(db) as store:
        gid = store.new_game(variant, players=["A", "B", "C", "D"])
        replay = Game(variant)
        for move in game.moves:
            replay.push(move)
            store.record_move(gid, replay)
        stored = store.load_game(gid)
    assert stored.game.variant.sides == variant.sides
    assert stored.game.scores == game.scores
    assert stored.game.position == game.position


def test_a_player_out_is_kept_and_re_applied_on_load(db: Path) -> None:
    from damka.controller.store.pdn import export_pdn

    variant = find_variant("multiwarcaby", sides=3)
    game = play(Game(variant), 4)
    with Store(db) as store:
        gid = store.new_game(variant, players=["A", "B", "C"])
        store.record_plies(gid, game, [1, 2, 3, 4])
        game.amend(variant.drop_side(game.position, 2))     # player 3 out after ply 4
        store.record_drop(gid, 4, 2, "on time", time_ms=9000)
        play(game, 4)
        store.record_plies(gid, game, [5, 6, 7, 8])
        stored = store.load_game(gid)
        assert [(d.ply, d.side, d.reason) for d in stored.drops] == [(4, 2, "on time")]
        assert stored.game.ply == 8 and stored.game.position == game.position
        assert list(stored.game.position.active) == [True, True, False]
        assert store.arbiter_log(gid)[0][2:] == ("side out", "side 3 out after ply 4: on time")
        assert '[DamkaOut "3:4"]' in export_pdn(stored)


def test_a_game_with_a_player_out_exports_and_imports_back(db: Path) -> None:
    from damka.controller.store.pdn import export_pdn, import_records

    variant = find_variant("multiwarcaby", sides=3)
    game = play(Game(variant), 4)
    with Store(db) as store:
        gid = store.new_game(variant, players=["A", "B", "C"])
        store.record_plies(gid, game, [1, 2, 3, 4])
        game.amend(variant.drop_side(game.position, 2))
        store.record_drop(gid, 4, 2, "on time", time_ms=9000)
        play(game, 4)
        store.record_plies(gid, game, [5, 6, 7, 8])
        text = export_pdn(store.load_game(gid))
        (imported_game, details), = import_records(text)
        assert imported_game.ply == 8 and imported_game.position == game.position
        assert details["drops"] == [(4, 2)]
        new_id = store.add_record(imported_game, **details)
        reloaded = store.load_game(new_id)
        assert [(d.ply, d.side) for d in reloaded.drops] == [(4, 2)]
        assert reloaded.game.position == game.position


def test_take_back_replaces_later_moves(db: Path) -> None:
    variant = find_variant("russian")
    game = play(Game(variant), 6)
    with Store(db) as store:
        gid = store.new_game(variant)
        replay = Game(variant)
        for move in game.moves:
            replay.push(move)
            store.record_move(gid, replay)
        replay.pop()
        replay.pop()
        store.take_back(gid, replay.ply)
        assert store.load_game(gid).game.ply == 4
        other = [m for m in replay.legal_moves() if m != game.moves[4]][0]
        replay.push(other)
        store.record_move(gid, replay)
        stored = store.load_game(gid)
    assert stored.game.moves == replay.moves


def test_finish_lists_result_and_last_unfinished(db: Path) -> None:
    variant = find_variant("classic")
    with Store(db) as store:
        first = store.new_game(variant, players=["A", "B"])
        second = store.new_game(variant, players=["C", "D"])
        game = play(Game(variant), 2)
        store.record_move(second, _replay(variant, game, 1))
        assert store.last_unfinished().id == second
        from damka.engine import Result

        store.finish(second, Result((1.0, 0.0), (1, 2), "resignation", 0))
        assert store.last_unfinished().id == first
        store.finish(first, None)
        assert store.last_unfinished() is None
        games = store.list_games()
    assert [(g.id, g.result, g.moves, g.finished) for g in games] == [(first, "*", 0, True), (second, "2-0", 1, True)]
    with Store(db) as store:
        assert store.load_game(second).result.reason == "resignation"
        assert store.load_game(second).game.result.winner == 0


def _replay(variant, game: Game, plies: int) -> Game:
    replay = Game(variant)
    for move in game.moves[:plies]:
        replay.push(move)
    return replay


def test_events_and_arbiter_log(db: Path) -> None:
    variant = find_variant("classic")
    with Store(db) as store:
        gid = store.new_game(variant)
        store.record_events(gid, [(100, "100 up c3"), (250, "250 down d4"), (900, "900 press 0")])
        store.record_events(gid, [])
        store.log_arbiter(gid, "adjust", "white +60s", time_ms=1200)
        assert store.events(gid) == [(100, "100 up c3"), (250, "250 down d4"), (900, "900 press 0")]
        assert [(t, a, d) for t, _, a, d in store.arbiter_log(gid)] == [(1200, "adjust", "white +60s")]


def test_durability_settings(db: Path) -> None:
    Store(db).close()
    with Store(db) as store:
        conn = store._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA user_version").fetchone()[0] == store_schema.SCHEMA_VERSION
        assert store.integrity_check() == "ok"


def test_each_move_is_committed_at_once(db: Path) -> None:
    """One transaction (with fsync) per move: a second reader sees every move as
    soon as it is recorded. (Commit latency: benchmarks/store_commit.py.)"""
    variant = find_variant("classic")
    game = Game(variant)
    with Store(db) as store, Store(db) as reader:
        gid = store.new_game(variant)
        for ply in range(1, 31):
            play(game, 1)
            store.record_move(gid, game, clock_ms=[1, 2])
            assert reader.load_game(gid).game.ply == ply


def test_default_path_follows_damka_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DAMKA_HOME", str(tmp_path / "home"))
    assert default_path() == tmp_path / "home" / "games.db"
    monkeypatch.delenv("DAMKA_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_path() == tmp_path / "xdg" / "damka" / "games.db"


# -- files that are not ours: one clear error, the file untouched -------------


def test_garbage_file_is_refused_and_left_alone(db: Path) -> None:
    db.write_bytes(b"these are my notes, not a database\n" * 50)
    before = digest(db)
    with pytest.raises(StoreError, match=str(db)) as error:
        Store(db)
    assert "not a Damka game database" in str(error.value)
    assert isinstance(error.value, DamkaError)
    assert digest(db) == before
    assert sorted(p.name for p in db.parent.iterdir()) == ["games.db"]


def test_another_programs_sqlite_is_refused(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE contacts (name TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ala')")
    conn.commit()
    conn.close()
    before = digest(db)
    with pytest.raises(StoreError, match="another program"):
        Store(db)
    assert digest(db) == before


def test_newer_schema_is_refused(db: Path) -> None:
    Store(db).close()
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version={store_schema.SCHEMA_VERSION + 1}")
    conn.close()
    before = digest(db)
    with pytest.raises(StoreError, match="newer Damka"):
        Store(db)
    assert digest(db) == before


def test_damaged_pages_are_reported_not_repaired(db: Path) -> None:
    variant = find_variant("classic")
    with Store(db) as store:
        gid = store.new_game(variant)
        game = Game(variant)
        for _ in range(40):
            play(game, 1)
            store.record_move(gid, game)
            store.record_events(gid, [(game.ply, f"{game.ply} up a1" + "x" * 200)])
    sqlite3.connect(db).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    data[2 * page: 3 * page] = b"\xff" * page
    db.write_bytes(bytes(data))
    before = digest(db)
    with pytest.raises(StoreError, match=f"{db}.*damaged"):
        Store(db)
    assert digest(db) == before


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        Store(tmp_path)


def test_migration_hook_runs_in_order(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Store(db).close()
    calls = []

    current = store_schema.SCHEMA_VERSION

    def to_next(conn: sqlite3.Connection) -> None:
        calls.append(current + 1)
        conn.execute("ALTER TABLE games ADD COLUMN event TEXT")

    monkeypatch.setattr(store_schema, "SCHEMA_VERSION", current + 1)
    monkeypatch.setitem(store_schema.MIGRATIONS, current, to_next)
    Store(db).close()
    Store(db).close()
    assert calls == [current + 1]
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == current + 1
    assert "event" in [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    conn.close()


def test_a_move_that_no_longer_replays_is_reported(db: Path) -> None:
    variant = find_variant("classic")
    with Store(db) as store:
        gid = store.new_game(variant)
        store.record_move(gid, play(Game(variant), 1))
    conn = sqlite3.connect(db)
    conn.execute("UPDATE moves SET path = 'h8'")
    conn.commit()
    conn.close()
    with Store(db) as store, pytest.raises(StoreError, match="move 1"):
        store.load_game(gid)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_unwritable_place_is_one_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(StoreError, match="cannot"):
            Store(folder / "games.db")
    finally:
        folder.chmod(0o700)


def test_two_programs_making_the_same_new_database_at_once_both_use_it(tmp_path, monkeypatch):
    """Two `damka import` into a new database at once: the second found no
    schema, then waited for the first's write lock and made the tables again
    ("table games already exists"). The other program now wins the race
    exactly between the look and the lock."""
    path = tmp_path / "games.db"
    look = store_schema._check_ours
    raced: list[bool] = []

    def other_program_first(conn, where):
        version = look(conn, where)
        if not raced:
            raced.append(True)
            Store(path).close()          # the other program makes the schema meanwhile
        return version

    monkeypatch.setattr(store_schema, "_check_ours", other_program_first)
    with Store(path) as store:
        store.new_game(find_variant("classic"), players=["Ala", "Ola"])
        assert len(store.list_games()) == 1
    assert raced
