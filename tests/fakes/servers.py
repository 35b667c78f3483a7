"""Real servers on loopback ports inside the test's event loop, and scripted fake HTTTX bot servers.

``serve_app`` runs any ASGI app with uvicorn on ``127.0.0.1:<free port>`` (the game server, the SDK's bot
server, a fake). ``FakeBot`` is a tiny Starlette app serving ``/capabilities.json``, the bws socket and the
stateless ``turn`` handle, driven by a script of replies, so every misbehaviour the adapters must survive can be
played on a real socket: garbage, non-JSON, wrong shapes, oversized frames, silence, closing mid-move...
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from fakes.procs import serving
from fakes.procs import wait_up as wait_up  # where the tests have imported it from
from hexarena.games.htttx import Board

#: How long ``serve_app`` waits for its server to stop (connections closed, the app's lifespan shut down): far
#: beyond a loaded machine's pace, inside pytest-timeout's 300 s.
STOP_SECONDS = 60


@contextlib.asynccontextmanager
async def serve_app(
    app: Any, ws_max_size: int = 16 * 1024 * 1024, lifespan: str = "on", log_level: str = "warning"
) -> AsyncIterator[str]:
    """Serve ``app`` on a free loopback port for the duration of the block; yields ``http://127.0.0.1:PORT``.
    ``log_level`` is uvicorn's (``debug`` makes it log every connection, as a test of what logs carry needs)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        app,
        log_level=log_level,
        lifespan=lifespan,
        ws="websockets-sansio",
        ws_max_size=ws_max_size,
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        for _ in range(2000):
            if server.started or task.done():
                break
            await asyncio.sleep(0.005)
        if task.done():
            task.result()
        assert server.started, "uvicorn did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        try:
            await asyncio.wait_for(task, STOP_SECONDS)
        except TimeoutError:
            # cancelling uvicorn mid-shutdown skips the app's lifespan shutdown: the app would live on in this loop
            # (an instance still renewing its cluster leases, a ladder still pairing), so the test must fail here
            raise AssertionError(f"the server on port {port} did not stop within {STOP_SECONDS} s") from None
        except Exception:  # how a server fails is its own test's business: it stopped
            pass
        finally:
            sock.close()


@contextlib.contextmanager
def cli_bot_server(bot: str) -> Iterator[str]:
    """``hexarena bot serve --bot BOT`` in its own process, as an operator would start it: its URL once it
    listens (what it writes goes to a temporary file, shown should it fail to start)."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    with tempfile.TemporaryDirectory(prefix="hexarena-bot-") as folder:
        command = [sys.executable, "-m", "hexarena.cli", "bot", "serve", "--bot", bot, "--port"]
        with serving(lambda port: [*command, str(port)], Path(folder) / "bot.log", env=env) as port:
            yield f"http://127.0.0.1:{port}"


# ----- scripted bws bot -----


@dataclass
class Act:
    """One scripted action of a fake bot.

    ``kind``: ``auto`` (answer with a legal move), ``send`` (send ``data`` as is: str -> text frame, bytes ->
    binary frame), ``close`` (close the socket), ``silence`` (answer nothing, keep reading), ``sleep`` (wait
    ``seconds`` then go on with the next action of the same step).
    """

    kind: str
    data: str | bytes | None = None
    seconds: float = 0.0
    evaluation: dict[str, Any] | None = None
    considerations: list[Any] | None = None


AUTO = Act("auto")
CLOSE = Act("close")
SILENCE = Act("silence")


def send(data: str | bytes | dict[str, Any]) -> Act:
    return Act("send", data=json.dumps(data) if isinstance(data, dict) else data)


def sleep(seconds: float) -> Act:
    return Act("sleep", seconds=seconds)


def move_response(pieces: list[Any], **extra: Any) -> Act:
    """A move_response with exactly these pieces (dicts or [q, r] pairs), whatever they are."""
    out = [p if not isinstance(p, list | tuple) else {"q": p[0], "r": p[1]} for p in pieces]
    return send({"type": "move_response", "move": {"pieces": out, **extra}})


@dataclass
class Session:
    """What one bws connection saw."""

    path: str
    received: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    close_code: int | None = None

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [p for p in self.received if p.get("type") == kind]

    @property
    def last(self) -> dict[str, Any] | None:
        return self.received[-1] if self.received else None


def legal_pieces(board_cells: list[dict[str, Any]], side: str, view: int = 8) -> list[list[int]]:
    """Two legal cells for ``side`` on the wire board, from the engine's own Board."""
    board = Board(view, 6)
    for c in board_cells:
        board.setup(c["q"], c["r"], 0 if c["p"] == "x" else 1)
    seat = 0 if side == "x" else 1
    cells = sorted(board.legal_cells(), key=lambda c: (abs(c[0]) + abs(c[1]), c))
    a = cells[0]
    board.place(a[0], a[1], seat)
    # a first stone that wins leaves the board no legal cell: the turn still carries two, the second one ignored
    rest = sorted(board.legal_cells(), key=lambda c: (abs(c[0]) + abs(c[1]), c)) or cells[1:]
    return [list(a), list(rest[0])]


Script = list[list[Act] | Act]


class FakeBot:
    """A scripted HTTTX bot server. ``moves[i]`` is what it does on its i-th move_request (default: AUTO);
    ``after_setup`` runs once right after the setup packet (e.g. an unrequested move_response)."""

    def __init__(
        self,
        moves: Script | None = None,
        *,
        after_setup: list[Act] | None = None,
        capabilities: dict[str, Any] | bytes | None = None,
        caps_status: int = 200,
        api_root: str | None = None,
        turn: Callable[[dict[str, Any]], Awaitable[Response]] | None = None,
        view: int = 8,
    ) -> None:
        self.moves: Script = list(moves or [])
        self.after_setup = after_setup or []
        self.view = view
        if capabilities is None:
            v1: dict[str, Any] = {}
            if api_root is not None:
                v1["api_root"] = api_root
            capabilities = {
                "meta": {"name": "fake"},
                "basic_websocket": {"versions": {"v1-alpha": v1}},
                "stateless": {"versions": {"v1-alpha": {}}},
            }
        self.capabilities = capabilities
        self.caps_status = caps_status
        #: how many times capabilities.json was asked for
        self.caps_requests = 0
        self.sessions: list[Session] = []
        self.turns: list[dict[str, Any]] = []
        self._turn = turn
        root = (api_root or "bws/v1-alpha").strip("/")
        self.app = Starlette(
            routes=[
                Route("/capabilities.json", self._caps),
                WebSocketRoute(f"/{root}/game", self._socket),
                Route("/stateless/v1-alpha/turn", self._stateless, methods=["POST"]),
            ]
        )

    @property
    def session(self) -> Session:
        assert self.sessions, "nobody connected"
        return self.sessions[-1]

    async def _caps(self, request: Request) -> Response:
        self.caps_requests += 1
        body = self.capabilities if isinstance(self.capabilities, bytes) else json.dumps(self.capabilities).encode()
        return Response(body, self.caps_status, media_type="application/json")

    async def _stateless(self, request: Request) -> Response:
        body = json.loads(await request.body())
        self.turns.append(body)
        if self._turn is not None:
            return await self._turn(body)
        pieces = legal_pieces(body["board"]["cells"], body["board"]["to_move"], self.view)
        out = {"move": {"pieces": [{"q": q, "r": r} for q, r in pieces], "evaluation": {"heuristic": 0.25}}}
        return Response(json.dumps(out), media_type="application/json")

    async def _socket(self, ws: WebSocket) -> None:
        await ws.accept()
        session = Session(path=ws.url.path)
        self.sessions.append(session)
        step = 0
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    session.close_code = message.get("code")
                    return
                text = message.get("text") or (message.get("bytes") or b"").decode()
                session.raw.append(text)
                packet = json.loads(text)
                session.received.append(packet)
                kind = packet.get("type")
                if kind == "setup":
                    if await self._run(ws, self.after_setup, packet):
                        return
                elif kind == "move_request":
                    acts = self.moves[step] if step < len(self.moves) else AUTO
                    step += 1
                    if await self._run(ws, acts if isinstance(acts, list) else [acts], packet):
                        return
                elif kind in ("end", "nope"):
                    pass  # the server closes after these
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            session.closed.set()

    async def _run(self, ws: WebSocket, acts: list[Act], packet: dict[str, Any]) -> bool:
        """Play ``acts``; True when the socket was closed by the script."""
        for act in acts:
            if act.kind == "auto":
                pieces = legal_pieces(packet["board"]["cells"], packet["side"], self.view)
                move: dict[str, Any] = {"pieces": [{"q": q, "r": r} for q, r in pieces]}
                if act.evaluation is not None:
                    move["evaluation"] = act.evaluation
                out: dict[str, Any] = {"type": "move_response", "move": move}
                if act.considerations is not None:
                    out["considerations"] = act.considerations
                await ws.send_text(json.dumps(out))
            elif act.kind == "send":
                if isinstance(act.data, bytes):
                    await ws.send_bytes(act.data)
                else:
                    await ws.send_text(act.data or "")
            elif act.kind == "close":
                await ws.close(1000)
                return True
            elif act.kind == "sleep":
                await asyncio.sleep(act.seconds)
            elif act.kind == "silence":
                pass
        return False


@contextlib.asynccontextmanager
async def fake_bot(bot: FakeBot) -> AsyncIterator[str]:
    async with serve_app(bot.app) as url:
        yield url


@contextlib.asynccontextmanager
async def fake_bots(*bots: FakeBot) -> AsyncIterator[list[str]]:
    """Several fakes behind one server, each under its own folder (``/bot0/``, ``/bot1/``...): one uvicorn per
    test instead of one per bot, and the adapters must resolve socket paths relative to capabilities.json."""
    app = Starlette(routes=[Mount(f"/bot{i}", app=bot.app) for i, bot in enumerate(bots)])
    async with serve_app(app) as url:
        yield [f"{url}/bot{i}/" for i in range(len(bots))]
