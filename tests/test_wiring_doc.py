"""docs/wiring.md agrees with the code: the Pico's pin map with firmware/main.py,
the button indexes with the serial backend's defaults, the GPIO example with
the config parser, and the overview diagram with both."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from damka.firmware.device import ENCODER_BUTTONS
from damka.hardware.backend_serial import DEFAULT_BUTTONS
from damka.config import parse_config
from damka.hardware.config import BUTTON_KEYS

import tomllib

ROOT = Path(__file__).resolve().parent.parent
WIRING = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")


def firmware_constants() -> dict[str, object]:
    """The pin constants at the top of firmware/main.py (read, not imported: it needs `machine`)."""
    tree = ast.parse((ROOT / "firmware" / "main.py").read_text())
    values = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            try:
                values[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return values


def pico_row(label: str) -> str:
    pico = WIRING[WIRING.index("### Pin map (Pico)"):WIRING.index("### Flashing")]
    (line,) = [line for line in pico.splitlines() if line.startswith(f"| {label}")]
    return line


def gp(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"GP(\d+)", text)]


def test_the_pico_pin_map_is_the_firmware_s() -> None:
    fw = firmware_constants()
    assert gp(pico_row("key row"))[0] == fw["KEY_ROW_PIN"]
    assert tuple(gp(pico_row("encoder A, B"))) == fw["ENCODER_PINS"]
    assert gp(pico_row("buzzer"))[0] == fw["BUZZER_PIN"]
    assert gp(pico_row("LED data"))[0] == fw["LED_PIN"]
    buttons = pico_row("clock0")
    assert "clock0 … clock3, hint, takeback, menu, ok" in buttons
    assert fw["BUTTONS"] == ("clock0", "clock1", "clock2", "clock3", "hint", "takeback", "menu", "ok")
    first, last = gp(buttons.split("|")[3])
    cols = fw["COL_PINS"]
    assert (first, last) == (cols[0], cols[len(fw["BUTTONS"]) - 1])  # C0 … C7


def test_button_indexes_are_the_firmware_order_then_the_encoder() -> None:
    fw = firmware_constants()
    names = fw["BUTTONS"]
    assert {name: i for i, name in enumerate(names)} == {k: v for k, v in DEFAULT_BUTTONS.items() if k in names}
    assert (DEFAULT_BUTTONS["down"], DEFAULT_BUTTONS["up"]) == (len(names), len(names) + 1)
    assert ENCODER_BUTTONS == 2
    assert set(DEFAULT_BUTTONS) == set(BUTTON_KEYS)  # every input the config knows is wired
    assert "index 8 turns down a\nmenu" in WIRING and ", 9 up" in WIRING


def test_the_parts_list_counts_what_the_firmware_reads() -> None:
    assert "| 2–4 | large push button | one turn/clock button per side" in WIRING
    assert "| 4 | push button | hint, take back, menu, ok |" in WIRING
    assert "rotary encoder with push" in WIRING and "buzzer" in WIRING


def gpio_example() -> str:
    design_b = WIRING[WIRING.index("## Design B"):]
    return design_b[design_b.index("```toml") + 7:design_b.index("```", design_b.index("```toml") + 7)]


def test_the_gpio_example_parses_and_wires_every_input() -> None:
    config = parse_config(tomllib.loads(gpio_example()), "wiring.md")
    gpio = config.gpio
    assert gpio.key_row == 21 and gpio.encoder == (2, 3) and gpio.buzzer == 8
    assert list(config.buttons) == ["clock0", "clock1", "clock2", "clock3", "hint", "takeback", "menu", "ok"]
    table = WIRING[WIRING.index("### Pin map (BCM numbers"):WIRING.index("```toml")]
    assert "| key row: clock0 … clock3, hint, takeback, menu, ok on C0 … C7 | 21 (40) |" in table
    assert "| encoder A, B (push on the key row as ok) | 2 (3), 3 (5) |" in table
    assert "| buzzer (through a transistor) | 8 (24) |" in table


def test_the_overview_diagram_names_the_same_pins() -> None:
    svg = (ROOT / "docs" / "images" / "wiring-overview.svg").read_text(encoding="utf-8")
    assert "GP18 key row, GP19/20 encoder, GP21 buzzer" in svg
    assert "key row 21 (8 buttons on C0-C7)," in svg and "encoder 2, 3; buzzer 8; spare 7" in svg
    assert "6 buttons" not in svg
