"""Menus driven by four buttons (up, down, ok, menu): pure state, no drawing.

The board has few buttons, so a menu is a list of rows: up/down move between
rows (stopping at the first and the last), ok on a setting row steps its value
on and take-back steps it back (left/right on a keyboard), ok on an action row
chooses it, menu goes back. A tap (touch screen, mouse) on a row does what ok
does there (`choose`). `screen.py` draws a menu; the app feeds it `Button`
presses and taps and acts on the `MenuAction` they return.

    menu = game_menu()
    action = menu.press(Button.OK)        # None, or a MenuAction
    action = menu.choose(2)               # a tap on the third row shown
    setup = menu.setup()                  # GameSetup from the current values
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Callable, Sequence

from damka.controller.clock import presets
from damka.controller.clock.errors import TimeControlError
from damka.controller.game.setup import OWN_ENGINE, Engines, GameSetup, engine_names
from damka.controller.words import language, retell, say
from damka.controller.words.catalogue import keys
from damka.engine import levels
from damka.engine.variants import variant_catalogue, variant_class
from damka.hardware.interfaces import Button

# The Damka board has 9x9 squares; a variant on a larger board is offered for
# the simulator and for boards built larger, and says so.
BOARD_SIZE = (9, 9)

Choices = tuple[tuple[str, str], ...]


def _choices(prefix: str, values: Sequence[str]) -> Choices:
    """(value, label) pairs, each label the catalogue's "<prefix>.<value>" in the board's language."""
    return tuple((value, say(f"{prefix}.{value}")) for value in values)


def variant_choices() -> Choices:
    """(name, label) of every variant, in the order of RULES.md (the engine's catalogue):
    a short name for the small screen, else the variant's title."""
    return _variant_choices(language())


@cache
def _variant_choices(code: str) -> Choices:
    choices = []
    for info in variant_catalogue():
        label = say(f"variant.{info.name}") if f"variant.{info.name}" in keys() else info.title
        if info.board_size[0] > BOARD_SIZE[0] or info.board_size[1] > BOARD_SIZE[1]:
            label = say("variant.larger", label=label)
        choices.append((info.name, label))
    return tuple(choices)


def board_note(variant: str) -> str:
    """What a game on a larger board than the Damka board's needs, in a line (else "")."""
    for info in variant_catalogue():
        width, height = info.board_size
        if info.name == variant and (width > BOARD_SIZE[0] or height > BOARD_SIZE[1]):
            return say("variant.needs_board", width=width, height=height)
    return ""


def mode_choices() -> Choices:
    return _choices("mode", ("casual", "learning", "tournament", "computer"))


def side_choices() -> Choices:
    return _choices("sides", ("2", "3", "4", "teams"))


def time_choices() -> Choices:
    """"" no clock, "casual" the variant's casual default, else a preset of
    controller/clock/presets.py by name."""
    return (("", say("clock.none")), ("casual", say("clock.casual")),
            *((preset.name, say("clock.preset", name=preset.name, text=preset.text))
              for preset in presets.PRESETS if preset.name != "untimed"))


def colour_choices() -> Choices:
    return _choices("colours", ("lot", "first", "second"))


def level_choices() -> Choices:
    """The computer's strengths (engine/levels.py), weakest first."""
    return tuple((level.name, say(f"level.{level.name}") if f"level.{level.name}" in keys()
                  else level.name.capitalize()) for level in levels.LEVELS)


def computer_choices() -> Choices:
    """How many seats the computer fills in a 3-4 player game ("0": all but one)."""
    return _choices("computers", ("0", "1", "2", "3"))


def hint_choices() -> Choices:
    """Learning mode: the coach's hints per game ("" no limit)."""
    return (*_choices("hints", ("3", "5", "1", "0")), ("", say("hints.unlimited")))


@dataclass(frozen=True)
class MenuAction:
    """What a chosen action row asks the app to do."""

    name: str


@dataclass
class Row:
    """A setting (choices: value, label pairs) or an action (no choices)."""

    key: str
    label: str
    choices: Sequence[tuple[str, str]] = ()
    index: int = 0
    visible: bool = True

    @property
    def is_action(self) -> bool:
        return not self.choices

    @property
    def value(self) -> str:
        return self.choices[self.index][0] if self.choices else self.key

    @property
    def value_label(self) -> str:
        return self.choices[self.index][1] if self.choices else ""

    def step(self, delta: int) -> None:
        if self.choices:
            self.index = (self.index + delta) % len(self.choices)

    def select(self, value: str) -> None:
        for index, (choice, _) in enumerate(self.choices):
            if choice == value:
                self.index = index
                return
        raise ValueError(f"{self.label}: no choice {value!r}")


@dataclass
class Menu:
    """A titled list of rows with a cursor."""

    title: str
    rows: list[Row]
    cursor: int = 0
    footer: str = ""
    description: str = ""
    name: str = ""  # which menu this is ("new", "game", "resume", "settings"): the title is in the board's language

    def __post_init__(self) -> None:
        self.footer = self.footer or say("menu.footer")

    def visible_rows(self) -> list[Row]:
        return [row for row in self.rows if row.visible]

    @property
    def current(self) -> Row:
        return self.visible_rows()[self.cursor]

    def row(self, key: str) -> Row:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(key)

    def press(self, button: Button) -> MenuAction | None:
        """Apply one button; return the chosen action, if any."""
        rows = self.visible_rows()
        if button is Button.UP:
            self.cursor = max(0, self.cursor - 1)
        elif button is Button.DOWN:
            self.cursor = min(len(rows) - 1, self.cursor + 1)
        elif button is Button.OK:
            return self.choose(self.cursor)
        elif button is Button.TAKE_BACK and not rows[self.cursor].is_action:
            self.step(-1)  # the board's second button: one value back
        elif button is Button.MENU:
            return MenuAction("back")
        return None

    def choose(self, index: int) -> MenuAction | None:
        """Ok on the `index`-th row shown (a tap on it): an action is chosen, a setting steps on."""
        rows = self.visible_rows()
        if not 0 <= index < len(rows):
            return None
        self.cursor = index
        if rows[index].is_action:
            return MenuAction(rows[index].key)
        self.step(1)
        return None

    def step(self, delta: int) -> None:
        """Step the current setting either way (keyboard left/right, take-back)."""
        self.current.step(delta)
        self._changed()

    def _changed(self) -> None:
        """Settings that depend on others show or hide; keep the cursor on its row."""
        current = self.current
        self.update_visibility()
        rows = self.visible_rows()
        self.cursor = rows.index(current) if current in rows else min(self.cursor, len(rows) - 1)

    def update_visibility(self) -> None:
        """Show the rows that apply to the values chosen (none depend on others here)."""


def retold(menu: Menu | None, before: str) -> Menu | None:
    """The open `menu` in the board's new language (it was built in `before`), its
    cursor and values kept: the words change under the player's finger, nothing else."""
    if menu is None or before == language():
        return menu
    menu.title, menu.footer = retell(menu.title, before), retell(menu.footer, before)
    menu.description = retell(menu.description, before)
    fresh = _FRESH_CHOICES if isinstance(menu, GameMenu) else {}
    for row in menu.rows:
        row.label = retell(row.label, before)
        labels = dict(fresh[row.key]()) if row.key in fresh else {}  # filled-in labels ("... (larger board)")
        row.choices = tuple((value, labels.get(value) or retell(label, before)) for value, label in row.choices)
    if isinstance(menu, GameMenu):
        menu.fit_clock()  # the casual row's label names its preset: made again
    return menu


# The new-game menu's rows whose labels are made from the catalogue: made again in a new language.
_FRESH_CHOICES: dict[str, Callable[[], Choices]] = {
    "variant": variant_choices, "sides": side_choices, "mode": mode_choices, "colours": colour_choices,
    "level": level_choices, "computers": computer_choices, "hints": hint_choices}


def engine_choices(engines: Engines, variant: str) -> tuple[tuple[str, str], ...]:
    """(name, label) of the engines that may play `variant`: each the board config
    names for it (`GameSetup.engines`), in its order, then Damka's own."""
    return (*((name, name) for name in engine_names(engines, variant)), (OWN_ENGINE, say("engine.own", name=OWN_ENGINE)))


class GameMenu(Menu):
    """The menu that sets up a new game."""

    fitted_for: tuple[str, str] = ("", "")  # the game (variant, sides) the clock row was fitted to
    engines: Engines = ()                   # the board config's engines, offered by the engine row

    def _changed(self) -> None:
        self.fit_engine()
        super()._changed()
        self.fit_clock()
        self.description = board_note(self.row("variant").value)

    def fit_engine(self, wanted: str = "") -> None:
        """The engine row offers the engines configured for the chosen variant;
        a choice another variant also has is kept, else the variant's default."""
        row = self.row("engine")
        variant = self.row("variant").value
        keep = wanted or row.value
        row.choices = engine_choices(self.engines, variant)
        if keep not in {value for value, _ in row.choices}:
            keep = row.choices[0][0]  # the variant's default: the first configured, else Damka's own
        row.select(keep)

    def fit_clock(self) -> None:
        """A preset chosen for one game does not carry over to another (the
        4-player `multiwarcaby-4` on a Classic game): when the game or its
        sides change, a chosen clock becomes the new game's casual default
        ("No clock" stays). The casual row names the preset it stands for."""
        game = (self.row("variant").value, self.row("sides").value)
        row = self.row("time_control")
        if game != self.fitted_for and self.fitted_for != ("", "") and row.value not in ("", "casual"):
            row.select("casual")
        self.fitted_for = game
        try:
            sides = 2 if game[1] == "teams" else int(game[1])
            preset = presets.casual_preset(game[0], sides)
            label = say("clock.casual_named", name=preset.name, text=preset.text)
        except (TimeControlError, ValueError):
            label = say("clock.casual")
        row.choices = tuple((value, label if value == "casual" else text) for value, text in row.choices)

    def update_visibility(self) -> None:
        """Sides only for a game that takes them, the level only against the computer, and so on."""
        variant = self.row("variant").value
        mode = self.row("mode").value
        players = variant_class(variant).takes_option("sides")
        self.row("sides").visible = players
        if not players:
            self.row("sides").index = 0
        self.row("colours").visible = mode == "computer" or not players
        self.row("level").visible = mode == "computer"
        self.row("computers").visible = mode == "computer" and players and \
            self.row("sides").value in ("3", "4", "teams")
        self.row("hints").visible = mode == "learning"
        self.row("engine").visible = mode in ("computer", "learning") and len(self.row("engine").choices) > 1

    def setup(self) -> GameSetup:
        sides = self.row("sides").value
        return GameSetup(
            variant=self.row("variant").value,
            sides=2 if sides == "teams" else int(sides),
            teams=sides == "teams",
            mode=self.row("mode").value,
            time_control=self.row("time_control").value,
            colours=self.row("colours").value,
            level=self.row("level").value,
            computers=int(self.row("computers").value),
            hint_limit=int(self.row("hints").value) if self.row("hints").value else None,
            engines=self.engines,
            engine=self.row("engine").value if len(self.row("engine").choices) > 1 else "",  # none to choose
        )


def game_menu(setup: GameSetup | None = None) -> GameMenu:
    """The new-game menu, preset to `setup` (the last game's choices)."""
    setup = setup or GameSetup()
    menu = GameMenu(
        title=say("new.title"),
        rows=[
            Row("variant", say("new.variant"), variant_choices()),
            Row("sides", say("new.sides"), side_choices()),
            Row("mode", say("new.mode"), mode_choices()),
            Row("lessons", say("new.lessons")),  # beside the mode: learning to play, step by step
            Row("puzzles", say("new.puzzles")),  # and practice, with the learner's progress
            Row("time_control", say("new.clock"), time_choices()),
            Row("colours", say("new.colours"), colour_choices()),
            Row("engine", say("new.engine"), engine_choices(setup.engines, setup.variant)),
            Row("level", say("new.level"), level_choices()),
            Row("computers", say("new.computers"), computer_choices()),
            Row("hints", say("new.hints"), hint_choices()),
            Row("settings", say("new.settings")),
            Row("start", say("new.start")),
        ],
        footer=say("new.footer"),
        name="new",
    )
    menu.row("variant").select(setup.variant)
    menu.row("sides").select("teams" if setup.teams else str(setup.sides))
    menu.row("mode").select(setup.mode)
    if setup.time_control not in {value for value, _ in time_choices()}:
        menu.row("time_control").choices = (*time_choices(), (setup.time_control, setup.time_control))
    menu.row("time_control").select(setup.time_control)
    menu.row("colours").select(setup.colours)
    menu.row("level").select(setup.level)
    menu.row("computers").select(str(setup.computers) if 0 <= setup.computers <= 3 else "0")
    hint_value = "" if setup.hint_limit is None else str(setup.hint_limit)
    if hint_value not in {value for value, _ in hint_choices()}:
        menu.row("hints").choices = (*hint_choices(), (hint_value, say("hints.per_game", count=hint_value)))
    menu.row("hints").select(hint_value)
    menu.engines = setup.engines
    menu.fit_engine(setup.engine_name())
    menu.update_visibility()
    menu.fit_clock()
    menu.description = board_note(setup.variant)
    menu.cursor = len(menu.visible_rows()) - 1  # on "Start": one press of ok starts the same game again
    return menu


def game_actions_menu(*, clock_running: bool = False, clock_paused: bool = False, can_take_back: bool = True,
                      offer: str = "", asks: bool = False) -> Menu:
    """The menu during a game (the menu button). The clock's row only when there
    is something to do with it: pause it while it runs, start it while paused
    (not in a game without a clock, nor before its first press, nor after it
    stopped). `offer`: an offer waits for
    the board's answer (it says which): Accept and Decline come first.
    `asks`: a seat is played from afar, so a draw and a take-back are asked
    of that player (`controller/app_offers.py`), not done at once."""
    rows = [Row("accept", say("game.accept")), Row("decline", say("game.decline"))] if offer else []
    rows += [
        Row("continue", say("game.continue")),
        Row("draw", say("game.offer_draw") if asks else say("game.agree_draw")),
        Row("resign", say("game.resign")),
    ]
    if can_take_back:
        rows.append(Row("takeback", say("game.ask_takeback") if asks else say("game.takeback")))
    if clock_running:
        rows.append(Row("pause", say("game.pause")))
    elif clock_paused:
        rows.append(Row("unpause", say("game.unpause")))
    rows.append(Row("settings", say("game.settings")))
    rows.append(Row("new", say("game.new")))
    return Menu(title=say("game.title"), rows=rows, footer=say("game.footer"), description=offer, name="game")


def resume_menu(description: str) -> Menu:
    """Offered at start-up when an unfinished game is stored; `description`
    names it (the screen shows it under the title)."""
    return Menu(
        title=say("resume.title"),
        rows=[Row("resume", say("resume.resume")), Row("new", say("resume.new"))],
        footer=say("resume.footer"),
        description=description,
        name="resume",
    )
