"""The Pico firmware on an emulated RP2040: boots MicroPython's rp2 firmware
with `firmware/` on its littlefs, drives the reed matrix, the buttons and the
encoder from simulated time, decodes the WS2812 line and the USB stream (with
the project's own protocol module) and prints what a board would show.

    python benchmarks/pico_chip.py --micropython CHECKOUT --bootrom BOOTROM
        [--firmware DIR] [--minutes N] [--source] [--json OUT]

CHECKOUT is a MicroPython checkout (v1.28.0 here) with its rp2 port built for
RPI_PICO (ports/rp2/build-RPI_PICO/firmware.bin), its unix port built (it
writes the littlefs image) and mpy-cross; BOOTROM is the RP2040 B1 bootrom as
rp2040js's demo/bootrom.ts holds it. `--firmware` is the folder to put on the
chip (default: this tree's firmware/), compiled to .mpy as `damka firmware
install` does (`--source`: the .py files as they are). docs/wiring.md says
how to get each piece and what the emulator does not model.

The chip is benchmarks/rp2040/chip.mjs (rp2040js from npm, `npm ci` in that
folder); this side is the host and the hands: it schedules every input at a
simulated instant and reads every output with the instant it left the chip.
Everything is simulated time: the run takes about five times as long on a
2-core machine as it simulates.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHIP_DIR = ROOT / "benchmarks" / "rp2040"
FS_BLOCKS = 352          # RPI_PICO: 1408 KiB of littlefs, 4 KiB blocks

from damka.firmware import lights  # noqa: E402
from damka.firmware import protocol as P  # noqa: E402
from damka.hardware import pico_firmware  # noqa: E402

ROWS = COLS = 9
BUTTONS = 8              # the key row's buttons (main.BUTTONS); the encoder's two come after
ENCODER_FORWARD = BUTTONS  # the press counter of an encoder step with A leading
BRIGHTNESS = 40          # low: the power cap never dims the marker
MARKERS = ((200, 0, 0), (0, 200, 0), (0, 0, 200), (200, 200, 0))
LEDS_PER_S = 15


@dataclass
class Pieces:
    """Where the chip's pieces are: the images it boots and the tools that make them."""

    micropython: Path
    bootrom: Path
    image: Path

    @classmethod
    def find(cls, micropython: str | None, bootrom: str | None, image: str | None = None) -> "Pieces":
        mp = Path(micropython or os.environ.get("DAMKA_MICROPYTHON", ""))
        rom = Path(bootrom or os.environ.get("DAMKA_PICO_BOOTROM", ""))
        img = Path(image) if image else mp / "ports" / "rp2" / "build-RPI_PICO" / "firmware.bin"
        return cls(mp, rom, img)

    def missing(self) -> str | None:
        """What is not there, in words, or None when the chip can run."""
        if str(self.micropython) in ("", "."):
            return "no MicroPython checkout given (--micropython or DAMKA_MICROPYTHON)"
        if str(self.bootrom) in ("", "."):
            return "no RP2040 bootrom given (--bootrom or DAMKA_PICO_BOOTROM)"
        needs = {
            "the rp2 firmware image (MicroPython's ports/rp2, BOARD=RPI_PICO)": self.image,
            "MicroPython's unix port (writes the littlefs image)": self.unix,
            "the RP2040 bootrom (rp2040js's demo/bootrom.ts)": self.bootrom,
            "rp2040js (npm ci in benchmarks/rp2040)": CHIP_DIR / "node_modules" / "rp2040js",
        }
        for what, path in needs.items():
            if not path.exists():
                return f"{what} is not at {path}"
        if shutil.which("node") is None:
            return "node is not installed"
        return None

    @property
    def unix(self) -> Path:
        return self.micropython / "ports" / "unix" / "build-standard" / "micropython"


def make_fs(pieces: Pieces, folder: Path, out: Path, source: bool = False) -> list[str]:
    """The littlefs image of `folder` as it goes onto the Pico: main.py as it is,
    the others .mpy (`pico_firmware.build`, what `damka firmware install` copies)
    or, with `source`, the .py files. Returns the names put on it."""
    stage = out.parent / "stage"
    stage.mkdir(exist_ok=True)
    if source:
        files = [stage / name for name in pico_firmware.firmware_files(folder)]
        for f in files:
            shutil.copyfile(folder / f.name, f)
    else:
        files = pico_firmware.build(stage, folder)
    subprocess.run([str(pieces.unix), "-X", "heapsize=16M", str(CHIP_DIR / "make_fs.py"), str(out),
                    str(FS_BLOCKS), *map(str, files)], check=True, capture_output=True, text=True)
    return [f.name for f in files]


@dataclass
class Frame:
    t_us: int
    type: int
    seq: int
    body: bytes


@dataclass
class Write:
    start_us: float
    end_us: float
    first: int
    max_gap_us: float
    latches: int


@dataclass
class Chip:
    """One emulated board from reset: `run_to(t)` moves simulated time on and
    collects what came out; the other methods are the host's and the hands'."""

    pieces: Pieces
    fs: Path
    now_us: int = 0
    connected_us: int | None = None
    frames: list[Frame] = field(default_factory=list)
    raw: bytearray = field(default_factory=bytearray)
    scans: list[int] = field(default_factory=list)
    writes: list[Write] = field(default_factory=list)
    pio_div: float | None = None
    wall_ms: int = 0
    host_seq: int = 0
    sent: list[tuple[int, int, int]] = field(default_factory=list)  # (t_us, type, seq) of host frames

    def __post_init__(self) -> None:
        self.decoder = P.FrameDecoder()
        self.proc = subprocess.Popen(
            ["node", str(CHIP_DIR / "chip.mjs"), "--bootrom", str(self.pieces.bootrom),
             "--image", str(self.pieces.image), "--fs", str(self.fs)],
            cwd=CHIP_DIR, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def _ask(self, cmd: dict[str, object]) -> dict[str, object]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the emulated chip stopped (exit {self.proc.wait()})")
        answer: dict[str, object] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.poll() is None:
            self._ask({"op": "quit"})
        self.proc.wait()

    asleep_us: int = 0

    def run_to(self, t_us: float) -> None:
        if t_us <= self.now_us:
            return
        got = self._ask({"op": "run", "until_us": int(t_us)})
        self.now_us = int(got["now_us"])  # type: ignore[call-overload]
        self.wall_ms += int(got["wall_ms"])  # type: ignore[call-overload]
        self.asleep_us = int(got["asleep_us"])  # type: ignore[call-overload]
        if got["connected"] is not None and self.connected_us is None:
            self.connected_us = int(got["connected"])  # type: ignore[call-overload]
        for t, hexed in got["usb"]:  # type: ignore[attr-defined]
            data = bytes.fromhex(hexed)
            self.raw.extend(data)
            for msg_type, seq, body in self.decoder.feed(data):
                self.frames.append(Frame(t, msg_type, seq, body))
        self.scans.extend(got["scans"])  # type: ignore[arg-type]
        self.writes.extend(Write(**w) for w in got["writes"])  # type: ignore[attr-defined]
        for pio in got["pio"]:  # type: ignore[attr-defined]
            self.pio_div = pio["div"]

    def run_for(self, ms: float) -> None:
        self.run_to(self.now_us + ms * 1000)

    def send(self, data: bytes) -> None:
        self._ask({"op": "send", "hex": data.hex()})

    def send_frame(self, msg_type: int, body: bytes = b"") -> int:
        seq = self.host_seq
        self.host_seq = (seq + 1) & 0xFF
        self.send(P.encode_frame(msg_type, seq, body))
        self.sent.append((self.now_us, msg_type, seq))
        return seq

    def reeds(self, rows: Sequence[int]) -> None:
        self._ask({"op": "reeds", "rows": list(rows)})

    def keys(self, mask: int) -> None:
        self._ask({"op": "keys", "mask": mask})

    def encoder(self, a: int, b: int) -> None:
        self._ask({"op": "encoder", "a": a, "b": b})

    # -- what came out --------------------------------------------------------
    def of_type(self, msg_type: int, since_us: float = 0) -> list[Frame]:
        return [f for f in self.frames if f.type == msg_type and f.t_us >= since_us]

    def snapshots(self, since_us: float = 0) -> list[tuple[int, list[int], list[int]]]:
        """(t_us, row masks, press counters) of every SNAPSHOT since `since_us`."""
        out = []
        for f in self.of_type(P.SNAPSHOT, since_us):
            _ms, masks, _cols, _state, counts = P.unpack_snapshot(f.body)
            out.append((f.t_us, masks, counts))
        return out

    def counts(self) -> list[int]:
        snaps = self.snapshots()
        return snaps[-1][2] if snaps else []

    def connect(self, extra: bytes = b"", until_ms: float = 1500) -> int | None:
        """Run until USB is up, open the port as the host does (a delimiter and
        HELLO, `extra` bytes after), run until the chip's first HELLO: its time (µs) or None."""
        while self.connected_us is None and self.now_us < until_ms * 1000:
            self.run_for(1)
        if self.connected_us is None:
            return None
        self.send(b"\x00")
        self.send_frame(P.HELLO, P.pack_hello(ROWS, COLS, 0, "damka host"))
        if extra:
            self.send(extra)
        while not self.of_type(P.HELLO) and self.now_us < until_ms * 1000:
            self.run_for(5)
        hellos = self.of_type(P.HELLO)
        return hellos[0].t_us if hellos else None

    def tracebacks(self) -> int:
        return bytes(self.raw).count(b"Traceback")


def percentile(values: Sequence[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def gaps_ms(scans: Sequence[int], start_us: float, end_us: float) -> list[float]:
    inside = [t for t in scans if start_us <= t < end_us]
    return [(b - a) / 1000 for a, b in zip(inside, inside[1:])]


# -- the LEDS frames the host sends -----------------------------------------------
class LedShow:
    """LEDS frames at 15 a second with blinking palette entries; each frame
    puts the next of four steady marker colours on chain position 0, so the
    first chain write showing that colour is the frame's own."""

    def __init__(self) -> None:
        self.order = lights.chain_cells(ROWS, COLS, True)
        self.k = 0
        self.sent: list[tuple[int, int]] = []  # (t_us, the marker's GRB word)

    def body(self, k: int) -> tuple[bytes, int]:
        palette = [(255, 0, 0, P.STEADY), (0, 255, 0, P.BLINK_SLOW), (0, 0, 255, P.BLINK_FAST),
                   (255, 255, 255, P.DOUBLE), (255, 0, 255, P.BLINK_ALT)]
        palette += [(r, g, b, P.STEADY) for r, g, b in MARKERS]
        cells = bytearray(ROWS * COLS)
        for i in range(ROWS * COLS):
            if (i * 7 + k) % 5 == 0:
                cells[i] = 1 + (i % 5)
        marker = 6 + k % len(MARKERS)
        cells[self.order[0]] = marker
        r, g, b, _ = palette[marker - 1]     # the marker is steady: its GRB word as the firmware draws it
        word = lights.grb(lights.scale((r, g, b), BRIGHTNESS))
        return P.pack_leds(BRIGHTNESS, palette, cells), word

    def send(self, chip: Chip) -> None:
        body, word = self.body(self.k)
        self.k += 1
        chip.send_frame(P.LEDS, body)
        self.sent.append((chip.now_us, word))

    def latencies(self, chip: Chip, since_us: float = 0, until_us: float = float("inf")) -> list[float]:
        """Per frame sent in the window: ms from sending to the start of the first chain write showing its marker."""
        out = []
        for t, word in self.sent:
            if not since_us <= t < until_us:
                continue
            for w in chip.writes:
                if w.start_us >= t and w.first == word:
                    out.append((w.start_us - t) / 1000)
                    break
        return out


def ack_latencies(chip: Chip, since_us: float, until_us: float) -> list[float]:
    """Per LEDS frame the host sent in the window: ms until the chip's ACK of it."""
    acked: dict[int, list[int]] = {}
    for f in chip.of_type(P.ACK, since_us):
        acked.setdefault(P.unpack_ack(f.body)[0], []).append(f.t_us)
    out = []
    for t, msg_type, seq in chip.sent:
        if msg_type == P.LEDS and since_us <= t < until_us:
            later = [a for a in acked.get(seq, []) if a >= t]
            if later:
                out.append((min(later) - t) / 1000)
    return out


class Timeline:
    """Inputs at simulated instants, with the LEDS frames going out on their own beat."""

    def __init__(self, chip: Chip, show: LedShow | None = None) -> None:
        self.chip = chip
        self.show = show
        self.next_leds = float(chip.now_us)

    def until(self, t_us: float) -> None:
        """Run to `t_us`, sending LEDS frames on their beat (when a show is on)."""
        chip = self.chip
        while self.show is not None and self.next_leds <= t_us:
            chip.run_to(self.next_leds)
            self.show.send(chip)
            self.next_leds += 1e6 / LEDS_PER_S
        chip.run_to(t_us)

    def after(self, ms: float, act: Callable[[], None] | None = None) -> None:
        self.until(self.chip.now_us + ms * 1000)
        if act is not None:
            act()


# -- the checks ---------------------------------------------------------------
def occupancy(chip: Chip, tl: Timeline, n: int) -> bool:
    squares = [(r, c) for r in range(ROWS) for c in range(COLS) if (r + c) % 2 == 0][:n]
    rows = [0] * ROWS
    for r, c in squares:
        rows[r] |= 1 << c
    chip.reeds(rows)
    tl.after(100)
    snaps = chip.snapshots()
    ok = bool(snaps) and snaps[-1][1] == rows
    chip.reeds([0] * ROWS)
    tl.after(100)
    return ok


def reed_latencies(chip: Chip, tl: Timeline, changes: int, spacing_ms: float, seed: int) -> tuple[list[float], int]:
    """Toggle one square at a time (a piece lifted, then put back), each at a
    random instant; ms from the change to the first SNAPSHOT showing it, and
    how many changes no SNAPSHOT showed before the next change."""
    rnd = random.Random(seed)
    rows = [0] * ROWS
    out = []
    missed = 0
    for i in range(changes):
        tl.after(spacing_ms * (0.5 + rnd.random()))
        r, c = (i // 2) % ROWS, (i // 2 * 4) % COLS
        rows[r] ^= 1 << c
        chip.reeds(rows)
        t = chip.now_us
        want = list(rows)
        tl.after(spacing_ms * 0.5)
        seen = [s for s in chip.snapshots(t) if s[1] == want]
        if seen:
            out.append((seen[0][0] - t) / 1000)
        else:
            missed += 1
    chip.reeds([0] * ROWS)
    tl.after(50)
    return out, missed


def presses(chip: Chip, tl: Timeline, buttons: Sequence[int], hold_ms: float = 15, apart_ms: float = 30) -> int:
    """Press each button in turn (held `hold_ms`, released `apart_ms`): how many
    presses the SNAPSHOT press counters gained (how the host counts)."""
    tl.after(50)
    before = chip.counts()
    for b in buttons:
        chip.keys(1 << b)
        tl.after(hold_ms)
        chip.keys(0)
        tl.after(apart_ms)
    tl.after(300)
    after = chip.counts()
    if not before or not after:
        return 0
    return sum((after[b] - before[b]) & 0xFF for b in set(buttons))


def detents(chip: Chip, tl: Timeline, n: int, step_ms: float) -> int:
    """Turn the encoder `n` detents with A leading, one quadrature transition
    every `step_ms`: how many steps the chip counted (its press counter)."""
    tl.after(50)
    before = chip.counts()
    for _ in range(n):
        for a, b in ((0, 1), (0, 0), (1, 0), (1, 1)):
            chip.encoder(a, b)
            tl.after(step_ms)
    tl.after(300)
    after = chip.counts()
    if not before or not after:
        return 0
    return (after[ENCODER_FORWARD] - before[ENCODER_FORWARD]) & 0xFF


def harmless(chip: Chip, tl: Timeline) -> bool:
    """Still the protocol a second later: SNAPSHOTs every 250 ms, a REQUEST
    (after a delimiter, so a byte held from before cannot spoil it) answered
    at once, and no REPL prompt, traceback or soft reboot on the stream."""
    tl.after(1000)
    beats = chip.snapshots(chip.now_us - 1_000_000)
    asked = chip.now_us
    chip.send(b"\x00")
    chip.send_frame(P.REQUEST)
    tl.after(100)
    answered = any(asked <= t < asked + 30_000 for t, _m, _c in chip.snapshots(asked))
    raw = bytes(chip.raw)
    return (len(beats) >= 3 and answered
            and b">>>" not in raw and b"Traceback" not in raw and b"soft reboot" not in raw)


def boot_byte(pieces: Pieces, fs: Path, byte: bytes) -> tuple[bool, int]:
    """`byte` sent as the host opens the port (the firmware still booting): harmless?"""
    chip = Chip(pieces, fs)
    try:
        hello = chip.connect(extra=byte)
        tl = Timeline(chip)
        return hello is not None and harmless(chip, tl), chip.tracebacks()
    finally:
        chip.close()


def bad_crc(chip: Chip, tl: Timeline, show: LedShow, n: int = 5) -> tuple[int, int, int]:
    """`n` LEDS frames with a broken CRC, each followed by a good one: (ERROR
    frames back, good frames acknowledged, n)."""
    t0 = chip.now_us
    acked = 0
    for k in range(n):
        body, _word = show.body(1000 + k)
        frame = bytearray(P.encode_frame(P.LEDS, chip.host_seq, body))
        chip.host_seq = (chip.host_seq + 1) & 0xFF
        frame[-2] ^= 0x5A if frame[-2] not in (0, 0x5A) else 0x33
        chip.send(bytes(frame))
        tl.after(20)
        seq = chip.send_frame(P.LEDS, body)
        tl.after(200)
        acked += any(P.unpack_ack(f.body)[0] == seq for f in chip.of_type(P.ACK, chip.now_us - 200_000))
    return len(chip.of_type(P.ERROR, t0)), acked, n


def stray_bytes(chip: Chip, tl: Timeline, show: LedShow, n: int = 10) -> int:
    """A stray byte (line noise) just before a good LEDS frame, `n` times: frames lost."""
    lost = 0
    for k in range(n):
        chip.send(b"\x55")
        body, _word = show.body(2000 + k)
        seq = chip.send_frame(P.LEDS, body)
        tl.after(200)
        lost += not any(P.unpack_ack(f.body)[0] == seq for f in chip.of_type(P.ACK, chip.now_us - 200_000))
    return lost


@dataclass
class Report:
    rows: list[tuple[str, str, str]] = field(default_factory=list)  # (what, measured, target)
    figures: dict[str, object] = field(default_factory=dict)

    def add(self, key: str, what: str, value: object, shown: str, target: str = "") -> None:
        self.figures[key] = value
        self.rows.append((what, shown, target))
        print(f"  {what:<58} {shown:<34} {target}", flush=True)


def pstats(values: Sequence[float], ps: Sequence[float]) -> str:
    return "/".join(f"{percentile(values, p):.1f}" for p in ps) + " ms" if values else "none"


def run(pieces: Pieces, folder: Path, minutes: float, source: bool, seed: int = 7) -> Report:
    report = Report()
    with tempfile.TemporaryDirectory() as tmp:
        fs = Path(tmp) / "littlefs.img"
        names = make_fs(pieces, folder, fs, source)
        print(f"firmware {folder} ({', '.join(names)}) on {pieces.image}", flush=True)
        for byte, name in ((b"\x03", "Ctrl-C"), (b"\x04", "0x04")):
            ok, tb = boot_byte(pieces, fs, byte)
            report.add(f"boot_{name}", f"{name} while it boots: harmless", ok, "yes" if ok else "NO", "yes")

        chip = Chip(pieces, fs)
        try:
            hello = chip.connect()
            report.add("hello_ms", "reset -> first HELLO", hello and hello / 1000,
                       f"{hello / 1000:.1f} ms" if hello else "none", "< 250 ms")
            if hello is None:
                return report
            if chip.pio_div:
                print(f"  (PIO clock divider {chip.pio_div:g}: {125 / chip.pio_div:g} MHz at 125 MHz)")
            tl = Timeline(chip)
            for n in (1, 3, 24):
                ok = occupancy(chip, tl, n)
                report.add(f"occupancy_{n}", f"occupancy with {n} pieces right", ok, "yes" if ok else "NO", "yes")
            t0 = chip.now_us
            tl.after(2000)
            idle_gaps = gaps_ms(chip.scans, t0, chip.now_us)
            report.add("scans_per_s_idle", "scans per second, idle", len(idle_gaps) / 2,
                       f"{len(idle_gaps) / 2:.0f}/s (gap p50 {percentile(idle_gaps, 50):.2f} ms)")
            lat, missed = reed_latencies(chip, tl, 30, 150, seed)
            report.add("reed_idle", "reed change -> SNAPSHOT p50/p99, idle", lat,
                       pstats(lat, (50, 99)) + (f", {missed} missed" if missed else ""))
            for label, buttons in (("across buttons", list(range(BUTTONS)) + [0, 1]), ("one button", [4] * 10)):
                got = presses(chip, tl, buttons)
                report.add(f"presses_idle_{label}", f"10 presses 15 ms/30 ms apart, idle, {label}",
                           got, f"{got}/10", "10/10")
            for step in (1, 2, 5):
                got = detents(chip, tl, 40, step)
                report.add(f"detents_idle_{step}", f"40 encoder detents at {step} ms a step, idle", got,
                           f"{got}/40", "40/40" if step == 1 else "")
            chip.send(b"\x03")
            tl.after(300)
            chip.send(b"\x04")
            ok = harmless(chip, tl)
            report.add("running_ctrl", "Ctrl-C and 0x04 while running: harmless", ok, "yes" if ok else "NO", "yes")

            # LEDS at 15/s with blinking entries, for `minutes` of simulated time.
            show = LedShow()
            tl = Timeline(chip, show)
            start = chip.now_us
            end = start + minutes * 60e6
            reed_lat: list[float] = []
            reed_missed = 0
            press_checks: list[tuple[str, int]] = []
            minute = 0
            while chip.now_us < end:
                lat, missed = reed_latencies(chip, tl, 10, 400, seed + minute)
                reed_lat += lat
                reed_missed += missed
                if chip.now_us - start >= 60e6 * (minute + 1) or chip.now_us >= end:
                    minute += 1
                    if minute == 1 or chip.now_us >= end:
                        when = f"after {(chip.now_us - start) / 60e6:.1f} min"
                        press_checks.append((f"one button, {when}", presses(chip, tl, [4] * 10)))
                        press_checks.append((f"across buttons, {when}",
                                             presses(chip, tl, list(range(BUTTONS)) + [0, 1])))
                    print(f"  ... {(chip.now_us - start) / 60e6:.1f} min simulated "
                          f"({chip.wall_ms / 1000:.0f} s of emulation)", flush=True)
            blink_end = chip.now_us
            gaps = gaps_ms(chip.scans, start, blink_end)
            report.add("gap_blink", "scan gap, LEDS 15/s blinking, p50/p95/p99/max", gaps,
                       pstats(gaps, (50, 95, 99, 100)), "p99 < 10 ms")
            first = gaps_ms(chip.scans, start, min(blink_end, start + 60e6))
            last = gaps_ms(chip.scans, max(start, blink_end - 60e6), blink_end)
            drift = percentile(last, 50) / percentile(first, 50) - 1 if first and last else float("nan")
            report.add("gap_drift", "scan gap p50, last minute vs first", drift,
                       f"{percentile(first, 50):.2f} -> {percentile(last, 50):.2f} ms ({drift:+.0%})"
                       + (" (windows overlap: under 2 min)" if blink_end - start < 120e6 else ""), "within 10%")
            report.add("reed_blink", "reed change -> SNAPSHOT p50/p99, blinking", reed_lat,
                       pstats(reed_lat, (50, 99)) + f", {reed_missed} of {len(reed_lat) + reed_missed} missed",
                       "p99 < 15 ms, none missed")
            edge = show.latencies(chip, start, blink_end - 200_000)
            report.add("leds_edge", "LEDS frame -> first WS2812 edge p50/p99", edge,
                       pstats(edge, (50, 99)) + f" ({len(edge)} of {len(show.sent)} frames shown)", "p99 < 5 ms")
            acks = ack_latencies(chip, start, blink_end - 200_000)
            report.add("leds_ack", "LEDS frame -> its ACK p50/p99", acks, pstats(acks, (50, 99)))
            blink_writes = [w for w in chip.writes if start <= w.start_us < blink_end]
            split = sum(1 for w in blink_writes if w.latches)
            worst = max((w.max_gap_us for w in blink_writes), default=0.0)
            report.add("split_writes", "chain writes split mid-frame (low > 280 us)", (split, len(blink_writes)),
                       f"{split} of {len(blink_writes)} (longest low {worst:.0f} us)", "0 in 1,000")
            for what, got in press_checks:
                report.add(f"presses_blink_{what}", f"10 presses, blinking, {what}", got, f"{got}/10", "10/10")
            got = detents(chip, tl, 40, 1)
            report.add("detents_blink_1", "40 encoder detents at 1 ms a step, blinking", got, f"{got}/40", "40/40")
            errors, acked, n = bad_crc(chip, tl, show)
            report.add("bad_crc", "LEDS frames with a bad CRC: ERRORs back, next good frame ACKed",
                       (errors, acked, n), f"{errors} ERROR, {acked}/{n} ACKed", f"{n}/{n} ACKed")
            lost = stray_bytes(chip, tl, show)
            report.add("stray_byte", "a stray byte before a LEDS frame: frames lost", lost, f"{lost} of 10", "0")
            report.add("bad_from_chip", "frames from the chip with a bad checksum", chip.decoder.bad,
                       str(chip.decoder.bad), "0")
            report.add("tracebacks", "tracebacks on the USB stream", chip.tracebacks(), str(chip.tracebacks()), "0")
            print(f"  ({chip.now_us / 1e6:.0f} s simulated in {chip.wall_ms / 1000:.0f} s of emulation)")
        finally:
            chip.close()
    return report


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--micropython", help="MicroPython checkout, rp2 and unix ports built (or $DAMKA_MICROPYTHON)")
    ap.add_argument("--bootrom", help="RP2040 bootrom, rp2040js demo/bootrom.ts (or $DAMKA_PICO_BOOTROM)")
    ap.add_argument("--image", help="the rp2 firmware image (default: the checkout's build-RPI_PICO/firmware.bin)")
    ap.add_argument("--firmware", type=Path, default=ROOT / "firmware", help="the firmware folder to put on the chip")
    ap.add_argument("--minutes", type=float, default=10.0, help="simulated minutes of LEDS at 15/s (default 10)")
    ap.add_argument("--source", action="store_true", help="the .py files as they are, not .mpy")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    pieces = Pieces.find(args.micropython, args.bootrom, args.image)
    missing = pieces.missing()
    if missing:
        print(f"pico_chip: cannot run: {missing} (docs/wiring.md, 'The firmware on an emulated chip')")
        return 2
    report = run(pieces, args.firmware.resolve(), args.minutes, args.source)
    if args.json:
        args.json.write_text(json.dumps(report.figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
