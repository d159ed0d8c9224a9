"""Network arguments shared by the commands that serve or wait on a port
(`--web PORT`, `--listen PORT`, `--port PORT`): checked when the command line
is read, so a wrong one is one clear line before anything starts or waits."""

from __future__ import annotations

import argparse


def port_number(text: str) -> int:
    """A TCP port, 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535)") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number: ports go from 0 to 65535")
    return port
