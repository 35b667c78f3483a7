"""The app's one shutdown path (``server.app.serve_lifespan``): stopping a real server runs every module's shutdown
and then closes the shared services, in that order, even when one module's shutdown fails.

What is observable from outside, after uvicorn on loopback stops: the live match ended ``interrupted`` with its
move in the store (the match manager stopped it and the recorder flushed before the store closed), the bot
process it started is gone, the API tournament was cancelled while the store was still open (so its state says
``running`` and the next server resumes it), and the battlebot lobby was closed (the ``battlebot:`` scheme no
longer finds it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from fakes.servers import serve_app
from hexarena.players.proctree import ProcInfo, descendants, is_alive
from hexarena.server import tournaments
from hexarena.server.app import create_app, serve_lifespan
from hexarena.server.battlebot.lobby import LOBBIES
from hexarena.server.ratelimit import CreateLimiter
from hexarena.server.services import Settings, services_of
from hexarena.store import Store
from hexarena.store.errors import StoreError

BAD_BOT = Path(__file__).resolve().parents[1] / "stdio" / "bots" / "bad_bot.py"
#: A UAIS bot that never answers its first move request: its match and tournament stay live until stopped.
SILENT = f"uais:{sys.executable} {BAD_BOT} silent"
DAY = 86_400


def settings(tmp_path: Path) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}",
        engines={"silent": SILENT},
        create_rate_limit=None,
    )


async def until(check: Any, what: str, within: float = 30.0) -> Any:
    """Poll ``check()`` (sync or async) until it returns something truthy."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while loop.time() < end:
        found = check()
        if asyncio.iscoroutine(found):
            found = await found
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def start_work(client: httpx.AsyncClient) -> tuple[str, str]:
    """A hex match whose first move is played and whose second waits on the silent bot, and an API tournament
    whose first game does the same; their ids."""
    match = {
        "game": "hex",
        "players": ["builtin:random", "engine:silent"],
        "clock": {"type": "turn", "seconds": DAY},
    }
    r = await client.post("/api/matches", json=match)
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    tournament = {
        "game": "hex",
        "players": ["builtin:random", "engine:silent"],
        "names": ["random", "silent"],
        "clock": {"kind": "turn", "seconds": DAY},
        "id": "left-running",
    }
    r = await client.post("/api/tournaments", json=tournament)
    assert r.status_code == 201, r.text

    async def first_move_played() -> bool:
        live = (await client.get("/api/matches/live")).json()
        return any(m["game_id"] == game_id and m["ply"] >= 1 for m in live)

    await until(first_move_played, "the match's first move")
    return game_id, r.json()["id"]


async def test_stopping_the_server_runs_every_module_shutdown_then_closes_the_services(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path))
    async with serve_app(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        game_id, tournament_id = await start_work(client)
        bots: list[ProcInfo] = await until(lambda: bot_processes(), "the silent bots' processes")
        running = tournaments.running_of(app)
        assert tournament_id in running
        task = running[tournament_id][1]
        lobby = app.state.battlebot
        assert lobby in LOBBIES  # where the ``battlebot:BOT_ID`` scheme looks for connected bots
    assert task.cancelled(), "the tournaments module's shutdown cancels its running tournaments"
    assert lobby not in LOBBIES, "the battlebot module's shutdown closes its lobby"
    assert not [p.pid for p in bots if is_alive(p.pid, p.start)], "a bot process outlived the server"

    store = await Store.open(settings(tmp_path).database_url)
    try:
        record = await store.get_game(game_id)
        assert record is not None and record.status == "interrupted", record
        assert len(record.moves) >= 1, "the move played before the shutdown was flushed to the store"
        stored = await store.get_tournament(tournament_id)
        assert stored is not None and stored.status == "running", "cancelled with its state saved, to resume"
    finally:
        await store.close()

    again = create_app(settings(tmp_path))  # the next server picks the API's tournament up again
    async with again.router.lifespan_context(again):
        assert tournament_id in tournaments.running_of(again)


def bot_processes() -> list[ProcInfo]:
    """The silent bots this test's server started, once there are two (the match's and the tournament's)."""
    found = [p for p in descendants(os.getpid()) if "bad_bot.py" in command_line(p.pid)]
    return found if len(found) >= 2 else []


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


@contextlib.asynccontextmanager
async def failing_shutdown(app: FastAPI) -> AsyncIterator[None]:
    yield
    raise RuntimeError("this module's shutdown failed")


async def test_a_failing_module_shutdown_still_closes_the_services(tmp_path: Path) -> None:
    """Modules are left in reverse order on one exit stack: the ones entered before the failing one and the
    services still close, and the failure is not swallowed."""
    app = FastAPI(
        lifespan=lambda app: serve_lifespan(
            app,
            settings=settings(tmp_path),
            limiter=CreateLimiter(None),
            lifespans=[tournaments.lifespan, failing_shutdown],
        )
    )
    try:
        async with app.router.lifespan_context(app):
            services = services_of(app)
            running = tournaments.running_of(app)
            sleeper = asyncio.create_task(asyncio.sleep(DAY))
            running["sleeper"] = (None, sleeper)
    except RuntimeError as exc:
        assert "this module's shutdown failed" in str(exc)
    else:
        raise AssertionError("the failing shutdown was swallowed")
    assert sleeper.cancelled(), "the tournaments module entered before the failing one still shut down"
    assert services.store is not None
    with pytest.raises(StoreError, match="closed"):  # the services closed after the modules, the failure aside
        await services.store.list_games()
