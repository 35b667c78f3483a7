"""HTTP requests forwarded to the instance that can answer them (several instances).

The hexagon dots tables live in one process's memory, and their protocol is plain HTTP with long polls (a
player's request waits for its turn) and streamed observers. With several instances one of them holds the tables
(``home:dots`` in Redis, ``server.cluster``); this ASGI middleware sends every request under the protocol's
prefix that reaches another instance to that one, streams the answer back as it comes (long polls and observer
streams included) and rewrites ``Location`` to the prefix the client used. Installed only with ``--redis-url``;
when this instance holds the home, or nobody does yet, requests are served here as before.

:class:`ForwardToOwner` does the same for the web UI's requests about one live match (its page's facts, joining
its open seat): they go to the instance playing it.
"""

from __future__ import annotations

import logging

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from hexarena.server.services import Services, services_of
from hexarena.server.sockets import race

log = logging.getLogger(__name__)

#: Headers that belong to one connection, not to the request or answer (RFC 9110 7.6.1), and the length, which
#: the forwarding may change.
HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host"}
#: Longest request body forwarded (the protocol's bodies are a few hundred bytes).
MAX_BODY = 1024 * 1024


class ForwardToHome:
    """ASGI middleware: HTTP requests under ``prefix`` go to ``upstream_prefix`` of the instance holding
    ``role``; ``main`` is the app whose services hold the cluster (None: the app this wraps)."""

    def __init__(self, app: ASGIApp, *, role: str, prefix: str, upstream_prefix: str, main: object = None) -> None:
        self.app = app
        self.role = role
        self.prefix = prefix
        self.upstream_prefix = upstream_prefix
        self.main = main
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not self._mine(path):
            await self.app(scope, receive, send)
            return
        target = await self._target(scope, path)
        if target is None:
            await self.app(scope, receive, send)
            return
        await self._forward(scope, receive, send, target, path)

    def _mine(self, path: str) -> bool:
        return path == self.prefix or path.startswith(self.prefix.rstrip("/") + "/")

    def _services(self, scope: Scope) -> Services | None:
        try:
            return services_of(self.main if self.main is not None else scope["app"])
        except (RuntimeError, KeyError):
            return None

    async def _target(self, scope: Scope, path: str) -> str | None:
        """The base URL of the instance to forward to; None: serve here."""
        services = self._services(scope)
        if services is None or services.cluster is None:
            return None
        try:
            return await services.cluster.home_url(self.role)
        except Exception:
            log.warning("could not find the %s home; serving here", self.role, exc_info=True)
            return None

    async def _forward(self, scope: Scope, receive: Receive, send: Send, home: str, path: str) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > MAX_BODY:
                await _answer(send, 413, b'{"error": "body too large"}')
                return
            if not message.get("more_body"):
                break
        rest = path[len(self.prefix.rstrip("/")) :] or "/"
        url = home.rstrip("/") + self.upstream_prefix.rstrip("/") + rest
        query = scope.get("query_string", b"")
        if query:
            url += "?" + query.decode("latin-1")
        headers = forwarded_headers(scope)
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(10.0, read=None))
        request = self._client.build_request(scope["method"], url, headers=headers, content=body)
        try:
            upstream = await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            log.warning("forwarding to the %s home at %s failed: %s", self.role, home, exc)
            await _answer(send, 502, b'{"error": "the instance holding this protocol did not answer"}')
            return
        try:
            await send({"type": "http.response.start", "status": upstream.status_code, "headers": self._out(upstream)})
            await self._stream(upstream, receive, send)
        finally:
            await upstream.aclose()

    def _out(self, upstream: httpx.Response) -> list[tuple[bytes, bytes]]:
        out = []
        for key, value in upstream.headers.multi_items():
            lower = key.lower()
            if lower in HOP or lower == "content-length":
                continue
            if lower == "location" and value.startswith(self.upstream_prefix.rstrip("/") + "/"):
                value = self.prefix.rstrip("/") + value[len(self.upstream_prefix.rstrip("/")) :]
            out.append((lower.encode("latin-1"), value.encode("latin-1")))
        return out

    async def _stream(self, upstream: httpx.Response, receive: Receive, send: Send) -> None:
        """The answer's bytes as they come, until it ends or the client leaves (a long poll, an observer)."""

        async def copy() -> None:
            async for chunk in upstream.aiter_raw():
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        async def left() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        await race(copy(), left())


def forwarded_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The request's headers for the next instance, saying who the client is (``X-Forwarded-For``: the other
    instance's per-client create limit then counts the client, not this instance, when it trusts this one's
    address, as uvicorn does for 127.0.0.1 and ``--forwarded-allow-ips``/``$FORWARDED_ALLOW_IPS``)."""
    drop = HOP | {"x-forwarded-for"}
    headers = [(k, v) for k, v in scope["headers"] if k.decode("latin-1").lower() not in drop]
    client = scope.get("client")
    if client:
        headers.append((b"x-forwarded-for", str(client[0]).encode("latin-1")))
    return headers


async def forward_request(request: Request, base: str, body: bytes) -> Response:
    """One whole request (already read: ``body``) to the same path of the instance at ``base``; its answer."""
    url = base.rstrip("/") + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    async with httpx.AsyncClient(timeout=30.0) as client:
        try:
            answer = await client.request(request.method, url, headers=forwarded_headers(request.scope), content=body)
        except httpx.HTTPError as exc:
            log.warning("forwarding to %s failed: %s", base, exc)
            return Response(b'{"detail": "the instance that can serve this did not answer"}', 502)
    headers = {k: v for k, v in answer.headers.items() if k.lower() not in HOP | {"content-length"}}
    return Response(answer.content, answer.status_code, headers=headers)


class ForwardToOwner(ForwardToHome):
    """ASGI middleware: ``/api/ui/matches/{id}`` (and what is under it) of a match another instance plays goes to
    that instance, unchanged."""

    PREFIX = "/api/ui/matches/"

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app, role="", prefix="/", upstream_prefix="/")

    def _mine(self, path: str) -> bool:
        return path.startswith(self.PREFIX) and len(path) > len(self.PREFIX)

    async def _target(self, scope: Scope, path: str) -> str | None:
        services = self._services(scope)
        match_id = path[len(self.PREFIX) :].split("/", 1)[0]
        if services is None or services.cluster is None or services.manager.get(match_id) is not None:
            return None
        try:
            return await services.cluster.owner_url(match_id)
        except Exception:
            log.warning("could not find who plays match %s; serving here", match_id[:64], exc_info=True)
            return None


async def _answer(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})


__all__ = ["ForwardToHome", "ForwardToOwner", "forward_request", "forwarded_headers"]
