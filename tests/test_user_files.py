"""Files named by the user: only regular files replaced, links written through,
nothing half-written; reading stops with one line at what is not a text file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from damka.controller.config.user_files import UserFileError, read_text_chunks, write_file


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.pdn"
    target.write_text("old\n")
    link = tmp_path / "link.pdn"
    link.symlink_to(target)
    write_file(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new\n"


def test_a_dangling_link_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link.pdn"
    link.symlink_to(tmp_path / "later.pdn")
    write_file(link, "x\n")
    assert link.is_symlink() and (tmp_path / "later.pdn").read_text() == "x\n"


def test_a_fifo_is_refused_and_left_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(UserFileError, match="FIFO"):
        write_file(fifo, "x\n")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # no temporary file left


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserFileError, match="a directory, not a regular file"):
        write_file(tmp_path, "x\n")


def test_an_existing_file_is_kept_unless_replacing(tmp_path: Path) -> None:
    path = tmp_path / "a.pdn"
    path.write_text("old\n")
    os.chmod(path, 0o640)
    with pytest.raises(UserFileError, match="exists; not overwritten"):
        write_file(path, "new\n", replace=False)
    write_file(path, "new\n")
    assert path.read_text() == "new\n" and stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.pdn"
    path.write_text("old\n")
    with pytest.raises(UnicodeEncodeError):
        write_file(path, "half" * 1000 + "\ud800")  # cannot be encoded: fails half-way through
    assert path.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pdn"]


def test_a_missing_folder_is_an_error_not_created(tmp_path: Path) -> None:
    with pytest.raises(UserFileError, match="does not exist"):
        write_file(tmp_path / "typo" / "a.pdn", "x\n")
    assert not (tmp_path / "typo").exists()


def test_reading_in_blocks_gives_the_whole_text(tmp_path: Path) -> None:
    path = tmp_path / "a.pdn"
    text = "".join(f"line {n} ąę\n" for n in range(3000))
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())  # a BOM, and letters split across blocks
    assert "".join(read_text_chunks(path, block=7)) == text


def test_dev_zero_is_one_clear_line() -> None:
    with pytest.raises(UserFileError) as caught:
        list(read_text_chunks("/dev/zero"))
    message = str(caught.value)
    assert message == "/dev/zero: a character device, not a regular file; a game file (PDN) must be one"


def test_a_nul_byte_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "binary.pdn"
    path.write_bytes(b'[Event "x"]\n\n1. 11-15 \0\0 *\n')
    with pytest.raises(UserFileError) as caught:
        list(read_text_chunks(path))
    assert str(caught.value) == f"{path}: line 3 holds a NUL byte: not a text file"


def test_a_line_too_long_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "long.pdn"
    path.write_text("[Event \"x\"]\n" + "1." * 600 + "\n")
    with pytest.raises(UserFileError, match=r"long.pdn: line 2 is longer than 1,000 characters"):
        list(read_text_chunks(path, max_line=1000, block=64))


def test_a_file_too_large_and_bad_utf8_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "big.pdn"
    path.write_text("x\n" * 1000)
    with pytest.raises(UserFileError, match="big.pdn: larger than"):
        list(read_text_chunks(path, max_bytes=1000, block=64))
    latin = tmp_path / "latin.pdn"
    latin.write_bytes(b'[Event "x"]\n[White "Ma\xf1ana"]\n')
    with pytest.raises(UserFileError, match=r"latin.pdn: line 2: not UTF-8 text"):
        list(read_text_chunks(latin))
