"""``/graphql`` (strawberry, with the GraphiQL page on GET, imported on its first request) and the same data over REST under ``/api/gametypes``.

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

import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from fastapi import APIRouter, FastAPI, HTTPException, Query
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from hexarena.server.graphql import data
from hexarena.server.graphql.limits import MAX_PAGE, MAX_TURNS, GraphQLLimits, QueryGate
from hexarena.server.services import services_of

if TYPE_CHECKING:
    from hexarena.store import Store

__all__ = ["PATH", "GraphQLLimits", "LazyGraphQL", "lifespan", "rest_router", "router"]


def _store(request: Request) -> Store:
    store = services_of(request.app).store
    if store is None:
        raise HTTPException(status_code=503, detail="this server has no database")
    return store


def _type(game_type: str) -> data.GameTypeJson:
    found = data.game_type(game_type)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no game type {game_type[:80]!r}")
    return found


#: The REST twin of the GraphQL queries (see the module docstring).
rest_router = APIRouter(prefix="/api/gametypes", tags=["records"])


@rest_router.get("", summary="Game types (every hexarena game, by battlebot wire id)")
async def types() -> list[data.GameTypeJson]:
    return data.game_types()


@rest_router.get("/{game_type}", summary="One game type")
async def one_type(game_type: str) -> data.GameTypeJson:
    return _type(game_type)


@rest_router.get("/{game_type}/bots", summary="Registered bots of a game type, by owner")
async def bots(request: Request, game_type: str, owner: str | None = Query(None, max_length=200)) -> list[data.BotJson]:
    return await data.bots(_store(request), _type(game_type)["name"], owner)


@rest_router.get("/{game_type}/contests", summary="Contests of a game type")
async def contests(request: Request, game_type: str) -> list[data.ContestJson]:
    return await data.contests(_store(request), _type(game_type)["name"])


@rest_router.get("/{game_type}/contests/{name}", summary="One contest with its rankings")
async def contest(
    request: Request, game_type: str, name: str, method: str = Query("AMBITIOUS", max_length=16)
) -> data.ContestJson:
    game = _type(game_type)["name"]
    found = await data.contest(_store(request), game, name)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no contest {name[:80]!r}")
    try:
        found["rankings"] = await data.contest_rankings(_store(request), game, name, method)
    except ValueError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    return found


# The two routes of games hold JSON values of any shape (a game's parameters, its turns and state), which pydantic
# cannot read from their type: they declare no response model and answer what `data` built, as it built it.
@rest_router.get("/{game_type}/games", summary="Games with the seed's filters", response_model=None)
async def games(
    request: Request,
    game_type: str,
    limit: int = Query(50, ge=0, le=MAX_PAGE),
    offset: int = Query(0, ge=0),
    victor: str | None = Query(None, max_length=64),
    contest: str | None = Query(None, max_length=64),
    anyPlayers: list[str] | None = Query(None),
    players: list[str] | None = Query(None),
) -> list[data.GameJson]:
    filters: data.GameFilters = {
        "limit": limit,
        "offset": offset,
        "victor": victor,
        "contest": contest,
        "anyPlayers": anyPlayers,
        "players": players,
    }
    return await data.games(_store(request), _type(game_type)["name"], filters)


@rest_router.get(
    "/{game_type}/games/{game_id}", summary="One game with a page of its turns and its final state", response_model=None
)
async def game(
    request: Request,
    game_type: str,
    game_id: str,
    turnsOffset: int = Query(0, ge=0),
    turnsLimit: int = Query(MAX_TURNS, ge=0, le=MAX_TURNS),
) -> data.GameJson:
    found = await data.one_game(_store(request), _type(game_type)["name"], game_id)
    if found is None:
        raise HTTPException(status_code=404, detail=f"no game {game_id[:80]!r}")
    found["turns"] = found.get("turns", [])[turnsOffset : turnsOffset + turnsLimit]
    return found


#: Where GraphQL is served.
PATH = "/graphql"


class LazyGraphQL:
    """The ASGI app of :data:`PATH`: strawberry's router, built (and strawberry imported) on the first request.

    Why: importing strawberry, graphql-core and the schema is a large part of a server's start, and most servers
    answer many requests before their first GraphQL query, if any.
    """

    def __init__(self) -> None:
        self._app: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:
            from hexarena.server.graphql.endpoint import graphql_router

            self._app = graphql_router(PATH)
        await self._app(scope, receive, send)


_endpoint = LazyGraphQL()


class _HandOver(Response):
    """What the ``/graphql`` routes return: strawberry's route, not this one, reads the request and answers it.
    The routes are FastAPI's own so that they stay in the OpenAPI schema without strawberry being imported."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await _endpoint(scope, receive, send)


#: ``/graphql`` (GraphiQL on GET) and the REST twin; the bounds are ``Settings.graphql`` (see :func:`lifespan`).
router = APIRouter()


@router.get(PATH, summary="GraphiQL, the GraphQL IDE (a query in ?query= is run)")
async def graphql_page() -> Response:
    return _HandOver()


@router.post(PATH, summary="One GraphQL query: a JSON body of query, variables and operationName")
async def graphql_query() -> Response:
    return _HandOver()


router.routes.append(WebSocketRoute(PATH, _endpoint, name="graphql_ws"))  # an ASGI app: no handler of its own
router.include_router(rest_router)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The server's query gate (queries at once, time and database connections they may take), per server."""
    app.state.graphql_gate = QueryGate(services_of(app).settings.graphql)
    yield
