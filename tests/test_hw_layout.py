"""hardware/layout.py: matrix cells to square names, orientation, sub-board."""

from __future__ import annotations

import pytest

from damka.hardware.layout import Layout, parse_square, square_name


def test_default_orientation():
    lay = Layout()
    assert lay.square(0, 0) == "a1" and lay.square(0, 8) == "i1" and lay.square(8, 0) == "a9"
    assert lay.cell("e5") == (4, 4)


@pytest.mark.parametrize(("rotation", "mirror", "corners"), [
    (0, False, ("a1", "i1", "a9")),
    (0, True, ("i1", "a1", "i9")),
    (90, False, ("a9", "a1", "i9")),
    (180, False, ("i9", "a9", "i1")),
    (270, False, ("i1", "i9", "a1")),
    (270, True, ("i9", "i1", "a9")),
])
def test_rotations_and_mirror(rotation, mirror, corners):
    lay = Layout(9, 9, rotation, mirror)
    assert (lay.square(0, 0), lay.square(0, 8), lay.square(8, 0)) == corners
    assert len(lay.squares) == 81
    for name in lay.squares:  # a bijection
        assert lay.square(*lay.cell(name)) == name


def test_rectangular_matrix_rotated_180():
    lay = Layout(8, 10, 180)
    assert (lay.files, lay.ranks) == (10, 8)
    assert lay.square(0, 0) == "j8"


def test_sub_board():
    lay = Layout(9, 9, sub_board="b2:h8")
    assert len(lay.squares) == 49
    assert lay.square(0, 0) is None and lay.square(1, 1) == "b2"
    assert lay.occupied([1, 2, 0, 0, 0, 0, 0, 0, 0]) == {"b2"}


def test_occupied_and_row_masks_round_trip():
    lay = Layout(9, 9, 90, True)
    squares = {"a1", "e5", "i9", "c7"}
    assert lay.occupied(lay.row_masks(squares)) == squares


def test_names():
    assert square_name(11, 11) == "l12" and parse_square("l12") == (11, 11)
    with pytest.raises(ValueError):
        parse_square("z0x")
    with pytest.raises(ValueError):
        Layout(9, 9, 45)
