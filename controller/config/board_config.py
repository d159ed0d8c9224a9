"""The controller's sections of the board's config: [sound], [voice], [light],
[clock], [archive] and [engines] (docs/board.example.toml). `damka.config` hands them here."""

from __future__ import annotations

import os
from dataclasses import dataclass

from damka.controller.config.config_file import Section
from damka.controller.store.budget import DEFAULT_GAMES, DEFAULT_MEGABYTES, ArchiveBudget

# Cue names of [sound] off (controller/cues/listener.py Cue values; a test keeps them equal).
CUE_NAMES = ("byoyomi", "last_seconds", "flag", "refused", "illegal", "computer_moved", "game_over")
VOICE_LANGUAGES = ("en", "pl")
PALETTES = ("standard", "colour-blind")
ENGINE_NAME_MAX = 30
# [clock] carrying_out: whose time carrying out an outside program's move is
# (controller/session/types.py CarryingOut values; a test keeps them equal).
CARRYING_OUT = ("nobody", "mover", "next")
ARCHIVE_MAX_GAMES = 10_000_000      # [archive] max_games: beyond any card
ARCHIVE_MAX_MEGABYTES = 1_000_000   # [archive] max_megabytes: 1 TB


@dataclass(frozen=True)
class SoundConfig:
    """[sound]: the buzzer's cues (docs/board.example.toml)."""

    enabled: bool = True
    off: tuple[str, ...] = ()          # cues switched off
    tournament_quiet: bool = True      # tournament games sound only the flag


@dataclass(frozen=True)
class VoiceConfig:
    """[voice]: spoken announcements through espeak-ng (off by default)."""

    enabled: bool = False
    language: str = ""                 # en or pl; "": the board's language ([board] language, the menu's)
    moves: bool = True                 # announce every move (else refusals, clock and results only)


@dataclass(frozen=True)
class LightConfig:
    """[light]: the LEDs as the players like them; the menu changes them while playing."""

    night: bool = False
    night_brightness: int = 8          # 0-255, used instead of [leds] brightness at night
    last_move: bool = True             # light the last move
    palette: str = "standard"          # or "colour-blind": the Okabe-Ito colours


@dataclass(frozen=True)
class ClockConfig:
    """[clock]: the board's clock with an outside program (a DXP peer, a Hub engine)."""

    # Whose time it is while people carry out the program's move on the board
    # (its own clock stopped when it sent it): nobody, the mover or the next side.
    carrying_out: str = "nobody"


def parse_sound(s: Section) -> SoundConfig:
    off = s.get("off", list, [])
    for name in off:
        if name not in CUE_NAMES:
            raise s.error("off", f"expected cue names ({', '.join(CUE_NAMES)}), got {name!r}")
    sound = SoundConfig(enabled=s.get("enabled", bool, True), off=tuple(off),
                        tournament_quiet=s.get("tournament_quiet", bool, True))
    s.done()
    return sound


def parse_voice(v: Section) -> VoiceConfig:
    voice = VoiceConfig(enabled=v.get("enabled", bool, False),
                        language=v.choice("language", VOICE_LANGUAGES, "") or "",
                        moves=v.get("moves", bool, True))
    v.done()
    return voice


def parse_light(lt: Section) -> LightConfig:
    light = LightConfig(night=lt.get("night", bool, False),
                        night_brightness=lt.int_in("night_brightness", 8, 0, 255),
                        last_move=lt.get("last_move", bool, True),
                        palette=lt.choice("palette", PALETTES, "standard") or "standard")
    lt.done()
    return light


def parse_clock(c: Section) -> ClockConfig:
    clock = ClockConfig(carrying_out=c.choice("carrying_out", CARRYING_OUT, "nobody") or "nobody")
    c.done()
    return clock


def parse_archive(a: Section) -> ArchiveBudget:
    """[archive]: how far imports may fill the game database (controller/store/budget.py)."""
    budget = ArchiveBudget(games=a.int_in("max_games", DEFAULT_GAMES, 1, ARCHIVE_MAX_GAMES),
                           megabytes=a.int_in("max_megabytes", DEFAULT_MEGABYTES, 1, ARCHIVE_MAX_MEGABYTES))
    a.done()
    return budget


def parse_engines(section: Section) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """[engines]: per variant, the Hub engines that may play it, by name:
    `international = "scan hub"` (one engine, named by its command) or
    `[engines.international]` with `Scan = "scan hub"` lines (the first is the variant's default),
    or `Scan = { command = "scan hub", dir = "/opt/scan" }` for one that runs in its own
    folder (Scan reads scan.ini and data/ there). (engines, working directories), both by variant and name."""
    from damka.engine.variants import variant_names  # (the rules load only when engines are named)

    known = variant_names()
    engines: dict[str, dict[str, str]] = {}
    dirs: dict[str, dict[str, str]] = {}
    for variant in list(section.table):
        if variant not in known:
            raise section.error(variant, f"unknown variant; expected one of {', '.join(known)}")
        value = section.get(variant, (str, dict), "")
        if isinstance(value, str):
            engines[variant] = {engine_default_name(value): _engine_command(section, variant, value)}
            continue
        table = Section(section.source, f"engines.{variant}", value)
        named: dict[str, str] = {}
        for name in list(table.table):
            problem = _engine_name_problem(name, named)
            if problem:
                raise table.error(name, problem)
            entry = table.get(name, (str, dict), "")
            if isinstance(entry, dict):
                engine = Section(table.source, f"engines.{variant}.{name}", entry)
                named[name] = _engine_command(engine, "command", engine.get("command", str, ""))
                where = os.path.expanduser(engine.get("dir", str, "").strip())
                if where:
                    dirs.setdefault(variant, {})[name] = where
                engine.done()
            else:
                named[name] = _engine_command(table, name, entry)
        if not named:
            raise section.error(variant, "expected at least one engine: Name = \"command\"")
        engines[variant] = named
    section.done()
    return engines, dirs


def engine_default_name(command: str) -> str:
    """The name of an engine given only by its command: the command, its program without its folder."""
    words = command.split()
    return " ".join([words[0].rsplit("/", 1)[-1], *words[1:]]) if words else ""


def _engine_command(section: Section, key: str, command: str) -> str:
    if not command.strip():
        raise section.error(key, "expected an engine command, got an empty string")
    return command.strip()


def _engine_name_problem(name: str, named: dict[str, str]) -> str:
    """Why `name` cannot name an engine ("" if it can)."""
    from damka.controller.game.setup import OWN_ENGINE  # (as above: it loads the rules)

    if not 0 < len(name) <= ENGINE_NAME_MAX or not name.isprintable() or name != name.strip():
        return f"an engine's name is 1 to {ENGINE_NAME_MAX} printable characters"
    if name.casefold() == OWN_ENGINE.casefold():
        return f"{OWN_ENGINE} is the board's own engine; give the external one another name"
    if any(name.casefold() == other.casefold() for other in named):
        return "named twice (names differ in more than case)"
    return ""
