"""HTTP API for tournaments and the leaderboard: the server's tournaments module (a router and a lifespan).

* ``GET  /leaderboard/{game}``                persistent Glicko-2 ratings of a game, best first
* ``POST /api/tournaments``                   create a tournament (JSON: a TournamentConfig) and start it
* ``GET  /api/tournaments``                   stored tournaments, newest first
* ``GET  /api/tournaments/{id}``              standings, crosstable, SPRT and progress (live while it runs)
* ``POST /api/tournaments/{id}/resume``       continue an interrupted tournament
* ``GET  /api/tournaments/{id}/report``       the HTML report

The routes use the server's store, recorder and spec policy (``Services``). Running tournaments are asyncio
tasks kept in :class:`Running` (``app.state.tournaments``); the module's :func:`lifespan` makes it, picks up the
API's tournaments that a previous server left running (:func:`resume_running_tournaments`) and, at shutdown,
before the store closes, cancels them (:func:`shutdown_tournaments`: their results are already stored, so they
can be resumed). The request body is ``hexarena.server.tournament_request``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.players.policy import vet_remote_spec
from hexarena.referee.clock import capped, clock_from
from hexarena.server.background import stop_if_cancelled, stop_tasks
from hexarena.server.services import Services, ServicesDep, limit_creates, services_of
from hexarena.server.tournament_request import TournamentRequest
from hexarena.store.errors import StoreError

if TYPE_CHECKING:  # the runner is imported where a tournament starts, not with the server
    from hexarena.server.cluster import Cluster
    from hexarena.store import Store
    from hexarena.tournament.runner import Runner

log = logging.getLogger(__name__)

router = APIRouter(tags=["tournaments"])


class Running(dict[str, tuple["Runner", "asyncio.Task[None]"]]):
    """The tournaments this server is running: id -> (runner, task).

    With several instances (``Services.cluster``) each running tournament is leased (``lease_id``) so that one
    instance runs it; its lease is released when it ends or this instance stops, and another instance resumes
    it then (:func:`resume_running_tournaments`, every ``Cluster.scan_every`` s)."""

    cluster: Cluster | None = None

    def start(self, runner: Runner) -> None:
        """Run ``runner`` in a task of its own, listed here until it ends (its lease, if any, is already held)."""

        async def go() -> None:
            try:
                await runner.run()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament %s failed", runner.id)
            finally:
                self.pop(runner.id, None)
                if self.cluster is not None:
                    await self.cluster.release(lease_id(runner.id))

        self[runner.id] = (runner, asyncio.create_task(go(), name=f"tournament-{runner.id}"))


def lease_id(tournament_id: str) -> str:
    """The id a tournament is leased under (``server.cluster``)."""
    return f"tournament:{tournament_id}"


async def claim(app: FastAPI, tournament_id: str) -> bool:
    """Whether this instance may run the tournament: always with one instance; with several, if it got its lease."""
    cluster = services_of(app).cluster
    return cluster is None or bool(await cluster.claim(lease_id(tournament_id)))


def running_of(app: FastAPI) -> Running:
    """The app's running tournaments (made by :func:`lifespan`)."""
    running = getattr(app.state, "tournaments", None)
    if not isinstance(running, Running):
        raise RuntimeError("the tournaments are set up when the server starts")
    return running


def _store(services: Services) -> Store:
    if services.store is None:
        raise HTTPException(503, "this server runs without a store: tournaments and ratings are unavailable")
    return services.store


@router.get("/leaderboard/{game}", summary="Persistent Glicko-2 ratings of a game")
async def get_leaderboard(services: ServicesDep, game: str, limit: int = 100) -> dict[str, Any]:
    from hexarena.core.registry import get_game
    from hexarena.tournament.ratings import leaderboard

    try:
        name = get_game(game).name
    except ConfigError as exc:
        raise HTTPException(404, str(exc)) from None
    return {"game": name, "ratings": await leaderboard(_store(services), name, limit=min(max(limit, 1), 1000))}


@router.post(
    "/api/tournaments",
    status_code=201,
    summary="Create and start a tournament",
    dependencies=[Depends(limit_creates)],
)
async def create_tournament(request: Request, body: TournamentRequest, services: ServicesDep) -> dict[str, Any]:
    """Every player spec passes the remote spec policy before anything is created; the config is marked
    ``remote`` so each game builds its players under the same policy again (a stored config is data too)."""
    from hexarena.tournament.executors import make_executor
    from hexarena.tournament.runner import Runner, TournamentConfig

    store = _store(services)
    policy = services.policy
    try:
        if body.ray_address not in (None, "", "local"):
            # a Ray client exchanges pickles with the cluster: a client-chosen address could run code here
            raise ConfigError("ray_address over the API may only be 'local'; clusters are for `hexarena tournament`")
        config = TournamentConfig.from_json({**body.config_json(), "remote": True})
        config.validate()
        clock = capped(clock_from(**config.clock), services.settings.move_cap)  # a tournament is programs only
        config.clock = {"kind": clock.kind, "seconds": clock.seconds, "increment": clock.increment}
        for spec in config.players:
            await vet_remote_spec(spec, policy)
        runner = await Runner.create(
            config,
            store,
            body.id,
            executor=make_executor(body.ray_address, body.processes),
            policy=policy,
            recorder=services.recorder,
        )
    except StoreError:
        raise  # the server's error handlers answer it (the database's own text is not the client's business)
    except (HexarenaError, TypeError) as exc:  # 400 like every ConfigError; 422 is the request model's answer
        raise HTTPException(400, str(exc)) from None
    runner.state["origin"] = "api"
    await claim(request.app, runner.id)  # a new id: nobody else holds it
    running_of(request.app).start(runner)
    return {"id": runner.id, "status": "running", "url": f"/api/tournaments/{runner.id}"}


@router.get("/api/tournaments", summary="Stored tournaments, newest first")
async def list_tournaments(
    services: ServicesDep, game: str | None = None, status: str | None = None
) -> list[dict[str, Any]]:
    rows = await _store(services).list_tournaments(game=game, status=status)
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

    live = running_of(request.app).get(tournament_id)
    if live is not None:
        return live[0].summary()
    if len(tournament_id) > 64:
        raise HTTPException(404, f"no tournament {tournament_id[:64]!r}...")
    try:
        services = services_of(request.app)
        runner = await Runner.resume(_store(services), tournament_id, recorder=services.recorder)
    except ConfigError as exc:
        raise HTTPException(404, str(exc)) from None
    return runner.summary()


@router.get("/api/tournaments/{tournament_id}", summary="Standings, crosstable, SPRT and progress")
async def get_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    return await _summary(request, tournament_id)


@router.post("/api/tournaments/{tournament_id}/resume", summary="Continue an interrupted tournament")
async def resume_tournament(request: Request, tournament_id: str, services: ServicesDep) -> dict[str, Any]:
    from hexarena.tournament.runner import Runner

    running = running_of(request.app)
    if tournament_id in running:
        return {"id": tournament_id, "status": "running"}
    try:
        runner = await Runner.resume(
            _store(services), tournament_id, policy=services.policy, recorder=services.recorder
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
    if not await claim(request.app, tournament_id):
        return {"id": tournament_id, "status": "running"}  # on another instance
    running.start(runner)
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


async def resume_running_tournaments(app: FastAPI) -> list[str]:
    """Resume the tournaments created through the API that were still running (CLI runs stay put)."""
    from hexarena.tournament.runner import Runner

    services = services_of(app)
    store = services.store
    if store is None:
        return []
    if services.cluster is not None and not await services.cluster.settled():
        return []  # a lease missing just after Redis came back may be a live instance's (``Cluster.settled``)
    resumed = []
    running = running_of(app)
    for record in await store.list_tournaments(status="running"):
        if not isinstance(record.state, dict) or record.state.get("origin") != "api":
            continue
        if record.tournament_id in running or not await claim(app, record.tournament_id):
            continue  # already here, or run by another instance
        try:
            runner = await Runner.resume(
                store, record.tournament_id, policy=services.policy, recorder=services.recorder
            )
        except HexarenaError:
            log.exception("cannot resume tournament %s", record.tournament_id)
            if services.cluster is not None:
                await services.cluster.release(lease_id(record.tournament_id))
            continue
        log.warning("resuming tournament %s, left running by an earlier server or another instance", runner.id)
        running.start(runner)
        resumed.append(record.tournament_id)
    if services.cluster is not None:
        services.cluster.scans["tournaments"] += 1
    return resumed


async def _keep_resuming(app: FastAPI) -> None:
    """Several instances: take over the tournaments of an instance that stopped or died."""
    cluster = services_of(app).cluster
    assert cluster is not None
    while True:
        await asyncio.sleep(cluster.scan_every)
        try:
            await resume_running_tournaments(app)
        except Exception:
            stop_if_cancelled()  # a stop a driver answered with an error of its own
            log.warning("looking for tournaments to resume failed; trying again", exc_info=True)
        stop_if_cancelled()


async def shutdown_tournaments(app: FastAPI) -> None:
    """Cancel running tournaments (their state is saved; resume them later)."""
    await stop_tasks([task for _, task in running_of(app).values()], "the running tournaments")


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Resume the API's tournaments a previous server left running; at shutdown cancel every running one."""
    running = app.state.tournaments = Running()
    cluster = services_of(app).cluster
    scan = None
    if cluster is not None:
        running.cluster = cluster

        def lost(leased: str) -> None:  # another instance runs it now: stop it here
            found = running.get(leased.partition(":")[2])
            if found is not None:
                found[1].cancel()

        cluster.lost_handlers["tournament:"] = lost
    await resume_running_tournaments(app)
    if cluster is not None:
        scan = asyncio.create_task(_keep_resuming(app), name="hexarena-tournament-scan")
    try:
        yield
    finally:
        if scan is not None:
            await stop_tasks([scan], "the tournament scan")
        await shutdown_tournaments(app)


__all__ = ["Running", "lifespan", "resume_running_tournaments", "router", "running_of", "shutdown_tournaments"]
