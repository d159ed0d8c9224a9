"""A stored game rebuilt with the engine from its rows, every move checked
against the rules and against the position stored after it, players who went
out taken out again in order: what a resume, a replay or an export reads."""

from __future__ import annotations

import json
from typing import Sequence

from damka.controller.store.rows import StoredDrop, StoredGame, StoredMove, json_or, result_from_json
from damka.controller.store.schema import StoreError
from damka.engine.errors import DamkaError
from damka.engine.game import Game
from damka.engine.move import Move
from damka.engine.variants import find_variant


def rebuild_game(game_id: int, game_row: Sequence, move_rows: Sequence[Sequence], drops: list[StoredDrop],
                 where: str) -> StoredGame:
    """Game `game_id` from its `games` row and its `moves` rows (by ply);
    StoreError (naming `where`) if anything disagrees."""
    (name, options, start, players, mode, time_control, clock_start, clock, clock_state, tags, created,
     finished, result, notes) = game_row
    try:
        variant = find_variant(name, **json.loads(options))
        game = Game(variant, variant.parse_position(start))
    except DamkaError as exc:
        raise StoreError(f"{where}: cannot rebuild it: {exc}") from None
    geometry = variant.geometry
    stored_moves: list[StoredMove] = []
    pending = list(drops)

    def apply_drops() -> None:
        # A player who went out after this ply: the position changes without a move.
        while pending and pending[0].ply <= game.ply:
            drop = pending.pop(0)
            if drop.ply != game.ply:
                continue  # (after a later take-back: not in this line of play)
            try:
                game.amend(variant.drop_side(game.position, drop.side))  # type: ignore[attr-defined]
            except (AttributeError, ValueError, DamkaError) as exc:
                raise StoreError(f"{where}: cannot take side {drop.side + 1} out after ply {drop.ply}: {exc}") \
                    from None

    for ply, side, text, m_start, m_path, m_captures, position, m_clock, m_time in move_rows:
        apply_drops()
        if ply != game.ply + 1:
            raise StoreError(f"{where}: move {game.ply + 1} is missing")
        try:
            move = Move(geometry.parse(m_start), tuple(geometry.parse(s) for s in m_path.split()),
                        frozenset(geometry.parse(s) for s in m_captures.split()))
            game.push(move)
        except DamkaError as exc:
            raise StoreError(f"{where}, move {ply} ({text}): not legal there: {exc}") from None
        if variant.format_position(game.position) != position:
            raise StoreError(f"{where}, move {ply} ({text}): the position after it differs from the saved one")
        clock_after = json_or(m_clock)
        stored_moves.append(StoredMove(ply, side, text, move, position,
                                       None if clock_after is None else tuple(clock_after), m_time))
    apply_drops()
    final = result_from_json(result)
    if final is not None and game.result != final:
        game.declare(final)
    clock_now = json_or(clock)
    return StoredGame(
        id=game_id, game=game, variant=name, options=json.loads(options), players=tuple(json.loads(players)),
        mode=mode, time_control=time_control, created=created, finished=finished, result=final,
        clock_start=None if clock_start is None else tuple(json.loads(clock_start)),
        clock_ms=None if clock_now is None else tuple(clock_now), clock_state=json_or(clock_state),
        moves=stored_moves, tags=json.loads(tags), drops=drops, notes=json_or(notes, {}),
    )
