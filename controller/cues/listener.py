"""Sound and voice cues: ONE App listener (`AppListener`) that turns what happens in
a game into cue names (for a buzzer or a speaker) and spoken text (for a
voice), in the order the events happened.

The listener only decides; it never plays. Each `Announcement` goes to the
sinks given (`CueSink.announce`), which must return at once: a buzzer, a
speaker or espeak-ng runs off the board loop (`sinks.ThreadedSink`).

Clock warnings come from the clock itself, watched on the app's ticks
(`tick`, `next_deadline`, so a virtual board wakes the app at the very
millisecond the last seconds begin): entering byo-yomi or using up a period,
the last seconds of the side to move, and the flag.

    cues = CueListener.attach(app, [ThreadedSink(buzzer)], CueSettings())
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Protocol

from damka.controller import events as ev
from damka.controller import words
from damka.controller.words import say
from damka.controller.words.wording import retold_side_name
from damka.controller.app.hooks import AppListener
from damka.controller.clock.view import ClockView, SideView
from damka.controller.words.wording_voice import Phrases, phrases_for

from damka.controller.app.board_settings import BoardSettings

if TYPE_CHECKING:
    from damka.controller.app import App
    from damka.controller.config.board_config import SoundConfig, VoiceConfig


class Cue(enum.Enum):
    """What a sound means. The value is the name shown in settings and logs."""

    BYOYOMI = "byoyomi"              # byo-yomi begins, or a period is used up
    LAST_SECONDS = "last_seconds"    # the side to move is into its last seconds
    FLAG = "flag"
    REFUSED = "refused"              # a press refused
    ILLEGAL = "illegal"              # the board shows what no legal move explains
    COMPUTER_MOVED = "computer_moved"
    GAME_OVER = "game_over"


# Notes per cue: (frequency Hz, ms), 0 Hz a rest. Told apart by rhythm as much
# as by pitch, so a plain on/off buzzer (which ignores the pitch) still works.
TUNES: dict[Cue, tuple[tuple[int, int], ...]] = {
    Cue.BYOYOMI: ((880, 120), (0, 80), (880, 120)),
    Cue.LAST_SECONDS: ((1320, 60),),
    Cue.FLAG: ((1760, 400), (0, 100), (1760, 400), (0, 100), (1760, 400)),
    Cue.REFUSED: ((220, 250),),
    Cue.ILLEGAL: ((330, 120), (0, 60), (220, 250)),
    Cue.COMPUTER_MOVED: ((660, 80), (990, 120)),
    Cue.GAME_OVER: ((523, 150), (659, 150), (784, 300)),
}
LAST_SECONDS_MS = 10_000

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CueSettings:
    """Which cues sound and whether a voice speaks. In tournament mode the
    board is quiet but for the flag, unless `tournament_quiet` is off."""

    sound: bool = True
    cues: frozenset[Cue] = frozenset(Cue)
    tournament_quiet: bool = True
    voice: bool = False
    language: str = ""               # the voice's language; "": the board's (it follows the menu's choice)
    announce_moves: bool = True

    @classmethod
    def from_config(cls, sound: SoundConfig, voice: VoiceConfig) -> "CueSettings":
        """From the board config's [sound] and [voice] (controller.config.board_config SoundConfig, VoiceConfig)."""
        return cls(sound=sound.enabled, cues=frozenset(c for c in Cue if c.value not in sound.off),
                   tournament_quiet=sound.tournament_quiet, voice=voice.enabled, language=voice.language,
                   announce_moves=voice.moves)

    def sounds(self, cue: Cue, mode: str) -> bool:
        if not self.sound or cue not in self.cues:
            return False
        return cue is Cue.FLAG or mode != "tournament" or not self.tournament_quiet


@dataclass(frozen=True)
class Announcement:
    """One thing to tell the players: a sound cue (None: voice only) and what a voice says."""

    time_ms: int
    cue: Cue | None
    text: str
    language: str = ""   # the language `text` is in (the voice speaks it so); "": the voice's own


class CueSink(Protocol):
    """Plays announcements. Must return at once (never block the board loop)."""

    def announce(self, item: Announcement) -> None: ...


@dataclass
class _ClockMark:
    """What the clock watch has already warned about, per side."""

    byoyomi: dict[int, tuple[int, int]] = field(default_factory=dict)   # side -> (stage, periods) warned
    last: set[tuple[int, int, int, bool]] = field(default_factory=set)  # (side, stage, periods, in period)


class CueListener(AppListener):
    """An App listener: its events, its ticks for the clock warnings, the board settings."""

    def __init__(self, app: App, sinks: Iterable[CueSink], settings: CueSettings | None = None, *,
                 voice_missing: bool = False) -> None:
        """`voice_missing`: no voice can speak (espeak-ng is not installed): whenever the
        voice is switched on the screen and the log say so, and the board plays on silent."""
        self.app = app
        self.sinks = list(sinks)
        self.settings = settings or CueSettings()
        self.voice_missing = voice_missing
        self.emitted: list[Announcement] = []
        self._marks = _ClockMark()
        self._planned: list[str] = []   # the computer's moves said when lit, not said again when carried out

    @classmethod
    def attach(cls, app: App, sinks: Iterable[CueSink], settings: CueSettings | None = None, *,
               voice_missing: bool = False) -> "CueListener":
        listener = cls(app, sinks, settings, voice_missing=voice_missing)
        app.listen(listener)
        listener.tell_no_voice()
        return listener

    def on_event(self, event: ev.GameEvent) -> None:
        self(event)

    def settings_changed(self, settings: BoardSettings) -> None:
        self.follow(settings)

    def follow(self, board: BoardSettings) -> None:
        """The board settings changed (controller.app.board_settings.BoardSettings): sound and voice on or off."""
        self.configure(replace(self.settings, sound=board.sound, voice=board.voice))

    def configure(self, settings: CueSettings) -> None:
        switched_on = settings.voice and not self.settings.voice
        self.settings = settings
        if switched_on:
            self.tell_no_voice()

    def tell_no_voice(self) -> None:
        if self.voice_missing and self.settings.voice:
            why = say("sound.no_espeak")
            log.warning("%s", why)
            self.app.notice = why

    @property
    def language(self) -> str:
        """What the voice speaks: [voice] language, else the board's language now."""
        return self.settings.language or words.language()

    @property
    def phrases(self) -> Phrases:
        return phrases_for(self.language)

    # -- events -----------------------------------------------------------------

    def __call__(self, event: ev.GameEvent) -> None:
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _started(self, event: ev.GameStarted) -> None:
        self._marks = _ClockMark()
        self._planned = []

    def _move(self, event: ev.MoveCommitted) -> None:
        if self._planned:   # the computer's move, said when it was lit ("Computer plays: ..."): once is enough
            if self._planned.pop(0) == event.text:
                return
            self._planned = []
        if self.settings.announce_moves:
            self._emit(event.time_ms, None, self.phrases.move(self._player(event.side), event.text))

    def _refused(self, event: ev.MoveRefused) -> None:
        self._emit(event.time_ms, Cue.REFUSED, self.phrases.refused(event.reason))

    def _unknown(self, event: ev.PositionUnknown) -> None:
        self._emit(event.time_ms, Cue.ILLEGAL, self.phrases.illegal(event.missing, event.extra))

    def _takeback(self, event: ev.TakebackGuided) -> None:
        guide = event.guide
        sides = self.app.session.variant.sides if self.app.session is not None else ()
        steps = tuple((step.square, sides[step.owner] if step.owner is not None and step.owner < len(sides) else None,
                       step.king, step.put) for step in guide.steps)
        self._emit(event.time_ms, None, self.phrases.takeback(
            tuple((self._player(side), moves) for side, moves in guide.turns), steps))

    def _computer(self, event: ev.ComputerPlanned) -> None:
        self._planned = list(event.moves)
        self._emit(event.time_ms, Cue.COMPUTER_MOVED, self.phrases.computer(event.moves))

    def _flag(self, event: ev.FlagFell) -> None:
        if event.final:
            self._emit(event.time_ms, Cue.FLAG, self.phrases.flag(self._player(event.side)))

    def _out(self, event: ev.SideOut) -> None:
        self._emit(event.time_ms, None, self.phrases.out(self._player(event.side), event.reason))

    def _exercise(self, event: ev.ExerciseSaid) -> None:
        self._emit(event.time_ms, None, event.text)

    def _over(self, event: ev.GameOver) -> None:
        result = event.result
        winner = self._player(result.winner) if result.winner is not None else None
        self._emit(event.time_ms, Cue.GAME_OVER, self.phrases.result(winner, result.reason))

    # -- the clock, on the app's ticks ---------------------------------------------

    def tick(self, now: int) -> None:
        clock = self.app.clock
        if clock is None or self.app.session is None or clock.state.value != "running":
            return
        self._watch(clock.view(now))

    def next_deadline(self, now: int | None = None) -> int | None:
        """The next moment a warning may be due, to be woken at: the side to
        move reaching its last seconds, or its time (main or a period) running out."""
        clock = self.app.clock
        if clock is None or clock.state.value != "running":
            return None
        view = clock.view(self.app.now)
        side = view.sides[view.active]
        left = side.period_ms if side.period_ms is not None else side.remaining_ms
        if side.untimed or side.flagged or left <= 0:
            return None
        if left > LAST_SECONDS_MS and self._last_key(side) not in self._marks.last:
            return self.app.now + left - LAST_SECONDS_MS
        return self.app.now + left

    def _watch(self, view: ClockView) -> None:
        side = view.sides[view.active]
        if side.untimed or side.flagged or side.out:
            return
        if side.period_ms is not None:
            seen = self._marks.byoyomi.get(side.side)
            if seen is None or seen != (side.stage, side.periods):
                self._marks.byoyomi[side.side] = (side.stage, side.periods)
                self._emit(view.at_ms, Cue.BYOYOMI, self.phrases.byoyomi(self._player(side.side), side.periods))
        left = side.period_ms if side.period_ms is not None else side.remaining_ms
        key = self._last_key(side)
        if 0 < left <= LAST_SECONDS_MS and key not in self._marks.last:
            self._marks.last.add(key)
            self._emit(view.at_ms, Cue.LAST_SECONDS, self.phrases.last_seconds(self._player(side.side),
                                                                                 (left + 999) // 1000))

    @staticmethod
    def _last_key(side: SideView) -> tuple[int, int, int, bool]:
        return side.side, side.stage, side.periods, side.period_ms is not None

    # -- out ----------------------------------------------------------------------

    def _player(self, side: int) -> str:
        """The side's name as the voice says it: the board's default names ("Black (computer)")
        in the voice's language when [voice] language is not the board's."""
        players = self.app.game_players
        name = players[side] if 0 <= side < len(players) else str(side + 1)
        board = words.language()
        if self.language == board or self.app.session is None:
            return name
        with words.speaking(self.language):
            return retold_side_name(self.app.session.variant, side, name, board)

    def _emit(self, time_ms: int, cue: Cue | None, text: str) -> None:
        mode = self.app.setup.mode
        sound = cue if cue is not None and self.settings.sounds(cue, mode) else None
        if sound is None and not self.settings.voice:
            return
        item = Announcement(time_ms, sound, text if self.settings.voice else "", self.language)
        self.emitted.append(item)
        for sink in self.sinks:
            sink.announce(item)


# Any: each handler takes the kind of event its key names (a dict cannot say so per key).
_HANDLERS: dict[type[ev.GameEvent], Callable[[CueListener, Any], None]] = {
    ev.GameStarted: CueListener._started, ev.MoveCommitted: CueListener._move,
    ev.MoveRefused: CueListener._refused, ev.PositionUnknown: CueListener._unknown,
    ev.ComputerPlanned: CueListener._computer, ev.FlagFell: CueListener._flag,
    ev.SideOut: CueListener._out, ev.GameOver: CueListener._over, ev.TakebackGuided: CueListener._takeback,
    ev.ExerciseSaid: CueListener._exercise,
}
