"""Rating history for the leaderboard page's plots: ``GET /api/ui/leaderboard/{game}/history``.

Its own router (in ``hexarena.server.ui.ROUTERS``), like each UI module. The store keeps every
rating a player had (``rating_history``, one row per update); this answers them for the players on the
leaderboard, oldest first, as ``{"game": ..., "history": {player: [{"rating", "rd", "games", "at"}, ...]}}``
(``rd``: the Glicko-2 deviation then, for the plot's band).
Bounded both ways: at most ``MAX_PLAYERS`` players and ``points`` (at most the store's ``MAX_HISTORY_POINTS``)
of each one's newest ratings, so a bot with a million rated games costs the same as one with a thousand.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query

from hexarena.core.errors import HexarenaError
from hexarena.core.registry import get_game
from hexarena.server.services import ServicesDep
from hexarena.store.directory import MAX_HISTORY_POINTS

router = APIRouter(tags=["ui"])

#: The most players one answer plots.
MAX_PLAYERS = 100


@router.get("/api/ui/leaderboard/{game}/history", summary="Each leaderboard player's ratings over time")
async def rating_history(
    services: ServicesDep,
    game: str,
    limit: int = Query(default=50, ge=1, le=MAX_PLAYERS, description="players, best first"),
    points: int = Query(default=200, ge=1, le=MAX_HISTORY_POINTS, description="newest ratings per player"),
) -> dict[str, Any]:
    try:
        name = get_game(game).name
    except HexarenaError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None
    store = services.store
    if store is None:
        raise HTTPException(status_code=503, detail="this server keeps no ratings (no store)")
    players = [r.key for r in await store.list_ratings(name, limit=limit)]
    history = await store.rating_history(name, keys=players, points=points) if players else {}
    return {
        "game": name,
        "history": {
            key: [
                {
                    "rating": p.rating,
                    "rd": p.rd,
                    "games": p.games,
                    "at": p.updated_at.isoformat() if p.updated_at else None,
                }
                for p in points
            ]
            for key, points in history.items()
        },
    }
