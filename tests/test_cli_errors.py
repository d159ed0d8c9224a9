"""Bad input to every `damka` command, through the real entry point: exit 2,
ONE line on stderr naming what was wrong (and the file, when a file was), never
a usage block or a traceback; nothing made or left behind.

The table runs through `damka.cli.main` (what the console script calls) in
this process, so it stays cheap to grow; a case per command also runs as a
person runs it, the console script `damka` in its own process.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from damka.cli import main
from damka.controller.board.eventlog import MAX_LINE_BYTES, MAX_LOG_BYTES, EventLogError, read_log

HUGE = "99999999999999999999"

# (id, argv with {placeholders}, what the one line must contain). Placeholders:
# {dir} a folder, {missing} a path that does not exist, {latin1} a non-UTF-8
# file, {log} a good sensor log, {db} a game database with game 1,
# {damaged} a database SQLite finds damaged (a multi-line report), {tmp}.
CASES: list[tuple[str, list[str], str]] = [
    ("no-command", [], "damka: error: a command is needed"),
    ("unknown-command", ["bogus"], "invalid choice: 'bogus'"),
    # perft
    ("perft-nothing", ["perft"], "damka perft: error: the following arguments are required: VARIANT, DEPTH"),
    ("perft-no-depth", ["perft", "classic"], "required: DEPTH"),
    ("perft-word", ["perft", "classic", "abc"], "DEPTH must be a whole number"),
    ("perft-huge", ["perft", "classic", HUGE], "DEPTH must be at most 15"),
    ("perft-deep", ["perft", "classic", "16"], "hours"),
    ("perft-unicode-digit", ["perft", "classic", "\u0663"], "DEPTH must be a whole number"),
    ("perft-variant", ["perft", "chess", "2"], "known: multiwarcaby"),
    ("perft-unknown-flag", ["perft", "classic", "2", "--bogus"], "damka perft: error: unrecognized arguments: --bogus"),
    ("perft-huge-option", ["perft", "multiwarcaby", "1", "--sides", HUGE], "sides"),
    ("perft-fen", ["perft", "classic", "2", "--fen", "W:Wz9:B"], "damka perft: error:"),
    ("perft-fen-newline", ["perft", "classic", "2", "--fen", "W:Wz9\n\nB:B"], "damka perft: error:"),
    # moves
    ("moves-nothing", ["moves"], "required: VARIANT"),
    ("moves-variant", ["moves", "chess"], "known: multiwarcaby"),
    # games
    ("games-dir", ["games", "--db", "{dir}"], "{dir}"),
    ("games-damaged", ["games", "--db", "{damaged}"], "{damaged}: damaged game database"),
    ("games-latin1", ["games", "--db", "{latin1}"], "{latin1}"),
    # export
    ("export-nothing", ["export"], "required: GAME"),
    ("export-huge", ["export", HUGE, "--db", "{db}"], f"there is no game {HUGE}"),
    ("export-word", ["export", "abc", "--db", "{db}"], "GAME must be a game id"),
    ("export-superscript", ["export", "\u00b2", "--db", "{db}"], "GAME must be a game id"),
    ("export-missing-db", ["export", "1", "--db", "{missing}"], "{missing}"),
    ("export-damaged", ["export", "1", "--db", "{damaged}"], "{damaged}: damaged game database"),
    # import (reading the PDN itself is bounded elsewhere; here its arguments)
    ("import-ply-word", ["import", "{missing}", "--ply", "abc"], "argument --ply"),
    ("import-dir", ["import", "{dir}"], "{dir}"),
    ("import-missing", ["import", "{missing}"], "{missing}"),
    ("import-latin1", ["import", "{latin1}"], "{latin1}, game 1 (line 1) is not stored"),  # read as Latin-1
    # sim
    ("sim-screenshot-dir", ["sim", "--headless", "--script", "{log}", "--screenshot", "{dir}"], "is a folder"),
    ("sim-screenshot-no-folder", ["sim", "--headless", "--script", "{log}", "--screenshot", "{tmp}/new/x.png"],
     "no folder {tmp}/new"),
    ("sim-screenshot-txt", ["sim", "--headless", "--script", "{log}", "--screenshot", "{tmp}/x.txt"], ".png"),
    ("sim-script-zero", ["sim", "--headless", "--script", "/dev/zero", "--screenshot", "{tmp}/a.png"], "/dev/zero"),
    ("sim-script-latin1", ["sim", "--headless", "--script", "{latin1}", "--screenshot", "{tmp}/a.png"],
     "{latin1}: line 2: not UTF-8"),
    ("sim-script-dir", ["sim", "--headless", "--script", "{dir}", "--screenshot", "{tmp}/a.png"], "{dir}"),
    ("sim-script-missing", ["sim", "--headless", "--script", "{missing}", "--screenshot", "{tmp}/a.png"],
     "{missing}"),
    ("sim-headless-alone", ["sim", "--headless"], "--headless needs --script"),
    ("sim-script-no-headless", ["sim", "--script", "{log}"], "--headless"),
    ("sim-sides-classic", ["sim", "--sides", "3", "--variant", "classic"], "classic is a game for two"),
    ("sim-sides-word", ["sim", "--sides", "abc", "--variant", "multiwarcaby"], "--sides must be 2, 3, 4 or teams"),
    ("sim-variant", ["sim", "--variant", "chess"], "known: multiwarcaby"),
    ("sim-mode", ["sim", "--mode", "bogus"], "argument --mode: invalid choice"),
    ("sim-time-control", ["sim", "--variant", "classic", "--time-control", "zzz"], "zzz"),
    # run
    ("run-variant", ["run", "--variant", "chess"], "known: multiwarcaby"),
    ("run-sides-classic", ["run", "--sides", "4", "--variant", "classic"], "classic is a game for two"),
    ("run-config-dir", ["run", "--config", "{dir}"], "{dir}"),
    ("run-config-zero", ["run", "--config", "/dev/zero"], "/dev/zero"),
    ("run-config-latin1", ["run", "--config", "{latin1}"], "{latin1}"),
    ("run-config-missing", ["run", "--config", "{missing}"], "{missing}"),
    # doctor
    ("doctor-seconds-negative", ["doctor", "--mock", "--seconds", "-1"], "--seconds"),
    ("doctor-seconds-word", ["doctor", "--seconds", "abc"], "argument --seconds"),
    ("doctor-config-zero", ["doctor", "--config", "/dev/zero"], "/dev/zero"),
    # replay
    ("replay-nothing", ["replay"], "required: VARIANT, LOG"),
    ("replay-zero", ["replay", "classic", "/dev/zero"], "/dev/zero: a character device, not a regular file"),
    ("replay-latin1", ["replay", "classic", "{latin1}"], "{latin1}: line 2: not UTF-8"),
    ("replay-dir", ["replay", "classic", "{dir}"], "{dir}"),
    ("replay-missing", ["replay", "classic", "{missing}"], "{missing}"),
    ("replay-variant", ["replay", "chess", "{log}"], "known: multiwarcaby"),
    ("replay-until-negative", ["replay", "classic", "{log}", "--time-control", "5+3", "--until", "-5"],
     "--until must be at least 0"),
    ("replay-until-word", ["replay", "classic", "{log}", "--until", "abc"], "--until must be a whole number"),
    ("replay-huge-time", ["replay", "classic", "{hugetime}"], "{hugetime}: line 1: time"),
    ("replay-computer", ["replay", "classic", "{log}", "--mode", "computer", "--computer", HUGE], "--computer"),
    ("replay-pdn-dir", ["replay", "classic", "{log}", "--pdn", "{dir}"], "{dir}: a directory, not a regular file"),
    ("replay-pdn-device", ["replay", "classic", "{log}", "--pdn", "/dev/full"], "/dev/full: a character device, not a regular file"),
]


def damka_command() -> list[str]:
    """The console script the package installs (what a person runs), else `python -m damka`."""
    script = Path(sys.executable).with_name("damka")
    return [str(script)] if script.exists() else [sys.executable, "-m", "damka"]


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("bad-input")
    (tmp / "folder").mkdir()
    (tmp / "latin1.txt").write_bytes("0 up c3\n100 down d4 # d\u00e9j\u00e0\n".encode("latin-1"))
    (tmp / "game.log").write_text("0 up c3\n150 down d4\n")
    (tmp / "hugetime.log").write_text(f"{HUGE}{HUGE} up c3\n")
    db = tmp / "games.db"
    damaged = tmp / "damaged.db"
    _store_a_game(db)
    _damage(db, damaged)
    return {"dir": str(tmp / "folder"), "missing": str(tmp / "no-such-file"), "latin1": str(tmp / "latin1.txt"),
            "log": str(tmp / "game.log"), "hugetime": str(tmp / "hugetime.log"), "db": str(db),
            "damaged": str(damaged), "tmp": str(tmp)}


def _store_a_game(db: Path) -> None:
    from damka.controller.store.store import Store
    from damka.engine import Game, find_variant

    variant = find_variant("classic")
    game = Game(variant)
    with Store(db) as store:
        for _ in range(3):
            gid = store.new_game(variant, players=["Ala", "Ola"])
            for _ in range(12):
                game.push(game.legal_moves()[0])
                store.record_move(gid, game)
            game = Game(variant)


def _damage(db: Path, damaged: Path) -> None:
    """A copy with a table page overwritten: SQLite's integrity report runs over several lines."""
    shutil.copy(db, damaged)
    size = damaged.stat().st_size
    with open(damaged, "r+b") as handle:
        handle.seek(size // 2)
        handle.write(b"\x00x\xffgarbage" * 300)


def check_one_line(code: int, out: str, err: str, expected: str) -> None:
    assert "Traceback" not in err, err
    assert code == 2, (code, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("damka"), lines[0]
    assert expected in lines[0]


@pytest.fixture
def at_home(places: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """No board config, no game database but the test's own; the window has no display."""
    home = places["tmp"]
    monkeypatch.chdir(home)
    monkeypatch.setenv("DAMKA_HOME", home)
    monkeypatch.setenv("HOME", home)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    return places


@pytest.mark.parametrize(("name", "argv", "expected"), CASES, ids=[case[0] for case in CASES])
def test_bad_input_is_one_line_and_exit_2(at_home: dict[str, str], capsys: pytest.CaptureFixture[str],
                                          name: str, argv: list[str], expected: str) -> None:
    """`main`, the function the console script calls, in this process: the whole table is quick."""
    code = main([arg.format(**at_home) for arg in argv])  # a traceback would fail the test here
    out, err = capsys.readouterr()
    check_one_line(code, out, err, expected.format(**at_home))


# A case per command, as a person runs them: the console script in its own process.
REAL = ("no-command", "perft-huge", "import-ply-word", "export-damaged", "sim-screenshot-dir", "run-config-zero",
        "doctor-seconds-word", "replay-zero", "replay-latin1")


def test_the_console_script_says_the_same(places: dict[str, str]) -> None:
    home = places["tmp"]
    env = {**os.environ, "DAMKA_HOME": home, "HOME": home}
    env.pop("DISPLAY", None)
    cases = [case for case in CASES if case[0] in REAL]
    assert len(cases) == len(REAL)

    def run(argv: list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*damka_command(), *(arg.format(**places) for arg in argv)], capture_output=True,
                              text=True, env=env, cwd=home, timeout=60, stdin=subprocess.DEVNULL)

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, [argv for _, argv, _ in cases]))
    for (name, _, expected), result in zip(cases, results):
        check_one_line(result.returncode, result.stdout, result.stderr, expected.format(**places))


def test_replay_from_an_endless_stdin_stops_at_once(at_home: dict[str, str], capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with open("/dev/zero", "rb") as zero:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(zero))
        code = main(["replay", "classic", "-"])
    out, err = capsys.readouterr()
    check_one_line(code, out, err, "<stdin>: line 1: longer than")


def test_nothing_is_made_by_a_refused_screenshot(at_home: dict[str, str], capsys: pytest.CaptureFixture) -> None:
    for name, argv, _ in CASES:
        if name.startswith("sim-"):
            assert main([arg.format(**at_home) for arg in argv]) == 2
    tmp = Path(at_home["tmp"])
    assert not (tmp / "new").exists()       # the missing folder was not made
    assert not (tmp / "x.txt").exists()     # no TGA under a .txt name
    assert not (tmp / "a.png").exists()     # nothing saved when the script was refused


def test_screenshot_format_follows_the_name(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text("0 up c3\n150 down d4\n")
    shots = {suffix: tmp_path / f"board{suffix}" for suffix in (".png", ".BMP")}
    for shot in shots.values():
        result = subprocess.run([*damka_command(), "sim", "--headless", "--script", str(log), "--screenshot",
                                 str(shot), "--variant", "classic", "--no-store"],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
    assert shots[".png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shots[".BMP"].read_bytes()[:2] == b"BM"


def help_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as info:
        main([*argv, "--help"])
    out, err = capsys.readouterr()
    assert info.value.code == 0 and err == "", err
    return out


def test_every_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse %-formats help= strings but not descriptions: a stray '%%' (or a
    lone '%', a traceback) shows up here, for every command."""
    from damka.cli import COMMAND_MODULES

    for name in ("", *(module.rstrip("_") for module in COMMAND_MODULES)):
        text = help_text(capsys, *([name] if name else []))
        assert "%%" not in text and "%(" not in text, name
    assert "{[%clock ...]}" in help_text(capsys, "export")


def test_perft_help_says_why_depth_is_bounded(capsys: pytest.CaptureFixture[str]) -> None:
    text = " ".join(help_text(capsys, "perft").split())
    assert "1 to 15" in text and "about 9 hours" in text


# -- the sensor log reader's bounds -------------------------------------------


def test_a_log_line_too_long_is_refused_at_once(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    log.write_bytes(b"0 up c3\n" + b"1" * (MAX_LINE_BYTES + 10) + b" up c3\n")
    with pytest.raises(EventLogError, match=rf"^{log}: line 2: longer than {MAX_LINE_BYTES} bytes"):
        read_log(str(log))


def test_a_log_too_large_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    line = b"# a comment line, many times over\n"
    log.write_bytes(line * (MAX_LOG_BYTES // len(line) + 2))
    with pytest.raises(EventLogError, match=rf"^{log}: larger than 8 MB"):
        read_log(str(log))


def test_a_log_at_the_bounds_is_read(tmp_path: Path) -> None:
    log = tmp_path / "edge.log"
    comment = b"0 up c3 #" + b"x" * (MAX_LINE_BYTES - len(b"0 up c3 #") - 1) + b"\n"
    assert len(comment) == MAX_LINE_BYTES
    log.write_bytes(b"\xef\xbb\xbf" + b"0 down d4\n" + comment)  # a BOM, then a line just at the bound
    events = read_log(str(log))
    assert [str(event) for event in events] == ["0 down d4", "0 up c3"]


@pytest.mark.parametrize(("line", "message"), [
    ("\u00b2 up c3", "line 1: time '\u00b2' is not a whole number"),
    ("1000000000000 up c3", "line 1: time 1000000000000 is past"),
    ("0 press \u00b2", "line 1: '\u00b2' is not a side"),
])
def test_log_numbers_are_ascii_and_bounded(tmp_path: Path, line: str, message: str) -> None:
    log = tmp_path / "odd.log"
    log.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(EventLogError) as info:
        read_log(str(log))
    assert str(info.value) == f"{log}: {message}" or str(info.value).startswith(f"{log}: {message}")
