"""The ASGI app, assembled from one router and (where it has start-up or shutdown work) one lifespan per module.

Starlette's model: each protocol or feature module exposes ``router`` (an ``APIRouter``) and, if it must do
something when the server starts or stops, ``lifespan`` (an async context manager factory taking the app).
:func:`create_app` includes the routers and composes the lifespans with one mechanism, :func:`serve_lifespan`:

1. the shared :class:`~hexarena.server.services.Services` open (store, recorder, match manager);
2. each module's lifespan is entered, in :data:`the order below <protocol_lifespans>`, on one ``AsyncExitStack``;
3. on shutdown the stack unwinds in reverse: every module's shutdown runs (tournaments cancelled, waiting bots
   told the server is going), then live matches stop (they end interrupted, bot processes end), the recorder
   flushes and the store closes. One failing shutdown does not skip the others.

The modules: ``meta`` (health, games, player specs), ``matches`` (Hivemaker ``/game/new``, ``/api/matches``,
records), ``seats`` (human and spectator WebSockets), ``ui`` (the web UI's API), ``analysis_board`` (any game's
positions and the built-in best bot's view of them), ``metrics`` (Prometheus), and with ``Settings.protocols``:
``battlebot``, ``dots`` (turn-token), ``graphql``, ``analysis``, ``tournaments``, ``ladder_routes``. ``auth`` adds public mode.
A new module gives itself a ``router`` (and a ``lifespan`` if needed) and is listed here, in :func:`create_app`
or :func:`protocols`; a new web UI module joins ``server.ui.ROUTERS``. Routes get the shared services through
the ``ServicesDep`` dependency, a module's own state lives on ``app.state`` under its name, set by its lifespan.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles

from hexarena import __version__
from hexarena.server import analysis_board, auth, errors, matches, meta, metrics, rules, seats, ui
from hexarena.server.ratelimit import CreateLimiter
from hexarena.server.services import Settings, open_services

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

#: A module's start-up and shutdown: entered when the server starts, left when it stops.
Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; nothing opens until it starts (see the module docstring)."""
    settings = settings or Settings()
    auth.apply_public_defaults(settings)
    # a bad limit fails here, not per request; several instances share each client's budget in Redis
    limiter = CreateLimiter(settings.create_rate_limit, redis_url=settings.redis_url)
    routers: list[APIRouter] = [meta.router, rules.router, matches.router, seats.router, ui.router, metrics.router]
    routers.append(analysis_board.router)  # the analysis board of every game (the web UI's, so always served)
    lifespans: list[Lifespan] = [auth.lifespan, metrics.lifespan]
    if settings.protocols:
        more_routers, more_lifespans = protocols()
        routers += more_routers
        lifespans += more_lifespans
    app = FastAPI(
        title="hexarena",
        version=__version__,
        description="An open arena where bots and people battle at hexagonal board games.",
        lifespan=functools.partial(serve_lifespan, settings=settings, limiter=limiter, lifespans=lifespans),
    )
    auth.install_public_mode(app, settings)  # public mode: API tokens on writes (local: nothing)
    errors.install(app)  # safe, bounded 4xx answers (ConfigError is a 400), 503 for the store, the body cap
    for router in routers:
        app.include_router(router)
    if settings.redis_url:  # several instances: a match's UI requests go where it is played
        from hexarena.server.forward import ForwardToOwner

        app.add_middleware(ForwardToOwner)
    if settings.protocols and settings.redis_url:  # several instances: one of them holds the dots tables
        from hexarena.server.dots.routes import install_forwarding

        install_forwarding(app)
    mount_web(app)
    return app


def protocols() -> tuple[list[APIRouter], list[Lifespan]]:
    """The routers and lifespans of the connect-in protocols, GraphQL, analysis and tournaments."""
    from hexarena.server import analysis, graphql, ladder_routes, tournaments
    from hexarena.server.battlebot import routes as battlebot
    from hexarena.server.dots import routes as dots

    routers = [battlebot.router, dots.router, graphql.router, analysis.router, tournaments.router, ladder_routes.router]
    return routers, [battlebot.lifespan, dots.lifespan, graphql.lifespan, tournaments.lifespan, ladder_routes.lifespan]


@contextlib.asynccontextmanager
async def serve_lifespan(
    app: FastAPI, *, settings: Settings, limiter: CreateLimiter, lifespans: Sequence[Lifespan]
) -> AsyncIterator[None]:
    """The app's one lifespan: the services, then every module's, left in reverse order (module docstring)."""
    async with open_services(settings, limiter) as services, contextlib.AsyncExitStack() as stack:
        app.state.services = services
        stack.callback(services.stop_times.end)  # runs once every module's own shutdown has
        for lifespan in lifespans:
            await stack.enter_async_context(lifespan(app))
        try:
            yield
        finally:
            services.stop_times.begin("the protocol modules")


def mount_web(app: FastAPI) -> None:
    """The browser UI's files under ``/ui`` and ``/`` redirecting there (when the web folder is installed)."""
    if not (WEB_DIR.is_dir() and (WEB_DIR / "index.html").exists()):
        return
    app.mount("/ui", StaticFiles(directory=str(WEB_DIR), html=True), name="web")

    @app.get("/", include_in_schema=False)
    async def root() -> RedirectResponse:
        return RedirectResponse("/ui/")


__all__ = ["Lifespan", "Settings", "create_app", "serve_lifespan"]
