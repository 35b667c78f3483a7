"""The battlebot endpoints: ``POST /bots/<game>`` and the WebSocket (docs/protocols/battlebot.md), wire-exact.

The socket is accepted at the root path ``/`` (the original client connects to ``wss://<hostname>``) and under
``/battlebot``; ``POST /bots/<game>`` is also served as ``/battlebot/bots/<game>``. A WebSocket route at ``/``
does not clash with the web UI's ``GET /`` redirect: Starlette matches HTTP and WebSocket routes separately.

Login: the server sends ``{"salt": <64 hex>}`` (fresh from ``secrets`` for every socket); the bot has
``login_seconds`` to answer ``{bot_id, game, login_hash, contest?}`` with ``login_hash = sha256_hex(pass_hash +
salt)``; the hash is compared in constant time. ``{"authentication": "OK", bot_id, game, contest?}`` follows, or
``{"authentication": "failed"}`` and the socket is closed (1008). ``pass_hash`` is never logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from collections.abc import AsyncIterator, MutableMapping
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import JSONResponse
from starlette.requests import Request
from starlette.websockets import WebSocket, WebSocketDisconnect

from hexarena.core.errors import ConfigError
from hexarena.players.battlebot import BattlebotConnection
from hexarena.server.battlebot.lobby import Lobby
from hexarena.server.schemas import text_problem
from hexarena.server.services import services_of
from hexarena.wire.battlebot import Shape, shape_for
from hexarena.wire.battlebot import login_hash as salted_hash
from hexarena.wire.http import read_limited_body

log = logging.getLogger(__name__)

#: Largest body of the battlebot HTTP API (registration, login, match requests: a few short fields).
MAX_BODY = 16 * 1024
_DUMMY_HASH = "0" * 64  # compared against when the bot does not exist, so both paths cost the same


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": message})


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes | None:
    """The body, or None once it passes ``limit`` bytes (read no further: a huge body costs nothing)."""
    return await read_limited_body(request, limit)


async def register_bot(game: str, request: Request) -> JSONResponse:
    """``POST /bots/<game> {bot_id, owner}`` -> 201 ``{game, bot_id, pass_hash}``; 400 ``{error}`` otherwise."""
    try:
        shape = shape_for(game)
    except ConfigError:
        return _error(400, f"game {game[:80]!r} not recognised")
    body = await read_body(request)
    if body is None:
        return _error(413, f"body larger than {MAX_BODY} bytes")
    try:
        data = json.loads(body) if body else None
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        return _error(400, "body is not JSON")
    if not isinstance(data, dict):
        return _error(400, 'expected a JSON object {"bot_id": ..., "owner": ...}')
    bot_id, owner = data.get("bot_id"), data.get("owner")
    if not isinstance(bot_id, str) or not bot_id.strip():
        return _error(400, "no bot_id: send a non-empty string")
    if len(bot_id) > 64 or not bot_id.isprintable():
        return _error(400, f"bot_id {bot_id[:80]!r} must have 1 to 64 printable characters")
    if not isinstance(owner, str) or not owner.strip():
        return _error(400, "no owner: send a non-empty string")
    problem = text_problem(owner, 200)
    if problem:
        return _error(400, f"owner {problem}")
    store = services_of(request.app).store
    if store is None:
        return _error(503, "this server has no database: bots cannot be registered")
    from hexarena.store.errors import Conflict, InvalidRecord

    try:
        pass_hash = await store.register_bot(
            bot_id=bot_id, game=shape.game.name, owner=owner, kind="battlebot", spec={"protocol": "battlebot"}
        )
    except Conflict:
        return _error(400, f"bot {bot_id!r} is already registered")
    except InvalidRecord as exc:
        return _error(400, str(exc))
    log.info("registered battlebot bot %r for %s (owner %r)", bot_id, shape.wire_id, owner)
    return JSONResponse(status_code=201, content={"game": shape.wire_id, "bot_id": bot_id, "pass_hash": pass_hash})


def _text(message: MutableMapping[str, Any]) -> str:
    text = message.get("text")
    if text is None:
        text = (message.get("bytes") or b"").decode("utf-8", errors="replace")
    return str(text)


async def _login(ws: WebSocket, lobby: Lobby) -> BattlebotConnection | None:
    """The salt / login_hash handshake; the authenticated connection, or None (failed and closed)."""
    settings = lobby.settings
    salt = secrets.token_hex(32)
    await ws.send_json({"salt": salt})
    try:
        message = await asyncio.wait_for(ws.receive(), settings.login_seconds)
    except TimeoutError:
        return await _refuse(ws, f"no login within {settings.login_seconds:g} s")
    if message["type"] == "websocket.disconnect":
        return None
    text = _text(message)
    try:
        data = json.loads(text) if len(text) <= settings.max_frame_chars else None
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        data = None
    if not isinstance(data, dict):
        return await _refuse(ws, "login is not a JSON object")
    bot_id, game, login_hash, contest = (data.get(k) for k in ("bot_id", "game", "login_hash", "contest"))
    if not (isinstance(bot_id, str) and isinstance(game, str) and isinstance(login_hash, str)):
        return await _refuse(ws, "login needs string bot_id, game and login_hash")
    if contest is not None and not isinstance(contest, str):
        return await _refuse(ws, "contest must be a string")
    try:
        shape: Shape | None = shape_for(game)
    except ConfigError:
        shape = None
    store = lobby.store
    pass_hash = None
    bot = None
    if store is not None and 0 < len(bot_id) <= 64:
        bot = await store.get_bot(bot_id)
        pass_hash = await store.bot_pass_hash(bot_id) if bot is not None else None
    expected = salted_hash(pass_hash or _DUMMY_HASH, salt)
    same = hmac.compare_digest(expected.encode(), login_hash.encode("utf-8", errors="replace"))
    if not same or pass_hash is None or bot is None or shape is None or bot.game != shape.game.name:
        return await _refuse(ws, f"bad credentials for {bot_id[:64]!r} in {game[:32]!r}")
    contest_id = None
    if contest:
        from hexarena.store.contests import ensure_contest
        from hexarena.store.errors import InvalidRecord

        try:
            contest_id = (await ensure_contest(store, shape.game.name, contest)).contest_id
        except InvalidRecord:
            return await _refuse(ws, f"bad contest name {contest[:80]!r}")
    reply: dict[str, Any] = {"authentication": "OK", "bot_id": bot_id, "game": shape.wire_id}
    if contest:
        reply["contest"] = contest
    await ws.send_json(reply)

    async def send_text(text: str) -> None:
        await ws.send_text(text)

    async def close_socket(code: int, reason: str) -> None:
        await ws.close(code=code, reason=reason)

    return BattlebotConnection(bot_id, shape.game.name, contest_id, send_text, close_socket)


async def _refuse(ws: WebSocket, why: str) -> BattlebotConnection | None:
    log.info("battlebot login refused: %s", why)
    try:
        await ws.send_json({"authentication": "failed"})
        await ws.close(code=1008)
    except Exception:
        pass
    return None


async def battlebot_socket(ws: WebSocket) -> None:
    """One bot's socket for its whole life: login, wait in the lobby, play, closed by the server at the end."""
    lobby = lobby_of(ws.app)
    if lobby is None:
        await ws.close(code=1011)
        return
    if lobby.pending_logins >= lobby.settings.max_pending_logins:
        await ws.close(code=1013, reason="too many logins in progress; try again")
        return
    await ws.accept()
    if await _relayed_home(ws, lobby):
        return
    lobby.pending_logins += 1
    try:
        conn = await _login(ws, lobby)
    except (WebSocketDisconnect, RuntimeError, OSError):
        conn = None
    finally:
        lobby.pending_logins -= 1
    if conn is None:
        return
    try:
        await lobby.add(conn)
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await conn.deliver(_text(message))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        lobby.remove(conn)
        conn.lost()


async def _relayed_home(ws: WebSocket, lobby: Lobby) -> bool:
    """Several instances: one of them holds the lobby (``home:battlebot`` in Redis), so that bots connected
    through any instance meet; a socket reaching another instance is relayed there, login and all."""
    cluster = services_of(ws.app).cluster
    if cluster is None:
        return False
    from hexarena.server.seat_relay import relay_to

    home = await cluster.home_url(ROLE)
    return home is not None and await relay_to(ws, home, ws.url.path, max_frame=lobby.settings.max_frame_chars)


def lobby_of(app: Any) -> Lobby | None:
    """The running app's lobby (None before start-up made it)."""
    lobby = getattr(app.state, "battlebot", None)
    return lobby if isinstance(lobby, Lobby) else None


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The lobby lives as long as the server; at shutdown bots still waiting for a game are told (close 1001)."""
    services = services_of(app)
    if services.cluster is not None:
        services.cluster.want_home(ROLE)
    lobby = Lobby(services.manager, services.store, services.settings.battlebot)
    app.state.battlebot = lobby
    try:
        yield
    finally:
        await lobby.close()


PREFIX = "/battlebot"
#: The cluster-wide singleton this module's lobby is (``server.cluster`` homes).
ROLE = "battlebot"
router = APIRouter()
for _path in ("/bots/{game}", f"{PREFIX}/bots/{{game}}"):
    router.add_api_route(
        _path,
        register_bot,
        methods=["POST"],
        status_code=201,
        tags=["battlebot"],
        summary="Register a battlebot bot: {bot_id, owner} -> {game, bot_id, pass_hash}",
    )
for _path in ("/", PREFIX, f"{PREFIX}/"):
    router.add_api_websocket_route(_path, battlebot_socket)
