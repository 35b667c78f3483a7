"""``GET /healthz`` and what the server offers: its games (with their built-in bots) and the player specs it takes."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from hexarena import __version__
from hexarena.bots.registry import builtin_bots
from hexarena.core.registry import available_games
from hexarena.players.policy import LOCAL_ONLY_SCHEMES
from hexarena.players.spec import schemes
from hexarena.server.services import ServicesDep

router = APIRouter()


@router.get("/healthz", tags=["meta"], summary="Liveness, the store's and Redis's state (503 while either is degraded)")
async def healthz(services: ServicesDep) -> JSONResponse:
    """503 while the store or Redis is degraded: either way new matches are refused (a load balancer sends
    creates elsewhere), though the matches already running go on."""
    recorder = services.recorder
    store = "none" if recorder is None else recorder.health()
    degraded = recorder is not None and recorder.degraded
    manager = services.manager
    body = {
        "ok": not degraded,
        "version": __version__,
        "live_matches": len(manager.live),
        # what a long-running server holds, for an operator (and ``bench/soak.py``) to watch for growth
        "finished_kept": len(manager.finished),
        "tasks": len(asyncio.all_tasks()),
        "store": store,
    }
    cluster = services.cluster
    if cluster is not None:
        body["redis"] = cluster.health()
        degraded = degraded or cluster.degraded
        body["ok"] = not degraded
    return JSONResponse(status_code=503 if degraded else 200, content=body)


@router.get("/api/games", tags=["games"], summary="Registered games, their parameters and built-in bots")
async def games_meta() -> list[dict[str, Any]]:
    out = []
    for name, game in sorted(available_games().items()):
        d = game.describe()
        d["builtin_bots"] = sorted(builtin_bots(name))
        out.append(d)
    return out


@router.get("/api/players", tags=["games"], summary="Player spec forms the server accepts")
async def player_kinds(services: ServicesDep) -> dict[str, Any]:
    local_only = {k: v for k, v in schemes().items() if k in LOCAL_ONLY_SCHEMES}
    return {
        "schemes": {k: v for k, v in schemes().items() if k not in LOCAL_ONLY_SCHEMES},
        "engines": sorted(services.settings.engines),
        "server_only": local_only,
    }
