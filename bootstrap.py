#!/usr/bin/env python3
"""Install Damka into ./.venv and run it, or run its tests. Standard library only.

    python3 bootstrap.py            # install, then start Damka (the simulator)
    python3 bootstrap.py run ARGS   # install, then `damka ARGS`
    python3 bootstrap.py test ARGS  # install with the test tools, then pytest ARGS
                                    # (no ARGS: the whole suite, one worker a core, up to 4)

Works on a fresh Debian or Raspberry Pi OS with only Python 3.11+. Where
Debian leaves out `ensurepip` (the python3.X-venv package is not installed),
root gets it installed with apt-get; anyone else is told the one command to
run and the exit code is 2. Nothing is downloaded by URL: packages come
through apt and pip only. Re-running is quick: the install is skipped while
pyproject.toml, setup.py and the set of package folders are unchanged.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
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


def whole_suite_args() -> list[str]:
    """The whole suite in pytest-xdist workers, one a core (at most 4: the browser
    and broker tests each start their own programs). Two cores finish in about
    two thirds of the time, and a loaded machine gives the tests a fairer share."""
    return ["-n", str(min(4, os.cpu_count() or 1))]


def say(message: str) -> None:
    print(f"[bootstrap] {message}", file=sys.stderr, flush=True)


def venv_package() -> str:
    """Debian's package holding `ensurepip` for the running Python (python3-venv
    only pulls in the one for Debian's default python3, which may be another)."""
    return f"python{sys.version_info.major}.{sys.version_info.minor}-venv"


def has_ensurepip() -> bool:
    try:
        import ensurepip  # noqa: F401  (Debian strips it without python3.X-venv)
    except ImportError:
        return False
    return True


def install_ensurepip() -> int:
    """Bring in `ensurepip` through apt as root; else say the command. 0 when it is there."""
    package = venv_package()
    apt = shutil.which("apt-get")
    if apt is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        say(f"this Python has no ensurepip, which the virtual environment needs; run\n\n"
            f"    sudo apt install {package}\n\nthen this command again")
        return 2
    say(f"this Python has no ensurepip: installing {package} with apt-get")
    for command in ([apt, "update"], [apt, "install", "-y", package]):
        if subprocess.call(command) != 0:
            say(f"`{' '.join(command)}` failed: install {package} by hand, then run this again")
            return 2
    return 0


def ensure_venv() -> int:
    """Make the virtual environment with pip in it; 0, or the exit code of the failure."""
    if PYTHON.exists() and any(BIN.glob("pip*")):
        return 0
    if not has_ensurepip():
        code = install_ensurepip()
        if code:
            return code
    say(f"creating a virtual environment in {VENV}")
    venv.create(VENV, with_pip=True, clear=PYTHON.exists())  # clear: a half-made one from before
    return 0


def install_digest() -> str:
    """What an editable install depends on: the project files and which
    top-level folders are packages (setup.py maps each to `damka.<folder>`)."""
    digest = hashlib.sha256()
    for name in ("pyproject.toml", "setup.py"):
        digest.update((ROOT / name).read_bytes())
    digest.update(" ".join(sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))).encode())
    return digest.hexdigest()


def ensure_installed(extras: str) -> None:
    stamp = VENV / f".damka-installed-{extras}"
    digest = install_digest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    say(f"installing damka[{extras}] (editable) and its dependencies")
    subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f"{ROOT}[{extras}]"],
        check=True,
    )
    stamp.write_text(digest)


# Debian programs some tests use, by the command they provide: Chromium drives the
# web page's browser tests, espeak-ng is the board's voice.
TEST_PROGRAMS = {"chromium": "chromium", "espeak-ng": "espeak-ng", "mosquitto": "mosquitto"}


def ensure_test_programs() -> None:
    """As root, apt-get the test programs that are missing (CI on a fresh
    machine); anyone else is told the command (those tests then skip, saying so)."""
    missing = sorted({package for command, package in TEST_PROGRAMS.items() if shutil.which(command) is None})
    if not missing:
        return
    apt = shutil.which("apt-get")
    if apt is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        say(f"missing {', '.join(missing)}: some tests will skip; install with  sudo apt install {' '.join(missing)}")
        return
    say(f"installing {', '.join(missing)} with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.call([apt, "update", "-qq"], env=env) != 0 or \
            subprocess.call([apt, "install", "-y", "-qq", *missing], env=env) != 0:
        say(f"apt-get could not install {', '.join(missing)}: some tests will skip")


def main(argv: list[str]) -> int:
    command, args = (argv[0], argv[1:]) if argv else ("run", [])
    if command in ("-h", "--help"):
        print(__doc__)
        return 0
    if command not in ("run", "test"):
        print(f"bootstrap.py: unknown command {command!r} (use run or test)", file=sys.stderr)
        return 2
    code = ensure_venv()
    if code:
        return code
    if command == "run":
        ensure_installed("sim,serial")
        return subprocess.call([str(BIN / "damka"), *(args or DEFAULT_RUN)])
    ensure_installed("dev")
    ensure_test_programs()
    code = subprocess.call([str(PYTHON), "-m", "pytest", *(args or whole_suite_args())], cwd=ROOT)
    if code == NO_TESTS_EXIT:
        say("pytest collected no tests: the suite is broken, not green")
        return 3
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
