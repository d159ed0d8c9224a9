"""`damka firmware install|check|stamp`: the Pico's firmware, the way
MicroPython users handle it.

`install` precompiles the firmware with mpy-cross and copies it with mpremote
(hold MENU while plugging the board in: a running firmware ignores Ctrl-C, so
mpremote cannot reach the REPL). `check` asks the running board for its HELLO
and says whether it runs this host's copy. `stamp` is for whoever changed the
firmware: it writes the content hash into firmware/fw_version.py and the copy
list into docs/wiring.md.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from damka.hardware import pico_firmware as fw

CHECK_TIMEOUT_S = 3.0


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("firmware",
                                   description=__doc__.split("\n\n")[1])
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser("install", help="precompile the firmware and copy it onto the Pico (mpremote)")
    install.add_argument("--port", metavar="DEV", help="the Pico's serial port (default: mpremote finds it)")
    install.set_defaults(func=run_install)
    check = actions.add_parser("check", help="ask the running board which firmware it has")
    check.add_argument("--port", metavar="DEV", help="the Pico's serial port (default: the first Pico plugged in)")
    check.add_argument("--timeout", type=float, default=CHECK_TIMEOUT_S, metavar="S",
                       help=f"how long to wait for the board's answer (default {CHECK_TIMEOUT_S:g} s)")
    check.set_defaults(func=run_check)
    stamp = actions.add_parser("stamp", help="write the firmware's content hash and the docs' copy list (developers)")
    stamp.set_defaults(func=run_stamp)


def run_install(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="damka-firmware-") as out:
        try:
            command = fw.install(Path(out), args.port)
        except fw.FirmwareError as exc:
            raise ValueError(str(exc)) from None
        copied = [Path(part).name for part in command if part.startswith(out)]
    print(f"installed {fw.package_name()} on the Pico: {', '.join(copied)}")
    print("it restarts now; `damka firmware check` asks it which firmware it runs")
    return 0


def run_check(args: argparse.Namespace) -> int:
    from damka.hardware.serial_link import SerialLink

    link = SerialLink(args.port)
    try:
        link.start()
        if not link.wait_synced(args.timeout):
            why = f" ({link.last_problem})" if link.last_problem else ""
            raise ValueError(f"the board did not answer in {args.timeout:g} s{why}: is it plugged in, "
                             "and not in the REPL (MENU held at power-up)?")
        deadline = time.monotonic() + args.timeout
        while link.device is None and time.monotonic() < deadline:
            time.sleep(0.01)  # the HELLO comes just before the first SNAPSHOT
        if link.device is None:
            raise ValueError("the board sends snapshots but never said HELLO: is it Damka's firmware?")
        text = link.device[4]
    finally:
        link.close()
    problem = fw.mismatch(text)
    if problem:
        print(f"different: {problem}")
        return 1
    print(f"the same: the board runs {text}, this host's own copy")
    return 0


def run_stamp(_args: argparse.Namespace) -> int:
    docs = fw.FIRMWARE_DIR.parent / "docs" / "wiring.md"
    changed = fw.stamp(docs=docs if docs.exists() else None)
    print("\n".join(f"wrote {path}" for path in changed) or "up to date")
    return 0
