"""SIGTERM with the store degraded (PostgreSQL stopped, or hanging): ``hexarena serve`` still ends by itself within
its shutdown bound, without its last-resort forced exit, and the journal keeps what could not be written."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

import asyncpg
import httpx
import pytest
from procs import (
    FAST_CLUSTER,
    PACED_CLOCK,
    Person,
    ServeProcess,
    paced_bot_server,
    people_game,
    play_turns,
    private_postgres,
    private_redis,
)
from test_cluster import until_some_stored
from test_durability import _until_degraded

from fakes.servers import serve_app
from hexarena.server.app import Settings, create_app
from hexarena.server.serving import FORCED_EXIT_STATUS
from hexarena.store import Store
from hexarena.store.errors import StoreError

pytestmark = pytest.mark.fault


async def started_games(server: ServeProcess) -> list[tuple[str, Person, Person]]:
    """Three games between people on ``server``, three turns played in each; then reads at once, so that the
    store's pool holds idle connections as well as the recorder's (closing an idle one waits for the database)."""
    games = [await people_game(server) for _ in range(3)]
    await asyncio.gather(*(play_turns(x, o, 3) for _, x, o in games))
    reads = await asyncio.gather(*(server.get("/games?limit=5") for _ in range(6)))
    assert all(r.status_code == 200 for r in reads), [r.text for r in reads]
    return games


def sigterm_ends_cleanly(server: ServeProcess, data: Path | None) -> None:
    """SIGTERM; the server ends by itself, not by its forced exit, and journaled (in ``data``, unless None) what the
    database did not take."""
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    try:
        code = server.proc.wait(60)
    except subprocess.TimeoutExpired:
        raise AssertionError("hexarena serve did not end within 60 s of SIGTERM") from None
    log = server.log.read_text()
    # the mechanism, not the wall time: past its bound the shutdown is ended by force (and says so)
    assert code != FORCED_EXIT_STATUS and "forcing exit" not in log, log[-3000:]
    assert data is None or list(data.glob("journal-*.jsonl")), "the journal lost what was not written"


async def test_sigterm_with_postgresql_down_ends_cleanly_and_journals(tmp_path: Path) -> None:
    with private_postgres() as pg:
        server = ServeProcess(pg.url, tmp_path / "data", tmp_path / "serve.log")
        await server.start()
        try:
            games = await started_games(server)
            pg.stop()
            await asyncio.gather(*(play_turns(x, o, 3) for _, x, o in games))
            for _, x, _ in games[:2]:
                await x.ws.close()  # two games end during the outage: their results wait for the database
            await _until_degraded(server)
            sigterm_ends_cleanly(server, tmp_path / "data")
        finally:
            server.stop()


async def test_sigterm_while_postgresql_hangs_ends_cleanly_and_journals(tmp_path: Path) -> None:
    """A database that does not answer at all (its processes stopped, the connections open): every shutdown step
    that waits on it is bounded, so their bounds together, not a hung call, decide when the process ends."""
    with private_postgres() as pg:
        server = ServeProcess(pg.url, tmp_path / "data", tmp_path / "serve.log")
        await server.start()
        try:
            games = await started_games(server)
            pg.freeze()
            try:
                plies = await asyncio.gather(*(play_turns(x, o, 2) for _, x, o in games))
                await games[0][1].ws.close()  # a game ends while the database hangs: its result waits
                await asyncio.sleep(0.5)
                sigterm_ends_cleanly(server, tmp_path / "data")
            finally:
                pg.thaw()
            await server.start()  # the database answers again: the next start writes what the journal kept
            for (game_id, _, _), played in zip(games, plies, strict=True):
                record = (await server.get(f"/games/{game_id}")).json()
                assert len(record["moves"]) >= played, (game_id, len(record["moves"]), played)
            ended = (await server.get(f"/games/{games[0][0]}")).json()
            assert ended["status"] == "finished" and ended["winner"] == 1, ended  # X left: its result was kept too
        finally:
            server.stop()


async def test_closing_the_store_while_postgresql_hangs_is_bounded() -> None:
    """Closing a connection waits for the database to acknowledge it (asyncpg, with no bound of its own): with idle
    connections in the pool and PostgreSQL hanging, ``Store.close`` gives up after its timeout."""
    with private_postgres() as pg:
        store = await Store.open(pg.url)
        try:
            await asyncio.gather(*(store.list_games(limit=5) for _ in range(4)))  # the pool opens several
            pg.freeze()
            try:
                await asyncio.wait_for(store.close(timeout=0.5), 30)
            except TimeoutError:
                raise AssertionError("Store.close waited on a database that hangs, past its own timeout") from None
            finally:
                pg.thaw()
            with pytest.raises(StoreError, match="closed"):
                await store.list_games(limit=1)
        finally:
            await store.close()


async def test_a_stop_closes_every_connection_of_a_database_slow_to_acknowledge(tmp_path: Path) -> None:
    """A healthy PostgreSQL slow to acknowledge closing (a loaded machine's; here stopped for a second as the server
    stops) still has every connection of the server's closed when its stop returns: none left open, to be found
    unclosed when the event loop ends."""
    with private_postgres() as pg:
        app = create_app(Settings(database_url=pg.url, data_dir=tmp_path / "data"))
        async with serve_app(app) as url, httpx.AsyncClient(base_url=url) as client:
            reads = await asyncio.gather(*(client.get("/games?limit=5") for _ in range(6)))  # idle pool connections
            assert all(r.status_code == 200 for r in reads), [r.text for r in reads]
            pg.freeze()
            thaw = asyncio.get_running_loop().call_later(1.0, pg.thaw)
        thaw.cancel()
        pg.thaw()
        connection = await asyncpg.connect(pg.url.replace("postgresql+asyncpg", "postgresql"))
        try:
            left = await connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            )
        finally:
            await connection.close()
        assert left == 0, f"{left} connection(s) of the server still open after its stop"


@pytest.mark.parametrize("hanging", ["postgresql", "redis", "both"])
async def test_sigterm_of_a_cluster_instance_while_its_services_hang_hands_over_cleanly(
    tmp_path: Path, hanging: str
) -> None:
    """With Redis too: handing a bot match over waits on the database (its moves flushed) and on Redis (its lease
    released), and closing the cluster on Redis (queued events, the homes); with either or both hanging, the steps'
    bounds still end the process by itself."""
    with (
        paced_bot_server(tmp_path / "gate", tmp_path / "bot.log") as bot,
        private_postgres() as pg,
        private_redis() as redis,
    ):
        hung = [s for name, s in (("postgresql", pg), ("redis", redis)) if hanging in (name, "both")]
        server = ServeProcess(
            pg.url, tmp_path / "data", tmp_path / "serve.log", extra=("--redis-url", redis.url, *FAST_CLUSTER)
        )
        try:
            await server.start()
            players = [f"stateless:{bot}", "builtin:random"]
            r = await server.post("/api/matches", {"game": "htttx", "players": players, "clock": PACED_CLOCK})
            assert r.status_code == 200, r.text
            game_id = r.json()["game_id"]
            await until_some_stored(server, game_id)
            for service in hung:
                service.freeze()
            try:
                await asyncio.sleep(0.5)  # the moves played meanwhile wait for the database
                sigterm_ends_cleanly(server, tmp_path / "data" if pg in hung else None)
            finally:
                for service in hung:
                    service.thaw()
            log = server.log.read_text()
            assert "handed over" in log
            # the operator is told where the stop spent its time
            took = [line for line in log.splitlines() if "the shutdown took" in line]
            assert took and "the live matches" in took[0], log[-3000:]
        finally:
            server.stop()
