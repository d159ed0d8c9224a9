"""`damka import` stops at the archive's budget ([archive] in the board config) and refuses a
record that is not a game (tags alone), as a person at the terminal sees it: the real command in
a child process, the board config where `damka run` finds it or named with --config (issue 36)."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from damka.controller.store.budget import MEGABYTE
from damka.controller.store.store import Store
from damka.engine import find_variant

DEADLINE_S = 300.0  # a loaded 2-core CI machine makes these slow, never red
ONE_MOVE = '[Event "{}"]\n1. 32-28 *\n\n'
TAG_ONLY = '[Event "{}"]\n\n'
EMPTY = "the record has no move and no setup position (FEN tag): it is not a game"


def damka(*args: str, home: Path) -> subprocess.CompletedProcess:
    """The command as a person runs it, with `home` as HOME (its ~/.config/damka/board.toml)."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env.pop("DAMKA_HOME", None)
    return subprocess.run([sys.executable, "-m", "damka", *args], capture_output=True, text=True,
                          timeout=DEADLINE_S, env=env, cwd=home)


def board_config(home: Path, text: str) -> Path:
    """The board config `damka run` (and so `damka import`) reads: ~/.config/damka/board.toml."""
    path = home / ".config" / "damka" / "board.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def pdn(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def games_in(db: Path) -> int:
    with Store(db, readonly=True) as store:
        return store.count_games()


def test_an_import_stops_at_the_games_budget_and_keeps_what_it_stored(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with Store(db) as store:  # three games played at the board: the budget counts them too
        for _ in range(3):
            store.new_game(find_variant("classic"))
    board_config(tmp_path, "[archive]\nmax_games = 10\n")
    club = pdn(tmp_path, "club.pdn", "".join(ONE_MOVE.format(n) for n in range(30)))
    done = damka("import", club, "--db", str(db), home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr == (f"damka import: the archive is full (its budget is 10 games): 7 games of {club} stored, "
                           "the rest not; to store more, raise [archive] max_games in the board config\n")
    lines = done.stdout.splitlines()
    assert len(lines) == 8 and lines[-1] == f"7 games stored in {db}", done.stdout
    assert games_in(db) == 10

    more = pdn(tmp_path, "more.pdn", "".join(ONE_MOVE.format(f"more {n}") for n in range(5)))
    again = damka("import", more, "--db", str(db), home=tmp_path)
    assert again.returncode == 2 and again.stdout == "", again
    assert again.stderr == (f"damka import: error: the archive is full (its budget is 10 games): 0 games of {more} "
                            "stored, the rest not; to store more, raise [archive] max_games in the board config\n")
    tags_first = pdn(tmp_path, "tags-first.pdn", TAG_ONLY.format("none") + ONE_MOVE.format("new"))
    again = damka("import", tags_first, "--db", str(db), home=tmp_path)   # the refused record is said too
    assert again.returncode == 2 and again.stderr.splitlines() == [
        f"damka import: {tags_first}, game 1 (line 1) is not stored: {EMPTY}",
        f"damka import: error: the archive is full (its budget is 10 games): 0 games of {tags_first} stored, "
        "the rest not; to store more, raise [archive] max_games in the board config"], again.stderr
    strict = damka("import", more, "--db", str(db), "--strict", home=tmp_path)
    assert strict.returncode == 2 and "the archive is full (its budget is 10 games)" in strict.stderr, strict
    assert games_in(db) == 10

    raised = tmp_path / "raised.toml"          # --config names another board config: its budget counts
    raised.write_text("[archive]\nmax_games = 12\n", encoding="utf-8")
    after = damka("import", more, "--db", str(db), "--config", str(raised), "--strict", home=tmp_path)
    assert after.returncode == 2 and "0 games of" in after.stderr, after   # all or nothing: 5 do not fit in 2
    after = damka("import", more, "--db", str(db), "--config", str(raised), home=tmp_path)
    assert after.returncode == 1 and after.stdout.splitlines()[-1] == f"2 games stored in {db}", after
    assert games_in(db) == 12


def test_an_import_stops_at_the_megabytes_budget(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    board_config(tmp_path, "[archive]\nmax_megabytes = 1\n")
    comment = "a long note " * 400                                  # about 5 KB a game
    club = pdn(tmp_path, "notes.pdn", "".join(f'[Event "{n}"]\n1. 32-28 {{{comment}}} *\n\n' for n in range(400)))
    done = damka("import", club, "--db", str(db), home=tmp_path)
    assert done.returncode == 1, done.stderr
    stored = int(done.stdout.splitlines()[-1].split()[0])
    assert done.stderr == (f"damka import: the archive is full (its games take all of its budget, 1 MB): "
                           f"{stored} games of {club} stored, the rest not; to store more, raise [archive] "
                           "max_megabytes in the board config\n")
    assert 100 < stored < 400 and games_in(db) == stored
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        pages, free, size = (conn.execute(f"PRAGMA {name}").fetchone()[0]
                             for name in ("page_count", "freelist_count", "page_size"))
    assert MEGABYTE <= (pages - free) * size < MEGABYTE + 64 * 1024   # one game past the line, no more

    # Room freed by removing games (sqlite3: Damka has no command for it) is room again, in the same file.
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("DELETE FROM games WHERE id > ?", (stored // 2,))
    file_size = db.stat().st_size
    later = pdn(tmp_path, "later.pdn", "".join(f'[Event "later {n}"]\n1. 32-28 {{{comment}}} *\n\n'
                                               for n in range(400)))
    done = damka("import", later, "--db", str(db), home=tmp_path)
    assert done.returncode == 1 and "the archive is full" in done.stderr, done
    again = int(done.stdout.splitlines()[-1].split()[0])
    assert stored // 2 - 10 <= again <= stored - stored // 2 + 10, (stored, again)
    assert db.stat().st_size <= file_size + 64 * 1024


def test_a_record_with_no_move_and_no_setup_position_is_refused_with_its_reason(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    tags = pdn(tmp_path, "tags.pdn", "".join(TAG_ONLY.format(n) for n in range(20)))
    done = damka("import", tags, "--db", str(db), home=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    refused = done.stderr.splitlines()
    assert len(refused) == 20 and all(line.endswith(f"is not stored: {EMPTY}") for line in refused), refused
    assert refused[0] == f"damka import: {tags}, game 1 (line 1) is not stored: {EMPTY}"
    assert not db.exists()                     # nothing stored: the database it would have made is not left

    position = '[FEN "W:W31-50:B1-20"]\n*\n\n'  # a setup position and no move: a game to go on with
    mixed = pdn(tmp_path, "mixed.pdn", ONE_MOVE.format("one") + position + TAG_ONLY.format("none") * 3)
    done = damka("import", mixed, "--db", str(db), home=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[-1] == f"2 games stored in {db}, 3 refused: see the reasons above"
    assert done.stderr.count(f"is not stored: {EMPTY}") == 3 and len(done.stderr.splitlines()) == 3, done.stderr
    assert games_in(db) == 2


@pytest.mark.parametrize("setting, message", [
    ("max_games = 0", "[archive] max_games: expected a number from 1 to 10000000, got 0"),
    ("max_megabytes = \"lots\"", "[archive] max_megabytes: expected a number, got 'lots'"),
    ("max_bytes = 5", "[archive]: unknown setting: max_bytes"),
])
def test_a_wrong_budget_is_one_line_naming_the_setting(tmp_path: Path, setting: str, message: str) -> None:
    config = board_config(tmp_path, f"[archive]\n{setting}\n")
    club = pdn(tmp_path, "club.pdn", ONE_MOVE.format("one"))
    done = damka("import", club, "--db", str(tmp_path / "games.db"), home=tmp_path)
    assert done.returncode == 2 and done.stderr == f"damka import: error: {config}: {message}\n", done
    assert not (tmp_path / "games.db").exists()


def test_the_board_says_in_its_log_that_its_archive_is_full(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with Store(db) as store:
        for _ in range(2):
            store.new_game(find_variant("classic"))
    config = tmp_path / "board.toml"
    config.write_text('[board]\nbackend = "sim"\n[web]\nenabled = false\n[archive]\nmax_games = 2\n', encoding="utf-8")
    env = {**os.environ, "HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run([sys.executable, "-m", "damka", "run", "--config", str(config), "--seconds", "1",
                           "--db", str(db)], capture_output=True, text=True, timeout=DEADLINE_S, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("archive full: ")]
    assert len(said) == 1 and re.fullmatch(
        rf"archive full: 2 games, [0-9.]+ MB in {re.escape(str(db))}, at its budget \(\[archive\] max_games\); "
        "imports store no more, games played at the board are stored all the same", said[0]), done.stderr
