"""Sound and voice cues: one listener on App.bus, cue names in the order the
game produced them, the clock's warnings at their very millisecond, quiet
tournaments, switched-off cues, and sinks that never hold up the board loop."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

from damka.controller import events as ev
from damka.controller.app import App
from damka.controller.cues.sinks import RecordingSink, ThreadedSink
from damka.controller.cues.listener import TUNES, Cue, CueListener, CueSettings
from damka.controller.game.setup import GameSetup
from damka.controller.words.wording_voice import phrases_for
from damka.engine.levels import LEVELS
from test_app import make, on_board

# 30 s, then two byo-yomi periods of 15 s: every clock warning in one short game.
BYOYOMI = "0.5+2x15"
EVERY_CUE_IN_ORDER = [Cue.ILLEGAL, Cue.REFUSED, Cue.LAST_SECONDS, Cue.BYOYOMI, Cue.LAST_SECONDS, Cue.BYOYOMI,
                      Cue.LAST_SECONDS, Cue.FLAG, Cue.GAME_OVER]


def play_scenario(mode: str, sinks, settings: CueSettings | None = None) -> tuple[App, CueListener]:
    """An illegal move put right, a refused press, a move, then Black's clock runs out through byo-yomi."""
    app = App(setup=GameSetup("classic", mode=mode, time_control=BYOYOMI), start_game=True)
    listener = CueListener.attach(app, sinks, settings)
    app.history = ev.EventHistory()  # type: ignore[attr-defined] - the test's own record
    app.bus.subscribe(app.history)
    board = on_board(app)
    name = app.session.variant.geometry.name
    move = app.session.game.legal_moves()[0]
    start = name(move.start)
    board.lift(start)
    board.advance(100)
    board.drop("a5")          # no legal move goes there: the board guides the piece back
    board.advance(5000)
    board.lift("a5")
    board.advance(100)
    board.drop(start)
    board.advance(1000)
    board.lift(start)         # a press with a piece in the hand is refused
    board.advance(100)
    board.press(0)
    board.advance(100)
    board.drop(start)
    board.advance(1000)
    make(board, app, move)
    board.advance(500)
    board.press(0)
    board.run_until_idle()    # Black thinks forever
    return app, listener


def test_cues_come_in_the_order_of_the_game_with_the_clock_warnings_on_time() -> None:
    sink = RecordingSink()
    app, listener = play_scenario("casual", [sink])
    assert sink.cues == EVERY_CUE_IN_ORDER
    times: dict[Cue, list[int]] = {item.cue: [] for item in sink.items}
    for item in sink.items:
        times[item.cue].append(item.time_ms)
    (pressed,) = [e.time_ms for e in app.history.of(ev.ClockPressed)]  # White's press starts Black's time
    # Each warning at its millisecond: 10 s before the main time and each period run out.
    assert times[Cue.LAST_SECONDS] == [pressed + 20_000, pressed + 35_000, pressed + 50_000]
    assert times[Cue.BYOYOMI] == [pressed + 30_000, pressed + 45_000]
    assert times[Cue.FLAG] == times[Cue.GAME_OVER] == [pressed + 60_000]


def test_a_tournament_is_quiet_but_for_the_flag() -> None:
    sink = RecordingSink()
    play_scenario("tournament", [sink])
    assert sink.cues == [Cue.FLAG]
    loud = RecordingSink()
    play_scenario("tournament", [loud], CueSettings(tournament_quiet=False))
    assert loud.cues == EVERY_CUE_IN_ORDER


def test_each_cue_can_be_switched_off() -> None:
    sink = RecordingSink()
    play_scenario("casual", [sink], CueSettings(cues=frozenset(Cue) - {Cue.LAST_SECONDS, Cue.REFUSED}))
    assert sink.cues == [c for c in EVERY_CUE_IN_ORDER if c not in (Cue.LAST_SECONDS, Cue.REFUSED)]
    silent = RecordingSink()
    play_scenario("casual", [silent], CueSettings(sound=False))
    assert silent.items == []


def test_the_computer_s_move_has_its_cue() -> None:
    sink = RecordingSink()
    app = App(setup=GameSetup("classic", mode="computer", colours="first", level=LEVELS[0].name),
              start_game=True, inline_thinking=True)
    CueListener.attach(app, [sink])
    board = on_board(app)
    make(board, app, app.session.game.legal_moves()[0])
    board.advance(3000)
    assert sink.cues == [Cue.COMPUTER_MOVED]


def test_a_blocked_player_never_holds_up_the_loop_and_plays_in_order_after() -> None:
    """The sink's player waits on a gate for the whole game: the game still
    plays to its end; opened, the player gets the cues in the game's order."""
    gate = threading.Event()
    heard: list[Cue] = []

    def player(item) -> None:
        gate.wait(30)
        heard.append(item.cue)

    sink = ThreadedSink(player, maxsize=32)
    app, listener = play_scenario("casual", [sink])
    assert app.session.result is not None          # the game ended while the player was stuck
    assert heard == []                               # ... on its first cue
    gate.set()
    assert sink.drain(10)
    assert heard == EVERY_CUE_IN_ORDER and sink.dropped == 0
    sink.close()


def test_a_full_queue_drops_the_newest_instead_of_waiting() -> None:
    gate = threading.Event()
    sink = ThreadedSink(lambda item: gate.wait(30), maxsize=2)
    play_scenario("casual", [sink])
    gate.set()
    assert sink.drain(10)
    # At most one playing and two queued were kept (the worker may not have taken the first yet).
    assert sink.dropped >= len(EVERY_CUE_IN_ORDER) - 3
    assert sink.played + sink.dropped == len(EVERY_CUE_IN_ORDER)
    sink.close()


def test_the_simulator_writes_the_same_cues_to_a_wav_file(tmp_path: Path) -> None:
    from damka.sim.sound import RATE
    from damka.sim.interactive import attach_sound

    app = App(setup=GameSetup("classic", mode="casual", time_control=BYOYOMI), start_game=True)
    listener, sinks = attach_sound(app, wav=tmp_path / "cues.wav", speakers=False)
    board = on_board(app)
    make(board, app, app.session.game.legal_moves()[0])
    board.advance(500)
    board.press(0)
    board.run_until_idle()
    assert sinks[0].drain(10)
    recorder = sinks[0].player
    assert recorder.cues == ["last_seconds", "byoyomi", "last_seconds", "byoyomi", "last_seconds", "flag",
                             "game_over"]
    with wave.open(str(tmp_path / "cues.wav")) as wav:
        frames = wav.getnframes()
    expected = sum(RATE * ms // 1000 for cue in recorder.cues for _, ms in TUNES[Cue(cue)])
    assert frames == expected


def test_voice_text_says_moves_and_results_in_english_and_polish() -> None:
    sink = RecordingSink()
    app, _ = play_scenario("casual", [sink], CueSettings(voice=True))
    texts = [item.text for item in sink.items]
    assert texts[0] == "Illegal move. put back on c3. take off a5"
    assert texts[1].startswith("Refused")
    assert "White: c3 to " in texts[2] and texts[-1] == "White wins. on time"
    pl = phrases_for("pl")
    assert pl.move("Biały", "c3xe5xg7") == "Biały: c3 bije e5 bije g7"
    assert pl.result("Czarne", "on time") == "Czarne wygrywa. na czas"      # the catalogue's words
    assert pl.result("Czarne", "no legal moves") == "Czarne wygrywa"        # none: left out, not said in English
