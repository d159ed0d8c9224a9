"""What one action of a model sequence does at the board (`turn_model.py`).

An action that does not fit the moment (a remote move when no seat is played
from afar, a take-back with no move made) does nothing, so every sub-list of
a sequence still runs. The one check that belongs to an action itself is
here: a legal turn carried out and pressed is committed (else the game is
stuck, as in issue 20 item 3).
"""

from __future__ import annotations

from typing import Any

from damka.controller import events as ev
from damka.controller.app import AppState
from damka.controller.session import Phase
from damka.hardware.interfaces import Button, Role

from turn_model import Violation, World, lit, playing, seat_not_at_the_table

SETTLE_MS = 1500  # longer than any quiet time the board waits for before it acts on a move
HOLD_MS = 400     # a multiwarcaby first move held this long is made (the settle time is 300 ms)
SLIDE_MS = (50, 100, 150, 200, 250)   # a piece slid across a square touches it this long


def act(world: World, action: tuple) -> None:
    """Do `action` at the board, then let the board's loop catch up."""
    kind, *args = action
    world.watch.events.clear()
    HANDS[kind](world, *args)
    world.note_positions()


def _move(world: World, choice: int) -> None:
    world.board.advance(100)   # a look at the board first
    session = world.session
    if session is None or session.phase is Phase.SETUP or world.app.state is AppState.RESUME:
        return
    if session.result is not None:
        _move_after_the_end(world, choice)
        return
    if not world.board_matches():
        world.set_board(world.occupied_of(world.game.position))   # the hand puts its half-made move back
        world.board.advance(SETTLE_MS)
        if session is not world.session or session.result is not None or not world.board_matches():
            return
    planned = session.planned
    lit_move = seat_not_at_the_table(world)
    if lit_move:  # the computer's or the remote seat's turn: its move, or (sometimes) another
        if not planned:
            return
        if choice % 5 == 0:
            turn = world.turn(choice)
            expect = turn == tuple(planned)
        else:
            turn, expect = tuple(planned), True
    else:
        turn, expect = world.turn(choice), True
    if not turn:
        return
    before = len(session.committed)
    mover = world.game.turn
    open_offer = world.app.pending_offer is not None
    for k, move in enumerate(turn):
        world.carry_out(move)
        if k < len(turn) - 1:
            world.board.advance(HOLD_MS)   # the first move held: made, not a slide
    style = (choice // 7) % 3
    if style == 0:
        world.board.press(mover)
        world.board.advance(SETTLE_MS)
    elif style == 1:
        world.board.advance(SETTLE_MS)
        world.board.press(mover)
        world.board.advance(100)
    else:
        world.board.advance(SETTLE_MS + 1000)
        # No press: a lit move is committed by itself, and so is a casual draughts move once settled.
        expect = expect and (lit_move or (world.config.mode in ("casual", "computer")
                                          and world.variant.moves_per_turn == 1))
    world.board.advance(100)
    interrupted = world.watch.any(ev.GameOver, ev.SideOut, ev.TakenBack, ev.NewGame, ev.BlunderWarned)
    if not expect or interrupted or open_offer or world.config.mode == "learning" or session is not world.session:
        return
    committed = [c.move for c in session.committed[before:before + len(turn)]]
    if committed != list(turn):
        raise Violation("turn not committed", f"{describe_move_at(world, before, turn)} was carried out and "
                        f"pressed by side {mover}; committed since: {[c.text for c in session.committed[before:]]};"
                        f" the screen says {session.message!r}")


def _slide(world: World, choice: int) -> None:
    """The side to move at the table makes its turn sliding the first piece
    across a square on the way (touched for 50-250 ms: a slide, not a move;
    with no empty square on the way, the move as made), holds it, and
    (multiwarcaby) presses after that one move: the press asks for the second
    move, which is then made and pressed. The check: the turn made is the turn
    committed, and nothing is committed at the early press."""
    world.board.advance(100)
    session = world.session
    if (session is None or not playing(world) or world.app.state is not AppState.GAME or not world.board_matches()
            or seat_not_at_the_table(world) or world.config.mode == "learning"):
        return
    turn = world.turn(choice)
    if not turn:
        return
    first = turn[0]
    via = world.slide_square(first)
    before = len(session.committed)
    mover = world.game.turn
    open_offer = world.app.pending_offer is not None
    board = world.board
    if via is None:   # no square to slide across: the move made, then the early press
        world.carry_out(first)
    else:
        board.lift(world.name(first.start))
        board.advance(120)
        board.drop(via)
        board.advance(SLIDE_MS[choice % len(SLIDE_MS)])
        board.lift(via)
        board.advance(30)
        board.drop(world.name(first.end))
    board.advance(HOLD_MS + choice % 3 * 300)
    if len(turn) == 2:
        board.press(mover)
        board.advance(100)
        early = [c.text for c in session.committed[before:]]
        if early and session is world.session and not world.watch.any(ev.TakenBack, ev.NewGame, ev.GameOver):
            raise Violation("press after one move took a turn", f"{describe_move_at(world, before, turn[:1])} "
                            f"(slid across {via}) pressed by side {mover}: committed {early}; the screen says "
                            f"{session.message!r}")
        world.carry_out(turn[1])
        board.advance(HOLD_MS)
    board.press(mover)
    board.advance(SETTLE_MS)
    interrupted = world.watch.any(ev.GameOver, ev.SideOut, ev.TakenBack, ev.NewGame, ev.BlunderWarned)
    if interrupted or open_offer or session is not world.session:
        return
    committed = [c.move for c in session.committed[before:before + len(turn)]]
    if committed != list(turn):
        raise Violation("turn not committed", f"{describe_move_at(world, before, turn)} (the first slid across "
                        f"{via}, pressed after it) was carried out and pressed by side {mover}; committed since: "
                        f"{[c.text for c in session.committed[before:]]}; the screen says {session.message!r}")


def describe_move_at(world: World, ply: int, turn: tuple) -> str:
    return " then ".join(f"{world.name(m.start)}-{world.name(m.end)}" for m in turn) + f" at ply {ply}"


def _move_after_the_end(world: World, choice: int) -> None:
    """Someone moves on in a game that is over (the check: no move is committed)."""
    position = world.game.position
    moves = world.variant.legal_moves(position)
    if not moves or not world.board_matches():
        return
    mover = world.variant.side_to_move(position)
    world.carry_out(moves[choice % len(moves)])
    world.board.advance(SETTLE_MS)
    world.board.press(mover)
    world.board.advance(100)


def _partial(world: World, choice: int) -> None:
    if world.session is None or not world.board_matches() or world.game.is_over:
        return
    moves = world.game.legal_moves()
    if not moves:
        return
    move = moves[choice % len(moves)]
    world.board.lift(world.name(move.start))
    world.board.advance(150)
    if choice % 2:
        world.board.drop(world.name(move.path[0]))
    world.board.advance(400 + choice % 3 * 1000)


def _lift_back(world: World, choice: int) -> None:
    pieces = sorted(world.board.pieces)
    if not pieces:
        return
    square = pieces[choice % len(pieces)]
    world.board.lift(square)
    world.board.advance(100 + choice % 4 * 300)
    world.board.put(square)
    world.board.advance(100)


def _press(world: World, right: bool) -> None:
    if world.session is None:
        return
    turn, sides = world.game.turn, len(world.variant.sides)
    world.board.press(turn if right else (turn + 1) % sides)
    world.board.advance(50)


def _wait(world: World, ms: int) -> None:
    world.board.advance(ms)


def _takeback_button(world: World) -> None:
    if not world.may_take_back():
        return
    world.board.button(Button.TAKE_BACK)
    world.board.advance(100)


def _takeback_pieces(world: World) -> None:
    """The pieces put back as they stood before the last turn (the board reads a take-back)."""
    session = world.session
    if session is None or not session.committed or not world.may_take_back():
        return
    last = session.committed[-1].turn
    plies = sum(1 for move in session.committed if move.turn == last)
    world.set_board(world.occupied_of(world.game.positions[world.game.ply - plies]))
    world.board.advance(SETTLE_MS)


def _follow_leds(world: World, choice: int) -> None:
    """Do what the LEDs ask: pieces off and on, or the computer's lit move."""
    take, put = lit(world, Role.TAKE_AWAY), lit(world, Role.PUT_HERE)
    if take or put:
        for square in sorted(take):
            world.board.lift(square)
            world.board.advance(100)
        for square in sorted(put):
            world.board.put(square)
            world.board.advance(100)
        world.board.advance(SETTLE_MS)
    elif lit(world, Role.COMPUTER_FROM, Role.COMPUTER_TO):
        _computer(world, choice)


def _computer(world: World, choice: int) -> None:
    """The person at the table carries out the computer's (or the remote seat's) lit move."""
    world.board.advance(100)   # a look at the board first
    session = world.session
    if session is None or not session.planned or not world.board_matches():
        return
    for move in session.planned:
        world.carry_out(move)
    world.board.advance(SETTLE_MS)


def _remote(world: World, choice: int) -> None:
    world.remote_move(choice)


def _pause(world: World) -> None:
    world.command(lambda: world.app.pause_clock("arbiter"))


def _unpause(world: World) -> None:
    session = world.session
    if "clock restarted during setup" in world.avoid and session is not None and session.phase is Phase.SETUP:
        return
    world.command(lambda: world.app.resume_clock("arbiter"))


def _offer(world: World, kind: str, where: str) -> None:
    if kind == "takeback" and not world.may_take_back():
        return
    world.command(lambda: world.app.offer(kind, None, where))


def _answer(world: World, accept: bool, where: str) -> None:
    world.command(lambda: world.app.answer_offer(accept, where))


def _resign(world: World) -> None:
    world.command(lambda: world.app.resign("board"))


def _new_game(world: World) -> None:
    world.command(world.start_game)
    world.seen.add(world.occupied_of(world.variant.start_position()))


def _power_cut(world: World) -> None:
    world.power_cut()


HANDS: dict[str, Any] = {
    "move": _move, "partial": _partial, "lift_back": _lift_back, "press_right": lambda w: _press(w, True),
    "press_wrong": lambda w: _press(w, False), "wait": _wait, "takeback_button": _takeback_button,
    "takeback_pieces": _takeback_pieces, "follow_leds": _follow_leds, "computer": _computer, "remote": _remote,
    "pause": _pause, "unpause": _unpause, "offer": _offer, "answer": _answer, "resign": _resign,
    "new_game": _new_game, "power_cut": _power_cut, "slide": _slide,
}
