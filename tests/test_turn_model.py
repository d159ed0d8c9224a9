"""The turn machine checked by random play (issue 20): seeded sequences of
what people and programs do at the board, over every mode, 2-4 players and
teams, with and without a clock, the invariants checked after every action
(`turn_model_checks.py`). The model: `turn_model.py`; running and shrinking:
`turn_model_run.py`.

A failure prints the seed, the invariant and the shrunk list of actions as a
`run(...)` line: paste it here as a named test. The named tests below are
what the model found; each replays its sequence exactly, with no action left
out (`avoid=NOTHING`).
"""

from __future__ import annotations

import time

import pytest

from turn_model import Config
from turn_model_run import explore, run

FAST_SEQUENCES = 2000   # in CI (about a minute on one idle core)
FAST_SHARES = 4         # run as this many tests, so the workers share them
FAST_LENGTH = 6
SLOW_SEQUENCES = 50_000  # with --slow
SLOW_LENGTH = 10
NOTHING: frozenset[str] = frozenset()   # replay as found: no action left out


def play(seeds: range, length: int) -> None:
    started = time.process_time()
    stats: dict[str, int] = {}
    reports = explore(seeds, length, stats=stats)
    print(f"\n{len(seeds)} sequences of {length} actions: {stats['moves']} moves committed, "
          f"{stats['actions']} actions, {len(reports)} invariants broken; {time.process_time() - started:.1f} s CPU")
    assert not reports, "\n\n".join(reports)


@pytest.mark.parametrize("share", range(FAST_SHARES))
def test_random_sequences_keep_every_invariant(share: int) -> None:
    size = FAST_SEQUENCES // FAST_SHARES
    play(range(share * size, (share + 1) * size), FAST_LENGTH)


@pytest.mark.slow
def test_many_long_random_sequences_keep_every_invariant() -> None:
    play(range(10**6, 10**6 + SLOW_SEQUENCES), SLOW_LENGTH)


# -- what the model found -----------------------------------------------------------------


def test_a_player_who_resigns_before_the_clock_starts_gets_no_more_turns_on_it() -> None:
    """Three players, nobody has moved (the clock waits for the first move):
    the first resigns from the menu. The clock was not told, so after a round
    it ran for the player who was out while the next one was to move."""
    run(Config(variant='multiwarcaby', sides=3, mode='computer', time_control='5+3', colours='lot', remote_seat=2),
        [('resign',), ('move', 72), ('remote', 75), ('computer', 424)], seed=19, avoid=NOTHING)


def test_after_a_take_back_by_the_pieces_the_clock_of_the_side_to_move_runs() -> None:
    """The computer's lit move carried out, then the pieces put back: the
    computer's clock ran on while the player to move thought."""
    run(Config(variant='multiwarcaby', sides=3, mode='computer', time_control='0.5+1', colours='lot', computers=2),
        [('computer', 255), ('takeback_pieces',)], seed=5, avoid=NOTHING)


def test_the_computers_move_picked_up_at_a_press_is_lit_at_once() -> None:
    """A new game, the computer to move; its search ends and the next thing
    the board hears is a clock press: the session picks the move up then, says
    the clock started, and lights nothing until some later input or tick."""
    run(Config(variant='classic', mode='computer', time_control='0.5+1', colours='lot'),
        [('new_game',), ('press_right',)], seed=319, avoid=NOTHING)


def test_a_take_back_after_a_resignation_keeps_the_record_and_the_screen_in_step() -> None:
    """Resigned, then the pieces put back: the session took the move back and
    played on while the screen kept the result and the store the resignation."""
    run(Config(variant='classic', mode='computer', colours='second'),
        [('move', 639), ('resign',), ('takeback_pieces',)], seed=183, avoid=NOTHING)


def test_a_multiwarcaby_turn_that_refills_the_square_it_left_is_committed_at_the_press() -> None:
    """a2-a1, then b1-a2, and the press: the board is two legal moves from the
    turn start (also one move, b1-a1), and the board asked for a second move."""
    run(Config(variant='multiwarcaby', sides=4, time_control='0.5+1'), [('move', 4)], seed=78, avoid=NOTHING)


def test_a_resumed_clock_waits_for_the_pieces() -> None:
    """Power cut mid-move, the game resumed: while the pieces are put back as
    lit, the arbiter (or the ok button) restarts the paused clock, and the
    side to move's time runs before play goes on."""
    run(Config(variant='multiwarcaby', mode='casual', time_control='5+3', colours='second'),
        [('move', 698), ('partial', 448), ('power_cut',), ('unpause',)], seed=20230, avoid=NOTHING)


def test_the_computers_multiwarcaby_turn_that_lands_on_the_square_it_captured_is_committed() -> None:
    """The computer plans c5xe5 then e5-d5 (onto the square of the piece it
    took): carried out, the board differs from the turn start by c5 alone,
    which also reads as its first move part-way (the piece in the hand), and
    the turn was never committed ("carry out the computer's move")."""
    run(Config(variant='multiwarcaby', mode='computer', colours='lot'), [('move', 468)], seed=1148, avoid=NOTHING)


def test_the_computers_new_plan_after_a_take_back_is_read_with_its_own_second_move() -> None:
    """The computer plays g7xe5 g8-g7; the pieces are put back; it plans
    g7xe5 i3xi1 this time. Carried out, the board read as unknown: the
    tracker kept the second moves allowed after g7xe5 from the first plan
    (its index of second moves was keyed by the first move alone)."""
    run(Config(variant='multiwarcaby', mode='computer', colours='second'),
        [('move', 634), ('takeback_pieces',), ('move', 32)], seed=1006162, avoid=NOTHING)


def test_a_clock_restarted_after_a_resume_keeps_its_time_across_another_power_cut() -> None:
    """Multiwarcaby, 5+3: a power cut in Player 2's turn, the game resumed
    (its clock paused), Player 2 makes a move, the arbiter restarts the clock
    and the power goes off again. Player 2 had 299.5 s at the cut and 302.2 s
    once resumed: the model's command ran at the App's last input, 2.7 s
    before it was given (the pause charged to Player 2), and no save of the
    running clock was planned, so the second resume went back to the first."""
    run(Config(variant='multiwarcaby', mode='computer', time_control='5+3', colours='second'),
        [('move', 423), ('power_cut',), ('move', 797), ('unpause',), ('power_cut',)], seed=1033471, avoid=NOTHING)


def test_a_clock_restarted_after_a_resume_is_saved_while_it_runs() -> None:
    """As above with the command given on time: Player 2 thinks 4 s on the
    restarted clock with no input, the power goes off, and the resumed clock
    gave the 4 s back (no save was planned: the recorder of a resumed game
    plans one only at an input)."""
    run(Config(variant='multiwarcaby', mode='computer', time_control='5+3', colours='second'),
        [('move', 423), ('power_cut',), ('move', 797), ('unpause',), ('wait', 4000), ('power_cut',)],
        seed=1033471, avoid=NOTHING)


def test_an_outside_programs_move_lit_while_the_clock_was_paused_is_pressed_early_once_it_runs() -> None:
    """Classic 5+3 against an outside program, carrying out on the next side's time: the
    arbiter pauses, the program's first move is carried out, the person takes it back by the
    pieces and the program lights a new one while the clock is still paused. The arbiter
    restarts it: the program's clock ran (303.0 s) while people carried its move out, the
    early press done only for a move that came while the clock ran."""
    run(Config(variant='classic', mode='computer', time_control='5+3', colours='second', carrying_out='next'),
        [('pause',), ('computer', 190), ('takeback_pieces',), ('unpause',)], seed=12002610, avoid=NOTHING)


def test_an_outside_programs_move_lit_while_the_clock_was_paused_stops_it_again_once_restarted() -> None:
    """The same with carrying out on nobody's time: the restarted clock ran for the program."""
    run(Config(variant='classic', mode='computer', time_control='5+3', colours='second', carrying_out='nobody'),
        [('pause',), ('computer', 190), ('takeback_pieces',), ('unpause',)], seed=12002610, avoid=NOTHING)


def test_a_press_that_starts_the_clock_while_a_programs_first_move_is_lit_starts_nobodys_time() -> None:
    """International against an outside program that moves first, carrying out on nobody's
    time: the program's first move came while the clock waited for the game's first press
    (nothing to stop), and a press then started it for the program while people carried
    its move out."""
    run(Config(variant='international', mode='computer', time_control='5+3', colours='lot', carrying_out='nobody'),
        [('press_wrong',), ('wait', 3000), ('computer', 0), ('wait', 2000)], seed=13000115, avoid=NOTHING)


def test_the_clock_stopped_for_carrying_out_a_programs_move_is_not_restarted_by_hand() -> None:
    """Carrying out on nobody's time: the arbiter's restart of the clock stopped for it is
    refused with the reason (it ran for the program before); carried out, the move restarts it."""
    import tempfile
    from pathlib import Path

    from damka.controller.app import CommandRefused
    from damka.controller.app.view_builder import carrying_out
    from turn_model import World, outside_programs
    from turn_model_actions import act

    config = Config(variant='classic', mode='computer', time_control='5+3', colours='first', carrying_out='nobody')
    with tempfile.TemporaryDirectory() as folder, outside_programs(True):
        world = World(config, 5, Path(folder) / "games.db", NOTHING)
        try:
            act(world, ('move', 0))
            assert carrying_out(world.session) and world.app.clock.view(world.board.now).state == "paused"
            with pytest.raises(CommandRefused, match="carried out on nobody's time"):
                world.app.resume_clock("arbiter")
            act(world, ('computer', 0))
            view = world.app.clock.view(world.board.now)
            assert not carrying_out(world.session) and (view.state, view.active) == ("running", 0)
        finally:
            world.close()
    # The arbiter pauses, the program's move is taken back and lit again on the paused clock:
    # the restart says the clock stopped again at once.
    with tempfile.TemporaryDirectory() as folder, outside_programs(True):
        world = World(config, 5, Path(folder) / "games.db", NOTHING)
        try:
            for action in [('move', 0), ('computer', 0), ('pause',), ('takeback_pieces',)]:
                act(world, action)
            assert carrying_out(world.session)
            line = world.app.resume_clock("arbiter")
            assert line.startswith("clock restarted, and stopped while the program's move is carried out"), line
            assert world.app.clock.view(world.board.now).state == "paused"
        finally:
            world.close()


def test_a_multiwarcaby_piece_slid_across_a_square_and_pressed_after_one_move_asks_for_the_second() -> None:
    """Player 2 of four slides b2 to c1 across b1 (touched for 200 ms) and presses
    after that one move: the press committed b2-b1 b1-c1 as the whole turn (b1 was
    never held, so no first move was made there) and the real second move fell into
    the remote player's turn. Found by the random profile (seed 537 of 0-1999)."""
    run(Config(variant='multiwarcaby', sides=4, mode='computer', colours='second', computers=3, remote_seat=2),
        [('follow_leds', 734), ('slide', 58)], seed=537, avoid=NOTHING)
