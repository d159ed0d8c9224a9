#!/usr/bin/env python3
"""Install Damka into ./.venv and run it, or run its tests. Standard library only.

    python3 bootstrap.py            # install, then start Damka (the simulator)
    python3 bootstrap.py run ARGS   # install, then `damka ARGS`
    python3 bootstrap.py test ARGS  # install with the test tools, then pytest ARGS

Works on a fresh Debian or Raspberry Pi OS with only Python 3.11+: where
Debian leaves out `ensurepip` (no python3-venv package), the virtual
environment is made without pip and pip is brought in from PyPI as a wheel.
Re-running is quick: the install is skipped while pyproject.toml is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("DAMKA_VENV", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
DEFAULT_RUN = ["sim"]

# pytest exits 5 when it collected no test: for us that is a broken suite,
# never a pass, and it must not look like an ordinary test failure (1) either.
NO_TESTS_EXIT = 5


def say(message: str) -> None:
    print(f"[bootstrap] {message}", file=sys.stderr, flush=True)


def ensure_venv() -> None:
    if PYTHON.exists():
        return
    say(f"creating a virtual environment in {VENV}")
    try:
        import ensurepip  # noqa: F401  (Debian strips it without python3-venv)

        venv.create(VENV, with_pip=True)
        return
    except ImportError:
        pass
    venv.create(VENV, with_pip=False)
    say("this Python has no ensurepip; fetching pip from PyPI")
    with urllib.request.urlopen("https://pypi.org/pypi/pip/json", timeout=60) as reply:
        release = json.load(reply)
    wheel = next(f for f in release["urls"] if f["filename"].endswith(".whl"))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / wheel["filename"]
        with urllib.request.urlopen(wheel["url"], timeout=120) as reply:
            path.write_bytes(reply.read())
        subprocess.run([str(PYTHON), f"{path}/pip", "install", "--quiet", str(path)], check=True)


def ensure_installed(extras: str) -> None:
    stamp = VENV / f".damka-installed-{extras}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    say(f"installing damka[{extras}] (editable) and its dependencies")
    subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f"{ROOT}[{extras}]"],
        check=True,
    )
    stamp.write_text(digest)


def main(argv: list[str]) -> int:
    command, args = (argv[0], argv[1:]) if argv else ("run", [])
    if command in ("-h", "--help"):
        print(__doc__)
        return 0
    if command not in ("run", "test"):
        print(f"bootstrap.py: unknown command {command!r} (use run or test)", file=sys.stderr)
        return 2
    ensure_venv()
    if command == "run":
        ensure_installed("sim,serial")
        return subprocess.call([str(BIN / "damka"), *(args or DEFAULT_RUN)])
    ensure_installed("dev")
    code = subprocess.call([str(PYTHON), "-m", "pytest", *args], cwd=ROOT)
    if code == NO_TESTS_EXIT:
        say("pytest collected no tests: the suite is broken, not green")
        return 3
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
