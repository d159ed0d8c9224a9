"""Power cuts, simulated: a game played by a subprocess through the real app
(session, clock, store) on a virtual board in real time is killed with
SIGKILL at random moments, again and again. Every time, the database opens,
`PRAGMA integrity_check` is ok, resume gives exactly the moves whose commit
had returned (or, when the kill hit a commit in flight, that one too: a
transaction is all or nothing), and the clock of the side to move comes back
within a second of what it showed at the kill.

The child prints `begin` before and `commit` after each store transaction
(moves and clock checkpoints), with the clock times; the parent timestamps
every line as it reads it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from damka.controller.clock.clock import Clock
from damka.controller.app.resume import resume_game
from damka.controller.store.store import Store
from waiting import DEADLINE_S

ROOT = Path(__file__).resolve().parent.parent
WORKERS = 5

CHILD = textwrap.dedent('''
    import json, random, sys, time
    from damka.controller.app import App
    from damka.controller.store.store import Store
    from damka.controller.board.board_map import BoardMap
    from damka.controller.game.setup import GameSetup
    from damka.sim.virtual_board import VirtualBoard, carry_out

    db, seed = sys.argv[1], int(sys.argv[2])
    rng = random.Random(seed)
    t0 = time.monotonic()

    def say(kind, data):
        """A line for the parent, stamped with this process's monotonic time (the
        parent's is the same clock): its reading lags on a loaded machine."""
        print(kind, json.dumps({**data, "at": time.monotonic()}), flush=True)

    def real_ms():
        return int((time.monotonic() - t0) * 1000)

    class PrintingStore(Store):
        def record_plies(self, game_id, game, plies, **kw):
            moves = [[m.start, list(m.path), sorted(m.captures)] for m in game.moves[plies[0] - 1:plies[-1]]]
            say("begin", {"ply": plies[-1], "moves": moves, "clock": kw.get("clock_ms")})
            super().record_plies(game_id, game, plies, **kw)
            say("commit", {"ply": plies[-1], "clock": kw.get("clock_ms")})

        def save_clock(self, game_id, clock_ms, clock_state=None):
            say("begin-clock", {"clock": list(clock_ms)})
            super().save_clock(game_id, clock_ms, clock_state)
            say("clock", {"clock": list(clock_ms), "active": clock_state["active"]})

    store = PrintingStore(db)
    app = App(store=store, setup=GameSetup("classic", mode="tournament", time_control="5+3"),
              start_game=True, offer_resume=False)
    variant = app.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(variant.start_position())))
    board.connect(app)

    def wait(ms):
        end = real_ms() + ms
        while True:
            now = real_ms()
            if now > board.now:
                board.advance(now - board.now)
            if now >= end:
                return
            time.sleep(0.003)

    wait(400)  # the start position settles: the game starts
    board.press(1)  # black starts white's clock (a tournament clock waits for the first press or move)
    wait(5)
    say("ready", {"clock": app.clock_ms()})
    name = variant.geometry.name
    game = app.session.game
    while not game.is_over:
        think = rng.choice((0, 2, 5, 10, 20)) if rng.random() < 0.85 else rng.randint(800, 1300)
        wait(think)
        move = rng.choice(game.legal_moves())
        carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in move.captures],
                  step_ms=1)
        board.press(game.turn)
        game = app.session.game
    say("over", {})
''')


def run_and_kill(db: Path, seed: int, kill_after: float) -> tuple[list[tuple[float, str, dict]], float]:
    """Start the child, kill it `kill_after` s after it is ready; the lines it printed, timestamped."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(seed)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    lines: list[tuple[float, str, dict]] = []
    ready = threading.Event()

    def read() -> None:
        assert child.stdout is not None
        for raw in child.stdout:
            if not raw.endswith("\n"):
                break  # the kill cut this line off mid-write: the child never said it
            kind, _, payload = raw.strip().partition(" ")
            data = json.loads(payload) if payload else {}
            lines.append((data.pop("at", time.monotonic()), kind, data))
            if kind == "ready":
                ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if not ready.wait(DEADLINE_S):
        child.kill()
        raise AssertionError(f"child never got ready: {child.stderr.read() if child.stderr else ''}")
    time.sleep(kill_after)                  # the power cut comes at a random moment of the game
    before = time.monotonic()
    child.send_signal(signal.SIGKILL)
    killed_at = (before + time.monotonic()) / 2    # (the child died in between)
    child.wait(10)
    reader.join(10)
    assert child.returncode in (-signal.SIGKILL, 0), child.stderr.read() if child.stderr else ""
    return lines, killed_at


def check_one(tmp_path: Path, seed: int, kill_after: float) -> dict:
    db = tmp_path / f"crash-{seed}.db"
    lines, killed_at = run_and_kill(db, seed, kill_after)
    committed = [data for _, kind, data in lines if kind == "commit"]
    begun = [data for _, kind, data in lines if kind == "begin"]
    finished = any(kind == "over" for _, kind, _ in lines)
    with Store(db) as store:  # opens: not corrupt
        assert store.integrity_check() == "ok"
        stored = store.last_unfinished()
        if finished:
            assert stored is None
            return {"finished": True}
        assert stored is not None
        ply = stored.game.ply
        last_commit = committed[-1]["ply"] if committed else 0
        in_flight = begun[-1]["ply"] if begun and (not committed or begun[-1]["ply"] > last_commit) else None
        # Exactly the committed moves; one more only if its transaction was under way at the kill.
        assert ply == last_commit or ply == in_flight, (ply, last_commit, in_flight)
        printed = [move for data in begun for move in data["moves"]][:ply]
        assert [[m.start, list(m.path), sorted(m.captures)] for m in stored.game.moves] == printed
        # The resumed session and clock: same moves, clock paused with the saved times.
        built = resume_game(stored)
        session, clock = built.session, built.clock
        assert session.game.moves == stored.game.moves
        assert isinstance(clock, Clock) and clock.state.value == "paused"  # runs again when play resumes
        # The clock at the kill: the last line that showed it, minus the time since (for the side to move).
        shown = [(t, data) for t, kind, data in lines if kind in ("ready", "commit", "clock") and data.get("clock")]
        read_at, data = shown[-1]
        active = clock.active
        true_ms = data["clock"][active] - int((killed_at - read_at) * 1000)
        resumed_ms = clock.remaining(active, 0)
        lost = resumed_ms - true_ms
        assert abs(lost) <= 1000, (resumed_ms, true_ms)
        # The other sides' clocks stand still: exactly as last stored (a commit in flight counts).
        stored_values = {tuple(d["clock"]) for _, kind, d in lines if d.get("clock")}
        for side in range(clock.sides):
            if side != active:
                assert clock.remaining(side, 0) in {values[side] for values in stored_values}
        return {"finished": False, "ply": ply, "in_flight": ply == in_flight and ply != last_commit, "lost_ms": lost}


def run_kills(tmp_path: Path, count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    plans = [(rng.randrange(10**6), rng.uniform(0.02, 1.5)) for _ in range(count)]
    # Several children at once: they mostly wait (thinking time), so this only saves wall time.
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(lambda plan: check_one(tmp_path, *plan), plans))
    played = [r for r in results if not r["finished"]]
    lost = sorted(r["lost_ms"] for r in played)
    print(f"\n{len(results)} kills: {len(played)} mid-game (plies {min(r['ply'] for r in played)}-"
          f"{max(r['ply'] for r in played)}), {sum(r['in_flight'] for r in played)} with a commit in flight; "
          f"clock time given back at resume: median {lost[len(lost) // 2]} ms, max {lost[-1]} ms")
    assert played, "every child finished its game before the kill: the kills tested nothing"
    return results


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_again_and_again_resumes_exactly(tmp_path: Path) -> None:
    run_kills(tmp_path, 20, seed=2026)


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_many_times_resumes_exactly(tmp_path: Path) -> None:
    run_kills(tmp_path, 150, seed=81)
