"""One server module's router on a bare app, with services made from parts the test already holds.

The real server opens its services from the settings (``server.services.open_services``); a test of one module
often has its own store (a fixture) and wants nothing else running, so this gives the module exactly what its
routes read (``app.state.services``) and runs the module's own lifespan around the block.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from hexarena.server.app import Lifespan
from hexarena.server.live import MatchManager
from hexarena.server.ratelimit import CreateLimiter
from hexarena.server.services import Services, Settings


@contextlib.asynccontextmanager
async def module_app(
    router: Any, lifespan: Lifespan, store: Any, settings: Settings | None = None
) -> AsyncIterator[FastAPI]:
    """A bare app with ``router``, services around ``store`` (no recorder), inside ``lifespan``."""
    settings = settings or Settings()
    app = FastAPI()
    app.include_router(router)
    app.state.services = Services(
        settings=settings, limiter=CreateLimiter(settings.create_rate_limit), manager=MatchManager(), store=store
    )
    async with lifespan(app):
        yield app


async def lifespan_only(receive: Any, send: Any) -> None:
    """The ASGI lifespan protocol for a raw test app with nothing to start: complete every startup, then the
    shutdown."""
    while (await receive())["type"] != "lifespan.shutdown":
        await send({"type": "lifespan.startup.complete"})
    await send({"type": "lifespan.shutdown.complete"})
