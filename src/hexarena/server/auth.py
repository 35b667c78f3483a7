"""Public mode (``hexarena serve --public``): API tokens on every write endpoint, and the public defaults.

A server on the internet must not let strangers start games, tournaments and analyses (each costs CPU, makes the
server connect out to bot addresses, and fills the database). In public mode :class:`RequireApiToken`, an ASGI
middleware in front of every route, answers every ``POST``/``PUT``/``PATCH``/``DELETE`` with 401 unless it
carries ``Authorization: Bearer <token>`` with a token the store knows (``hexarena token create``). It works on
the request's method and path, before routing, so it is deny by default: a write route added tomorrow needs a
token without anyone remembering to say so. The only writes it lets through are listed in :data:`OPEN_WRITES`,
each with the reason it must stay open (its protocol authenticates on its own terms, or its seed clients cannot
send headers, or it is a read that happens to use POST); the README's "Public mode" section documents them and a
test walks every route of the app against this list.

Not writes, so never asked for a token: reads (``GET``), spectating, and WebSockets. The seat sockets (``/ws``,
``/api/play``) and the battlebot socket authenticate with their own secrets (seat tokens, a salted hash); a
token-holder's client passes the seat token it was given at creation to whoever plays the seat. ``/graphql``
serves queries only (a test asserts the schema has no mutation); whoever adds a mutation must also guard the
GraphQL WebSocket, which this middleware does not see.

:func:`apply_public_defaults` also turns on the rest of what a public server needs: the bot-host check of the spec
policy (loopback, private and link-local bot addresses refused unless ``--allow-bot-host``) and a tighter create
rate limit (:data:`PUBLIC_CREATE_LIMIT`). In local mode it does nothing: no token is needed on one's own machine.

One read is guarded too: ``/metrics`` (:data:`METRICS_PATH`), which tells whoever reads it how busy the server is
and how its bots fail. It is the operator's, not an API client's: it needs the metrics token the operator
configured (``--metrics-token-file`` or ``$HEXARENA_METRICS_TOKEN``, compared in constant time), 401 without a
token, 403 with another one, and 403 for everyone while no metrics token is configured (deny by default).

Tokens are never logged: refusals log the method, path and client, a success logs the token's name.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from re import Pattern

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send

from hexarena.server.ratelimit import DEFAULT_CREATE_LIMIT, refusal
from hexarena.server.services import Settings, services_of
from hexarena.store.errors import StoreError

log = logging.getLogger(__name__)

#: Methods that change something; every one needs a token in public mode unless listed in ``OPEN_WRITES``.
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The operator's read (Prometheus scrapes it), guarded by the metrics token in public mode.
METRICS_PATH = "/metrics"
#: Creates per client address in public mode (unless the operator set another limit).
PUBLIC_CREATE_LIMIT = "10/minute;200/hour"
HOW_TO_GET_ONE = (
    "send 'Authorization: Bearer <token>'; the server's operator creates tokens with "
    "`hexarena token create --name NAME`"
)


@dataclass(frozen=True)
class OpenWrite:
    """A write route that stays open in public mode, and why."""

    method: str
    #: The route's path template, as the app declares it (``/bots/{game}``).
    path: str
    reason: str
    #: Counts against the client's create budget (it creates something lasting without a token).
    creates: bool = False
    #: Asked on each matching request whether the route is still open (None: always). A callable rather than an
    #: answer computed when the list is built, so that building it imports nothing the route itself imports late.
    still_open: Callable[[], bool] | None = None

    @cached_property
    def pattern(self) -> Pattern[str]:
        return compile_path(self.path)[0]

    def matches(self, method: str, path: str) -> bool:
        if method != self.method:
            return False
        return bool(self.pattern.match(path) or (not path.endswith("/") and self.pattern.match(path + "/")))

    def is_open(self) -> bool:
        return self.still_open is None or self.still_open()


_BATTLEBOT = (
    "battlebot registration: the seed's bots register with {bot_id, owner} and cannot send headers; they log in "
    "on the socket with sha256(pass_hash + salt), and registration counts against the client's create budget"
)
_DOTS = "hexagon dots turn-token protocol: the seed's clients cannot send headers"


@functools.cache
def graphql_reads_only() -> bool:
    """Whether the GraphQL schema has no mutation, so ``POST /graphql`` needs no token (with one, it does).

    Asked on the first ``POST /graphql``, not at start: the answer imports the schema (and strawberry), which
    the lazy ``/graphql`` endpoint imports only on its first request as well.
    """
    from hexarena.server.graphql.schema import schema

    return schema.mutation is None


#: Every write route that needs no API token in public mode (see the module docstring and the README).
OPEN_WRITES: tuple[OpenWrite, ...] = (
    OpenWrite("POST", "/bots/{game}", _BATTLEBOT, creates=True),
    OpenWrite("POST", "/battlebot/bots/{game}", _BATTLEBOT, creates=True),
    OpenWrite(
        "POST", "/dots/", f"{_DOTS}; creates are rate limited per client and waiting tables expire (like GET /match)"
    ),
    OpenWrite("POST", "/dots/{game_id}/players", f"{_DOTS}; joining gives the seat its X-Turn-Token"),
    OpenWrite("POST", "/dots/{game_id}/moves", f"{_DOTS}; every move carries the seat's single-use X-Turn-Token"),
    OpenWrite("POST", "/dots/{game_id}/observers", "spectating a dots game: a read streamed over POST"),
    OpenWrite(
        "POST",
        "/graphql",
        "GraphQL queries: reads (open only while the schema has no mutation)",
        still_open=graphql_reads_only,
    ),
)


def bearer_token(scope: Scope) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    for key, value in scope.get("headers", ()):
        if key == b"authorization":
            scheme, _, token = bytes(value).decode("latin-1").strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


class RequireApiToken:
    """ASGI middleware: every write needs a valid API token, except the ``open`` ones (see the module docstring)."""

    def __init__(self, app: ASGIApp, open: Sequence[OpenWrite] = OPEN_WRITES) -> None:
        self.app = app
        self.open = tuple(open)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _route_path(scope).rstrip("/") == METRICS_PATH:
            await (metrics_refusal(scope) or self.app)(scope, receive, send)
            return
        if scope["type"] != "http" or scope["method"] not in WRITE_METHODS:
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], _route_path(scope)
        entry = next((w for w in self.open if w.matches(method, path)), None)
        if entry is not None and entry.is_open():
            refused = await self._over_budget(scope) if entry.creates else None
            await (refused or self.app)(scope, receive, send)
            return
        answer = await self._check(scope, method, path)
        await (answer or self.app)(scope, receive, send)

    async def _check(self, scope: Scope, method: str, path: str) -> JSONResponse | None:
        """None when the request carries a valid token, else the answer to send."""
        what = f"{method} {path[:200]}"
        client = _client(scope)
        token = bearer_token(scope)
        if token is None:
            log.info("refused %s from %s: no API token", what, client)
            return _unauthorized(f"this server is public: {what} needs an API token; {HOW_TO_GET_ONE}")
        store = services_of(scope["app"]).store
        if store is None:
            return JSONResponse(status_code=503, content={"detail": "API tokens cannot be checked: no database"})
        try:
            record = await store.check_api_token(token)
        except StoreError:
            log.warning("could not check an API token for %s: the database is unavailable", what)
            return JSONResponse(
                status_code=503,
                content={"detail": "the API token cannot be checked right now (database unavailable); retry soon"},
                headers={"Retry-After": "5"},
            )
        if record is None:
            log.info("refused %s from %s: unknown or revoked API token", what, client)
            return _unauthorized(
                f"unknown or revoked API token for {what}; {HOW_TO_GET_ONE}", error='error="invalid_token"'
            )
        log.debug("%s from %s with API token %r", what, client, record.name)
        scope.setdefault("state", {})["api_token"] = record.name
        return None

    async def _over_budget(self, scope: Scope) -> JSONResponse | None:
        client = _client(scope)
        refused = await services_of(scope["app"]).limiter.hit(client)
        if refused is None:
            return None
        message, headers = refusal(client, *refused)
        return JSONResponse(status_code=429, content={"error": message}, headers=headers)  # the seed's error shape


def metrics_refusal(scope: Scope) -> JSONResponse | None:
    """None when the request carries the configured metrics token, else the answer to send (module docstring)."""
    expected = services_of(scope["app"]).settings.metrics_token
    client = _client(scope)
    if not expected:
        log.info("refused %s from %s: no metrics token configured", METRICS_PATH, client)
        return JSONResponse(
            status_code=403,
            content={
                "detail": "metrics are off in public mode until the operator configures a metrics token "
                "(--metrics-token-file or $HEXARENA_METRICS_TOKEN)"
            },
        )
    token = bearer_token(scope)
    if token is None:
        log.info("refused %s from %s: no metrics token", METRICS_PATH, client)
        return _unauthorized(f"{METRICS_PATH} needs the operator's metrics token: send 'Authorization: Bearer <token>'")
    # digests compared, not the texts: constant time whatever the lengths
    given, wanted = (hashlib.sha256(t.encode()).digest() for t in (token, expected))
    if not hmac.compare_digest(given, wanted):
        log.info("refused %s from %s: wrong metrics token", METRICS_PATH, client)
        return JSONResponse(status_code=403, content={"detail": f"wrong metrics token for {METRICS_PATH}"})
    return None


def _route_path(scope: Scope) -> str:
    """The path the router matches: without the ``root_path`` a proxy mounted the app under."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _unauthorized(message: str, error: str = "") -> JSONResponse:
    challenge = f'Bearer realm="hexarena"{", " + error if error else ""}'
    return JSONResponse(status_code=401, content={"detail": message}, headers={"WWW-Authenticate": challenge})


def apply_public_defaults(settings: Settings) -> None:
    """With ``settings.public``: the public defaults, adjusted in place before anything reads them.

    ``bot_hosts`` None becomes ``[]`` (public hosts only), and the local default create limit becomes
    :data:`PUBLIC_CREATE_LIMIT` (another limit is kept). ValueError without the store (tokens live there). Local
    mode (``public`` false) changes nothing.
    """
    if not settings.public:
        return
    if not settings.use_store:
        raise ValueError("public mode needs the store: API tokens live in the database")
    if settings.bot_hosts is None:
        settings.bot_hosts = []
    if settings.create_rate_limit == DEFAULT_CREATE_LIMIT:
        settings.create_rate_limit = PUBLIC_CREATE_LIMIT


def install_public_mode(app: FastAPI, settings: Settings) -> None:
    """With ``settings.public``: the token check in front of every route (local mode: nothing)."""
    if settings.public:
        app.add_middleware(RequireApiToken, open=OPEN_WRITES)


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At start-up in public mode, warn when no API token exists yet: every write would be refused."""
    services = services_of(app)
    if services.settings.public and services.store is not None and not await services.store.list_api_tokens():
        log.warning(
            "public mode and no API token yet: every write endpoint answers 401 until the operator runs "
            "`hexarena token create --name NAME`"
        )
    yield


__all__ = [
    "METRICS_PATH",
    "OPEN_WRITES",
    "PUBLIC_CREATE_LIMIT",
    "WRITE_METHODS",
    "OpenWrite",
    "RequireApiToken",
    "apply_public_defaults",
    "bearer_token",
    "graphql_reads_only",
    "install_public_mode",
    "lifespan",
    "metrics_refusal",
]
