"""The LED legend (what each colour and blink means), made from the one palette.

The docs carry this table between markers; `tests/test_led_legend.py` fails
when they differ from the palette, so the words cannot drift from the LEDs.
Regenerate the docs after changing a colour or a pattern:

    .venv/bin/python -m damka.hardware.legend --write
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from damka.hardware.interfaces import Role
from damka.hardware.palette import (BLINK_ALT, BLINK_FAST, BLINK_SLOW, DOUBLE, MONO_STYLE, PALETTES, RGB,
                                    STEADY)

REGENERATE = ".venv/bin/python -m damka.hardware.legend --write"
BEGIN = "<!-- led-legend: begin (made by `.venv/bin/python -m damka.hardware.legend --write`; do not edit) -->"
END = "<!-- led-legend: end -->"
DOCS = ("docs/app.md", "docs/wiring.md")

# What each role tells the player, in plain words.
MEANINGS: dict[Role, str] = {
    Role.FLAG: "a refused press, an alarm, a flag fall",
    Role.TAKE_AWAY: "take this piece off the board",
    Role.PUT_HERE: "put a piece back here",
    Role.LIFTED: "the piece in your hand came from here",
    Role.TO_CAPTURE: "a captured piece still to take off",
    Role.LEGAL_TARGET: "the lifted piece may go here",
    Role.ILLEGAL_LIFT: "the lifted piece may not move",
    Role.MUST_MOVE: "this piece must capture",
    Role.COMPUTER_FROM: "the computer's move: take this piece",
    Role.COMPUTER_TO: "the computer's move: put it here (and the way there)",
    Role.HINT_FROM: "hint: this piece",
    Role.HINT_TO: "hint: to here",
    Role.LAST_MOVE: "the last move (if lit in the board settings)",
}

PATTERNS: dict[int, str] = {
    STEADY: "steady", BLINK_SLOW: "slow blink", BLINK_FAST: "fast blink",
    BLINK_ALT: "slow blink, off beat", DOUBLE: "double flash",
}

# A name for every colour the palettes use: a new colour without a name fails the test.
COLOUR_NAMES: dict[RGB, str] = {
    (255, 0, 0): "red", (0, 64, 255): "blue", (255, 255, 255): "white", (255, 96, 0): "orange-red",
    (0, 255, 0): "green", (255, 160, 0): "orange", (160, 0, 255): "violet", (0, 200, 200): "cyan",
    (96, 96, 0): "olive",
    (213, 94, 0): "vermillion", (230, 159, 0): "orange", (86, 180, 233): "sky blue",
    (0, 158, 115): "bluish green", (0, 114, 178): "blue", (204, 121, 167): "reddish purple",
    (120, 114, 33): "dim yellow",
}

PALETTE_TITLES: dict[str, str] = {"standard": "colour", "colour-blind": "colour-blind safe"}


def colour_name(rgb: RGB) -> str:
    """The plain name of a palette colour (KeyError for one with no name yet)."""
    return COLOUR_NAMES[rgb]


def legend_rows() -> list[tuple[str, ...]]:
    """One row per role: meaning, then colour and blink for each RGB palette, then the one-colour board's blink."""
    rows = []
    for role in Role:
        cells = [MEANINGS[role]]
        for name in PALETTES:
            colour, pattern = PALETTES[name][role]
            cells.append(f"{colour_name(colour)}, {PATTERNS[pattern]}")
        cells.append(PATTERNS[MONO_STYLE[role]])
        rows.append(tuple(cells))
    return rows


def legend_markdown() -> str:
    """The legend as a Markdown table (without the markers)."""
    header = ["what it means", *(PALETTE_TITLES.get(name, name) for name in PALETTES), "one-colour LEDs"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in legend_rows()]
    return "\n".join(lines)


def with_legend(text: str) -> str:
    """`text` with the part between the markers replaced by the current legend."""
    try:
        start = text.index(BEGIN) + len(BEGIN)
        end = text.index(END, start)
    except ValueError:
        raise ValueError(f"the legend markers are missing: {BEGIN} ... {END}") from None
    return text[:start] + "\n" + legend_markdown() + "\n" + text[end:]


def write_docs(root: Path) -> list[Path]:
    """Rewrite the legend in every doc that carries it; return the files that changed."""
    changed = []
    for name in DOCS:
        path = root / name
        old = path.read_text(encoding="utf-8")
        new = with_legend(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print the LED legend, or write it into the docs.")
    parser.add_argument("--write", action="store_true", help="rewrite the legend in " + ", ".join(DOCS))
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository (default: here)")
    args = parser.parse_args(argv)
    if not args.write:
        print(legend_markdown())
        return 0
    for path in write_docs(args.root):
        print(f"updated {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
