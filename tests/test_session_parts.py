"""The session's parts, each alone (no board, no App): the contract each one keeps.

The session (`controller/session/core.py`) is a coordinator; what it
remembers between two inputs lives in these small owners. Scenario tests of
the whole turn flow are `test_session*.py` and `test_turn_model.py`.
"""

from __future__ import annotations

import pytest

from damka.controller import events as ev
from damka.controller.session.board_guard import BoardRestore, RefusalFlag
from damka.controller.session.forward import Forward
from damka.controller.session.message_line import MessageLine
from damka.controller.session.pending_turn import PendingTurn
from damka.controller.session.takeback_flow import TakebackFlow
from damka.engine import find_variant
from damka.engine.notation import parse_move


def moves(*texts: str) -> tuple:
    variant = find_variant("classic")
    position = variant.start_position()
    return tuple(parse_move(variant, position, text) for text in texts)


# -- the pending turn ---------------------------------------------------------------


def test_pending_turn_names_the_pair_whose_first_move_was_made_first() -> None:
    a, b, c = moves("c3-d4", "e3-f4", "a3-b4")
    pending = PendingTurn()
    pending.made(((b, c),))          # the board held e3-f4 complete first
    pending.made(((a, c), (b, a)))   # then c3-d4
    assert pending.first_moves == (b, a)
    # Two pairs give the board: the one whose first move came first is recorded.
    assert pending.pick([(a, b), (b, a)]) == (b, a)
    assert pending.pick([(c, a)]) == (c, a)   # none made: the tracker's first candidate


def test_pending_turn_prefers_a_first_move_made_to_one_only_shown() -> None:
    a, b, c = moves("c3-d4", "e3-f4", "a3-b4")
    pending = PendingTurn()
    pending.showed(((a, b),))        # c3-d4 touched on the way (a slide)
    pending.showed(((b, a),))        # e3-f4 shown, then held: made
    pending.made(((b, a),))
    assert pending.first_moves == (b,) and not pending.was_made(a)
    assert pending.pick([(a, c), (b, c)]) == (b, c)
    # Nothing made (quick hands): the pair whose first move was shown first.
    quick = PendingTurn()
    quick.showed(((b, a),))
    quick.showed(((a, b),))
    assert quick.first_moves == () and quick.pick([(a, b), (b, a)]) == (b, a)


def test_pending_turn_forgets_every_move_made_when_the_turn_ends() -> None:
    a, b = moves("c3-d4", "e3-f4")
    pending = PendingTurn()
    pending.showed(((a, b),))
    pending.made(((a, b),))
    pending.forget()
    assert pending.first_moves == () and not pending.was_made(a)
    assert pending.pick([(b, a), (a, b)]) == (b, a)


def test_pending_turn_gives_a_held_fast_answer_once() -> None:
    (a,) = moves("c3-d4")
    pending = PendingTurn()
    assert pending.take() is None
    pending.hold((3, (a,)))
    assert pending.take() == (3, (a,))
    assert pending.take() is None       # taken: no longer held


# -- the take-back flow -----------------------------------------------------------------


class Remote:
    remote = True
    label = "remote player"


def test_takeback_flow_asks_a_remote_seat_only_with_the_apps_hook() -> None:
    flow = TakebackFlow()
    assert not flow.needs_consent(Remote())       # no hook: the board takes back at once
    flow.hook = lambda plies: 2 if plies is None else plies
    assert flow.needs_consent(Remote())
    assert not flow.needs_consent(None)           # the computer, or everyone at the table
    flow.request()
    assert flow.ask(None) == 2
    assert flow.waiting and not flow.requested    # the position waits for the answer, nothing guided
    flow.answered()
    assert not flow.waiting


def test_takeback_flow_a_hook_that_cannot_ask_now_changes_nothing() -> None:
    def busy(plies: int | None) -> int:
        raise ValueError("another offer waits")

    flow = TakebackFlow()
    flow.hook = busy
    flow.request()
    with pytest.raises(ValueError):
        flow.ask(1)
    assert not flow.waiting and flow.requested


def test_takeback_flow_guides_on_until_the_asked_ply_then_is_over() -> None:
    flow = TakebackFlow()
    flow.aim(2)                                    # an accepted offer: back to ply 2
    flow.request()
    assert flow.target_ply(6, lambda: 5) == 2
    flow.taken_back(4)                             # the pieces went back one turn: guide on
    assert flow.requested and flow.to == 2
    flow.taken_back(2)                             # there: the take-back is over
    assert not flow.requested and flow.to is None
    assert flow.target_ply(2, lambda: 1) == 1      # the button's own target again


def test_takeback_flow_forgets_a_request_when_a_move_counts() -> None:
    flow = TakebackFlow()
    flow.hook = lambda plies: 1
    flow.aim(3)
    flow.request()
    flow.ask(1)
    flow.forget()
    assert (flow.requested, flow.to, flow.waiting) == (False, None, False)


def test_takeback_flow_refused_guides_nothing_back() -> None:
    flow = TakebackFlow()
    flow.hook = lambda plies: 1
    flow.ask(None)
    flow.refused()
    assert not flow.waiting and not flow.requested


# -- the message line ---------------------------------------------------------------------


def test_message_line_publishes_every_line_said_but_shows_a_repeat_once() -> None:
    bus = ev.EventBus()
    said: list[ev.MessageShown] = []
    bus.subscribe(said.append, ev.MessageShown)
    line = MessageLine(bus, lambda: (1500, 7))
    assert line.text == "set up the pieces"
    line.say("white to move")
    line.say("white to move")          # said again: something new was said
    line.show("white to move")         # already on the screen: nothing new
    assert [(m.time_ms, m.ply, m.text) for m in said] == [(1500, 7, "white to move")] * 2
    assert line.text == "white to move"


def test_message_line_notice_goes_before_the_prompt_until_cleared_or_the_game_is_over() -> None:
    line = MessageLine(ev.EventBus(), lambda: (0, 0))
    line.set_notice("black's flag fell in stage 1: play goes on")
    assert line.with_notice("white to move", over=False) == \
        "black's flag fell in stage 1: play goes on; white to move"
    assert line.with_notice("game over", over=True) == "game over"
    line.clear_notice()
    assert line.with_notice("white to move", over=False) == "white to move"


def test_message_line_keeps_the_hint_words_until_cleared() -> None:
    line = MessageLine(ev.EventBus(), lambda: (0, 0))
    line.set_hint("hint: c3-d4")
    line.say("thinking of a hint...")
    assert line.hint_text == "hint: c3-d4"
    line.clear_hint()
    assert line.hint_text == ""


# -- the board guards ----------------------------------------------------------------------


def test_refusal_flag_goes_out_at_its_time_or_when_cleared() -> None:
    flag = RefusalFlag()
    assert flag.squares is None and flag.until is None
    flag.show(0b101, 3000)
    flag.expire(2999)
    assert (flag.squares, flag.until) == (0b101, 3000)
    flag.expire(3000)
    assert flag.squares is None
    flag.show(0b1, 5000)
    flag.clear()                        # the board changed
    assert flag.squares is None


def test_board_restore_keeps_its_reason_while_the_board_goes_back() -> None:
    restore = BoardRestore()
    assert not restore.active
    restore.explain("red is out (on time)")        # said, but nothing to put back
    assert not restore.active and restore.reason == "red is out (on time)"
    restore.require("the remote player declined")
    assert restore.active and restore.reason == "the remote player declined"
    restore.done()
    assert not restore.active


# -- a part's field on the session's face -----------------------------------------------------


class Part:
    def __init__(self) -> None:
        self.value = 1
        self.fixed = "mine"


class Face:
    value: Forward[int] = Forward("part.value", settable=True)
    fixed: Forward[str] = Forward("part.fixed")

    def __init__(self) -> None:
        self.part = Part()


def test_forward_reads_and_writes_the_parts_field_and_refuses_a_read_only_one() -> None:
    face = Face()
    face.value = 5
    assert face.part.value == 5 and face.value == 5
    assert face.fixed == "mine"
    with pytest.raises(AttributeError, match="fixed is read-only"):
        face.fixed = "yours"
    assert face.part.fixed == "mine"
