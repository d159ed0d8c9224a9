"""A Damka board process for the DXP tests (run as a script).

It takes `damka dxp`'s own arguments and builds the board's app the way the
command does (`damka.commands.dxp.open_app`: handshake, redial, `--resume`),
then plays on a virtual 10x10 board in real time: the person carries out
the peer's lit moves and plays random legal moves of its own (also while the
connection is down). It prints `game ID`, `ply N` after every committed
move, `said TEXT` for every line said and `screen TEXT` whenever the board's
screen changes (its status and message lines, " | " between); at the end it writes the stored
game's PDN to `--pdn` and prints `over`.

    python tests/dxp_rig.py --seed 3 --pdn out.pdn --listen 27600 --db games.db
"""

from __future__ import annotations

import argparse
import logging
import random
import sys
import time

from damka.dxp.feature import dxp_of
from damka.cli import build_parser
from damka.commands.dxp import open_app
from damka.controller import events as ev
from damka.controller.session.types import Phase
from damka.controller.store.store import Store
from damka.controller.store.pdn import export_pdn
from damka.controller.board.board_map import BoardMap
from damka.sim.virtual_board import VirtualBoard, carry_out


def main() -> int:
    own = argparse.ArgumentParser()
    own.add_argument("--seed", type=int, default=1)
    own.add_argument("--pdn", required=True)
    own.add_argument("--limit", type=float, default=120.0)
    mine, rest = own.parse_known_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    args = build_parser().parse_args(["dxp", *rest])
    store = Store(args.db)
    app = open_app(args, store)
    app.bus.subscribe(lambda event: print(f"ply {event.ply}", flush=True), ev.MoveCommitted)
    app.bus.subscribe(lambda event: print(f"said {event.text}", flush=True), ev.MessageShown)
    variant = app.session.variant
    board = VirtualBoard(BoardMap(variant).names(variant.occupancy(app.session.game.position)), files=10, ranks=10)
    board.connect(app)
    name = variant.geometry.name
    rng = random.Random(mine.seed)
    end = time.monotonic() + mine.limit
    shown_id = None
    screen = ""
    while time.monotonic() < end:
        board.advance(20)
        time.sleep(0.002)
        view = app.view()
        now = " | ".join([getattr(view, "status", ""), *getattr(view, "messages", ())])
        if now != screen:
            screen = now
            print(f"screen {screen}", flush=True)
        session = app.session
        if app.game_id is not None and app.game_id != shown_id:
            shown_id = app.game_id
            print(f"game {shown_id}", flush=True)
        if session.game.is_over:
            break
        if session.phase is not Phase.PLAYING:
            continue
        if session.game.turn == dxp_of(app).peer_side:
            move = session.planned[0] if session.planned else None
        else:
            move = rng.choice(session.game.legal_moves())
        if move is not None:
            carry_out(board, name(move.start), [name(s) for s in move.path], [name(s) for s in sorted(move.captures)],
                      step_ms=150)
            board.advance(2500)
    for _ in range(50):        # the GAMEEND exchange, the last writes
        board.advance(20)
        time.sleep(0.01)
    dxp_of(app).close()
    with open(mine.pdn, "w", encoding="utf-8") as out:
        out.write(export_pdn(store.load_game(app.game_id)))
    store.close()
    print("over" if app.session.game.is_over else "timeout", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
