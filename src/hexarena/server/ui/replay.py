"""Replays for the web UI: every position of a game, so the replay page steps through it without a rules engine.

- ``GET /api/ui/replay/{id}``: the record, with every position inline when the game is short (at most
  :data:`INLINE_PLIES` plies), else null and the page fetches them in chunks of :data:`CHUNK`;
- ``GET /api/ui/replay/{id}/states?start=&count=``: one chunk.

A game longer than :data:`MAX_REPLAY_PLIES` is cut there (``truncated``). Replaying runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from typing import TypedDict, TypeVar

from fastapi import APIRouter, Query

from hexarena.core.errors import HexarenaError
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import get_game
from hexarena.server.matches import game_record
from hexarena.server.records import GameRecordJson
from hexarena.server.services import ServicesDep

#: Most positions a replay serves (a longer game's replay is cut there, with ``truncated`` set).
MAX_REPLAY_PLIES = 20000
#: Games up to this many plies come with every position inline; longer ones are fetched in chunks.
INLINE_PLIES = 300
CHUNK = 100

router = APIRouter()

S = TypeVar("S")
M = TypeVar("M")


class ReplayJson(GameRecordJson):
    """``GET /api/ui/replay/{id}``: the record, with its seats, how many plies the replay shows (and whether it cut
    the game short), every position when the game is short (else None: ``chunk`` at a time from ``/states``), why
    a move did not replay, and the side the winner played."""

    seats: list[str]
    plies: int
    truncated: bool
    chunk: int
    states: list[JsonObject] | None
    replay_error: str | None
    winner_side: str | None


class StatesJson(TypedDict):
    """``GET /api/ui/replay/{id}/states``: positions ``start`` on, and why a move did not replay."""

    start: int
    states: list[JsonObject]
    replay_error: str | None


def positions(game: Game[S, M], record: GameRecordJson, start: int, stop: int) -> tuple[list[JsonObject], str | None]:
    """The JSON views of plies ``start`` .. ``stop - 1`` (ply 0 is the start position), replaying the moves with
    the rules; a move that no longer replays stops the list there, with the reason."""
    try:
        state = game.new(**(record.get("params") or {}))
    except HexarenaError as exc:
        return [], f"cannot rebuild the start position: {exc.reason}"
    out = [_lean(game.to_json(state))] if start == 0 else []
    for i, m in enumerate(record["moves"][: stop - 1]):
        try:
            state = game.play(state, game.parse(str(m["move"])))
        except HexarenaError as exc:
            return out, f"move {i + 1} ({m['move']!r}): {exc.reason}"
        if i + 1 >= start:
            out.append(_lean(game.to_json(state)))
    return out, None


def winner_side(game: Game[S, M], record: GameRecordJson, seat: int) -> str:
    """The side the winner (``seat``) played at the end (after a Hex swap the second seat plays black), from the
    moves; the seat's name when the moves no longer replay."""
    try:
        state = game.new(**(record.get("params") or {}))
        for m in record["moves"]:
            state = game.play(state, game.parse(str(m["move"])))
    except HexarenaError:
        return str(game.seat_names[seat])
    return str(game.side_name(state, seat))


def _lean(view: JsonObject) -> JsonObject:
    """A position for the replay list without the fields that repeat the whole history (Hive's UHP GameString):
    keeping them would make a replay quadratic in the game's length (11 MB for a 1,500-ply Hive game)."""
    view.pop("game_string", None)
    return view


@router.get(
    "/api/ui/replay/{game_id}",
    tags=["ui"],
    summary="A game with its positions, for stepping through it",
    response_model=dict[str, object],
)
async def replay(game_id: str, services: ServicesDep) -> ReplayJson:
    """The record; ``states`` holds every position when the game is short (else null: the page fetches
    ``/states`` in chunks of ``chunk``), so a long game never means one huge answer."""
    record = await game_record(services, game_id)
    game = get_game(record["game"])
    plies = min(len(record["moves"]), MAX_REPLAY_PLIES)
    states: list[JsonObject] | None = None
    error = None
    if plies <= INLINE_PLIES:
        states, error = await asyncio.to_thread(positions, game, record, 0, plies + 1)
    winner = record.get("winner")
    side = None if winner is None else await asyncio.to_thread(winner_side, game, record, winner)
    return {
        **record,
        "seats": list(game.seat_names),
        "plies": plies,
        "truncated": len(record["moves"]) > MAX_REPLAY_PLIES,
        "chunk": CHUNK,
        "states": states,
        "replay_error": error,
        "winner_side": side,
    }


@router.get(
    "/api/ui/replay/{game_id}/states",
    tags=["ui"],
    summary="Positions start .. start+count-1 of a game",
    response_model=dict[str, object],
)
async def replay_states(
    game_id: str,
    services: ServicesDep,
    start: int = Query(default=0, ge=0),
    count: int = Query(default=CHUNK, ge=1, le=CHUNK),
) -> StatesJson:
    record = await game_record(services, game_id)
    game = get_game(record["game"])
    stop = min(start + count, min(len(record["moves"]), MAX_REPLAY_PLIES) + 1)
    states, error = await asyncio.to_thread(positions, game, record, start, stop)
    return {"start": start, "states": states, "replay_error": error}


__all__ = ["CHUNK", "INLINE_PLIES", "MAX_REPLAY_PLIES", "positions", "router", "winner_side"]
