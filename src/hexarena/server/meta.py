"""``GET /healthz`` and what the server offers: its games (with their built-in bots) and the player specs it takes."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse, Response

from hexarena import __version__
from hexarena.bots.registry import builtin_bots
from hexarena.core.errors import ConfigError
from hexarena.core.game import Game, setup_refusal
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import available_games, get_game
from hexarena.players.policy import LOCAL_ONLY_SCHEMES
from hexarena.players.spec import remote_address_schemes, schemes
from hexarena.server.board_modules import board_source, board_url
from hexarena.server.services import ServicesDep

router = APIRouter()

S = TypeVar("S")
M = TypeVar("M")


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


def game_meta(game: Game[S, M]) -> JsonObject:
    """Everything the lobby and the board pages need to know of a game, so that no page names a game: its
    parameters (in words) and clock presets (``describe``), its built-in bots, the bots at an address that can
    take a seat (each scheme declares the games it plays) and the URL of its board module (None: generic)."""
    d = game.describe()
    d["builtin_bots"] = [name for name in sorted(builtin_bots(game.name))]
    d["remote_players"] = [
        {"scheme": s.name, "help": s.help_text, "example": s.example} for s in remote_address_schemes(game)
    ]
    d["board"] = board_url(game)
    refusal = setup_refusal(game)  # whether the analysis board's editor can set a position up, and why not
    d["setup"] = {"supported": refusal is None, "reason": refusal}
    return d


@router.get("/api/games", tags=["games"], summary="Registered games: parameters, clock presets, bots and board")
async def games_meta() -> list[dict[str, Any]]:
    return [game_meta(game) for _, game in sorted(available_games().items())]


@router.get(
    "/api/games/{name}/board.js",
    tags=["games"],
    summary="A plugin game's board module for the web UI",
    response_class=Response,
    responses={200: {"content": {"text/javascript": {}}}},
)
async def game_board(name: str) -> Response:
    """The board a plugin game ships among its package's files (``Game.board_module``); hexarena's own boards
    are static files under ``/ui/js/boards/``."""
    try:
        game = get_game(name[:64])
        source = board_source(game)
    except ConfigError as exc:
        raise HTTPException(status_code=404, detail=exc.reason) from None
    return Response(source, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/api/players", tags=["games"], summary="Player spec forms the server accepts")
async def player_kinds(services: ServicesDep) -> dict[str, Any]:
    local_only = {k: v for k, v in schemes().items() if k in LOCAL_ONLY_SCHEMES}
    return {
        "schemes": {k: v for k, v in schemes().items() if k not in LOCAL_ONLY_SCHEMES},
        "engines": sorted(services.settings.engines),
        "server_only": local_only,
    }
