"""Rating history for the leaderboard page's plots: ``GET /api/ui/leaderboard/{game}/history``.

Its own router (in ``hexarena.server.ui.ROUTERS``), like each UI module. The store keeps every
rating a player had (``rating_history``, one row per update); this answers them for the players on the
leaderboard, oldest first, as ``{"game": ..., "history": {player: [{"rating", "games", "at"}, ...]}}``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Query

from hexarena.core.errors import HexarenaError
from hexarena.core.registry import get_game
from hexarena.server.services import ServicesDep

router = APIRouter(tags=["ui"])


@router.get("/api/ui/leaderboard/{game}/history", summary="Each leaderboard player's ratings over time")
async def rating_history(
    services: ServicesDep, game: str, limit: int = Query(default=100, ge=1, le=1000)
) -> dict[str, Any]:
    try:
        name = get_game(game).name
    except HexarenaError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None
    store = services.store
    if store is None:
        raise HTTPException(status_code=503, detail="this server keeps no ratings (no store)")
    players = [r.key for r in await store.list_ratings(name, limit=limit)]
    history = await store.rating_history(name, keys=players) if players else {}
    return {
        "game": name,
        "history": {
            key: [
                {"rating": p.rating, "games": p.games, "at": p.updated_at.isoformat() if p.updated_at else None}
                for p in points
            ]
            for key, points in history.items()
        },
    }
