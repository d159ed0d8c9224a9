#!/usr/bin/env python3
"""Damka's computer against other engines, at equal time per move.

    python benchmarks/engine_match.py --games 100 --time 0.1
    python benchmarks/engine_match.py --variants international --games 20 --time 1 --pdn games.pdn
    python benchmarks/engine_match.py --opponent levels --pairs master:strong club:casual --games 20

Opponents:
- `turbo` (the default): py-draughts' strongest engine for each variant with
  the same time limit: `TurboEngine` (PVS, trained pattern evaluation) in
  international, the only variant it plays, and `SimpleEngine` elsewhere.
  Every row of the table names the engine that played.
- `pydraughts`: py-draughts' alpha-beta engine (`SimpleEngine`: negamax,
  iterative deepening, TT, quiescence) in every variant. py-draughts (PyPI
  `py-draughts`) and pydraughts both install the import package `draughts`,
  so run this from a venv with `pip install -e .[match]` and without the dev
  extra (see docs/computer.md).
- `levels`: Damka against Damka at other levels, both through `damka hub`
  subprocesses (the Hub protocol end to end), each level at --time.
- `baseline`: this checkout's `damka hub` (master) against another Damka
  installation's (`--baseline-python`, e.g. a venv with an older commit
  installed): measures a search change at equal time.

Each variant plays --games games, colours alternating, each pair of games
from the same opening (--opening-plies random moves from --seed). Damka's own
rules referee; a game reaching --max-plies is a draw. Progress goes to
stderr; the table (W/D/L, score %, Elo with its 95% error) to stdout.

Adjudication (`--adjudicate LEAD`, off by default) ends a game as a win for
the side whose material lead (man 1, king 3) stays at LEAD or more for
--adjudicate-plies plies in a row: the usual way to shorten long matches
where one side is clearly winning. `--check-adjudication` plays every game to
its end anyway and counts how often the verdict would have differed from
the game's real result, so the rule can be measured before it is trusted.
"""

from __future__ import annotations

import argparse
import math
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from damka.bridges.hub_protocol import HubBoard, find_dialect, format_line, parse_line  # noqa: E402
from damka.engine import Game, find_variant  # noqa: E402
from damka.engine.levels import choose_move, find_level, make_searcher  # noqa: E402
from damka.engine.move import Move  # noqa: E402
from damka.engine.pdn_write import write_game  # noqa: E402
from damka.engine.variant import Result  # noqa: E402

# Damka variant -> (py-draughts board class name, Hub name)
VARIANTS = {
    "classic": ("BrazilianBoard", "brazilian"),
    "russian": ("RussianBoard", "russian"),
    "american": ("AmericanBoard", "english"),
    "international": ("StandardBoard", "normal"),
}
# The variants py-draughts' TurboEngine plays (it is built for the 10x10 board only).
TURBO_VARIANTS = {"international"}
# py-draughts' American board lists quiet moves beside an available capture
# (no compulsory capture), so its engine plays moves Damka's rules refuse:
# american runs only when asked for, and such games are counted as skipped.
DEFAULT_VARIANTS = ["classic", "russian", "international"]


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    disagreements: int = 0  # games stopped because the two rule sets differed
    adjudicated: int = 0  # games ended by --adjudicate
    verdicts: int = 0  # --check-adjudication: games where a verdict was reached
    wrong_verdicts: int = 0  # ... and it differed from the played-out result

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    def elo(self) -> tuple[float, float]:
        """Elo difference from the score, and its 95% error (normal approximation)."""
        n = self.games
        if not n:
            return 0.0, 0.0
        s = min(max(self.score(), 0.5 / n), 1 - 0.5 / n)  # 0% and 100% have no finite Elo
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / n
        error = 1.96 * math.sqrt(max(var, 1e-9) / n)
        elo = -400 * math.log10(1 / s - 1)
        slope = 400 / math.log(10) / (s * (1 - s))
        return elo, slope * error


# -- players: choose(game) -> Move ----------------------------------------------------


def damka_player(variant: Any, seconds: float, level: str = "master") -> Callable[[Game], Move]:
    searcher = make_searcher(variant)
    chosen = find_level(level)

    def choose(game: Game) -> Move:
        return choose_move(variant, game.position, chosen, time_limit=seconds, now=time.monotonic,
                           history=game.positions[:-1], searcher=searcher).move

    return choose


def pydraughts_engine(variant_name: str, strongest: bool) -> str:
    """The py-draughts engine that plays `variant_name`: TurboEngine where it
    can when `strongest`, else SimpleEngine."""
    return "TurboEngine" if strongest and variant_name in TURBO_VARIANTS else "SimpleEngine"


class PyDraughtsPlayer:
    """A py-draughts engine (`SimpleEngine` or `TurboEngine`) on its own board, kept in step with the game."""

    def __init__(self, variant_name: str, seconds: float, engine: str = "SimpleEngine") -> None:
        import draughts

        if not hasattr(draughts, engine):
            sys.exit(f"engine_match: this `draughts` has no {engine} (not py-draughts?); "
                     "use a venv with `pip install -e .[match]`")
        self.board = getattr(draughts, VARIANTS[variant_name][0])()
        self.engine = getattr(draughts, engine)(depth_limit=64, time_limit=seconds)
        self.variant = find_variant(variant_name)
        self.mirror = variant_name == "american"  # py-draughts puts the first mover on 21-32
        self.synced = 0

    def _key(self, squares: list[int], captured: list[int]) -> tuple[int, int, frozenset[int]]:
        geometry, size = self.variant.geometry, self.variant.geometry.playable.bit_count()
        to_damka = (lambda i: geometry.from_number(size - i)) if self.mirror else (lambda i: geometry.from_number(i + 1))
        return to_damka(squares[0]), to_damka(squares[-1]), frozenset(to_damka(i) for i in captured)

    def _find(self, move: Move) -> Any:
        for candidate in self.board.legal_moves:
            if self._key(candidate.square_list, candidate.captured_list) == move.key:
                return candidate
        raise RuleDisagreement(f"py-draughts has no move {move}")

    def sync(self, game: Game) -> None:
        for move in game.moves[self.synced:]:
            self.board.push(self._find(move))
        self.synced = len(game.moves)

    def __call__(self, game: Game) -> Move:
        self.sync(game)
        reply = self.engine.get_best_move(self.board)
        key = self._key(reply.square_list, reply.captured_list)
        for move in game.legal_moves():
            if move.key == key:
                return move
        raise RuleDisagreement(f"py-draughts played {reply}, not legal for Damka")


class RuleDisagreement(Exception):
    """The two rule implementations disagree on a move: the game cannot go on."""


class HubPlayer:
    """A `damka hub` subprocess at one level, asked for each move with the whole game."""

    def __init__(self, variant_name: str, level: str, seconds: float, python: str | None = None) -> None:
        self.board = HubBoard(find_dialect(VARIANTS[variant_name][1]))
        # Another installation runs from "/", so this checkout's folders do not shadow it.
        self.proc = subprocess.Popen([python or sys.executable, "-m", "damka", "hub"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1, cwd="/" if python else ROOT)
        self.seconds = seconds
        self._send(format_line("set-param", {"name": "variant", "value": self.board.dialect.hub_name}),
                   format_line("set-param", {"name": "level", "value": level}), "init")
        self._until("ready")

    def _send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines))
        self.proc.stdin.flush()

    def _until(self, command: str) -> dict[str, str]:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            name, args = parse_line(line)
            if name == "error":
                raise RuntimeError(f"damka hub: {args.get('message')}")
            if name == command:
                return args
        raise RuntimeError("damka hub ended")

    def __call__(self, game: Game) -> Move:
        moves = " ".join(self.board.format_move(move) for move in game.moves)
        start = self.board.format_position(game.start)
        self._send(format_line("pos", {"pos": start, "moves": moves}) if moves else f"pos pos={start}",
                   f"level move-time={self.seconds}", "go think")
        return self.board.parse_move(game.position, self._until("done")["move"])

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=10)


# -- games ------------------------------------------------------------------------------


KING_VALUE = 3  # in men, for adjudication only


def white_lead(position: Any) -> int:
    """White's material lead in men (a king counts KING_VALUE) of a draughts position."""
    kings = position.kings
    white = position.white.bit_count() + (KING_VALUE - 1) * (position.white & kings).bit_count()
    black = position.black.bit_count() + (KING_VALUE - 1) * (position.black & kings).bit_count()
    return white - black


@dataclass
class Adjudicator:
    """Watches one game: the first verdict of a lead held long enough, or None."""

    lead: int
    plies: int
    run: int = 0
    side: int = 0
    verdict: float | None = None  # white's points as adjudicated
    at_ply: int = 0

    def see(self, game: Game) -> None:
        if self.lead <= 0 or self.verdict is not None:
            return
        lead = white_lead(game.position)
        side = 1 if lead >= self.lead else -1 if lead <= -self.lead else 0
        self.run = self.run + 1 if side and side == self.side else (1 if side else 0)
        self.side = side
        if self.run >= self.plies:
            self.verdict, self.at_ply = (1.0 if side > 0 else 0.0), game.ply


@dataclass
class Outcome:
    points: float  # white's points of the game as scored
    plies: int
    game: Game
    adjudicated: bool = False
    verdict: float | None = None  # with --check-adjudication: what adjudication would have said
    verdict_ply: int = 0  # ... and at which ply


def play_game(variant: Any, opening: list[Move], white: Callable, black: Callable, max_plies: int,
              judge: Adjudicator | None = None, check: bool = False) -> Outcome:
    """One game from `opening`; stopped at a verdict unless `check` plays it out."""
    game = Game(variant)
    for move in opening:
        game.push(move)
    while game.result is None and game.ply < max_plies:
        player = white if game.turn == 0 else black
        game.push(player(game))
        if judge is not None:
            judge.see(game)
            if judge.verdict is not None and not check:
                return Outcome(judge.verdict, game.ply, game, adjudicated=True)
    result = game.result
    points = 0.5 if result is None or result.winner is None else (1.0 if result.winner == 0 else 0.0)
    return Outcome(points, game.ply, game, verdict=judge.verdict if judge is not None else None,
                   verdict_ply=judge.at_ply if judge is not None else 0)


def random_opening(variant: Any, rng: random.Random, plies: int) -> list[Move]:
    game = Game(variant)
    for _ in range(plies):
        moves = sorted(game.legal_moves(), key=lambda m: (m.start, m.path))
        if not moves or game.result is not None:
            break
        game.push(rng.choice(moves))
    return list(game.moves)


def save_game(path: Path, outcome: Outcome, label: str, index: int, damka_white: bool) -> None:
    """Append the game's PDN record to `path` as soon as it ends (a stopped match keeps its games)."""
    game = outcome.game
    damka, _, other = label.partition("-vs-")
    tags = {"Event": f"engine_match {label}", "Round": str(index + 1),
            "White": damka if damka_white else other, "Black": other if damka_white else damka}
    result = game.result
    if result is None or outcome.adjudicated:  # the result as scored, not (yet) by the rules
        white = outcome.points
        reason = "adjudication" if outcome.adjudicated else f"ply limit ({outcome.plies} plies)"
        places = (1, 1) if white == 0.5 else ((1, 2) if white == 1 else (2, 1))
        winner = None if white == 0.5 else (0 if white == 1 else 1)
        result = Result(points=(white, 1 - white), places=places, reason=reason, winner=winner)
        tags["Termination"] = reason
    with path.open("a", encoding="utf-8") as out:
        out.write(write_game(game.variant, None, game.moves, tags, result=result) + "\n")


def match(variant_name: str, make_damka: Callable, make_other: Callable, args: argparse.Namespace, label: str) -> Tally:
    variant = find_variant(variant_name)
    rng = random.Random(f"{args.seed}-{variant_name}")
    tally = Tally()
    checked = wrong = 0
    opening: list[Move] = []
    for index in range(args.games):
        if index % 2 == 0:
            opening = random_opening(variant, rng, args.opening_plies)
        damka, other = make_damka(), make_other()
        damka_white = index % 2 == 0
        started = time.monotonic()
        judge = Adjudicator(args.adjudicate, args.adjudicate_plies) if args.adjudicate else None
        try:
            outcome = play_game(variant, opening, damka if damka_white else other, other if damka_white else damka,
                                args.max_plies, judge, args.check_adjudication)
        except RuleDisagreement as exc:
            tally.disagreements += 1
            print(f"{label} {variant_name} game {index + 1}: skipped, rules differ: {exc}", file=sys.stderr)
            continue
        finally:
            for player in (damka, other):
                if hasattr(player, "close"):
                    player.close()
        mine = outcome.points if damka_white else 1 - outcome.points
        tally.wins += mine == 1
        tally.draws += mine == 0.5
        tally.losses += mine == 0
        tally.adjudicated += outcome.adjudicated
        if args.pdn is not None:
            save_game(args.pdn, outcome, label, index, damka_white)
        note = " adjudicated" if outcome.adjudicated else ""
        if outcome.verdict is not None:
            checked += 1
            wrong += outcome.verdict != outcome.points
            note = (f" (adjudication at ply {outcome.verdict_ply} would say {outcome.verdict:g} for white: "
                    f"{'right' if outcome.verdict == outcome.points else 'WRONG'})")
        print(f"{label} {variant_name} game {index + 1}/{args.games}: "
              f"{'win' if mine == 1 else 'draw' if mine == 0.5 else 'loss'} as {'white' if damka_white else 'black'}"
              f"{note}, {outcome.plies} plies ({time.monotonic() - started:.1f} s); "
              f"W/D/L {tally.wins}/{tally.draws}/{tally.losses}", file=sys.stderr, flush=True)
    if args.check_adjudication:
        print(f"{label} {variant_name}: adjudication reached a verdict in {checked} of {tally.games} games, "
              f"{wrong} of them different from the played-out result", file=sys.stderr, flush=True)
        tally.verdicts, tally.wrong_verdicts = checked, wrong
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--opponent", choices=("turbo", "pydraughts", "levels", "baseline"), default="turbo",
                        help="turbo: TurboEngine in international, SimpleEngine elsewhere; "
                             "pydraughts: SimpleEngine everywhere")
    parser.add_argument("--baseline-python", help="the Python of another Damka installation (--opponent baseline)")
    parser.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=DEFAULT_VARIANTS)
    parser.add_argument("--games", type=int, default=100, help="games per variant (and per level pair)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move for both sides (0.1, 1)")
    parser.add_argument("--pairs", nargs="+", default=["master:strong", "club:casual", "novice:beginner"],
                        help="level pairs STRONGER:WEAKER for --opponent levels")
    parser.add_argument("--opening-plies", type=int, default=2, help="random plies before the engines play")
    parser.add_argument("--max-plies", type=int, default=300, help="a game this long is a draw")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--pdn", type=Path, metavar="FILE",
                        help="append every game to this PDN file as it ends (to replay or study them)")
    parser.add_argument("--adjudicate", type=int, default=0, metavar="LEAD",
                        help="end a game won for a side leading by LEAD men (king = 3) for --adjudicate-plies plies")
    parser.add_argument("--adjudicate-plies", type=int, default=10)
    parser.add_argument("--check-adjudication", action="store_true",
                        help="play every game out and count how often the verdict would have been wrong")
    args = parser.parse_args(argv)
    if args.games < 1 or args.time <= 0 or args.adjudicate < 0 or args.adjudicate_plies < 1:
        parser.error("--games and --adjudicate-plies must be at least 1, --time above 0, --adjudicate 0 or more")
    if args.check_adjudication and not args.adjudicate:
        parser.error("--check-adjudication needs --adjudicate LEAD")

    rows: list[tuple[str, str, Tally]] = []
    for variant_name in args.variants:
        if args.opponent in ("turbo", "pydraughts"):
            engine = pydraughts_engine(variant_name, args.opponent == "turbo")
            tally = match(variant_name, lambda v=variant_name: damka_player(find_variant(v), args.time),
                          lambda v=variant_name, e=engine: PyDraughtsPlayer(v, args.time, e), args,
                          f"damka-vs-{engine}")
            rows.append((variant_name, f"master vs py-draughts {engine}", tally))
            continue
        if args.opponent == "baseline":
            if not args.baseline_python:
                parser.error("--opponent baseline needs --baseline-python")
            tally = match(variant_name, lambda v=variant_name: HubPlayer(v, "master", args.time),
                          lambda v=variant_name: HubPlayer(v, "master", args.time, args.baseline_python),
                          args, "damka-vs-baseline")
            rows.append((variant_name, "this Damka vs baseline (hub)", tally))
            continue
        for pair in args.pairs:
            strong, weak = pair.split(":")
            tally = match(variant_name, lambda v=variant_name, s=strong: HubPlayer(v, s, args.time),
                          lambda v=variant_name, w=weak: HubPlayer(v, w, args.time), args, f"{strong}-vs-{weak}")
            rows.append((variant_name, f"{strong} vs {weak} (hub)", tally))

    adjudication = (f"; adjudicated at a lead of {args.adjudicate} for {args.adjudicate_plies} plies"
                    f"{' (checked, played out)' if args.check_adjudication else ''}" if args.adjudicate else "")
    print(f"\n{args.time:g} s per move, {args.games} games per row, openings: {args.opening_plies} random plies "
          f"(seed {args.seed}){adjudication}\n")
    print("| variant | match | games | W | D | L | score % | Elo (95%) | skipped | adjudicated |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant_name, what, tally in rows:
        elo, error = tally.elo()
        judged = (f"{tally.verdicts} verdicts, {tally.wrong_verdicts} wrong" if args.check_adjudication
                  else str(tally.adjudicated))
        print(f"| {variant_name} | {what} | {tally.games} | {tally.wins} | {tally.draws} | {tally.losses} | "
              f"{100 * tally.score():.1f} | {elo:+.0f} ± {error:.0f} | {tally.disagreements} | {judged} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
