"""Listings for the web UI: ``GET /api/ui/games`` (stored games filtered by game, player and result) and
``GET /api/ui/bots`` (built-in and registered bots, with their ratings, by game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from fastapi import APIRouter, HTTPException, Query

from hexarena.bots.registry import builtin_bots
from hexarena.core.jsonvalue import JsonValue
from hexarena.core.person import is_person_key
from hexarena.core.registry import available_games, get_game
from hexarena.server import records
from hexarena.server.schemas import MAX_OFFSET
from hexarena.server.services import Services, ServicesDep


class BotRow(TypedDict):
    """A row of ``GET /api/ui/bots``: a built-in, a registered bot or a rated player of one game, and its rating
    once it has one (``spec`` is a registered bot's stored spec, a built-in's ``builtin:NAME``)."""

    game: str
    name: str
    kind: str
    spec: JsonValue
    owner: NotRequired[str]
    rating: NotRequired[float]
    games: NotRequired[int]


RESULTS = ("win", "draw", "running", "aborted", "interrupted", "finished")

router = APIRouter()


@router.get(
    "/api/ui/games",
    tags=["ui"],
    summary="Stored games filtered by game, player and result",
    response_model=list[dict[str, object]],
)
async def ui_games(
    services: ServicesDep,
    game: str | None = Query(default=None, max_length=64),
    player: str | None = Query(default=None, max_length=200),
    result: str | None = Query(default=None, max_length=20),
    limit: int = Query(default=50, ge=1, le=500),
    offset: int = Query(default=0, ge=0, le=MAX_OFFSET),
) -> list[records.GameSummary]:
    if result and result not in RESULTS:
        raise HTTPException(status_code=400, detail=f"result must be one of {list(RESULTS)}, got {result!r}")
    store = services.store
    if store is None:
        rows = in_memory_games(services, game, player)
    else:
        status = {"running": "running", "aborted": "aborted", "interrupted": "interrupted"}.get(
            result or "", "finished" if result else None
        )
        found = await store.list_games(
            game=game or None, player=player or None, status=status, limit=limit, offset=offset
        )
        rows = [records.summary_json(r) for r in found]
    if result == "win":
        rows = [r for r in rows if r["winner"] is not None]
    elif result == "draw":
        rows = [r for r in rows if r["winner"] is None and r["status"] == "finished"]
    return rows[:limit] if store is None else rows


def in_memory_games(services: Services, game: str | None, player: str | None) -> list[records.GameSummary]:
    """Without a database: the matches this server played and is playing, filtered by game and player."""
    manager = services.manager
    rows = [records.live_summary(m) for m in list(manager.finished.values()) + list(manager.live.values())]
    rows = [r for r in rows if (not game or r["game"] == game)]
    if player:
        rows = [r for r in rows if any(p.get("name") == player for p in r["players"])]
    return rows


@router.get("/api/ui/bots", tags=["ui"], summary="Built-in and registered bots, and ratings, by game")
async def ui_bots(
    services: ServicesDep, game: str | None = Query(default=None, max_length=64)
) -> list[Mapping[str, object]]:  # not list[BotRow]: a response model would validate and reorder the rows
    """One row per player of each game, best rated first: a built-in and its rating (stored under
    ``builtin:NAME``) are one row, as are a registered bot and the rating under its id."""
    names = sorted(available_games()) if not game else [get_game(game).name]
    out: list[Mapping[str, object]] = []
    for name in names:
        rows = await bot_rows(services, name)
        ranked: list[BotRow] = sorted(rows.values(), key=_best_rated_first)
        out.extend(ranked)
    return out


def _best_rated_first(row: BotRow) -> tuple[float, str]:
    return -row.get("rating", float("-inf")), row["name"]


async def bot_rows(services: Services, name: str) -> dict[str, BotRow]:
    """The built-ins of game ``name``, its registered bots and its rated players, one row per key."""
    rows: dict[str, BotRow] = {}
    for bot in sorted(builtin_bots(name)):
        rows[f"builtin:{bot}"] = {"game": name, "name": bot, "kind": "builtin", "spec": f"builtin:{bot}"}
    store = services.store
    if store is not None:
        for b in await store.list_bots(game=name):
            rows[b.bot_id] = {"game": name, "name": b.bot_id, "kind": b.kind, "owner": b.owner, "spec": b.spec}
        for r in await store.list_ratings(name, limit=100):
            if is_person_key(r.key):
                continue  # a person, not a bot: on the leaderboard only
            row = rows.setdefault(r.key, {"game": name, "name": r.key, "kind": "rated", "spec": r.key})
            row["rating"] = round(r.rating, 1)
            row["games"] = r.games
    return rows


__all__ = ["RESULTS", "router"]
