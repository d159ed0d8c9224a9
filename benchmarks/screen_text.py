"""What drawing text letter by letter costs the screen (display/widgets.py `render`: no kerning,
issue 38): the Polish views of tests/test_words_screens.py drawn at 480x320 for a few seconds each
way, the text as pygame's Font.render draws it (kerned: the baseline) and as the screen draws it
now (each line's image kept while it is shown again).

    .venv/bin/python benchmarks/screen_text.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pygame

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from damka.controller import words  # noqa: E402
from damka.display import widgets  # noqa: E402
from damka.display.screen import Screen  # noqa: E402


def frame_ms(seconds: float) -> float:
    """The mean time to draw one view, over every view, for `seconds`."""
    from test_words_screens import views
    built = list(views().values())
    screen = Screen((480, 320))
    for view in built:
        screen.render(view)
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for view in built:
            screen.render(view)
            frames += 1
    return (time.perf_counter() - start) / frames * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    pygame.font.init()
    words.set_language("pl")
    now = frame_ms(args.seconds)
    render, width_of = widgets.render, widgets.width_of
    widgets.render = lambda text, size, colour: widgets.font(size).render(text, True, colour)  # type: ignore[assignment]
    widgets.width_of = lambda text, size: widgets.font(size).size(text)[0]  # type: ignore[assignment]
    try:
        kerned = frame_ms(args.seconds)
    finally:
        widgets.render, widgets.width_of = render, width_of
    print(f"Font.render (kerned, the baseline): {kerned:.3f} ms a view")
    print(f"letter by letter, lines kept:       {now:.3f} ms a view ({now / kerned:.2f}x)")


if __name__ == "__main__":
    main()
