"""Outside text made safe for a terminal and a log (`damka.engine.safe_text`), and the
places it is used: a serial device's start-up text (its HELLO, on a pty running the
real firmware) and a Hub engine's stderr (a real subprocess)."""

from __future__ import annotations

import logging
import re
import sys
import textwrap
from pathlib import Path

import pytest

from damka.engine.safe_text import MAX_CHARS, safe_text
from waiting import DEADLINE_S

# A set-title, a bell, a clear-screen and cursor home, a C1 CSI, a right-to-left override, a line break.
HOSTILE = "evil-fw \x1b]0;pwned\x07\x1b[2J\x1b[H\x9b31m\u202eabc\nINFO forged line"
# What must never reach a terminal or a log raw: C0 controls, DEL, C1 controls, bidi controls.
RAW_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def test_every_control_is_shown_not_obeyed() -> None:
    shown = safe_text(HOSTILE)
    assert RAW_CONTROL.search(shown) is None
    assert shown == "evil-fw \\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\x9b31m\\u202eabc\\nINFO forged line"


def test_letters_stay_and_a_backslash_is_doubled() -> None:
    assert safe_text("zażółć gęślą jaźń \u05e9\u05dc\u05d5\u05dd") == "zażółć gęślą jaźń \u05e9\u05dc\u05d5\u05dd"
    assert safe_text("C:\\x1b") == "C:\\\\x1b"   # not to be read as an escaped ESC
    assert safe_text("tab\there\r") == "tab\\there\\r"


def test_a_long_text_is_cut() -> None:
    shown = safe_text("x" * (MAX_CHARS + 50))
    assert shown == "x" * MAX_CHARS + "..."
    assert safe_text("\x1b" * 3, limit=2) == "\\x1b\\x1b..."


# -- a serial device's start-up text ---------------------------------------------------


def test_a_device_s_escapes_reach_neither_the_output_nor_the_log(capsys: pytest.CaptureFixture[str],
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("serial")
    from damka.cli import main as damka_main
    from damka.hardware.pty_device import PtyBoard

    caplog.set_level(logging.INFO)
    with PtyBoard(firmware_name=HOSTILE) as board:
        assert damka_main(["firmware", "check", "--port", board.port]) == 1   # not Damka's firmware
    out = capsys.readouterr().out
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert safe_text(HOSTILE) in out and safe_text(HOSTILE) in logged   # said, visibly
    assert RAW_CONTROL.search(out.rstrip("\n")) is None, out
    assert RAW_CONTROL.search(logged.replace("\n", " ")) is None, logged


# -- a Hub engine's stderr -------------------------------------------------------------

SHOUTS_AND_DIES = textwrap.dedent(f'''
    import sys
    sys.stderr.write({HOSTILE!r} + "\\n")
    sys.stderr.write("x" * 100000 + "\\n")   # one line far longer than a log line
    sys.exit(3)
''')


def test_an_engine_s_stderr_reaches_the_log_and_the_notice_made_safe(tmp_path: Path,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    from damka.controller.players.computer import ComputerOpponent
    from damka.controller.players.hub_opponent import HubOpponent
    from damka.engine import Game, find_variant

    script = tmp_path / "engine.py"
    script.write_text(SHOUTS_AND_DIES)
    variant = find_variant("classic")
    opponent = HubOpponent(variant, f"{sys.executable} {script}", name="Loud", time_per_move=0.05,
                           fallback=ComputerOpponent(variant, "casual", time_per_move=0.05))
    caplog.set_level(logging.INFO)
    game = Game(variant)
    try:
        opponent.start(game)
        assert opponent.wait(DEADLINE_S) in variant.legal_moves(game.position)   # Damka's own move came
        notices = opponent.take_notices()
    finally:
        opponent.close()
    assert len(notices) == 1 and "exit code 3" in notices[0], notices
    engine_lines = [record.getMessage() for record in caplog.records if "(stderr)" in record.getMessage()]
    first_line = HOSTILE.split("\n")[0]   # (a line break ends a line of a stream)
    assert any(safe_text(first_line) in line for line in engine_lines), engine_lines
    assert len(engine_lines) == 3 and len(engine_lines[2]) < 1000, [line[:80] for line in engine_lines]
    for text in (notices[0], *engine_lines):
        assert RAW_CONTROL.search(text) is None, text
