"""A private Mosquitto for tests and benchmarks: the project's config and ACL, generated accounts,
a free 127.0.0.1 port, its own folder (persistence included, so a stop and start keeps its data)."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

from damka.hall.accounts import RESERVED, make_accounts
from damka.hall.broker import BrokerSettings

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "mosquitto"
ACL = DEPLOY / "damka-hall.acl"
CONF = DEPLOY / "damka-hall.conf"


def mosquitto_binary() -> str | None:
    """The broker's program, or None (with mosquitto_passwd, both come in Debian's `mosquitto`)."""
    binary = shutil.which("mosquitto") or ("/usr/sbin/mosquitto" if Path("/usr/sbin/mosquitto").exists() else None)
    return binary if binary and shutil.which("mosquitto_passwd") else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Broker:
    """mosquitto -c <the project's conf, with this port and folder, and its ACL for the hall `hall`>;
    stop() and start() again keep its data."""

    def __init__(self, folder: Path, boards: list[str], hall: str = "h") -> None:
        self.binary = mosquitto_binary() or 'mosquitto'
        self.folder = folder
        self.port = free_port()
        names = [*RESERVED, *boards]
        self.passwords = make_accounts(folder / "passwd", names)
        conf = CONF.read_text()
        conf = conf.replace("/etc/mosquitto/damka-hall.passwd", str(folder / "passwd"))
        (folder / "damka-hall.acl").write_text(ACL.read_text().replace("damka/HALL/", f"damka/{hall}/"))
        conf = conf.replace("/etc/mosquitto/damka-hall.acl", str(folder / "damka-hall.acl"))
        conf = conf.replace("listener 1883", f"listener {self.port} 127.0.0.1")
        conf = conf.replace("/var/lib/mosquitto/", f"{folder}/")
        # (as root mosquitto would switch to the `mosquitto` user, who cannot read the test's folder)
        user = f"user {getpass.getuser()}\n"
        (folder / "mosquitto.conf").write_text(conf + f"\nlog_dest file {folder}/mosquitto.log\n" + user)
        self.process: subprocess.Popen | None = None

    def settings(self, user: str) -> BrokerSettings:
        return BrokerSettings("127.0.0.1", self.port, username=user, password=self.passwords.get(user, ""))

    def start(self) -> "Broker":
        self.process = subprocess.Popen([self.binary, "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    said = self.process.stderr.read().decode() if self.process.stderr else ""
                    raise RuntimeError(f"mosquitto exited: {said[-500:]}")
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None


