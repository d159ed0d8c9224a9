"""`damka dxp` on a real board: the serial backend, its microcontroller faked
on a pty (hardware/pty_device.PtyBoard, the firmware in a thread of this test),
the command in a process of its own, and this test as the DXP peer it calls.

Before, `damka dxp` on any backend but the simulator stopped right after the
handshake (its screen was built without the board loop's arguments), so the
person never saw a light. Every wait is on a condition with a generous deadline.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("serial")
if sys.platform == "win32":
    pytest.skip("ptys are POSIX only", allow_module_level=True)

from damka.dxp import protocol as dxp  # noqa: E402
from damka.dxp.link import DxpLink  # noqa: E402
from damka.hardware.pty_device import PtyBoard  # noqa: E402
from waiting import DEADLINE_S, wait_until  # noqa: E402


def peer_listening() -> tuple[list[DxpLink], int]:
    """A DXP peer waiting on a free port of this computer: its link (once the board called), the port."""
    links: list[DxpLink] = []
    bound: list[int] = []
    ready = threading.Event()
    threading.Thread(target=lambda: links.append(DxpLink.listen(0, timeout=DEADLINE_S, ready=ready, bound=bound)),
                     daemon=True).start()
    assert ready.wait(DEADLINE_S)
    return links, bound[0]


def next_request(link: DxpLink) -> dxp.GameRequest:
    while True:
        message = link.incoming.get(timeout=DEADLINE_S)
        if isinstance(message, dxp.GameRequest):
            return message


def ctrl_c_as_at_a_terminal() -> None:
    """Ctrl-C reaches the command as it does at a terminal: a test run started in the
    background by a script (bash ignores SIGINT in its & jobs) would otherwise hand the
    command SIGINT ignored, and Python keeps it so."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("video", ["dummy", "offscreen-none"])
def test_damka_dxp_on_the_serial_backend_starts_and_lights_the_board(tmp_path: Path, video: str) -> None:
    """The board calls the peer, the game is agreed, and the board's LEDs show
    the game (whether or not a screen can be opened); the command is still
    running until it is stopped, and stops cleanly."""
    links, port = peer_listening()
    with PtyBoard() as board:
        config = tmp_path / "board.toml"
        config.write_text(f'[board]\nbackend = "serial"\n[serial]\nport = "{board.port}"\n')
        env = {**os.environ, "HOME": str(tmp_path), "SDL_AUDIODRIVER": "dummy",
               "XDG_CONFIG_HOME": str(tmp_path / ".config")}
        env.pop("DISPLAY", None)
        if video == "dummy":
            env["SDL_VIDEODRIVER"] = "dummy"    # a screen opens (pygame's dummy display)
        else:
            env["SDL_VIDEODRIVER"] = "none"     # no screen: the board goes on without one
        log = (tmp_path / "stderr.log").open("w")
        proc = subprocess.Popen([sys.executable, "-m", "damka", "dxp", "--connect", f"127.0.0.1:{port}",
                                 "--config", str(config), "--seconds", str(3 * DEADLINE_S),
                                 "--db", str(tmp_path / "games.db")],
                                cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=log,
                                preexec_fn=ctrl_c_as_at_a_terminal)
        try:
            wait_until(lambda: links, "the board to call the peer")
            peer = links[0]
            request = next_request(peer)
            assert request.follower_colour == "Z"      # the person at the board plays white: the peer black
            peer.send(dxp.GameAccept("Peer", 0))

            def lit() -> bool:
                assert proc.poll() is None, f"damka dxp stopped ({proc.returncode}): " \
                    + (tmp_path / "stderr.log").read_text()[-2000:]
                return board.pixels.writes > 0 and any(any(rgb) for rgb in board.pixels.shown)

            wait_until(lit, "the board's LEDs to show the DXP game")
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
            proc.wait(DEADLINE_S)
            log.close()
    errors = (tmp_path / "stderr.log").read_text()
    assert "Traceback" not in errors, errors
