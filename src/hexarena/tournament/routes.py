"""HTTP API for tournaments and the leaderboard, as a FastAPI router the server mounts.

* ``GET  /leaderboard/{game}``                persistent Elo ratings of a game, best first
* ``POST /api/tournaments``                   create a tournament (JSON: a TournamentConfig) and start it
* ``GET  /api/tournaments``                   stored tournaments, newest first
* ``GET  /api/tournaments/{id}``              standings, crosstable, SPRT and progress (live while it runs)
* ``POST /api/tournaments/{id}/resume``       continue an interrupted tournament
* ``GET  /api/tournaments/{id}/report``       the HTML report

The router reads the store from ``request.app.state.store`` (set by the server's start-up). Running
tournaments are asyncio tasks kept in ``app.state.tournaments``; :func:`shutdown_tournaments` cancels them (their
results are already stored, so they can be resumed) and :func:`resume_running_tournaments`, as a start-up hook,
picks up the API's tournaments that a previous server left running. To mount::

    app.include_router(router)
    app.state.startup_hooks = [..., resume_running_tournaments]
    # and on shutdown, before the store closes: await shutdown_tournaments(app)
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.players.policy import spec_policy, vet_remote_spec
from hexarena.server.ratelimit import limit_creates
from hexarena.store.errors import StoreError
from hexarena.tournament.request import TournamentRequest

log = logging.getLogger(__name__)

router = APIRouter(tags=["tournaments"])


def _recorder(app: Any) -> Any:
    """The server's recorder: tournament games are written like every other game (None: the runner makes one)."""
    return getattr(app.state, "recorder", None)


def _store(request: Request) -> Any:
    store = getattr(request.app.state, "store", None)
    if store is None:
        raise HTTPException(503, "this server runs without a store: tournaments and ratings are unavailable")
    return store


def _running(request: Request) -> dict[str, Any]:
    running: dict[str, Any] | None = getattr(request.app.state, "tournaments", None)
    if running is None:
        running = {}
        request.app.state.tournaments = running
    return running


def _start(request: Request, runner: Any) -> None:
    _start_on(request.app, runner)


def _start_on(app: Any, runner: Any) -> None:
    running: dict[str, Any] | None = getattr(app.state, "tournaments", None)
    if running is None:
        running = {}
        app.state.tournaments = running

    async def go() -> None:
        try:
            await runner.run()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament %s failed", runner.id)
        finally:
            running.pop(runner.id, None)

    running[runner.id] = (runner, asyncio.create_task(go(), name=f"tournament-{runner.id}"))


@router.get("/leaderboard/{game}", summary="Persistent Elo ratings of a game")
async def get_leaderboard(request: Request, game: str, limit: int = 100) -> dict[str, Any]:
    from hexarena.core.registry import get_game
    from hexarena.tournament.ratings import leaderboard

    try:
        name = get_game(game).name
    except ConfigError as exc:
        raise HTTPException(404, str(exc)) from None
    return {"game": name, "ratings": await leaderboard(_store(request), name, limit=min(max(limit, 1), 1000))}


@router.post(
    "/api/tournaments",
    status_code=201,
    summary="Create and start a tournament",
    dependencies=[Depends(limit_creates)],
)
async def create_tournament(request: Request, body: TournamentRequest) -> dict[str, Any]:
    """Every player spec passes the remote spec policy before anything is created; the config is marked
    ``remote`` so each game builds its players under the same policy again (a stored config is data too)."""
    from hexarena.tournament.executors import make_executor
    from hexarena.tournament.runner import Runner, TournamentConfig

    store = _store(request)
    policy = spec_policy(request.app)
    try:
        if body.ray_address not in (None, "", "local"):
            # a Ray client exchanges pickles with the cluster: a client-chosen address could run code here
            raise ConfigError("ray_address over the API may only be 'local'; clusters are for `hexarena tournament`")
        config = TournamentConfig.from_json({**body.config_json(), "remote": True})
        config.validate()
        for spec in config.players:
            await vet_remote_spec(spec, policy)
        runner = await Runner.create(
            config,
            store,
            body.id,
            executor=make_executor(body.ray_address, body.processes),
            policy=policy,
            recorder=_recorder(request.app),
        )
    except StoreError:
        raise  # the server's error handlers answer it (the database's own text is not the client's business)
    except (HexarenaError, TypeError) as exc:  # 400 like every ConfigError; 422 is the request model's answer
        raise HTTPException(400, str(exc)) from None
    runner.state["origin"] = "api"
    _start(request, runner)
    return {"id": runner.id, "status": "running", "url": f"/api/tournaments/{runner.id}"}


@router.get("/api/tournaments", summary="Stored tournaments, newest first")
async def list_tournaments(
    request: Request, game: str | None = None, status: str | None = None
) -> list[dict[str, Any]]:
    rows = await _store(request).list_tournaments(game=game, status=status)
    return [
        {
            "id": r.tournament_id,
            "name": r.name,
            "game": r.game,
            "status": r.status,
            "created_at": r.created_at.isoformat(),
        }
        for r in rows
    ]


async def _summary(request: Request, tournament_id: str) -> dict[str, Any]:
    from hexarena.tournament.runner import Runner

    live = _running(request).get(tournament_id)
    if live is not None:
        return live[0].summary()  # type: ignore[no-any-return]
    if len(tournament_id) > 64:
        raise HTTPException(404, f"no tournament {tournament_id[:64]!r}...")
    try:
        runner = await Runner.resume(_store(request), tournament_id, recorder=_recorder(request.app))
    except ConfigError as exc:
        raise HTTPException(404, str(exc)) from None
    return runner.summary()


@router.get("/api/tournaments/{tournament_id}", summary="Standings, crosstable, SPRT and progress")
async def get_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    return await _summary(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/resume", summary="Continue an interrupted tournament")
async def resume_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    from hexarena.tournament.runner import Runner

    if tournament_id in _running(request):
        return {"id": tournament_id, "status": "running"}
    try:
        runner = await Runner.resume(
            _store(request), tournament_id, policy=spec_policy(request.app), recorder=_recorder(request.app)
        )
    except ConfigError as exc:
        raise HTTPException(404, str(exc)) from None
    if not runner.remote and any(_starts_program(spec) for spec in runner.config.players):
        # the operator's own tournament may start programs; a client of the API may not make it do so
        raise HTTPException(
            403,
            f"tournament {tournament_id!r} was started from the command line and its players start programs; "
            f"the operator resumes it with `hexarena tournament resume {tournament_id}`",
        )
    if runner.done:
        return {"id": tournament_id, "status": runner.state["status"]}
    _start(request, runner)
    return {"id": tournament_id, "status": "running"}


def _starts_program(spec: str) -> bool:
    """What the scheme declared at registration; an undeclared or unknown scheme counts as starting one."""
    from hexarena.players.spec import scheme_of

    if spec.strip().startswith(("http://", "https://")):
        return False
    scheme = scheme_of(spec)
    return scheme is None or scheme.starts_program is not False


@router.get("/api/tournaments/{tournament_id}/report", response_class=HTMLResponse, summary="HTML report")
async def tournament_report(request: Request, tournament_id: str) -> HTMLResponse:
    from hexarena.tournament.report import render_report

    return HTMLResponse(render_report(await _summary(request, tournament_id)))


async def resume_running_tournaments(app: Any) -> list[str]:
    """Start-up hook: resume the tournaments created through the API that were still running (CLI runs stay put)."""
    from hexarena.tournament.runner import Runner

    store = getattr(app.state, "store", None)
    if store is None:
        return []
    resumed = []
    for record in await store.list_tournaments(status="running"):
        if not isinstance(record.state, dict) or record.state.get("origin") != "api":
            continue
        try:
            runner = await Runner.resume(store, record.tournament_id, policy=spec_policy(app), recorder=_recorder(app))
        except HexarenaError:
            log.exception("cannot resume tournament %s", record.tournament_id)
            continue
        _start_on(app, runner)
        resumed.append(record.tournament_id)
    return resumed


async def shutdown_tournaments(app: Any) -> None:
    """Cancel running tournaments (their state is saved; resume them later)."""
    running: dict[str, Any] = getattr(app.state, "tournaments", None) or {}
    tasks = [task for _, task in running.values()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["resume_running_tournaments", "router", "shutdown_tournaments"]
