"""A stand-in for Scan 2.0 in `hub` mode: the first Hub protocol, line for line
as rhalbersma/scan commit 57082ee writes it (src/main.cpp `hub_loop`,
src/search.cpp `disp_best_move`, src/fen.cpp `pos_from_hub`,
src/move.cpp `move_to_hub`), with Damka's rules choosing a legal move.

    python tests/scan2_standin.py [--log FILE]    (every line read is appended to FILE)

Like Scan: `pos pos=...` is `error bad position` (the argument is not 51
letters), an unknown command (`set-param ...`) is ignored, `go` answers
`info ...` then `move M P`, a line read during a search is echoed as
`input "..."`. Only international draughts (Scan 2.0 plays nothing else).
"""

from __future__ import annotations

import random
import sys

from damka.bridges.hub_protocol import HubBoard, HubError, find_dialect
from damka.engine.draughts_position import DraughtsPosition

BOARD = HubBoard(find_dialect("normal"))


def reply(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    log = open(sys.argv[2], "a", encoding="utf-8") if sys.argv[1:2] == ["--log"] else None
    rng = random.Random(5)
    position: DraughtsPosition = BOARD.variant.start_position()
    reply("Scan 2.0 by Fabien Letouzey")   # main.cpp, before any command
    for raw in sys.stdin:
        line = raw.strip()
        if log is not None:
            log.write(line + "\n")
            log.flush()
        words = line.split()
        command = words[0] if words else ""
        if command == "hub":
            for answer in ("name Scan 2.0", "author Fabien Letouzey", "country France", "wait"):
                reply(answer)
        elif command == "init":
            for answer in ("init eval", "init book", "init bitbase", "ready"):
                reply(answer)
        elif command == "ping":
            reply("pong")
        elif command == "quit":
            return 0
        elif command == "start":
            position = BOARD.variant.start_position()
        elif command == "pos":
            text = words[1] if len(words) > 1 else ""
            if len(text) != 51 or text[0] not in "wb":
                reply("error bad position")
                continue
            try:
                position = BOARD.parse_position(text[0].upper() + text[1:])
            except HubError:
                reply("error bad position")
        elif command == "move":
            try:
                move = BOARD.parse_move(position, words[1] if len(words) > 1 else "")
            except HubError:
                reply("error illegal move")
                continue
            position = BOARD.variant.play(position, move)
        elif command in ("go", "analyse", "ponder"):
            legal = BOARD.variant.legal_moves(position)
            if not legal:
                reply("move")
                continue
            move = rng.choice(legal)
            after = BOARD.variant.play(position, move)
            answers = BOARD.variant.legal_moves(after)
            ponder = f" {BOARD.format_move(answers[0])}" if answers else ""
            if len(legal) > 1:   # Scan plays a forced move at once, with no info line
                reply(f"info 4 6.2 -12 1234 0.01 0.1 {BOARD.format_move(move)}{ponder}")
            reply(f"move {BOARD.format_move(move)}{ponder}")
        # level, time, depth, new, set, stop, ponder-hit and anything else: no answer
    return 0


if __name__ == "__main__":
    sys.exit(main())
