"""One game on the board, its turn flow and its mode: `Session`.

Input: `handle(event)` for every snapshot, clock press and button press, and
`tick(now_ms)` when time passes (the main loop asks `next_deadline()` when it
next has to call). Output: `frame` (the LED frame, `controller/board/frame.py`),
`message` (one line for the screen, `controller/words/wording.py`), `committed`
(the moves with their PDN text), `result`, `scores`, `sensor_log`, and the
typed events of `controller/events.py` on `bus`, to which the store, the
screen and the tools subscribe.

Modes:
- casual: a complete move that cannot be extended is committed once the board
  has been quiet `settle_ms`; one that could still be extended after
  `extend_ms`; a press of the mover's clock commits at once; so does the
  next side starting its answer before the move settled (a fast answer);
- learning: casual, plus the beginner's LEDs (`hints.learning`) and hints;
  with a `coach`, hints are the coach's (limited per game) and a complete
  move is checked for blunders before it is committed (a warning holds it);
- tournament: no hints, no take-back; a move is committed only by the mover's
  clock press, refused (FLAG on the squares concerned and a message) while the
  board does not show a complete legal move with every captured piece removed;
- computer: the computer's sides' moves come from the assistants
  (`assistants.py`): no move of that side is accepted while it
  thinks; its move is lit with COMPUTER_FROM/TO and only that move is
  accepted (committed once settled, no press needed).
Multiwarcaby: the side's button (clock or 'done') ends the turn in every mode:
accepted when the board is two legal moves from the turn start (the record
shows one such pair); a press after one move asks for the second. A first
move that ends the game (fewer than two pieces left, no second move) is a
turn of its own: committed once settled, or at the press in tournament play.

The clock (`clock_binding.py`): a flag in an earlier stage is shown and
play goes on; in the last stage with two sides it is a loss on time;
with three or four multiwarcaby players the flagged player is out of play
(`variant.drop_side`): they keep their points, the board is guided back to
the start of their turn, and the next player moves. When the game ends on
the board the session stops the clock. Starting the clock stays its owner's
business.

Who owns what (each field is written by one class only):
- `Session` (`core.py`): the coordinator and the public face App, the page, the
  hall, DXP and the tests use: the phase, the time, what the sensors show
  (`occupancy`, `reading`, `sensor_log`) and the players' names. The
  parts' fields it shows (`message`, `opponent`, ...) are `Forward`s
  (`forward.py`): one line each, the owner stays the part.
- `turn_flow.py`: what a settled board means (commit, take back, new game);
- `judge.py`: a press on what is not a move, the words for an odd board;
- `commits.py`: the record's changes and the events each one publishes;
- `ends.py`: the clock's verdicts and ends from outside the rules;
- `assist.py`: the computer's turn, hints, the coach's check (the searching
  itself is `assistants.py`'s, off the loop);
- `takebacks.py`: the take-back button, a take-back asked from outside or of
  the far side (its state: `takeback_flow.py`);
- `output.py`: the LED frame and the turn prompt;
- state owners, each usable alone: `message_line.py` (the screen's line,
  a notice, the hint's words), `pending_turn.py` (the turn not yet
  committed), `board_guard.py` (a refusal's FLAG, a board that must go
  back), `clock_binding.py` (the clock).
"""

from damka.controller.session.core import Session
from damka.controller.session.types import (POLL_MS, CarryingOut, CommittedMove, Mode, Opponent, Phase,
                                            PolledClock, SessionSettings, TurnClock)

__all__ = ["CarryingOut", "CommittedMove", "Mode", "Opponent", "Phase", "PolledClock", "POLL_MS", "Session", "SessionSettings",
           "TurnClock"]
