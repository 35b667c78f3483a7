"""Database URLs and the one async engine per store.

Operators paste whatever URL they have (``postgresql://...`` from a hosting panel, ``sqlite:///file``, or just a
file path), so :func:`resolve_url` maps them onto the async drivers (asyncpg, aiosqlite) instead of failing.

SQLite needs care to stay correct under many concurrent finishes:

- WAL journal, so readers never block the writer and vice versa;
- a busy timeout, so a second process waits for the write lock instead of failing with "database is locked";
- write transactions start with ``BEGIN IMMEDIATE``: a deferred transaction that reads and then writes can fail
  at once with SQLITE_BUSY when another writer committed in between (the busy timeout does not help there).
  The driver's own BEGIN handling is switched off (``isolation_level = None``) and SQLAlchemy's ``begin``
  event emits ``BEGIN IMMEDIATE`` for connections marked ``hexarena_write`` and a plain ``BEGIN`` otherwise,
  which also gives reads one consistent snapshot across several SELECTs.

Every call into SQLite is a hop to aiosqlite's thread and back (tens of us of CPU, more than most statements
take), so every statement is one call (:mod:`hexarena.store.sqlite_cursor`; SQLAlchemy's cursor makes three or
four), a transaction's BEGIN goes with its first statement, and the pool rolls back a connection given back only
when something may be open: not after a COMMIT or ROLLBACK that returned. A connection is only taken for clean
once the thread has answered its COMMIT or ROLLBACK, never from the driver's state read on the loop: a cancelled
transaction's BEGIN may still be waiting in the thread (``tests/store/test_store_schema.py``). That cursor builds on
private parts of SQLAlchemy and aiosqlite: :func:`one_call_cursors` checks once that they are there, and without
them the engine keeps SQLAlchemy's cursor, BEGIN and pool reset as they are (correct, only slower).
"""

from __future__ import annotations

import functools
import logging
import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from hexarena.core.extras import require_postgres
from hexarena.store.errors import InvalidRecord

log = logging.getLogger(__name__)

ENV_URL = "HEXARENA_DATABASE_URL"
#: Connections one store keeps (PostgreSQL: this many, and twice as many more in a burst; a SQLite file: 1.5 times
#: this many, all kept open): a deployment's instances must fit in PostgreSQL's ``max_connections`` together.
ENV_POOL_SIZE = "HEXARENA_DATABASE_POOL_SIZE"
DEFAULT_POOL_SIZE = 10
MAX_POOL_SIZE = 1000
DEFAULT_SQLITE_PATH = Path("data") / "hexarena.sqlite3"
SQLITE_BUSY_TIMEOUT_MS = 30_000
WRITE_OPTION = "hexarena_write"

_POSTGRES_ALIASES = {"postgres", "postgresql", "postgresql+psycopg2", "postgresql+psycopg", "postgresql+asyncpg"}
_SQLITE_ALIASES = {"sqlite", "sqlite+pysqlite", "sqlite+aiosqlite"}


def pool_size_from_env() -> int:
    """``$HEXARENA_DATABASE_POOL_SIZE``, or the default when it is unset; a value that is not a whole number from 1
    to ``MAX_POOL_SIZE`` is refused with what was wrong, before any connection is opened."""
    text = os.environ.get(ENV_POOL_SIZE, "").strip()
    if not text:
        return DEFAULT_POOL_SIZE
    try:
        size = int(text)
    except ValueError:
        size = 0
    if not 1 <= size <= MAX_POOL_SIZE:
        raise InvalidRecord(f"{ENV_POOL_SIZE}={_safe(text)!r}: give a whole number from 1 to {MAX_POOL_SIZE}")
    return size


def resolve_url(url: str | URL | None = None) -> URL:
    """The async-driver URL to use for ``url``; ``None`` means ``$HEXARENA_DATABASE_URL`` or the default file.

    A string without ``://`` is taken as a SQLite file path. The parent directory of a SQLite file is created,
    so a fresh checkout just works.
    """
    if url is None:
        url = os.environ.get(ENV_URL) or str(DEFAULT_SQLITE_PATH)
    if isinstance(url, str):
        text = url.strip()
        if not text:
            raise InvalidRecord("database URL is empty")
        if "://" not in text:
            text = "sqlite+aiosqlite:///" + text
        try:
            parsed = make_url(text)
        except ArgumentError as exc:
            raise InvalidRecord(f"database URL {_safe(text)!r} cannot be parsed: {exc}") from None
    else:
        parsed = url
    driver = parsed.drivername
    if driver in _POSTGRES_ALIASES:
        require_postgres()  # an extra of its own (hexarena[postgres]): say so rather than fail in SQLAlchemy
        return parsed.set(drivername="postgresql+asyncpg")
    if driver in _SQLITE_ALIASES:
        parsed = parsed.set(drivername="sqlite+aiosqlite")
        if parsed.database and not is_memory(parsed):
            Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        return parsed
    raise InvalidRecord(
        f"database URL {parsed.render_as_string(hide_password=True)!r} is not supported: "
        "use sqlite:///path/to/file.sqlite3 or postgresql://user@host/dbname"
    )


def is_memory(url: URL) -> bool:
    """True for an in-memory SQLite URL (one shared connection: fine for tests, lost at close)."""
    return url.get_backend_name() == "sqlite" and (url.database or ":memory:") in ("", ":memory:")


def _safe(text: str) -> str:
    """``text`` with anything between ``://`` and ``@`` hidden, for error messages about unparsable URLs."""
    head, sep, rest = text.partition("://")
    if sep and "@" in rest:
        return f"{head}://***@{rest.split('@', 1)[1]}"
    return text


@functools.cache
def one_call_cursors() -> bool:
    """Whether SQLite engines make each statement one call into the driver's thread: when the installed
    SQLAlchemy and aiosqlite have the private parts :mod:`hexarena.store.sqlite_cursor` builds on. Checked once;
    a release without them is said once in the log, and SQLAlchemy's own cursor serves."""
    try:
        from hexarena.store import sqlite_cursor
    except ImportError as exc:  # a SQLAlchemy without the adapter classes it subclasses
        gaps = [str(exc)]
    else:
        gaps = sqlite_cursor.missing()
    if gaps:
        log.info(
            "SQLite statements go through SQLAlchemy's own aiosqlite cursor (3-4 calls into the driver's thread "
            "each, not one): this SQLAlchemy or aiosqlite lacks %s",
            "; ".join(gaps),
        )
    return not gaps


def create_engine(url: URL, *, echo: bool = False, pool_size: int | None = None, one_call: bool = True) -> AsyncEngine:
    """One engine for the whole store, tuned per backend (see the module docstring); ``pool_size`` None takes
    :func:`pool_size_from_env`; ``one_call`` False keeps SQLAlchemy's own aiosqlite cursor even where
    :func:`one_call_cursors` allows the store's."""
    if pool_size is None:
        pool_size = pool_size_from_env()
    # hide_parameters: error messages and echo logs must never show a bot's pass_hash.
    kwargs: dict[str, Any] = {"echo": echo, "hide_parameters": True}
    if url.get_backend_name() == "postgresql":
        # A pool sized for many games finishing at once; pre-ping survives server restarts.
        kwargs.update(pool_size=pool_size, max_overflow=pool_size * 2, pool_pre_ping=True, pool_timeout=60)
    elif not is_memory(url):
        # Every connection the pool may open stays open once opened (no overflow that is closed when given back):
        # a SQLite connection is a thread of aiosqlite's and its file opened and set up (1-1.7 ms of CPU), where a
        # pool of 5 with overflow reopened the rest of every burst of reads. Same bound as before (15 for 10).
        kwargs.update(pool_size=max(2, pool_size // 2) + pool_size, max_overflow=0, pool_timeout=60)
    one_call = one_call and url.get_backend_name() == "sqlite" and one_call_cursors()
    if one_call:
        kwargs["pool_reset_on_return"] = None  # sqlite_cursor.reset, registered below, is the one reset
    engine = create_async_engine(url, **kwargs)
    if url.get_backend_name() == "sqlite":
        _tune_sqlite(engine, memory=is_memory(url), one_call=one_call)
    return engine


def _use_wal(cursor: Any) -> None:
    """Switch the file to WAL (persistent: once per database file, a no-op read afterwards).

    The switch needs an exclusive lock, and SQLite may answer SQLITE_BUSY at once, without calling the busy
    handler, while another connection is opening the same fresh file: so the switch is retried for a while
    (this runs on the driver's thread, where sleeping blocks nobody).
    """
    cursor.execute("PRAGMA journal_mode")
    row = cursor.fetchone()
    if row is not None and str(row[0]).lower() == "wal":
        return
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as exc:  # the driver's OperationalError (sqlite3's, through the async adapter)
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def _tune_sqlite(engine: AsyncEngine, *, memory: bool, one_call: bool) -> None:
    if one_call:
        from hexarena.store import sqlite_cursor

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        if one_call:
            sqlite_cursor.use_one_call_cursors(dbapi_connection)  # a statement: one call into the driver's thread
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves, see _on_begin
        cursor = dbapi_connection.cursor()
        try:
            # the busy timeout first: switching a fresh file to WAL needs a lock that another opener may hold
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            if not memory:
                _use_wal(cursor)
                cursor.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; safe with WAL
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        begin = "BEGIN IMMEDIATE" if conn.get_execution_options().get(WRITE_OPTION, False) else "BEGIN"
        if not (one_call and sqlite_cursor.defer_begin(conn.connection.dbapi_connection, begin)):
            conn.exec_driver_sql(begin)  # (deferred: sent with the first statement, in the same call)

    if one_call:
        event.listen(engine.sync_engine, "reset", sqlite_cursor.reset)  # rolls back only what may be open
