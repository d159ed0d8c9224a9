"""One game database, three processes, power cuts: nothing lost.

    `damka run`            the board: a process of its own, its firmware faked on a pty
                           (hardware/pty_device.PtyBoard, a thread of this test), its page
                           on a real uvicorn server; this test's hand sets the reed switches
    its page's Archive     GET /api/games: read-only stores opened inside the board's process
    the import job         a PDN uploaded through the page: `python -m damka.web.importer`,
                           the board's child, storing batches beside the board's moves
    this test, `damka games`   other processes reading the file while the board runs

Each run (a fresh database, a seeded plan) reads the Archive, uploads PDN files,
plays moves and lists the games from outside, then kills the board with SIGKILL
at a seeded moment (an upload or a move may be under way). What must hold:

- while the board runs, every move it stored reaches the other processes (a move
  is "committed" for this test once this process has read it: the board's
  transaction has returned), and `damka games` lists every game this process sees;
- the Archive answers (no 503);
- after the kill: the import job ends too (it is the board's: it must not go on
  storing), quietly (no traceback); `PRAGMA integrity_check` says ok; every move
  and every game read before the kill is there, the moves as the hand played them.

Before the fix (issue 36) the Archive's header check opened the file with
Python's open() inside the board's process, which drops the process's POSIX
locks; the import job then deleted the WAL the board was still writing, and the
board's next moves were seen by nobody and lost at the kill.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("serial")
pytest.importorskip("uvicorn")
if sys.platform != "linux":
    pytest.skip("reads /proc (the import job, the board's child)", allow_module_level=True)

from damka.controller.board.board_map import BoardMap  # noqa: E402
from damka.controller.board.tracker import Kind, Tracker  # noqa: E402
from damka.controller.store.pdn import export_pdn  # noqa: E402
from damka.controller.store.store import Store  # noqa: E402
from damka.engine import Game, find_variant  # noqa: E402
from damka.engine.move import Move  # noqa: E402
from damka.hardware.layout import Layout  # noqa: E402
from damka.hardware.pty_device import PtyBoard  # noqa: E402
from damka.web.importer import BATCH  # noqa: E402
from waiting import DEADLINE_S, wait_until  # noqa: E402

VARIANT = find_variant("classic")
LAYOUT = Layout()
BOARD_MAP = BoardMap(VARIANT)
UNSAFE = (Kind.COMPLETE, Kind.TAKEBACK, Kind.START, Kind.HALF_TURN)  # an in-between board the session could act on
UPLOAD_GAMES = 300     # records an upload: the job stores them in three batches, for a second or two
UPLOADS = 6


# -- what the runs upload -----------------------------------------------------------------------


def random_games(seed: int, count: int, tmp: Path) -> str:
    """`count` seeded random classic games as one PDN file (each record different)."""
    rng = random.Random(seed)
    records = []
    with Store(tmp / f"source-{seed}.db") as store:
        for _ in range(count):
            game = Game(VARIANT)
            for _ in range(rng.randint(10, 40)):
                if game.is_over:
                    break
                game.push(rng.choice(game.legal_moves()))
            game_id = store.add_record(game, players=[f"P{rng.randrange(10**6)}", f"Q{rng.randrange(10**6)}"])
            records.append(export_pdn(store.load_game(game_id)))
    return "\n".join(records)


@pytest.fixture(scope="module")
def uploads(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Files of different records (their players' names differ): each upload stores all of its games."""
    text = random_games(36, UPLOAD_GAMES, tmp_path_factory.mktemp("pdn"))
    return [text.replace('[White "', f'[White "U{n}-') for n in range(UPLOADS)]


# -- the board: `damka run` on a faked device ---------------------------------------------------


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (the board's import job)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it has ended)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class BoardProcess:
    """`damka run --config` on the serial backend at `pty`, its page on a free port."""

    def __init__(self, tmp: Path, db: Path, pty: PtyBoard) -> None:
        config = tmp / "board.toml"
        config.write_text(f'[board]\nbackend = "serial"\n[serial]\nport = "{pty.port}"\n'
                          '[web]\nport = 0\nbind = "127.0.0.1"\n')
        env = {**os.environ, "HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / ".config"),
               "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
        self.lines: list[str] = []
        self.proc = subprocess.Popen([sys.executable, "-m", "damka", "run", "--config", str(config), "--no-screen",
                                      "--variant", VARIANT.name, "--db", str(db)],
                                     cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        line = wait_until(lambda: next((x for x in self.lines if "web page: http://" in x), None) or self.ended(),
                          "the board's page to start")
        assert isinstance(line, str), self.stderr()
        found = re.search(r"http://[\d.]+:(\d+)/\s+pairing code (\w+)", line)
        assert found, line
        self.port, self.code = int(found[1]), found[2]

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:   # the board's and its import job's (it inherits the board's stderr)
            self.lines.append(line)

    def ended(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"the board stopped ({self.proc.returncode}): {self.stderr()}")
        return False

    def stderr(self) -> str:
        return "".join(self.lines)[-3000:]

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=DEADLINE_S)
        headers = {"Content-Type": "application/json", "Cookie": "damka_csrf=t", "X-CSRF-Token": "t",
                   "X-Damka-Code": self.code}
        conn.request(method, path, body=json.dumps(body).encode() if body is not None else None, headers=headers)
        response = conn.getresponse()
        answer = json.loads(response.read() or b"{}")
        conn.close()
        return response.status, answer

    def kill(self) -> list[int]:
        """The power cut: SIGKILL. The board's children at that moment (its import job)."""
        jobs = children(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(DEADLINE_S)
        self._reader.join(DEADLINE_S)   # (the import job holds the pipe too: it ends with the job)
        return jobs


# -- another process's view ---------------------------------------------------------------------


def outside(db: Path) -> dict[int, tuple[int, bool]]:
    """Every game as another process reads it (as `damka games` does): id -> (moves, finished)."""
    with Store(db, readonly=True) as store:
        return {g.id: (g.moves, g.finished) for g in store.list_games()}


def damka_games(db: Path) -> dict[int, int]:
    """`damka games` in a process of its own: id -> moves."""
    done = subprocess.run([sys.executable, "-m", "damka", "games", "--db", str(db)], capture_output=True,
                          text=True, timeout=DEADLINE_S)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    return {int(row[0]): int(row[-2]) for row in rows}


# -- the hand -----------------------------------------------------------------------------------


class Hand:
    """Plays seeded random moves on the faked device's switches: the piece lifted, put
    down on its last square, the captured pieces taken off; only moves whose every
    in-between board the session cannot take for anything it would act on."""

    def __init__(self, pty: PtyBoard, rng: random.Random) -> None:
        self.pty, self.rng = pty, rng
        self.game = Game(VARIANT)
        self.tracker = Tracker(VARIANT)
        self.occupied = frozenset(BOARD_MAP.names(VARIANT.occupancy(self.game.position)))
        self.set(self.occupied)

    def set(self, occupied: frozenset[str]) -> None:
        self.occupied = occupied
        self.pty.matrix.set(LAYOUT.cell(square) for square in occupied)

    def script(self, move: Move) -> list[tuple[str, str]]:
        name = VARIANT.geometry.name
        return ([("up", name(move.start)), ("down", name(move.path[-1]))]
                + [("up", name(square)) for square in sorted(move.captures)])

    def safe(self, move: Move) -> bool:
        state = self.occupied
        for what, square in self.script(move)[:-1]:
            state = state - {square} if what == "up" else state | {square}
            if self.tracker.read(self.game, BOARD_MAP.bits(state)).kind in UNSAFE:
                return False
        return True

    def play(self) -> bool:
        """One move carried out (False: the game is over or no move is safe to make)."""
        moves = [m for m in self.game.legal_moves() if self.safe(m)] if not self.game.is_over else []
        if not moves:
            return False
        move = self.rng.choice(moves)
        for what, square in self.script(move):
            self.set(self.occupied - {square} if what == "up" else self.occupied | {square})
            masks = self.pty.matrix.masks
            wait_until(lambda: self.pty.device.debouncer.stable == masks, f"the firmware to debounce {square}")
        self.game.push(move)
        return True


# -- one run ------------------------------------------------------------------------------------


def one_run(tmp: Path, seed: int, uploads: list[str]) -> dict:
    """A fresh database, a seeded plan of reads, uploads and moves, then the kill; its numbers."""
    rng = random.Random(seed)
    db = tmp / "games.db"
    seen: dict[int, tuple[int, bool]] = {}      # what this process read before the kill
    with PtyBoard() as pty:
        hand = Hand(pty, rng)
        board = BoardProcess(tmp, db, pty)
        try:
            ours = wait_until(lambda: board.ended() or next((i for i, (_, done) in outside(db).items() if not done),
                                                            None), "the board's game to be stored")

            def look(what: str, ply: int | None = None) -> dict[int, tuple[int, bool]]:
                """Read from outside until the board's game shows `ply` moves; every game read is kept."""
                def read() -> dict[int, tuple[int, bool]] | None:
                    board.ended()
                    games = outside(db)
                    return games if ply is None or games.get(ours, (0, False))[0] == ply else None
                games = wait_until(read, what)
                seen.update(games)
                return games

            steps = [rng.choice(("get", "upload", "move", "move", "move", "games")) for _ in range(rng.randint(2, 7))]
            steps = ["get", *steps] if rng.random() < 0.5 else steps
            in_flight = rng.choice(("upload", "upload", "move", ""))   # not waited for: the kill hits it under way
            steps += [in_flight] if in_flight else []
            uploaded = 0
            for index, step in enumerate(steps):
                last = index == len(steps) - 1
                done = steps[:index + 1]
                if step == "get":
                    status, answer = board.request("GET", "/api/games")
                    assert status == 200, (done, status, answer)
                    assert answer["total"] >= len(seen), (done, answer["total"], seen)
                elif step == "upload" and uploaded < len(uploads):
                    status, answer = board.request("POST", "/api/games/import",
                                                   {"pdn": uploads[uploaded], "name": f"club-{uploaded}.pdn"})
                    assert status == 200, answer
                    uploaded += 1
                    if not (last and in_flight):
                        progress = wait_until(lambda: (p := board.request("GET", "/api/import")[1])["state"]
                                              != "reading" and p, "the import to end")
                        assert progress["state"] == "done" and progress["stored"] == UPLOAD_GAMES, progress
                        look(f"the imported games from another process (after {done})")
                elif step == "move" and hand.play():
                    if not (last and in_flight):
                        look(f"the board's move {hand.game.ply} from another process (after {done})", hand.game.ply)
                elif step == "games" and not (last and in_flight):
                    listed = damka_games(db)
                    games = look("the games from this process")
                    assert listed == {i: moves for i, (moves, _) in games.items()}, (listed, games)
            time.sleep(rng.uniform(0.0, 2.0 if in_flight == "upload" else 0.3))  # the power cut, at a seeded moment
        finally:
            jobs = board.kill()
    at_kill = len(outside(db))
    # The import job is the board's: it ends with it, between two transactions, without a traceback.
    wait_until(lambda: not any(alive(pid) for pid in jobs), "the import job to end with the board")
    assert "Traceback" not in board.stderr(), board.stderr()
    stored_after = len(outside(db)) - at_kill
    assert stored_after <= BATCH, f"the import job stored {stored_after} games after the board was killed"
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        conn.close()
    with Store(db) as store:    # as the board opens it again after the cut
        after = {g.id: g.moves for g in store.list_games()}
        game = store.load_game(ours).game
    missing = {i: moves for i, (moves, _) in seen.items() if after.get(i, -1) < moves}
    assert not missing, f"read before the kill, gone after it: {missing}"
    assert game.moves == hand.game.moves[:game.ply], "the board's game is not the moves the hand made"
    return {"kills": 1, "moves_checked": seen.get(ours, (0, False))[0], "games_checked": len(seen),
            "imports": uploaded, "jobs_at_kill": len(jobs), "stored_after_kill": stored_after}


def run_many(tmp_path: Path, runs: int, seed: int, uploads: list[str]) -> None:
    rng = random.Random(seed)
    totals: dict[str, int] = {}
    for number in range(runs):
        folder = tmp_path / f"run-{number}"
        folder.mkdir()
        result = one_run(folder, rng.randrange(10**6), uploads)
        for key, value in result.items():
            totals[key] = totals.get(key, 0) + value
    print(f"\n{runs} runs: {totals}")
    assert totals["moves_checked"] and totals["imports"], "the runs played no move or stored no import"


def test_board_page_and_import_job_share_the_database_through_power_cuts(tmp_path: Path, uploads) -> None:
    run_many(tmp_path, 4, seed=36, uploads=uploads)


@pytest.mark.slow
def test_many_power_cuts_lose_nothing(tmp_path: Path, uploads) -> None:
    run_many(tmp_path, 20, seed=3636, uploads=uploads)


# -- the locks of the board's process -----------------------------------------------------------


def held_locks() -> list[str]:
    """This process's POSIX locks as Linux lists them: (device:inode, byte range)."""
    mine = []
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if len(fields) >= 8 and fields[1] == "POSIX" and fields[4] == str(os.getpid()):
            mine.append(" ".join(fields[5:8]))
    return sorted(mine)


def test_the_archive_reads_leave_the_boards_locks_alone(tmp_path: Path) -> None:
    """The page's Archive reads run in the board's process: they must not drop the locks
    SQLite holds there for the board's connection (before: a GET took them from 2 to 1)."""
    from damka.web import archive

    with Store(tmp_path / "games.db") as board:
        game = Game(VARIANT)
        game.push(game.legal_moves()[0])
        game_id = board.new_game(VARIANT)
        board.record_move(game_id, game)
        before = held_locks()
        assert len(before) >= 2, before     # the database file's and its WAL index's
        assert archive.list_games(board)["total"] == 1
        assert archive.replay(board, game_id)["moves"]
        assert held_locks() == before


# -- the import job alone, its board killed -------------------------------------------------------

PARENT = '''
import sys, threading
from pathlib import Path
from damka.web.importer import Importer

def publish(progress):
    print(progress.state, progress.stored, flush=True)

Importer(Path(sys.argv[1]), publish).start(sys.stdin.read(), "club.pdn")
threading.Event().wait()
'''


def test_the_import_job_stops_between_batches_when_its_board_is_killed(tmp_path: Path, uploads) -> None:
    """A board (here a bare process with the page's Importer) killed while its import job stores a
    large file: the job stops at once, after a whole batch, quietly; what it stored is there."""
    db = tmp_path / "games.db"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert parent.stdin is not None and parent.stdout is not None and parent.stderr is not None
    parent.stdin.write("\n".join(uploads))     # 1,800 records: 18 batches
    parent.stdin.close()
    for line in parent.stdout:
        state, stored = line.split()
        assert state == "reading", line
        if int(stored) > 0:
            break
    jobs = children(parent.pid)
    assert len(jobs) == 1, jobs
    parent.kill()
    parent.wait(DEADLINE_S)
    wait_until(lambda: not alive(jobs[0]), "the import job to end with its board")
    errors = parent.stderr.read()
    assert "Traceback" not in errors, errors
    with Store(db) as store:
        count = store.count_games()
        assert store.integrity_check() == "ok"
    assert count % BATCH == 0 and count < UPLOADS * UPLOAD_GAMES, count   # whole batches, not the whole file
