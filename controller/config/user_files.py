"""Files a person names on the command line: read with bounds, written safely.

Reading (`read_text_chunks`) gives UTF-8 text a block at a time, so a large
PDN file is never held whole, and stops with one clear line at what cannot
be a text file: a NUL byte, a line longer than `MAX_LINE_CHARS`, more than
`MAX_FILE_BYTES` (`/dev/zero` gives all three, and never ends). Only a
regular file is opened (`damka.base.files.open_regular`: a FIFO would hang).

Writing (`write_file`) puts the text in a temporary file beside the target,
then renames it over the target: a crash never leaves half a file. Only a
regular file is replaced; a symbolic link is written through (its target is
replaced, the link stays); a FIFO, a device, a directory or a socket is
refused (`--force` once replaced /dev/full with a regular file).
"""

from __future__ import annotations

import codecs
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from damka.base.files import file_kind, open_regular, too_large
from damka.engine.errors import DamkaError

BLOCK_BYTES = 1 << 16
MAX_LINE_CHARS = 1_000_000  # a PDN line is under 255 characters; one whole game on a line is under 100,000
MAX_FILE_BYTES = 1 << 30  # a million games; anything larger is not a game file (or never ends)
PDN_FILE = "game file (PDN)"


class UserFileError(DamkaError, ValueError):
    """A file named by the user cannot be read or written as asked (one line, naming it)."""


def pdn_encoding(path: str | os.PathLike[str], block: int = BLOCK_BYTES) -> str:
    """`utf-8-sig` for a file that is UTF-8 text (a BOM or not), else `latin-1`: PDN 3.0 asks
    readers to take Latin-1, which many Dutch and Polish files are. Read a block at a time."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    with open_regular(path, PDN_FILE, UserFileError) as handle:   # a FIFO or a device: refused at once
        try:
            total = 0
            while data := handle.read(block):
                total += len(data)
                if b"\0" in data or total > MAX_FILE_BYTES:
                    return "utf-8-sig"  # not a text file, or too big: read_text_chunks says so
                decoder.decode(data)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return "latin-1"
        except OSError:
            pass  # read_text_chunks says what is wrong with the file
    return "utf-8-sig"


def read_text_chunks(path: str | os.PathLike[str], *, max_line: int = MAX_LINE_CHARS,
                     max_bytes: int = MAX_FILE_BYTES, block: int = BLOCK_BYTES,
                     encoding: str = "utf-8-sig") -> Iterator[str]:
    """The text of `path` (UTF-8 unless told, a BOM dropped) in blocks; UserFileError naming
    the file and line when it is not text, has a line too long, or is too big."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    line, line_length, total = 1, 0, 0
    with open_regular(path, PDN_FILE, UserFileError, max_bytes) as handle:
        while True:
            data = handle.read(block)
            total += len(data)
            if total > max_bytes:
                raise UserFileError(too_large(os.fsdecode(path), PDN_FILE, max_bytes))
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError as exc:
                where = line + bytes(exc.object[:exc.start]).count(b"\n")
                raise UserFileError(f"{path}: line {where}: not UTF-8 text ({exc.reason})") from None
            if "\0" in text:
                where = line + text.count("\n", 0, text.index("\0"))
                raise UserFileError(f"{path}: line {where} holds a NUL byte: not a text file")
            lengths = [len(part) for part in text.split("\n")]
            lengths[0] += line_length
            for index, length in enumerate(lengths):
                if length > max_line:
                    raise UserFileError(f"{path}: line {line + index} is longer than {max_line:,} characters: "
                                        f"not a game file")
            line_length = lengths[-1]
            line += len(lengths) - 1
            if text:
                yield text
            if not data:
                return


def write_file(path: str | os.PathLike[str], text: str, *, replace: bool = True) -> Path:
    """Write `text` (UTF-8, `\\n` line ends) to `path` atomically (see `replace_file`)."""
    def write(temp: Path) -> None:
        with open(temp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    return replace_file(path, write, replace=replace)


def replace_file(path: str | os.PathLike[str], write: Callable[[Path], None], *, replace: bool = True,
                 suffix: str = "") -> Path:
    """Have `write` fill a new temporary file beside `path` (named `...suffix`:
    a writer may pick the format by it), then rename it over `path`; the path
    written. A symbolic link is followed and its target replaced.

    UserFileError when the target exists and is not a regular file, exists
    and `replace` is false, or its folder is missing (a typo in a path should
    not make folders). If `write` fails the target is untouched.
    """
    target = Path(os.path.realpath(path))
    info = _check_target(path, target, replace)
    folder = target.parent
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=f".tmp{suffix}", dir=folder)
    except OSError as exc:
        raise UserFileError(f"{path}: cannot write in {folder}: {exc.strerror}") from None
    os.close(fd)
    temp = Path(name)
    try:
        write(temp)
        with open(temp, "rb+") as handle:
            os.fsync(handle.fileno())  # the data is on the disk before the name points at it
        # A replaced file keeps its permissions; a new one gets the usual ones (mkstemp makes 0600).
        os.chmod(temp, stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return target


def check_writable(path: str | os.PathLike[str], *, replace: bool = True) -> None:
    """What `write_file` would refuse, said before any work is done."""
    _check_target(path, Path(os.path.realpath(path)), replace)


def _check_target(path: str | os.PathLike[str], target: Path, replace: bool) -> os.stat_result | None:
    """The target's stat (None if it does not exist yet); UserFileError if it may not be written."""
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UserFileError(f"{path}: cannot write there: {exc.strerror}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise UserFileError(f"{path}: {file_kind(info.st_mode)}, not a regular file: not written")
    if info is not None and not replace:
        raise UserFileError(f"{path} exists; not overwritten (use --force to replace it)")
    if not target.parent.is_dir():
        raise UserFileError(f"{path}: the folder {target.parent} does not exist")
    return info


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
