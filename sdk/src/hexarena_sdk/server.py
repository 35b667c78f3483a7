"""The one-port bot server: ``GET /capabilities.json``, the bws WebSocket and the stateless ``turn`` handle.

Routes (``bot_factory`` builds one ``BaseBot``):

* ``GET /capabilities.json`` - from ``capabilities()`` of the bot class;
* WebSocket ``/<bws api_root>/game`` (spec default ``/bws/v1-alpha/game``), plus ``/bws/v1-alpha/game/game``
  (where Hivemaker's game server connects: it defaults api_root to ``bws/v1-alpha/game`` and appends ``/game``)
  and ``/`` (Hivemaker's bot server accepted any path; its default bot_url is the bare host);
* ``POST /<stateless api_root>/turn`` (default ``/stateless/v1-alpha/turn``): 400 ``{"error": reason}`` on a
  body that is not a valid request.

Size limits: a WebSocket message or a turn request body larger than ``wire.MAX_SERVER_PACKET_BYTES`` is refused
(close 1009 / HTTP 413): that is the largest packet a game server legitimately sends, a whole board at HTTTX's
turn cap (the wire module says how it is derived), so a long game is never cut short by our own limit.

Every WebSocket session and every stateless turn gets a fresh bot instance (as Hivemaker's server did per
connection), so bots may keep per-game state on ``self``. Bot code runs on a dedicated thread pool sized for many
concurrent sessions (a thinking bot holds a thread); time limits are handled as ``runner`` explains.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from hexarena_sdk.bot import BaseBot
from hexarena_sdk.connection import BwsSession
from hexarena_sdk.errors import IllegalMove, ProtocolViolation
from hexarena_sdk.game import board_of_cells
from hexarena_sdk.models import Match, Player
from hexarena_sdk.moves import considerations_of, to_option
from hexarena_sdk.play import answer_move
from hexarena_sdk.runner import BotRunner, soft_deadline
from hexarena_sdk.session import cells_from_wire
from hexarena_sdk.wire import htttx as wire
from hexarena_sdk.wire.http import read_limited_body
from hexarena_sdk.ws_protocol import ws_protocol

log = logging.getLogger("hexarena.bots.sdk")

BotFactory = Callable[[], BaseBot]

HIVEMAKER_BWS_PATH = "/bws/v1-alpha/game/game"


class AsgiTransport:
    """``Transport`` straight over the ASGI server's WebSocket callables (uvicorn's): a message costs one call each
    way. Starlette's ``WebSocket`` checked its state machine and went through an exception-handling wrapper of
    ``send`` on every message (``bench/ab_throughput.py`` against the code before: the bot server's CPU a move
    1.08x lower, median of 10 rounds)."""

    __slots__ = ("_receive", "_send")

    def __init__(self, receive: Receive, send: Send) -> None:
        self._receive, self._send = receive, send

    async def accept(self) -> bool:
        """Wait for the handshake and accept it; False if the client left first."""
        if (await self._receive())["type"] != "websocket.connect":
            return False
        await self._send({"type": "websocket.accept"})
        return True

    async def receive(self) -> str | bytes | None:
        message = await self._receive()
        if message["type"] != "websocket.receive":
            return None  # websocket.disconnect
        text = message.get("text")
        if text is not None:
            return str(text)
        data = message.get("bytes")
        return bytes(data) if data is not None else b""

    async def send(self, text: str) -> None:
        await self._send({"type": "websocket.send", "text": text})

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason})


def _route_path(scope: Scope) -> str:
    """The path routes match, as Starlette's router reads it: what follows the app's ``root_path``."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    if not root or not path.startswith(root):
        return path
    if path == root:
        return ""
    return path[len(root) :] if path[len(root)] == "/" else path


def bot_class_of(bot_factory: BotFactory | type[BaseBot]) -> type[BaseBot]:
    """The class whose ``capabilities()`` describe what ``bot_factory`` builds."""
    if isinstance(bot_factory, type):
        if issubclass(bot_factory, BaseBot):
            return bot_factory
        raise TypeError(f"{bot_factory!r} is not a BaseBot subclass")
    return type(bot_factory())


def make_app(bot_factory: BotFactory | type[BaseBot], *, max_threads: int = 128) -> ASGIApp:
    """The ASGI app serving ``bot_factory``'s bots; ``max_threads`` bounds bots thinking at the same time."""
    bot_cls = bot_class_of(bot_factory)
    caps = bot_cls.capabilities()
    caps_doc = caps.to_wire()
    executor = ThreadPoolExecutor(max_workers=max_threads, thread_name_prefix="hexarena-bot")
    sessions: set[asyncio.Task[Any]] = set()
    streak = [0]  # the inline streak the last bws session ended with (see runner: instant bots skip the thread)

    async def capabilities(request: Request) -> Response:
        return JSONResponse(caps_doc)

    async def bws(receive: Receive, send: Send) -> None:
        transport = AsgiTransport(receive, send)
        if not await transport.accept():
            return
        session = BwsSession(transport, bot_factory(), caps, executor, streak[0])
        task = asyncio.current_task()
        if task is not None:
            sessions.add(task)
        try:
            await session.run()
        finally:
            if task is not None:
                sessions.discard(task)
            streak[0] = session.runner.fast_streak  # the next game of this bot starts where this one ended
            log.info("bws session over (%d replies): %s", session.replies, session.close_reason)

    async def turn(request: Request) -> Response:
        body = await read_limited_body(request, wire.MAX_SERVER_PACKET_BYTES)
        if body is None:
            return JSONResponse({"error": f"turn request larger than {wire.MAX_SERVER_PACKET_BYTES} bytes"}, 413)
        try:
            req = wire.decode_stateless_request(body)
        except ProtocolViolation as exc:
            return JSONResponse({"error": exc.reason}, 400)
        if req.time_limit is not None and req.time_limit < 0:
            return JSONResponse({"error": f"time_limit must be >= 0, got {req.time_limit!r}"}, 400)
        received = time.monotonic()
        cells = cells_from_wire(req.board.cells)
        side = Player(req.board.to_move)
        limit = req.time_limit
        match = Match(move_time_limit=limit, deadline=soft_deadline(received, limit))
        try:  # the board the bot's move is checked against; built here, it also vets the request's cells
            board = board_of_cells(cells, match.view_distance, match.win_distance)
        except IllegalMove as exc:
            return JSONResponse({"error": f"invalid turn request: {exc}"}, 400)
        runner = BotRunner(bot_factory(), executor)
        hard = None if limit is None else received + limit
        result = await answer_move(runner, cells, side, match, hard, board=board)
        if result is None:  # cannot happen without an interrupt; keep the type honest
            return JSONResponse({"error": "no move"}, 500)
        out = wire.StatelessResponse(
            move=to_option(result.pieces, result.evaluation), considerations=considerations_of(result)
        )
        return Response(wire.encode(out), media_type="application/json")

    routes: list[Any] = [Route("/capabilities.json", capabilities, methods=["GET"])]
    bws_paths: frozenset[str] = frozenset()
    if caps.bws is not None:
        bws_paths = frozenset((f"/{caps.bws_api_root()}/game", HIVEMAKER_BWS_PATH, "/"))
    if caps.stateless_v1 is not None:
        routes.append(Route(f"/{caps.stateless_api_root()}/turn", turn, methods=["POST"]))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for task in list(sessions):
                task.cancel()
            executor.shutdown(wait=False, cancel_futures=True)

    http = Starlette(routes=routes, lifespan=lifespan)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        """The bws socket goes straight to its session (no router or middleware a message); everything else,
        a WebSocket on another path included (refused there), to Starlette."""
        if scope["type"] == "websocket" and _route_path(scope) in bws_paths:
            await bws(receive, send)
        else:
            await http(scope, receive, send)

    return app


def _have(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


async def serve(
    bot_factory: BotFactory | type[BaseBot],
    host: str = "127.0.0.1",
    port: int = 8002,
    log_level: str = "info",
    ws: str = "auto",
    tune_gc: bool = True,
) -> None:
    """Serve the bot until cancelled (uvicorn in the current event loop; ``run`` picks uvloop for it).

    httptools parses HTTP when installed (uvicorn[standard] brings it); ``ws`` is uvicorn's WebSocket
    implementation ("auto" = websockets' sans-I/O protocol, the fastest of uvicorn's on our packets, reading
    whole text frames itself: ``hexarena_sdk.ws_protocol``).
    ``tune_gc`` freezes what is loaded and makes the cyclic garbage collector run less often
    (``hexarena_sdk.gc_tuning``: at 1,000 stones the defaults spent more CPU a move than the rest of the SDK);
    False leaves the process's collector as it is.
    """
    config = uvicorn.Config(
        make_app(bot_factory),
        host=host,
        port=port,
        log_level=log_level,
        lifespan="on",
        http="httptools" if _have("httptools") else "auto",
        ws=ws_protocol(ws),
        ws_max_size=wire.MAX_SERVER_PACKET_BYTES,  # the largest packet a game server legitimately sends
        ws_per_message_deflate=False,  # packets are small and CPU is the limit: compression costs more than it saves
        access_log=False,
    )
    if tune_gc:
        from hexarena_sdk.gc_tuning import tune_for_serving

        tune_for_serving()
    await uvicorn.Server(config).serve()


def run(bot_factory: BotFactory | type[BaseBot], host: str = "127.0.0.1", port: int = 8002, ws: str = "auto") -> None:
    """Blocking entry point: ``run(MyBot)`` serves ``MyBot`` on ``http://host:port``.

    Runs on uvloop when it is installed: its C event loop and transports cost a fraction of asyncio's per
    message, which is most of a fast bot server's CPU.
    """
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    factory: Callable[[], asyncio.AbstractEventLoop] | None = None
    if _have("uvloop"):
        import uvloop

        factory = uvloop.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(serve(bot_factory, host, port, ws=ws))
