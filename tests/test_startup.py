"""Commands import only what they use: `damka --help` lists every command
without loading any of them, and a command loads its own module, not the
others' (benchmarks/startup.py measures the time this saves)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from damka.cli import COMMAND_MODULES


def modules_loaded_by(argv: list[str], stdin: str = "") -> set[str]:
    """The damka modules (and a few heavy libraries) loaded by `damka ARGV`."""
    code = (
        "import sys\n"
        "from damka.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\\nloaded:', *sorted(sys.modules), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True,
                            timeout=120)
    last_line = result.stderr.splitlines()[-1]
    assert last_line.startswith("loaded: "), result.stderr
    loaded = set(last_line.split()[1:])
    assert "damka.cli" in loaded, result.stderr
    return loaded


def test_help_lists_every_command_and_loads_none() -> None:
    result = subprocess.run([sys.executable, "-m", "damka", "--help"], capture_output=True, text=True,
                            timeout=120, check=True)
    listed = [line.split()[0] for line in result.stdout.splitlines() if re.match(r"    \S", line)]
    assert listed == [module.rstrip("_") for module in COMMAND_MODULES]
    loaded = modules_loaded_by(["--help"])
    assert sorted(name for name in loaded if name.startswith("damka.commands.")) == []
    heavy = ("damka.engine.game", "damka.engine.variants", "damka.controller", "damka.hardware", "sqlite3",
             "pygame", "logging")
    assert sorted(name for name in loaded if name.startswith(heavy)) == []


@pytest.mark.parametrize(("argv", "stdin", "own"), [
    (["perft", "classic", "1"], "", "damka.commands.perft"),
    (["hub"], "hub\nquit\n", "damka.commands.hub"),
])
def test_a_command_loads_its_own_module_and_no_others(argv: list[str], stdin: str, own: str) -> None:
    loaded = modules_loaded_by(argv, stdin)
    assert own in loaded
    others = sorted(name for name in loaded if name.startswith("damka.commands.") and name != own
                    and name not in ("damka.commands.options", "damka.commands.deadline", "damka.commands.net"))
    assert others == []
    assert sorted(name for name in loaded if name.startswith(("damka.controller", "damka.hardware", "sqlite3",
                                                                "pygame"))) == []


def test_a_misspelt_command_is_one_line_naming_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    from damka.cli import main

    assert main(["perfts", "classic"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'perfts'" in err and "'perft'" in err
