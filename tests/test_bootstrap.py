"""bootstrap.py on a Python without `ensurepip` (Debian without python3.X-venv).

bootstrap.py runs in a subprocess exactly as a user starts it, with `ensurepip`
made unimportable (None in sys.modules, as Python's own import system does for
a blocked module) and the virtual environment pointed into tmp_path.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"
NO_ENSUREPIP = ("import runpy, sys; sys.modules['ensurepip'] = None; "
                "sys.argv = [sys.argv[1], *sys.argv[2:]]; runpy.run_path(sys.argv[0], run_name='__main__')")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="apt and POSIX users")


def run_bootstrap(tmp_path: Path, *args: str, path: str, user: int | None = None, timeout: float = 120,
                  script: Path = ROOT / "bootstrap.py", python: str = sys.executable) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": path, "DAMKA_VENV": str(tmp_path / "venv"), "HOME": str(tmp_path)}
    return subprocess.run([python, "-c", NO_ENSUREPIP, str(script), *args],
                          env=env, user=user, capture_output=True, text=True, timeout=timeout, cwd=tmp_path)


def python_for(user: int) -> str:
    """A Python 3.11+ that `user` may run: this one, or the system's (root's own may sit in /root)."""
    for candidate in (sys.executable, getattr(sys, "_base_executable", ""), "/usr/bin/python3"):
        try:
            runs = subprocess.run([candidate, "-c", "import sys; assert sys.version_info >= (3, 11)"],
                                  user=user, capture_output=True).returncode == 0
        except OSError:  # not even reachable for that user
            runs = False
        if candidate and runs:
            return candidate
    pytest.skip(f"no Python 3.11+ that user {user} may run (the interpreters here are root's alone)")


def fake_apt(folder: Path, log: Path, install_exit: int = 0) -> None:
    """An apt-get that records its arguments: the real one must not change this machine."""
    folder.mkdir()
    script = folder / "apt-get"
    script.write_text(f"#!/bin/sh\necho \"$*\" >> {log}\n"
                      f"if [ \"$1\" = install ]; then exit {install_exit}; fi\nexit 0\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def test_without_apt_it_names_the_one_command_and_exits_2(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    done = run_bootstrap(tmp_path, "test", path=str(empty))
    assert done.returncode == 2, done.stderr
    assert f"sudo apt install {PACKAGE}" in done.stderr
    assert not (tmp_path / "venv").exists()  # nothing half-made left behind


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to become another user")
def test_a_user_who_is_not_root_is_told_the_command_not_asked_for_a_password() -> None:
    home = Path(tempfile.mkdtemp(prefix="damka-bootstrap-"))  # pytest's tmp_path is root's alone
    try:
        home.chmod(0o777)
        log = home / "apt.log"
        fake_apt(home / "bin", log)
        # The user may not enter root's checkout (a fresh clone can sit in a 0700
        # folder): the script and the system's Python are what that user runs.
        script = home / "bootstrap.py"
        shutil.copy(ROOT / "bootstrap.py", script)
        script.chmod(0o644)
        done = run_bootstrap(home, "run", path=f"{home / 'bin'}:{os.environ['PATH']}", user=65534,  # nobody
                             script=script, python=python_for(65534))
        assert done.returncode == 2, done.stderr
        assert f"sudo apt install {PACKAGE}" in done.stderr
        assert not log.exists()  # apt-get was never run
        assert not (home / "venv").exists()
    finally:
        shutil.rmtree(home)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="root only")
def test_as_root_it_installs_the_venv_package_with_apt_and_goes_on(tmp_path: Path) -> None:
    # Only the venv step (the install after it is the rest of bootstrap); the venv
    # is real: the fake apt-get cannot add ensurepip, the new venv's Python has it.
    log = tmp_path / "apt.log"
    fake_apt(tmp_path / "bin", log)
    script = ("import runpy, sys; sys.modules['ensurepip'] = None; "
              "ns = runpy.run_path(sys.argv[1]); sys.exit(ns['ensure_venv']())")
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}", "DAMKA_VENV": str(tmp_path / "venv")}
    done = subprocess.run([sys.executable, "-c", script, str(ROOT / "bootstrap.py")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert log.read_text().splitlines() == ["update", f"install -y {PACKAGE}"]
    pip = subprocess.run([str(tmp_path / "venv" / "bin" / "python"), "-m", "pip", "--version"],
                         capture_output=True, text=True)
    assert pip.returncode == 0 and pip.stdout.startswith("pip ")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="root only")
def test_as_root_a_failed_apt_install_is_one_clear_message_and_exit_2(tmp_path: Path) -> None:
    log = tmp_path / "apt.log"
    fake_apt(tmp_path / "bin", log, install_exit=100)
    done = run_bootstrap(tmp_path, "test", path=f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    assert done.returncode == 2, done.stderr
    assert f"install -y {PACKAGE}" in log.read_text()
    assert f"install {PACKAGE} by hand" in done.stderr
    assert not (tmp_path / "venv").exists()


def test_bootstrap_fetches_nothing_by_url() -> None:
    source = (ROOT / "bootstrap.py").read_text(encoding="utf-8")
    assert "urllib" not in source and "http://" not in source and "https://" not in source
