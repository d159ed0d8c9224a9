"""The LED legend in the docs is made from the one palette (hardware/legend.py),
so what the docs say each colour means is what the LEDs show."""

from __future__ import annotations

import colorsys
from pathlib import Path

from damka.hardware import legend
from damka.hardware.interfaces import Role
from damka.hardware.palette import PALETTES

ROOT = Path(__file__).resolve().parent.parent

# The hue (degrees) a colour's name promises; the legend's names must keep it.
HUES = {"red": (350, 10), "vermillion": (15, 30), "orange-red": (15, 30), "orange": (30, 45),
        "olive": (50, 70), "dim yellow": (50, 70), "green": (100, 170), "bluish green": (150, 175),
        "cyan": (175, 190), "sky blue": (195, 210), "blue": (195, 230), "violet": (260, 290),
        "reddish purple": (320, 340)}


def hue(rgb: tuple[int, int, int]) -> float:
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


def test_the_docs_carry_the_palette_s_legend() -> None:
    for name in legend.DOCS:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert legend.BEGIN in text and legend.END in text, f"{name} lost the legend markers"
        assert legend.with_legend(text) == text, (
            f"{name}'s LED legend differs from hardware/palette.py; run: {legend.REGENERATE}")


def test_the_legend_names_the_colours_the_leds_show() -> None:
    table = legend.legend_markdown()
    rows = {line.split(" | ")[0].lstrip("| "): line for line in table.splitlines()[2:]}
    assert len(rows) == len(Role)
    # What the issue found: these five were named wrongly in docs/app.md.
    assert "violet, steady" in rows["the computer's move: take this piece"]
    assert "cyan, slow blink" in rows["hint: to here"]
    assert "blue, slow blink" in rows["put a piece back here"]
    assert "red, slow blink" in rows["take this piece off the board"]
    assert "olive, steady" in rows["the last move (if lit in the board settings)"]
    app = (ROOT / "docs" / "app.md").read_text(encoding="utf-8")
    assert "violet: hint" not in app and "pink: take it away" not in app


def test_every_colour_s_name_is_true_to_its_hue() -> None:
    for palette in PALETTES.values():
        for role, (rgb, _pattern) in palette.items():
            name = legend.colour_name(rgb)  # a new colour needs a name here
            if name == "white":
                assert min(rgb) > 200, role
                continue
            low, high = HUES[name]
            h = hue(rgb)
            assert (low <= h <= high) if low < high else (h >= low or h <= high), (role, name, rgb, h)


def test_write_puts_the_legend_between_the_markers(tmp_path: Path) -> None:
    for name in legend.DOCS:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"intro\n{legend.BEGIN}\n| old | table |\n{legend.END}\nafter\n", encoding="utf-8")
    assert legend.main(["--write", "--root", str(tmp_path)]) == 0
    text = (tmp_path / "docs" / "app.md").read_text(encoding="utf-8")
    assert "| old | table |" not in text and legend.legend_markdown() in text
    assert text.startswith("intro\n") and text.endswith(f"{legend.END}\nafter\n")
    assert legend.write_docs(tmp_path) == []  # already current: nothing rewritten
