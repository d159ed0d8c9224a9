"""The firmware on MicroPython itself, for its heap: the webassembly port of
MicroPython (the npm package @micropython/micropython-webassembly-pyscript,
run by node) imports firmware/ as the Pico does, builds the board through
main.build() on stand-ins for machine, rp2, utime and select that allocate
nothing themselves (benchmarks/firmware_heap_pico.py), and polls it for a
minute of device time idle, then a minute with a LEDS frame every 50 ms,
with the garbage collector off: what the heap grew by is what the loop
allocated (issue 37: any growth means a collection, sooner or later, and a
slower allocator until then).

    npm install --prefix ~/.cache/damka/mpwasm @micropython/micropython-webassembly-pyscript@1.27.0
    python benchmarks/firmware_heap.py [--npm DIR] [--firmware DIR] [--polls N]

Prints per phase: polls, heap bytes grown, bytes the board wrote, DMA transfers.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from damka.firmware import lights, protocol as P  # the host's codec, to make the frames

ROOT = Path(__file__).resolve().parent.parent

PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNNER = """
import {{ pathToFileURL }} from "node:url";
import fs from "node:fs";
const {{ loadMicroPython }} = await import(pathToFileURL({module}).href);
const mp = await loadMicroPython({{ stdout: (line) => console.log(line), stderr: (line) => console.error(line) }});
const files = JSON.parse(fs.readFileSync({files}, "utf8"));
mp.FS.mkdir("/fw");
for (const [name, text] of Object.entries(files)) mp.FS.writeFile("/fw/" + name, text);
mp.runPython(fs.readFileSync({program}, "utf8"));
"""


def frames() -> list[bytes]:
    """256 LEDS frames of a game, seq 0-255: pieces, a hint blinking, a flagged square."""
    out = []
    for seq in range(256):
        cells = bytearray(81)
        for i in range(0, 48, 2):
            cells[i] = 1 + (i // 2) % 2
        cells[(40 + seq) % 81], cells[(60 + seq) % 81] = 3, 4
        palette = [(40, 40, 40, lights.STEADY), (0, 60, 0, lights.STEADY), (255, 200, 0, lights.BLINK_FAST),
                   (255, 0, 0, lights.DOUBLE)]
        out.append(P.encode_frame(P.LEDS, seq, P.pack_leds(200, palette, bytes(cells))))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--npm", type=Path, default=Path.home() / ".cache" / "damka" / "mpwasm",
                        help="the npm prefix the package was installed into")
    parser.add_argument("--firmware", type=Path, default=ROOT / "firmware", help="the firmware's files")
    parser.add_argument("--polls", type=int, default=60_000, help="polls per phase, 1 ms of device time apart")
    args = parser.parse_args(argv)
    module = args.npm / "node_modules" / PACKAGE / "micropython.mjs"
    if not module.exists():
        print(f"no {module}: npm install --prefix {args.npm} {PACKAGE}@1.27.0", file=sys.stderr)
        return 2
    harness = (Path(__file__).parent / "firmware_heap_pico.py").read_text(encoding="utf-8")
    program = harness + f"\nmain_({frames()!r}, {args.polls})\n"
    with tempfile.TemporaryDirectory() as tmp:
        files = Path(tmp) / "files.json"
        files.write_text(json.dumps({p.name: p.read_text(encoding="utf-8")
                                     for p in sorted(args.firmware.glob("*.py")) if p.name != "__init__.py"}))
        (Path(tmp) / "program.py").write_text(program)
        runner = Path(tmp) / "run.mjs"
        runner.write_text(RUNNER.format(module=json.dumps(str(module)), files=json.dumps(str(files)),
                                        program=json.dumps(str(Path(tmp) / "program.py"))))
        result = subprocess.run(["node", str(runner)], capture_output=True, text=True, timeout=3600)
    rows = [line.split()[1:] for line in result.stdout.splitlines() if line.startswith("RESULT")]
    if result.returncode or len(rows) != 2:
        print(result.stdout[-2000:], result.stderr[-4000:], file=sys.stderr)
        return 1
    print(f"{'phase':<8}{'polls':>8}{'heap grown (bytes)':>20}{'bytes sent':>12}{'DMA transfers':>15}")
    for name, polls, grown, sent, transfers in rows:
        print(f"{name:<8}{polls:>8}{grown:>20}{sent:>12}{transfers:>15}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
