"""`damka hub` driven as a subprocess: by pydraughts' HubEngine (an independent
client with its own rules) through whole games, and by raw lines for stop,
ping, clocks and garbage."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import threading
import time

import pytest

from damka.bridges.hub_protocol import HubBoard, HubError, find_dialect, parse_line
from waiting import DEADLINE_S

HUB = [sys.executable, "-m", "damka", "hub"]


class HubProcess:
    """`damka hub` on pipes, its output lines read by a thread (so reads can time out)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([*HUB, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, command: str, timeout: float = DEADLINE_S) -> tuple[list[str], dict[str, str]]:
        """Lines up to and including the first `command` line; fails on EOF or timeout."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"damka hub ended before {command!r}; output: {seen}"
            seen.append(line)
            name, args = parse_line(line)
            if name == command:
                return seen, args

    def close(self) -> int:
        if self.proc.poll() is None:
            self.send("quit")
        return self.proc.wait(timeout=DEADLINE_S)


@pytest.fixture
def hub():
    process = HubProcess()
    yield process
    if process.proc.poll() is None:
        process.proc.kill()
        process.proc.wait()


def quit_engine(engine) -> None:
    """pydraughts' HubEngine told to quit, and its `damka hub` gone whatever happens: a
    child that outlives its test (a quit lost, a wait that times out) would load the run."""
    try:
        engine.quit()
        engine.p.wait(timeout=DEADLINE_S)
    finally:
        if engine.p.poll() is None:
            engine.p.kill()
            engine.p.wait()


START_10 = "W" + "b" * 20 + "e" * 10 + "w" * 20


# -- pydraughts' HubEngine plays whole games ----------------------------------------


def _self_play(variant: str, seed: int, max_plies: int | None, limit_kwargs: dict) -> int:
    draughts = pytest.importorskip("draughts")
    engines = pytest.importorskip("draughts.engine")
    if not hasattr(engines, "HubEngine"):
        pytest.skip("the installed `draughts` package is not pydraughts")
    engine = engines.HubEngine(HUB)
    try:
        assert engine.id["name"] == "Damka"
        hub_name = {"standard": "normal"}.get(variant, variant)  # pydraughts' name, the protocol's name
        assert hub_name in engine.variants
        engine.setoption("variant", hub_name)
        engine.init()
        board = draughts.Board(variant)
        rng = random.Random(seed)
        plies = 0
        while not board.is_over() and (max_plies is None or plies < max_plies):
            legal = {move.hub_move: move for move in board.legal_moves()}
            if plies < 2:
                move = legal[rng.choice(sorted(legal))]  # a varied opening
            else:
                result = engine.play(board, engines.Limit(**limit_kwargs), ponder=False)
                assert result.move.hub_move in legal, f"ply {plies}: {result.move.hub_move} not in {sorted(legal)}"
                move = legal[result.move.hub_move]
            board.push(move)
            plies += 1
        return plies
    finally:
        quit_engine(engine)


@pytest.mark.parametrize("variant", ["standard", "brazilian", "russian", "english"])
def test_pydraughts_plays_damka_hub_legally(variant: str) -> None:
    plies = _self_play(variant, seed=7, max_plies=40, limit_kwargs={"movetime": 0.02})
    assert plies >= 10  # Damka answered at least eight times


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "brazilian", "russian", "english"])
def test_pydraughts_whole_games_to_the_end(variant: str) -> None:
    for seed in range(3):
        _self_play(variant, seed=seed, max_plies=400, limit_kwargs={"time": 3.0, "inc": 0.05})


def test_pydraughts_clock_and_depth_limits_answer() -> None:
    draughts = pytest.importorskip("draughts")
    engines = pytest.importorskip("draughts.engine")
    engine = engines.HubEngine(HUB)
    try:
        engine.init()
        board = draughts.Board("standard")
        legal = {move.hub_move for move in board.legal_moves()}
        for limit in (engines.Limit(time=5.0, inc=0.1), engines.Limit(depth=3), engines.Limit(nodes=300)):
            result = engine.play(board, limit, ponder=False)
            assert result.move.hub_move in legal
            assert result.info["nodes"] > 0
    finally:
        quit_engine(engine)


# -- raw lines --------------------------------------------------------------------


def test_handshake_and_ping(hub: HubProcess) -> None:
    hub.send("hub")
    lines, _ = hub.expect("wait")
    assert lines[0].startswith("id name=Damka")
    assert any("name=variant" in line and "normal" in line for line in lines)
    hub.send("init")
    hub.expect("ready")
    hub.send("ping")
    hub.expect("pong")
    assert hub.close() == 0


def test_stop_interrupts_an_infinite_search(hub: HubProcess) -> None:
    hub.send("init", f"pos pos={START_10}", "level infinite", "go think")
    hub.send("ping")
    lines, _ = hub.expect("pong")
    assert not any(line.startswith("done") for line in lines)  # still thinking, yet answering
    hub.send("stop")
    _, done = hub.expect("done")  # an infinite search ends only when stopped
    board = HubBoard(find_dialect("normal"))
    position = board.parse_position(START_10)
    assert done["move"] in {board.format_move(m) for m in board.variant.legal_moves(position)}


def test_canadian_and_moves_list(hub: HubProcess) -> None:
    board = HubBoard(find_dialect("canadian"))
    start = board.format_position(board.variant.start_position())
    hub.send("set-param name=variant value=canadian", f'pos pos={start} moves="43-37"', "level depth=2", "go think")
    _, done = hub.expect("done")
    position = board.variant.play(board.variant.start_position(), board.parse_move(board.variant.start_position(), "43-37"))
    assert done["move"] in {board.format_move(m) for m in board.variant.legal_moves(position)}


@pytest.mark.parametrize("line, says", [
    ("set-param name=variant value=frisian", "not played by Damka"),
    ("pos pos=Wbbb", "must be 1 + 50 letters"),
    (f'pos pos={START_10} moves="32-26"', "not legal"),
    ("level move-time=soon", "not a number"),
    ("level", "level needs"),
    ('pos pos="unclosed', "cannot read"),
    ("go think", "needs a position"),
])
def test_bad_lines_get_one_error_and_the_engine_goes_on(hub: HubProcess, line: str, says: str) -> None:
    hub.send(line)
    _, error = hub.expect("error")
    assert says in error["message"]
    hub.send("ping")
    hub.expect("pong")


def test_unknown_commands_and_parameters_are_ignored_as_the_protocol_asks() -> None:
    """A newer GUI's command or parameter (Scan's `set-param name=book`) gets no error line:
    the next answer is the next command's, and stderr says once what was ignored."""
    process = HubProcess()
    try:
        process.send("frobnicate now=1", "set-param name=book value=true", "frobnicate", "ping")
        seen, _ = process.expect("pong")
        assert seen == ["pong"]
        assert process.close() == 0
        assert process.proc.stderr is not None
        notes = process.proc.stderr.read().splitlines()
        assert notes == ["damka hub: ignored the unknown command 'frobnicate' (the Hub protocol says to ignore it)",
                         "damka hub: ignored the unknown parameter 'book' (the Hub protocol says to ignore it)"]
    finally:
        if process.proc.poll() is None:
            process.proc.kill()


def _garbage(rng: random.Random) -> str:
    valid = [
        "hub", "init", "new-game", "ping", "stop", "ponder-hit", "go think", "go ponder", "level depth=2",
        "level move-time=0.01", "level time=1 inc=0.1 moves=5", "set-param name=variant value=russian",
        "set-param name=level value=beginner", f'pos pos={START_10} moves="32-28 19-23"',
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
    ]
    kind = rng.randrange(4)
    if kind == 0:
        return "".join(chr(rng.randrange(1, 0x2FF)) for _ in range(rng.randrange(1, 60))).replace("\n", " ")
    line = rng.choice(valid)
    if kind == 1:
        return line[: rng.randrange(len(line) + 1)]  # truncated
    if kind == 2:
        chars = list(line)
        for _ in range(rng.randrange(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice('="x-0 9Wqe')
        return "".join(chars)
    return line


def test_fuzz_garbage_never_crashes_damka_hub(hub: HubProcess) -> None:
    rng = random.Random(16)
    for batch in range(20):
        hub.send(*(_garbage(rng) for _ in range(25)), "stop", "ping")
        lines, _ = hub.expect("pong")
        for line in lines:
            assert parse_line(line)[0] in {"id", "param", "wait", "ready", "info", "done", "error", "pong"}, line
        assert not any("internal error" in line for line in lines), lines
    assert hub.close() == 0
    assert hub.proc.stderr is not None and "Traceback" not in hub.proc.stderr.read()


def test_end_of_input_ends_the_engine() -> None:
    process = HubProcess()
    process.send("init", f"pos pos={START_10}", "level infinite", "go think")
    assert process.proc.stdin is not None
    process.proc.stdin.close()
    try:
        assert process.proc.wait(timeout=DEADLINE_S) == 0
    finally:
        if process.proc.poll() is None:
            process.proc.kill()
            process.proc.wait()


def test_a_hub_position_no_game_reaches_is_refused() -> None:
    """A GUI's position enters as a FEN does: a white man on its crowning row is refused, a king there read."""
    board = HubBoard(find_dialect("normal"))
    crowned_man = "W" + "w" + "e" * 39 + "b" + "e" * 9   # hub square 1: a white man on White's crowning row
    with pytest.raises(HubError, match="White's crowning row"):
        board.parse_position(crowned_man)
    assert board.parse_position("W" + "W" + "e" * 39 + "b" + "e" * 9).kings
