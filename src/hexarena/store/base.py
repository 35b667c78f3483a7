"""The plumbing every part of the store shares: one engine, short transactions, errors wrapped.

Every write is one short transaction. On SQLite, writes in this process also queue on an ``asyncio.Lock``
(SQLite has one writer anyway; queueing in the event loop beats threads spinning on the file lock) and begin with
``BEGIN IMMEDIATE`` so other processes wait on the busy timeout instead of failing (see ``engine.py``). Driver
errors become :class:`StoreError` naming the operation, with the driver's message but never the parameters.

Errors are told apart by what a retry would do (:func:`refused`): the database refusing *these values* (a
constraint broken, a value out of range or not encodable: SQLSTATE classes 22 and 23, or the driver failing to
convert a parameter) is an :class:`InvalidRecord`, refused again on every retry, so the recorder sets the write
aside; anything else (unreachable, failing, timing out) is a plain :class:`StoreError`, which passes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any, Self

from sqlalchemy import Table, insert
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Dialect
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, SQLAlchemyError, StatementError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hexarena.store import migrate
from hexarena.store.engine import WRITE_OPTION, is_memory
from hexarena.store.errors import Conflict, InvalidRecord, StoreError
from hexarena.store.validate import clean_json

MAX_LIMIT = 1000
#: Seconds :meth:`StoreBase.close` waits for the database to acknowledge closing its connections.
CLOSE_TIMEOUT = 5.0

log = logging.getLogger(__name__)


def now() -> datetime:
    """The store's clock: aware UTC."""
    return datetime.now(UTC)


class StoreBase:
    """Engine, locks and transactions; the public API lives in the subclasses."""

    def __init__(self, engine: AsyncEngine, url: URL) -> None:
        """Wrap an engine made by :func:`hexarena.store.engine.create_engine`; prefer :meth:`open`."""
        self._engine = engine
        self._url = url
        self._closed = False
        self._closing: asyncio.Future[None] | None = None
        sqlite_db = url.get_backend_name() == "sqlite"
        self._write_lock: asyncio.Lock | None = asyncio.Lock() if sqlite_db else None
        # An in-memory SQLite database is one shared connection: reads must queue behind writes too.
        self._read_lock = self._write_lock if is_memory(url) else None

    async def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Release every connection, waiting at most ``timeout`` s for a database server. Idempotent; the store
        refuses work afterwards.

        Bounded because closing a PostgreSQL connection waits for the server to acknowledge it, without a bound of
        asyncpg's: a database that hangs would hold a server's shutdown for ever. Past the bound the closing goes on
        in the background, not cancelled: a connection dropped half-closed is a socket left to the collector, and
        a server that answers late (a loaded machine) still gets every connection closed. SQLite's are always
        waited for: there is nothing remote to wait on."""
        if self._closed:
            return
        self._closed = True
        closing = asyncio.ensure_future(self._engine.dispose())
        if self.backend == "sqlite":
            await closing
            return
        done, _ = await asyncio.wait({closing}, timeout=timeout)
        if closing in done:
            closing.result()
            return
        self._closing = closing  # kept, so that the task is not collected while it waits
        closing.add_done_callback(self._closed_late)
        log.warning(
            "%s did not acknowledge closing its connections within %g s; they are closed in the background",
            self.url,
            timeout,
        )

    def _closed_late(self, closing: asyncio.Future[None]) -> None:
        """The end of a close that outlasted its bound: a failure is told here, where it names the database;
        otherwise asyncio would report it as never retrieved, at whatever moment the task happens to be collected."""
        if not closing.cancelled() and (error := closing.exception()) is not None:
            log.warning("closing the connections to %s in the background failed: %s", self.url, error)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def url(self) -> str:
        """The database URL with any password hidden."""
        return self._url.render_as_string(hide_password=True)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._url.get_backend_name()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    async def schema_revision(self) -> str | None:
        """The Alembic revision the database is at."""
        return await migrate.current_revision(self._engine)

    @asynccontextmanager
    async def _tx(self, what: str, *, write: bool) -> AsyncIterator[AsyncConnection]:
        if self._closed:
            raise StoreError(f"{what}: the store is closed")
        lock = self._write_lock if write else self._read_lock
        async with lock or nullcontext():
            try:
                async with self._engine.connect() as conn:
                    if write:
                        await conn.execution_options(**{WRITE_OPTION: True})
                    async with conn.begin():
                        yield conn
            except StoreError:
                raise
            except (SQLAlchemyError, *_CONVERSION_ERRORS) as exc:
                if refused(exc):
                    raise InvalidRecord(f"{what}: the values were refused by the database: {describe(exc)}") from exc
                raise StoreError(f"{what} failed: {describe(exc)}") from exc

    def _read(self, what: str) -> AbstractAsyncContextManager[AsyncConnection]:
        return self._tx(what, write=False)

    def _write(self, what: str) -> AbstractAsyncContextManager[AsyncConnection]:
        return self._tx(what, write=True)

    async def _insert_new(self, what: str, table: Table, row: Mapping[str, Any], conflict: str) -> None:
        """Insert ``row``, which must be new, in a write transaction of its own. A key that exists already is
        the caller's mistake, told as :class:`Conflict` (``conflict`` is its message), where ``_tx`` would make
        the IntegrityError an :class:`InvalidRecord`, which the recorder would set aside as refused values."""
        async with self._write(what) as conn:
            try:
                await conn.execute(insert(table), row)
            except IntegrityError:
                raise Conflict(conflict) from None


def upsert_insert(dialect: Dialect, table: Table) -> postgresql.Insert | sqlite.Insert:
    """``INSERT INTO table`` in the dialect's own form, which has ``on_conflict_do_nothing`` and
    ``on_conflict_do_update`` (the store runs on PostgreSQL or SQLite only)."""
    return postgresql.insert(table) if dialect.name == "postgresql" else sqlite.insert(table)


#: What a driver raises, unwrapped, when it cannot convert a parameter (sqlite3: an int beyond 64 bits, a lone
#: surrogate), and what SQLAlchemy's own conversions raise: the values are at fault, not the database.
_CONVERSION_ERRORS = (OverflowError, UnicodeError, TypeError, ValueError)
#: SQLSTATE classes of errors caused by the data: 22 data exception (NUL in text, a number out of range...),
#: 23 integrity constraint violation.
_REFUSED_CLASSES = ("22", "23")


def refused(exc: BaseException) -> bool:
    """Whether ``exc`` is the database (or its driver) refusing the values written, which a retry cannot help,
    rather than the database failing (unreachable, restarting, out of disk), which a retry can."""
    if isinstance(exc, (*_CONVERSION_ERRORS, DataError, IntegrityError)):
        return True
    if not isinstance(exc, StatementError):
        return False
    orig = exc.orig
    if not isinstance(exc, DBAPIError):  # raised while converting a parameter, before the statement ran
        return isinstance(orig, _CONVERSION_ERRORS)
    for cause in (orig, getattr(orig, "__cause__", None)):  # asyncpg's own error sits behind SQLAlchemy's adapter
        state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
        if isinstance(state, str) and state[:2] in _REFUSED_CLASSES:
            return True
        if isinstance(cause, _CONVERSION_ERRORS):  # asyncpg: "invalid input for query argument" (a ValueError)
            return True
    return False


def describe(exc: BaseException) -> str:
    """The driver's own message (first line), without SQLAlchemy's statement dump."""
    inner = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    text = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {text[0] if text else ''}"


def json_object(value: Any, what: str) -> dict[str, Any]:
    """A JSON object (dict) cleaned for storage; InvalidRecord for anything else."""
    if not isinstance(value, dict):
        raise InvalidRecord(f"{what} must be a dict, not {value!r}")
    cleaned: dict[str, Any] = clean_json(value, what)
    return cleaned
