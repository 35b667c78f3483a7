"""``/graphql`` (strawberry, with the GraphiQL page on GET) and the same data over REST under ``/api/gametypes``.

REST twin of every GraphQL query:

- ``GET /api/gametypes`` and ``GET /api/gametypes/{id}``
- ``GET /api/gametypes/{id}/bots?owner=``
- ``GET /api/gametypes/{id}/contests`` and ``GET /api/gametypes/{id}/contests/{name}?method=AMBITIOUS``
  (with ``rankings``)
- ``GET /api/gametypes/{id}/games?limit=&offset=&victor=&contest=&anyPlayers=A&anyPlayers=B&players=``
- ``GET /api/gametypes/{id}/games/{game_id}?turnsOffset=&turnsLimit=`` (with ``turnCount``, a page of ``turns``
  and the final ``state``)

Both are bounded the same way (``limits``): pages of at most ``MAX_PAGE`` games and ``MAX_TURNS`` turns; GraphQL
documents are also bounded in tokens, aliases and depth, each query in time, and the server in queries running at
once and database connections held by them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from cross_web import HTTPException as StrawberryHTTPException
from fastapi import APIRouter, FastAPI, HTTPException, Query
from starlette.requests import Request
from strawberry.fastapi import GraphQLRouter
from strawberry.types import ExecutionResult

from graphql import GraphQLError
from hexarena.server.graphql import data
from hexarena.server.graphql.limits import MAX_PAGE, MAX_TURNS, GraphQLLimits, QueryGate
from hexarena.server.graphql.schema import schema
from hexarena.server.services import services_of

__all__ = ["GraphQLLimits", "lifespan", "rest_router", "router"]


def _store(request: Request) -> Any:
    store = services_of(request.app).store
    if store is None:
        raise HTTPException(status_code=503, detail="this server has no database")
    return store


def _type(game_type: str) -> dict[str, Any]:
    found = data.game_type(game_type)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no game type {game_type[:80]!r}")
    return found


#: The REST twin of the GraphQL queries (see the module docstring).
rest_router = APIRouter(prefix="/api/gametypes", tags=["records"])


@rest_router.get("", summary="Game types (every hexarena game, by battlebot wire id)")
async def types() -> list[dict[str, Any]]:
    return data.game_types()


@rest_router.get("/{game_type}", summary="One game type")
async def one_type(game_type: str) -> dict[str, Any]:
    return _type(game_type)


@rest_router.get("/{game_type}/bots", summary="Registered bots of a game type, by owner")
async def bots(request: Request, game_type: str, owner: str | None = Query(None, max_length=200)) -> Any:
    return await data.bots(_store(request), _type(game_type)["name"], owner)


@rest_router.get("/{game_type}/contests", summary="Contests of a game type")
async def contests(request: Request, game_type: str) -> Any:
    return await data.contests(_store(request), _type(game_type)["name"])


@rest_router.get("/{game_type}/contests/{name}", summary="One contest with its rankings")
async def contest(request: Request, game_type: str, name: str, method: str = Query("AMBITIOUS", max_length=16)) -> Any:
    game = _type(game_type)["name"]
    found = await data.contest(_store(request), game, name)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no contest {name[:80]!r}")
    try:
        found["rankings"] = await data.contest_rankings(_store(request), game, name, method)
    except ValueError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    return found


@rest_router.get("/{game_type}/games", summary="Games with the seed's filters")
async def games(
    request: Request,
    game_type: str,
    limit: int = Query(50, ge=0, le=MAX_PAGE),
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


@rest_router.get("/{game_type}/games/{game_id}", summary="One game with a page of its turns and its final state")
async def game(
    request: Request,
    game_type: str,
    game_id: str,
    turnsOffset: int = Query(0, ge=0),
    turnsLimit: int = Query(MAX_TURNS, ge=0, le=MAX_TURNS),
) -> Any:
    found = await data.one_game(_store(request), _type(game_type)["name"], game_id)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no game {game_id[:80]!r}")
    found["turns"] = found["turns"][turnsOffset : turnsOffset + turnsLimit]
    return found


class BoundedGraphQLRouter(GraphQLRouter[Any, Any]):
    """strawberry's FastAPI router, each operation inside the app's query gate and under its time limit."""

    def decode_json(self, data: str | bytes) -> object:
        """strawberry answers 400 only to a syntax error: a body ``json.loads`` refuses otherwise (an integer
        over Python's 4,300-digit limit, nesting deeper than the parser goes) escaped as a 500, after which the
        server drops the client's keep-alive connection. The same 400 as the REST routes' instead."""
        try:
            return json.loads(data)
        except (ValueError, RecursionError) as exc:
            text = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise StrawberryHTTPException(400, f"the body is not usable JSON: {type(exc).__name__}: {text}") from None

    async def execute_single(self, request: Any, *args: Any, **kwargs: Any) -> ExecutionResult:
        gate: QueryGate = request.app.state.graphql_gate
        with gate.slot():
            try:
                async with asyncio.timeout(gate.limits.timeout) as deadline:
                    return await super().execute_single(request, *args, **kwargs)
            except TimeoutError:
                if not deadline.expired():
                    raise
                return ExecutionResult(data=None, errors=[GraphQLError(gate.timeout_message())])


#: ``/graphql`` (GraphiQL on GET) and the REST twin; the bounds are ``Settings.graphql`` (see :func:`lifespan`).
router = APIRouter()


async def _no_context() -> None:
    """strawberry's default context getter is a plain lambda, which FastAPI runs in a worker thread: a thread hop
    per GraphQL request. None still gives resolvers strawberry's default context (the request and response)."""
    return None


router.include_router(
    BoundedGraphQLRouter(schema, graphql_ide="graphiql", context_getter=_no_context), prefix="/graphql"
)
router.include_router(rest_router)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The server's query gate (queries at once, time and database connections they may take), per server."""
    app.state.graphql_gate = QueryGate(services_of(app).settings.graphql)
    yield
