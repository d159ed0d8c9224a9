"""Make the broker's accounts: one per board, the hall, the arbiter and a spectator (deploy/mosquitto/README.md).

`make_accounts(passwd, names)` gives each name a random password, writes the
file with `mosquitto_passwd -U` (salted hashes only) and returns the
passwords, which are printed once and never logged.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

RESERVED = ("arbiter", "spectator", "hall")


def make_accounts(passwd: Path, names: list[str], passwords: dict[str, str] | None = None) -> dict[str, str]:
    """Write `passwd` for `names` (hall, arbiter and spectator included if asked); name -> password."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise RuntimeError("mosquitto_passwd not found: install mosquitto (apt install mosquitto)")
    chosen = {name: (passwords or {}).get(name) or secrets.token_urlsafe(18) for name in names}
    passwd = Path(passwd)
    fd = os.open(passwd, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.writelines(f"{name}:{password}\n" for name, password in chosen.items())
    subprocess.run([tool, "-U", str(passwd)], check=True, capture_output=True)  # plain text -> hashes in place
    return chosen


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(f"usage: {sys.executable} -m damka.hall.accounts PASSWD-FILE NAME...", file=sys.stderr)
        return 2
    names = list(dict.fromkeys([*RESERVED, *argv[1:]]))
    for name, password in make_accounts(Path(argv[0]), names).items():
        print(f"{name}\t{password}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
