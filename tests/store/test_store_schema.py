"""Schema, migrations, restarts and URLs: a fresh database just works, a reopened one keeps everything."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from store_helpers import move, players

from hexarena.store import InvalidRecord, SchemaError, Store, StoreError, new_id, resolve_url
from hexarena.store.engine import create_engine
from hexarena.store.migrate import head_revision
from hexarena.store.models import Base
from hexarena.store.records import NewGame

SRC = Path(__file__).resolve().parents[2] / "src"


async def test_restart_keeps_finished_and_running_games(database_url: str) -> None:
    done, live = new_id(), new_id()
    s = await Store.open(database_url)
    await s.create_game(game_id=done, game="hexdots", params={"rows": 5}, players=players(), contest_id="c")
    for ply in range(4):
        await s.append_move(done, move(ply, evaluation={"ply": ply}))
    await s.finish_game(done, winner=1, termination="time", reason="alice ran out of time")
    await s.create_game(game_id=live, game="hex", params={}, players=players())
    await s.append_move(live, move(0))
    before = await s.get_game(done)
    await s.close()

    reopened = await Store.open(database_url)
    try:
        assert await reopened.get_game(done) == before
        live_rec = await reopened.get_game(live)
        assert live_rec is not None and live_rec.status == "running" and len(live_rec.moves) == 1
        assert await reopened.mark_unfinished_as_aborted() == 1
        assert await reopened.count_games() == 2
        assert await reopened.schema_revision() == head_revision()
    finally:
        await reopened.close()


async def test_fresh_database_gets_the_head_schema_matching_the_models(database_url: str) -> None:
    s = await Store.open(database_url)
    await s.close()
    engine = create_engine(resolve_url(database_url))

    def diff(conn: Connection) -> list[object]:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(ctx, Base.metadata))

    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(diff) == []
            version = await conn.scalar(text("SELECT version_num FROM alembic_version"))
            assert version == head_revision()
    finally:
        await engine.dispose()


async def test_downgrade_to_empty_and_upgrade_again(database_url: str) -> None:
    """Every migration must be reversible, so a bad deploy can be rolled back."""
    from alembic import command

    from hexarena.store.migrate import alembic_config

    s = await Store.open(database_url)
    await s.close()
    engine = create_engine(resolve_url(database_url))

    def downgrade(conn: Connection) -> list[str]:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "base")
        return sorted(inspect(conn).get_table_names())

    try:
        async with engine.begin() as conn:
            assert await conn.run_sync(downgrade) == ["alembic_version"]
    finally:
        await engine.dispose()
    again = await Store.open(database_url)
    try:
        assert await again.schema_revision() == head_revision()
        assert await again.count_games() == 0
    finally:
        await again.close()


async def test_concurrent_opens_of_a_fresh_database_all_succeed(database_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(database_url) for _ in range(4)))
    try:
        gid = new_id()
        await stores[0].create_game(game_id=gid, game="hex", params={}, players=players())
        for s in stores:
            assert (await s.get_game(gid)) is not None
    finally:
        for s in stores:
            await s.close()


async def test_database_from_a_newer_hexarena_is_refused_clearly(database_url: str) -> None:
    s = await Store.open(database_url)
    await s.close()
    engine = create_engine(resolve_url(database_url))
    try:
        async with engine.begin() as conn:
            await conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    finally:
        await engine.dispose()
    with pytest.raises(SchemaError, match="'9999_future'"):
        await Store.open(database_url)


async def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    s = await Store.open(str(tmp_path / "w.sqlite3"))
    try:
        engine = create_engine(resolve_url(str(tmp_path / "w.sqlite3")))
        async with engine.connect() as conn:
            assert (await conn.scalar(text("PRAGMA journal_mode"))) == "wal"
            assert (await conn.scalar(text("PRAGMA busy_timeout"))) >= 1000
            assert (await conn.scalar(text("PRAGMA foreign_keys"))) == 1
        await engine.dispose()
    finally:
        await s.close()


async def test_memory_database_serialises_access(tmp_path: Path) -> None:
    s = await Store.open("sqlite:///:memory:")
    try:
        ids = [new_id() for _ in range(10)]
        await asyncio.gather(
            *(s.create_game(game_id=g, game="hex", params={}, players=players()) for g in ids),
            *(s.list_games() for _ in range(10)),
        )
        assert await s.count_games() == 10
    finally:
        await s.close()


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u:pw@db:5432/arena", "postgresql+asyncpg://u:pw@db:5432/arena"),
        ("postgres://u@db/arena", "postgresql+asyncpg://u@db/arena"),
        ("postgresql+psycopg2://u@db/arena", "postgresql+asyncpg://u@db/arena"),
        ("sqlite:///{tmp}/a.db", "sqlite+aiosqlite:///{tmp}/a.db"),
        ("sqlite+aiosqlite:///{tmp}/b.db", "sqlite+aiosqlite:///{tmp}/b.db"),
        ("{tmp}/sub/c.sqlite3", "sqlite+aiosqlite:///{tmp}/sub/c.sqlite3"),
    ],
)
def test_urls_map_to_async_drivers(tmp_path: Path, given: str, expected: str) -> None:
    url = resolve_url(given.format(tmp=tmp_path))
    assert url.render_as_string(hide_password=False) == expected.format(tmp=tmp_path)
    if url.get_backend_name() == "sqlite":
        assert Path(url.database or "").parent.is_dir()


def test_default_url_comes_from_env_or_the_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HEXARENA_DATABASE_URL", raising=False)
    assert resolve_url(None).database == os.path.join("data", "hexarena.sqlite3")
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv("HEXARENA_DATABASE_URL", "postgresql://x@h/db")
    assert resolve_url(None).drivername == "postgresql+asyncpg"


@pytest.mark.parametrize("bad", ["", "mysql://u@h/db", "http://example.com/"])
def test_unsupported_urls_are_refused(bad: str) -> None:
    with pytest.raises(InvalidRecord):
        resolve_url(bad)


async def test_unreachable_server_gives_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot open database") as info:
        await Store.open("postgresql://user:topsecret@127.0.0.1:1/nothing")
    assert "topsecret" not in str(info.value)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "hexarena.store", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def _cli_in_thread(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI's main() in a thread (it calls asyncio.run) and capture what it printed."""
    from hexarena.store.__main__ import main

    with ThreadPoolExecutor(1) as pool:
        code = pool.submit(main, list(args)).result(timeout=120)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_upgrade_current_and_sql(database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _cli_in_thread(capsys, "upgrade", "--database-url", database_url)
    assert code == 0, err
    assert f"to {head_revision()}" in out
    code, out, _ = _cli_in_thread(capsys, "upgrade", "--database-url", database_url)
    assert code == 0 and "already at revision" in out
    code, out, _ = _cli_in_thread(capsys, "--database-url", database_url, "current")
    assert code == 0 and f"at revision {head_revision()}" in out
    code, out, _ = _cli_in_thread(capsys, "sql", "--database-url", "postgresql://u@h/db")
    assert code == 0 and "CREATE TABLE games" in out and "JSONB" in out
    code, _, err = _cli_in_thread(capsys, "upgrade", "--database-url", "mysql://x@y/z")
    assert code == 1 and "not supported" in err


def test_cli_runs_as_a_module() -> None:
    usage = _cli("--help")
    assert usage.returncode == 0 and "upgrade" in usage.stdout and "--database-url" in usage.stdout


async def test_a_sqlite_connection_given_back_inside_a_transaction_is_rolled_back(tmp_path: Path) -> None:
    """The pool skips its rollback after a COMMIT that returned (with the one-call cursor; the driver calls it
    saves: bench/sqlite_driver_calls.py), yet still rolls back a connection given back inside a transaction, also one
    begun on the raw driver after a commit."""
    s = await Store.open(str(tmp_path / "h.sqlite3"))
    try:
        await s.create_games([NewGame(game_id=new_id(), game="hex", params={}, players=tuple(players()))])
        assert [g.game_id for g in await s.list_games()] and (await s.list_games())[0].players  # rows read back
        # a connection given back in the middle of a transaction SQLAlchemy does not know of: the pool rolls it back
        async with s._engine.connect() as conn:
            raw = await conn.get_raw_connection()
            driver = raw.driver_connection
            assert driver is not None
            await driver.execute("BEGIN IMMEDIATE")
            await driver.execute("CREATE TABLE scratch (x INTEGER)")
            assert driver.in_transaction
        assert not driver.in_transaction
        async with s._engine.connect() as conn:
            assert await conn.scalar(text("SELECT count(*) FROM sqlite_master WHERE name = 'scratch'")) == 0
            await conn.commit()  # clean now: given back after this, it would not be rolled back ...
            raw = await conn.get_raw_connection()
            driver = raw.driver_connection
            assert driver is not None
            await driver.execute("BEGIN IMMEDIATE")  # ... but the driver says a transaction is open
            await driver.execute("CREATE TABLE scratch (x INTEGER)")
        assert not driver.in_transaction
        async with s._engine.connect() as conn:
            assert await conn.scalar(text("SELECT count(*) FROM sqlite_master WHERE name = 'scratch'")) == 0
        await s.create_games([])  # and the store writes on as before
    finally:
        await s.close()


async def test_a_streaming_read_runs_inside_its_transaction(tmp_path: Path) -> None:
    """A transaction's BEGIN waits to go with its first statement (with the one-call cursor); a server-side
    (streaming) cursor runs its statement itself, so the BEGIN goes first: the read is inside the transaction, as
    SQLAlchemy believes."""
    s = await Store.open(str(tmp_path / "stream.sqlite3"))
    try:
        async with s._engine.connect() as conn, conn.begin():
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            result = await conn.stream(text("SELECT name FROM sqlite_master"))
            assert [row async for row in result]
            assert driver.in_transaction
        assert not driver.in_transaction
    finally:
        await s.close()


async def test_a_burst_of_sqlite_reads_opens_its_connections_once(tmp_path: Path) -> None:
    """A SQLite connection is a thread of aiosqlite's, its file opened and its PRAGMAs set: 1.7 ms of CPU to open
    and close on a slow stretch of this machine. The pool kept 5 and opened the rest of a burst anew every time,
    closing them when given back: in one process, 8 reads at a time cost 2,244 us of CPU a read against 917 one at
    a time (1,290 now). The connections a burst opened now stay for the next, up to the same bound as before."""
    from sqlalchemy import event

    s = await Store.open(str(tmp_path / "p.sqlite3"), pool_size=10)
    opened = [0]

    def count(*_: Any) -> None:
        opened[0] += 1

    event.listen(s._engine.sync_engine, "connect", count)
    try:
        await asyncio.gather(*(s.list_games(limit=1) for _ in range(12)))
        first = opened[0]
        for _ in range(3):
            await asyncio.gather(*(s.list_games(limit=1) for _ in range(12)))
        assert first >= 8, first  # the burst did run side by side
        assert opened[0] == first, f"{opened[0] - first} connections opened again for the same bursts"
    finally:
        event.remove(s._engine.sync_engine, "connect", count)
        await s.close()


async def test_a_write_that_cannot_get_the_lock_is_a_store_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """BEGIN IMMEDIATE goes straight to the driver: when another process holds the write lock past the busy
    timeout, the store still says StoreError (what callers handle: the recorder journals, the API answers 503),
    not the driver's own exception."""
    import sqlite3

    from hexarena.store import engine as engine_module

    monkeypatch.setattr(engine_module, "SQLITE_BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "locked.sqlite3"
    s = await Store.open(str(path))
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreError, match="locked"):
            await s.create_games([NewGame(game_id=new_id(), game="hex", params={}, players=tuple(players()))])
        holder.execute("ROLLBACK")
        await s.create_games([NewGame(game_id=new_id(), game="hex", params={}, players=tuple(players()))])
    finally:
        holder.close()
        await s.close()


async def test_reads_cancelled_at_any_point_leave_no_transaction_open_in_the_pool(tmp_path: Path) -> None:
    """A cancelled read (a GraphQL query past its time limit) gives its connection back while the driver's
    thread may still run what was sent to it (BEGIN, a SELECT). The pool's rollback must come after those, in the
    thread's order: a rollback decided on the loop from the connection's state right then was skipped when a
    BEGIN still waited in the thread, and the next read on that connection failed with "cannot start a
    transaction within a transaction" (the GraphQL fuzz test found it)."""
    s = await Store.open(str(tmp_path / "c.sqlite3"), pool_size=2)
    try:
        for steps in range(12):
            for _ in range(4):
                task = asyncio.ensure_future(s.list_games(limit=1))
                for _ in range(steps):
                    await asyncio.sleep(0)
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            for _ in range(4):  # every pooled connection is taken again
                await asyncio.gather(s.list_games(limit=1), s.list_games(limit=1))
    finally:
        await s.close()
