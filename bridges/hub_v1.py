"""The first Hub protocol, as Scan 2.0 speaks it: told apart and read as version 2.

Scan 2.0 (`scan hub`, rhalbersma/scan commit 57082ee, src/main.cpp
`hub_loop`) starts with a banner (`Scan 2.0 by Fabien Letouzey`), answers
`hub` with `name Scan 2.0`, `author ...`, `country ...`, `wait`, where
version 2 says `id name=...`, and `init` with `init eval`, `init book`,
`init bitbase`, `ready`. Its commands carry bare words,
not `name=value`:

    pos wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww   (side to move in lower case)
    move 32-28                    (one per move played: repetitions count)
    time 1000                     (ms for this move)  / level 0 300000 2000 (moves, ms, increment ms)
    go                            -> info 12 10.5 23 123456 0.50 1.2 32-28 18-23 ... / move 32-28 18-23
    error bad position / error illegal move / error bad move   (no message=)
    input "stop"                  (a line that came in during a search, echoed)

`read_line` turns each of its lines into the (command, arguments) version 2
would have sent, so one client reads both. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

VERSION_1_GREETING = ("name", "author", "country")   # Scan 2.0's first words
VERSION_2_GREETING = ("id", "param", "wait")
PROTOCOLS = "Hub 1 (Scan 2.0) and Hub 2 (Scan 3)"


def version_of(line: str) -> int:
    """The Hub version a line of an engine's greeting shows (0: neither, e.g. a banner)."""
    words = line.split()
    if words and words[0] in VERSION_1_GREETING:
        return 1
    if words and words[0] in VERSION_2_GREETING:
        return 2
    return 0


def read_line(line: str) -> tuple[str, dict[str, str]]:
    """A Hub 1 line as version 2's (command, arguments); never raises.

    `name X` / `author X` / `country X` -> `id` with that field; `move M [P]`
    -> `done move=M ponder=P`; `info d ply score nodes time speed pv...` ->
    `info` (score in men, as version 2; none for a book move); `error words` -> `error message=words`.
    """
    command, _, rest = line.strip().partition(" ")
    rest = rest.strip()
    if command in VERSION_1_GREETING:
        return "id", {command: rest}
    if command == "move":
        words = rest.split()
        return "done", {"move": words[0] if words else "", "ponder": words[1] if len(words) > 1 else ""}
    if command == "error":
        return "error", {"message": rest}
    if command == "info":
        return "info", _info(rest.split())
    return command, {}


def _info(words: list[str]) -> dict[str, str]:
    """`depth ply-average score nodes time speed pv...` (Scan 2.0's `disp_best_move`)."""
    if len(words) < 6:
        return {}
    try:
        depth, score, nodes, seconds = int(words[0]), int(words[2]), int(words[3]), float(words[4])
    except ValueError:
        return {}
    info = {"depth": str(depth), "nodes": str(nodes), "time": f"{seconds:.2f}"}
    if depth > 0:   # depth 0: a book move, whose 0 is no score (Hub 2 engines then send no score=)
        info["score"] = f"{score / 100:.2f}"
    if len(words) > 6:
        info["pv"] = " ".join(words[6:])
    return info


def position(version_2: str) -> str:
    """A version 2 position string as Hub 1 writes it: the side to move in lower case."""
    return version_2[:1].lower() + version_2[1:]


def level_words(level: dict[str, Any]) -> tuple[str, ...]:
    """Version 2's `level` arguments as one Hub 1 command: `time MS` for a time
    per move, `level 0 MS INC_MS` for a clock (0: the moves to go are not told)."""
    def ms(name: str) -> str:
        return str(max(0, round(float(level.get(name) or 0) * 1000)))

    if "time" in level:
        return ("level", "0", ms("time"), ms("inc"))
    return ("time", ms("move-time"))
