"""``/graphql`` (strawberry, with the GraphiQL page on GET) and the same data over REST under ``/api/gametypes``.

REST twin of every GraphQL query:

- ``GET /api/gametypes`` and ``GET /api/gametypes/{id}``
- ``GET /api/gametypes/{id}/bots?owner=``
- ``GET /api/gametypes/{id}/contests`` and ``GET /api/gametypes/{id}/contests/{name}?method=AMBITIOUS``
  (with ``rankings``)
- ``GET /api/gametypes/{id}/games?limit=&offset=&victor=&contest=&anyPlayers=A&anyPlayers=B&players=``
- ``GET /api/gametypes/{id}/games/{game_id}`` (with ``turns`` and the final ``state``)
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Query
from starlette.requests import Request

from hexarena.server.graphql import data


def _store(request: Request) -> Any:
    store = request.app.state.store
    if store is None:
        raise HTTPException(status_code=503, detail="this server has no database")
    return store


def _type(game_type: str) -> dict[str, Any]:
    found = data.game_type(game_type)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no game type {game_type[:80]!r}")
    return found


def rest_router() -> APIRouter:
    router = APIRouter(prefix="/api/gametypes", tags=["records"])

    @router.get("", summary="Game types (every hexarena game, by battlebot wire id)")
    async def types() -> list[dict[str, Any]]:
        return data.game_types()

    @router.get("/{game_type}", summary="One game type")
    async def one_type(game_type: str) -> dict[str, Any]:
        return _type(game_type)

    @router.get("/{game_type}/bots", summary="Registered bots of a game type, by owner")
    async def bots(request: Request, game_type: str, owner: str | None = Query(None, max_length=200)) -> Any:
        return await data.bots(_store(request), _type(game_type)["name"], owner)

    @router.get("/{game_type}/contests", summary="Contests of a game type")
    async def contests(request: Request, game_type: str) -> Any:
        return await data.contests(_store(request), _type(game_type)["name"])

    @router.get("/{game_type}/contests/{name}", summary="One contest with its rankings")
    async def contest(
        request: Request, game_type: str, name: str, method: str = Query("AMBITIOUS", max_length=16)
    ) -> Any:
        game = _type(game_type)["name"]
        found = await data.contest(_store(request), game, name)
        if found is None:
            raise HTTPException(status_code=404, detail=f"no contest {name[:80]!r}")
        try:
            found["rankings"] = await data.contest_rankings(_store(request), game, name, method)
        except ValueError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return found

    @router.get("/{game_type}/games", summary="Games with the seed's filters")
    async def games(
        request: Request,
        game_type: str,
        limit: int = Query(50, ge=0, le=1000),
        offset: int = Query(0, ge=0),
        victor: str | None = Query(None, max_length=64),
        contest: str | None = Query(None, max_length=64),
        anyPlayers: list[str] | None = Query(None),
        players: list[str] | None = Query(None),
    ) -> Any:
        filters = {
            "limit": limit,
            "offset": offset,
            "victor": victor,
            "contest": contest,
            "anyPlayers": anyPlayers,
            "players": players,
        }
        return await data.games(_store(request), _type(game_type)["name"], filters)

    @router.get("/{game_type}/games/{game_id}", summary="One game with its turns and final state")
    async def game(request: Request, game_type: str, game_id: str) -> Any:
        found = await data.one_game(_store(request), _type(game_type)["name"], game_id)
        if found is None:
            raise HTTPException(status_code=404, detail=f"no game {game_id[:80]!r}")
        return found

    return router


def install(app: FastAPI, path: str = "/graphql") -> None:
    """Mount ``/graphql`` (GraphiQL on GET) and the REST twin."""
    from strawberry.fastapi import GraphQLRouter

    from hexarena.server.graphql.schema import schema

    app.include_router(GraphQLRouter(schema, graphql_ide="graphiql"), prefix=path)
    app.include_router(rest_router())
