"""Replays for the web UI: every position of a game, so the replay page steps through it without a rules engine.

- ``GET /api/ui/replay/{id}``: the record, with every position inline when the game is short (at most
  :data:`INLINE_PLIES` plies), else null and the page fetches them in chunks of :data:`CHUNK`;
- ``GET /api/ui/replay/{id}/states?start=&count=``: one chunk.

A game longer than :data:`MAX_REPLAY_PLIES` is cut there (``truncated``). Replaying runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from fastapi import APIRouter, Query

from hexarena.core.errors import HexarenaError
from hexarena.core.game import Game
from hexarena.core.registry import get_game
from hexarena.server.matches import game_record
from hexarena.server.services import ServicesDep

#: Most positions a replay serves (a longer game's replay is cut there, with ``truncated`` set).
MAX_REPLAY_PLIES = 20000
#: Games up to this many plies come with every position inline; longer ones are fetched in chunks.
INLINE_PLIES = 300
CHUNK = 100

router = APIRouter()

S = TypeVar("S")
M = TypeVar("M")


def positions(
    game: Game[S, M], record: dict[str, Any], start: int, stop: int
) -> tuple[list[dict[str, Any]], str | None]:
    """The JSON views of plies ``start`` .. ``stop - 1`` (ply 0 is the start position), replaying the moves with
    the rules; a move that no longer replays stops the list there, with the reason."""
    try:
        state = game.new(**(record.get("params") or {}))
    except HexarenaError as exc:
        return [], f"cannot rebuild the start position: {exc.reason}"
    out = [_lean(game.to_json(state))] if start == 0 else []
    for i, m in enumerate(record["moves"][: stop - 1]):
        try:
            state = game.play(state, game.parse(m["move"]))
        except HexarenaError as exc:
            return out, f"move {i + 1} ({m['move']!r}): {exc.reason}"
        if i + 1 >= start:
            out.append(_lean(game.to_json(state)))
    return out, None


def winner_side(game: Game[S, M], record: dict[str, Any]) -> str:
    """The side the winner played at the end (after a Hex swap the second seat plays black), from the moves; the
    seat's name when the moves no longer replay."""
    seat = int(record["winner"])
    try:
        state = game.new(**(record.get("params") or {}))
        for m in record["moves"]:
            state = game.play(state, game.parse(m["move"]))
    except HexarenaError:
        return str(game.seat_names[seat])
    return str(game.side_name(state, seat))


def _lean(view: dict[str, Any]) -> dict[str, Any]:
    """A position for the replay list without the fields that repeat the whole history (Hive's UHP GameString):
    keeping them would make a replay quadratic in the game's length (11 MB for a 1,500-ply Hive game)."""
    view.pop("game_string", None)
    return view


@router.get("/api/ui/replay/{game_id}", tags=["ui"], summary="A game with its positions, for stepping through it")
async def replay(game_id: str, services: ServicesDep) -> dict[str, Any]:
    """The record; ``states`` holds every position when the game is short (else null: the page fetches
    ``/states`` in chunks of ``chunk``), so a long game never means one huge answer."""
    record = await game_record(services, game_id)
    game = get_game(record["game"])
    plies = min(len(record["moves"]), MAX_REPLAY_PLIES)
    record["seats"] = list(game.seat_names)
    record["plies"] = plies
    record["truncated"] = len(record["moves"]) > MAX_REPLAY_PLIES
    record["chunk"] = CHUNK
    record["states"] = None
    record["replay_error"] = None
    if plies <= INLINE_PLIES:
        record["states"], record["replay_error"] = await asyncio.to_thread(positions, game, record, 0, plies + 1)
    record["winner_side"] = None
    if record.get("winner") is not None:
        record["winner_side"] = await asyncio.to_thread(winner_side, game, record)
    return record


@router.get("/api/ui/replay/{game_id}/states", tags=["ui"], summary="Positions start .. start+count-1 of a game")
async def replay_states(
    game_id: str,
    services: ServicesDep,
    start: int = Query(default=0, ge=0),
    count: int = Query(default=CHUNK, ge=1, le=CHUNK),
) -> dict[str, Any]:
    record = await game_record(services, game_id)
    game = get_game(record["game"])
    stop = min(start + count, min(len(record["moves"]), MAX_REPLAY_PLIES) + 1)
    states, error = await asyncio.to_thread(positions, game, record, start, stop)
    return {"start": start, "states": states, "replay_error": error}


__all__ = ["CHUNK", "INLINE_PLIES", "MAX_REPLAY_PLIES", "positions", "router", "winner_side"]
