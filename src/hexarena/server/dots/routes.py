"""The turn-token HTTP protocol of hexagon dots (docs/protocols/hexdots.md), wire-exact.

| Request | Answer |
|---|---|
| ``POST /`` ``{rows, cols}`` | 201 + ``Location: <prefix>/<id>``; bad data 403 ``invalid game data``; past the client's create budget 429 + ``Retry-After`` |
| ``GET /`` | 200 ``[{id, state}]`` |
| ``GET /match`` | 201 + ``Location`` of a table waiting for a second player |
| ``POST /<id>/players`` ``{name}`` | blocks until your turn: 200 Game + ``X-Turn-Token``; full or over: 410 |
| ``POST /<id>/moves`` + ``X-Turn-Token`` | illegal line or stale token: 403 ``{error}`` (disqualified); legal: blocks until your next turn, then 200 Delta + new token; the game over: 200 Delta without a token |
| ``GET /<id>`` | 200 Game; unknown id 404 |
| ``POST /<id>/observers`` ``{wrapper?}`` | streamed ``application/x-multi-json`` + ``X-Observer-Token``: the Game, then one Delta per move, one JSON document per line, each printed into ``wrapper`` at its first ``%s`` |

Mounted under ``/dots`` in the main app (``router``, ``lifespan``) and at the root of its own port (``dots_app`` /
``dots_servers``), since the original clients post to ``/``. Errors are JSON ``{"error": reason}``. A token
nobody was given gets 403 without disqualifying anyone (it cannot be traced to a seat); a token that was valid
once (replayed, or used after its turn ended) disqualifies the seat it was given to. Wire facts and the
choices made where the seed is silent: docs/protocols/hexdots.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, FastAPI
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.requests import HTTPConnection, Request

from hexarena.core.errors import ConfigError
from hexarena.core.jsonvalue import JsonObject
from hexarena.games.hexdots.wire import parse_new_game
from hexarena.server.dots.tables import DotsLobby, DotsTable
from hexarena.server.ratelimit import client_of, refusal
from hexarena.server.schemas import text_problem
from hexarena.server.services import services_of
from hexarena.server.sockets import WS_MAX_SIZE
from hexarena.wire.http import read_limited_body

if TYPE_CHECKING:
    from hexarena.server.serving import ArenaServer

log = logging.getLogger(__name__)


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": message}, headers=headers)


MULTI_JSON = "application/x-multi-json"
MAX_WRAPPER = 1000


def observer_wrapper(body: bytes) -> tuple[str, str] | str:
    """The text before and after the document from an observer payload's ``wrapper``, or an error message.

    The contest's server printed each one-line document (its newline included) into ``wrapper`` with Ruby's
    ``wrapper % [document]``: the first ``%s`` takes the document and ``%%`` is a literal ``%``. No payload
    (or no ``wrapper``) means the documents alone.
    """
    try:
        data = json.loads(body) if body.strip() else None
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        return 'observer payload must be JSON: {} or {"wrapper": "...%s..."}'
    if data is None:
        return "", ""
    if not isinstance(data, dict):
        return "observer payload must be a JSON object"
    wrapper = data.get("wrapper")
    if wrapper is None:
        return "", ""
    if not isinstance(wrapper, str) or "%s" not in wrapper or len(wrapper) > MAX_WRAPPER:
        return f"wrapper must be a string of at most {MAX_WRAPPER} characters with a %s where each document goes"
    head, _, tail = wrapper.partition("%s")
    return head.replace("%%", "%"), tail.replace("%%", "%")


def lobby_of(app: FastAPI) -> DotsLobby:
    """The app's tables (made by :func:`lifespan` when it starts)."""
    lobby = getattr(app.state, "dots", None)
    if not isinstance(lobby, DotsLobby):
        raise RuntimeError("the dots tables are made when the server starts")
    return lobby


async def main_lobby(connection: HTTPConnection) -> DotsLobby:
    """The app's tables: a dependency, which the dots-only app overrides with its main app's (``dots_app``).
    Dependencies here are ``async``: FastAPI runs a plain ``def`` one in a worker thread, a hop per request."""
    return lobby_of(connection.app)


async def main_prefix() -> str:
    """Where the protocol is mounted, for ``Location`` (``/dots``; the dots-only app overrides it with ``""``)."""
    return PREFIX


PREFIX = "/dots"
#: The cluster-wide singleton the tables are (``server.cluster`` homes).
ROLE = "dots"
LobbyDep = Annotated[DotsLobby, Depends(main_lobby)]
PrefixDep = Annotated[str, Depends(main_prefix)]
#: The protocol's routes at the root (the dots-only app); ``router`` has them under ``/dots`` (the main app).
routes = APIRouter(tags=["hexagon dots"])


def table_or_404(lobby: DotsLobby, game_id: str) -> DotsTable | JSONResponse:
    table = lobby.get(game_id)
    return table if table is not None else _error(404, f"no game {game_id[:80]!r}")


async def too_many(request: Request, lobby: DotsLobby) -> JSONResponse | None:
    """429 with Retry-After once this client spent its create budget (shared with the server's other creates)."""
    if lobby.limiter is None:
        return None
    client = client_of(request)
    refused = await lobby.limiter.hit(client)
    if refused is None:
        return None
    message, headers = refusal(client, *refused)
    return _error(429, message, headers)


@routes.post("/", summary="Create a hexagon dots game {rows, cols}", status_code=201, response_class=Response)
async def create(request: Request, lobby: LobbyDep, prefix: PrefixDep) -> Response:
    limited = await too_many(request, lobby)
    if limited is not None:
        return limited
    body = await read_limited_body(request, lobby.settings.max_body)
    if body is None:
        return _error(403, "invalid game data: body too large")
    try:
        params = parse_new_game(body)
    except ConfigError as exc:
        return _error(403, str(exc))
    table = lobby.create(params["rows"], params["cols"])
    if table is None:
        return _error(503, "too many open games; try again later")
    return Response(status_code=201, headers={"Location": f"{prefix}/{table.id}"})


@routes.get("/", summary="Games and their state")
async def listing(lobby: LobbyDep) -> list[dict[str, Any]]:  # Any: FastAPI builds no model of a JsonObject
    lobby.expire()
    return [t.summary() for t in lobby.tables.values()]


@routes.get("/match", summary="A game waiting for a second player", status_code=201, response_class=Response)
async def match(request: Request, lobby: LobbyDep, prefix: PrefixDep) -> Response:
    limited = await too_many(request, lobby)
    if limited is not None:
        return limited
    table = lobby.match()
    if table is None:
        return _error(503, "too many open games; try again later")
    return Response(status_code=201, headers={"Location": f"{prefix}/{table.id}"})


@routes.get("/{game_id}", summary="One game")
async def one(lobby: LobbyDep, game_id: str) -> Any:
    found = table_or_404(lobby, game_id)
    return found.game() if isinstance(found, DotsTable) else found


def player_name(body: bytes | None) -> str | None:
    """The ``name`` of a join payload, or None when it is not a usable name."""
    try:
        data = json.loads(body) if body else None
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        data = None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not name.strip() or text_problem(name, 64):
        return None
    return name


@routes.post("/{game_id}/players", summary="Join; blocks until your turn")
async def join(request: Request, lobby: LobbyDep, game_id: str) -> Response:
    found = table_or_404(lobby, game_id)
    if not isinstance(found, DotsTable):
        return found
    name = player_name(await read_limited_body(request, lobby.settings.max_body))
    if name is None:
        return _error(400, "invalid player data: expected {name: <string of 1 to 64 characters>}")
    if len(found.names) >= 2 or found.over:
        return _error(410, "game is full")
    try:
        player = await lobby.join(found, name)
    except Exception:
        log.exception("could not start dots game %s", found.id)
        return _error(503, "the game could not be started")
    if player is None:
        return _error(410, "game is full")
    try:
        token = await player.wait_turn(lobby.settings.join_seconds)
    except TimeoutError:
        lobby.leave(found, player)
        return _error(408, f"no opponent joined within {lobby.settings.join_seconds:g} s")
    headers = {"X-Turn-Token": token} if token else None
    return JSONResponse(found.game(), headers=headers)


@routes.post("/{game_id}/moves", summary="Draw a line with your X-Turn-Token; blocks until your next turn")
async def moves(request: Request, lobby: LobbyDep, game_id: str) -> Response:
    found = table_or_404(lobby, game_id)
    if not isinstance(found, DotsTable):
        return found
    token = request.headers.get("x-turn-token")
    body = await read_limited_body(request, lobby.settings.max_body)
    if not token:
        return _error(403, "missing X-Turn-Token header")
    seat = found.current.get(token)
    if seat is None:
        return refused_token(found, token)
    player = found.players[seat]
    error, before = player.submit(token, body)
    if error is not None:
        return _error(403, f"{error}; you are disqualified")
    next_token = await player.wait_turn()
    headers = {"X-Turn-Token": next_token} if next_token else None
    return JSONResponse(found.delta(before), headers=headers)


def refused_token(table: DotsTable, token: str) -> JSONResponse:
    """The answer to a token that is not the one of the seat to move: never given (403, nobody disqualified),
    or used already (the seat it was given to is disqualified, unless the game is over)."""
    old = table.used.get(token)
    if old is None:
        return _error(403, "unknown turn token")
    if table.over:
        why = table.reasons.get(old)
        return _error(403, why) if why else _error(410, "the game is over")
    table.players[old].disqualify("stale turn token: each token is good for one move")
    return _error(403, "stale turn token: each token is good for one move; you are disqualified")


@routes.post("/{game_id}/observers", summary="Stream the Game, then a Delta per move")
async def observers(request: Request, lobby: LobbyDep, game_id: str) -> Response:
    found = table_or_404(lobby, game_id)
    if not isinstance(found, DotsTable):
        return found
    body = await read_limited_body(request, lobby.settings.max_body)
    wrapper = (
        observer_wrapper(body)
        if body is not None
        else f"observer payload too large: a wrapper has at most {MAX_WRAPPER} characters"
    )
    if isinstance(wrapper, str):
        return _error(400, wrapper)
    head, tail = wrapper
    headers = {"X-Observer-Token": secrets.token_hex(16)}
    return StreamingResponse(observe(found, found.observe(), head, tail), media_type=MULTI_JSON, headers=headers)


async def observe(
    table: DotsTable, queue: asyncio.Queue[JsonObject | None], head: str, tail: str
) -> AsyncIterator[bytes]:
    """The Game, then a Delta per move (from ``queue``), each document printed into the observer's wrapper."""
    try:
        while True:
            item = await queue.get()
            if item is None:
                return
            yield f"{head}{json.dumps(item)}\n{tail}".encode()
    finally:
        table.observers.discard(queue)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The tables live as long as the server (their matches are the match manager's, stopped with it)."""
    services = services_of(app)
    if services.cluster is not None:
        services.cluster.want_home(ROLE)
    app.state.dots = DotsLobby(services.manager, services.settings.dots, limiter=services.limiter)
    yield


def dots_app(main: FastAPI) -> FastAPI:
    """The protocol alone at the root of its own app, sharing the main app's tables, matches and store.

    Serve it on its own port (``dots_servers``): original clients post to ``/``.
    """
    app = FastAPI(title="hexarena: hexagon dots", docs_url=None, redoc_url=None, openapi_url=None)

    async def lobby() -> DotsLobby:
        return lobby_of(main)

    async def prefix() -> str:
        return ""

    app.dependency_overrides[main_lobby] = lobby
    app.dependency_overrides[main_prefix] = prefix
    app.include_router(routes)
    if getattr(main.state, "dots_forwarding", False):
        install_forwarding(app, main=main, prefix="/")
    return app


def install_forwarding(app: FastAPI, main: FastAPI | None = None, prefix: str = PREFIX) -> None:
    """Several instances: the tables live on the instance holding ``home:dots``; requests reaching another
    instance are forwarded there (``server.forward``)."""
    from hexarena.server.forward import ForwardToHome

    app.add_middleware(ForwardToHome, role=ROLE, prefix=prefix, upstream_prefix=PREFIX, main=main)
    app.state.dots_forwarding = True


router = APIRouter()
router.include_router(routes, prefix=PREFIX)


def dots_servers(
    app: FastAPI,
    host: str,
    port: int,
    dots_port: int,
    log_level: str = "info",
    ws_max_size: int = WS_MAX_SIZE,
    header_timeout: float | None = None,
    force_exit_after: float | None = None,
) -> tuple[ArenaServer, ArenaServer]:
    """Two uvicorn servers: the main app on ``port``, the dots-only app on ``dots_port`` (run with ``run_servers``),
    both configured as ``hexarena serve`` configures its one port (``server.serving``)."""
    from hexarena.server.serving import HEADER_TIMEOUT, ArenaServer, server_config

    timeout = HEADER_TIMEOUT if header_timeout is None else header_timeout
    main_config = server_config(app, host, port, log_level=log_level, ws_max_size=ws_max_size, header_timeout=timeout)
    dots_config = server_config(
        dots_app(app), host, dots_port, log_level=log_level, lifespan="off", header_timeout=timeout
    )
    return ArenaServer(main_config, force_exit_after), ArenaServer(dots_config)


async def run_servers(main: ArenaServer, dots: ArenaServer) -> None:
    """Run both in this event loop; the dots server starts once the main app's start-up made the tables, and
    stops with the main server.

    Either failing to start (uvicorn raises ``SystemExit(3)`` when its port is taken) ends both with that
    status, as ``hexarena serve`` without a dots port does: never a half-started server that keeps running.
    """
    main_ended = asyncio.Event()
    failures: list[SystemExit] = []

    async def dots_when_ready() -> None:
        while not main.started:
            if main.should_exit or main_ended.is_set():
                return
            await asyncio.sleep(0.05)
        try:
            await dots.serve()
        except SystemExit as exc:  # the dots port could not be opened: stop the main server too
            failures.append(exc)
            main.should_exit = True

    task = asyncio.create_task(dots_when_ready())
    try:
        await main.serve()
    finally:
        main_ended.set()
        dots.should_exit = True
        await asyncio.gather(task, return_exceptions=True)
    if failures:
        raise failures[0]
