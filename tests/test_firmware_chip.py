"""The firmware on an emulated RP2040 (benchmarks/pico_chip.py): MicroPython's
own rp2 build boots `firmware/` from littlefs and a host talks to it over the
emulated USB, the hands close reed switches, turn the encoder and read the
WS2812 line. These run only where the chip's pieces are (a MicroPython
checkout with its rp2 and unix ports built, the bootrom, rp2040js from npm:
docs/wiring.md, "The firmware on an emulated chip"); elsewhere, CI included,
they are skipped with the reason shown.

    DAMKA_MICROPYTHON=... DAMKA_PICO_BOOTROM=... python -m pytest -m chip tests/test_firmware_chip.py

The figures and their targets are the benchmark's job; these check what a
board's user would notice at once: it answers, it sees the pieces, it lights
what the host sends, line noise does not stop it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import pico_chip  # noqa: E402

from damka.firmware import protocol as P  # noqa: E402

PIECES = pico_chip.Pieces.find(None, None)
MISSING = PIECES.missing()
pytestmark = [pytest.mark.chip, pytest.mark.skipif(MISSING is not None, reason=f"no emulated Pico here: {MISSING}")]


@pytest.fixture(scope="module")
def fs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("chip") / "littlefs.img"
    names = pico_chip.make_fs(PIECES, ROOT / "firmware", out)
    assert "main.py" in names and "device.mpy" in names
    return out


@pytest.fixture(scope="module")
def chip(fs: Path) -> Iterator[pico_chip.Chip]:
    """One board from reset, connected: shared by the checks below, in order."""
    board = pico_chip.Chip(PIECES, fs)
    try:
        yield board
    finally:
        board.close()


def test_it_says_hello_soon_after_reset(chip: pico_chip.Chip) -> None:
    hello = chip.connect()
    assert hello is not None, bytes(chip.raw)[-200:]
    assert hello < 250_000  # µs of simulated time
    version, rows, cols, _buttons, text = P.unpack_hello(chip.of_type(P.HELLO)[0].body)
    assert (version, rows, cols) == (P.PROTOCOL_VERSION, 9, 9)
    assert text.startswith("damka-fw ")


@pytest.mark.parametrize("pieces", [1, 3, 24])
def test_the_pieces_put_down_are_the_pieces_reported(chip: pico_chip.Chip, pieces: int) -> None:
    assert pico_chip.occupancy(chip, pico_chip.Timeline(chip), pieces)


def test_every_lifted_and_placed_piece_is_reported(chip: pico_chip.Chip) -> None:
    latencies, missed = pico_chip.reed_latencies(chip, pico_chip.Timeline(chip), 6, 200, seed=3)
    assert missed == 0 and len(latencies) == 6
    assert max(latencies) < 100  # ms: at once for a player, whatever the firmware's pace


def test_the_encoder_turned_slowly_counts_every_detent(chip: pico_chip.Chip) -> None:
    assert pico_chip.detents(chip, pico_chip.Timeline(chip), 10, 5) == 10


def test_a_leds_frame_is_acknowledged_and_lit(chip: pico_chip.Chip) -> None:
    show = pico_chip.LedShow()
    tl = pico_chip.Timeline(chip)
    show.send(chip)
    seq = chip.sent[-1][2]
    tl.after(300)
    assert any(P.unpack_ack(f.body) == (seq, P.LEDS) for f in chip.of_type(P.ACK))
    assert len(show.latencies(chip)) == 1  # the chain showed the frame's marker colour on LED 0
    assert all(w.latches == 0 for w in chip.writes[-1:])


def test_a_frame_with_a_bad_crc_is_reported_and_the_next_is_taken(chip: pico_chip.Chip) -> None:
    errors, acked, n = pico_chip.bad_crc(chip, pico_chip.Timeline(chip), pico_chip.LedShow(), 2)
    assert errors >= 1 and acked == n
    assert chip.tracebacks() == 0


@pytest.mark.parametrize("byte", [b"\x03", b"\x04"], ids=["ctrl-c", "ctrl-d"])
def test_a_control_byte_while_it_boots_does_not_stop_it(fs: Path, byte: bytes) -> None:
    ok, tracebacks = pico_chip.boot_byte(PIECES, fs, byte)
    assert ok and tracebacks == 0
