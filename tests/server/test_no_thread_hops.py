"""No request of the game server waits for a worker thread before its handler runs.

FastAPI runs a plain ``def`` dependency or endpoint in a worker thread: a thread hop costs a request ~200 us of
CPU (the job queued to anyio's pool, the thread woken, the result handed back to the loop). ``get_services``
was a plain function and every route depends on it, so every request paid it: ``GET /healthz`` cost 513 us of
server CPU. Dependencies and endpoints that only read memory are ``async def``; anything that blocks belongs in
the store or an explicit ``to_thread``, where it is visible.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute

from hexarena.server.app import create_app
from hexarena.server.services import Settings


def _api_routes(routes: list[Any]) -> Iterator[APIRoute | APIWebSocketRoute]:
    """Every FastAPI route, also those of included routers and mounted apps."""
    for route in routes:
        if isinstance(route, APIRoute | APIWebSocketRoute):
            yield route
        inner = getattr(getattr(route, "original_router", None), "routes", None) or getattr(route, "routes", None)
        if inner:
            yield from _api_routes(list(inner))


def _calls(dependant: Dependant) -> Iterator[Any]:
    if dependant.call is not None:
        yield dependant.call
    for sub in dependant.dependencies:
        yield from _calls(sub)


def _threaded(call: Any) -> bool:
    """What FastAPI would run in a worker thread: a callable that is not a coroutine function (or whose
    ``__call__`` is not)."""
    if inspect.iscoroutinefunction(call):
        return False
    if not inspect.isfunction(call) and not inspect.ismethod(call):
        return not inspect.iscoroutinefunction(getattr(call, "__call__", None))  # noqa: B004
    return True


def test_no_route_runs_a_dependency_or_handler_in_a_thread(tmp_path: Any) -> None:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3", data_dir=tmp_path))
    threaded = []
    routes = 0
    for route in _api_routes(list(app.routes)):
        routes += 1
        threaded += [f"{route.path}: {call.__qualname__}" for call in _calls(route.dependant) if _threaded(call)]
    assert routes > 40  # every protocol's routes, GraphQL's and the dots protocol's too (the check sees them)
    assert threaded == []


def test_the_check_sees_a_plain_function() -> None:
    def plain() -> None: ...

    async def coroutine() -> None: ...

    assert _threaded(plain) and not _threaded(coroutine)
