"""SQLAlchemy's aiosqlite cursor, made to cost one call into the driver's thread per statement.

Why: every call into SQLite is a hop to aiosqlite's thread and back (a queue put, a thread wake-up, the GIL
handed over twice, a wake-up of the loop: more CPU than most of our statements take), and
SQLAlchemy's adapter makes four for a SELECT (open a cursor, execute, fetch, close) and three for an INSERT or
UPDATE. A server finishing a batch of games ran three statements a game, so nine hops a game. Here a statement
is one function run on the driver's thread: open a cursor, execute, fetch every row when it returns rows, close.
The closed cursor still answers ``description``, ``rowcount`` and ``lastrowid``, which is all SQLAlchemy reads
after an execute, and nothing is left half-read when a caller is cancelled between two hops.

A transaction's own hops are cut too. Its ``BEGIN`` is not a call of its own: :func:`defer_begin` keeps it, and
it goes into the thread with the transaction's first statement, in the same call (a transaction that runs no
statement sends nothing, and has nothing to commit). And the pool's rollback of a connection given back (SQLAlchemy
rolls back every one, also just after a commit) is skipped when it can't matter: :func:`reset` rolls back
unless the last call into the thread was a COMMIT or ROLLBACK that returned (so nothing is open, and nothing is
still waiting in the thread: a cancelled transaction's BEGIN or SELECT leaves the connection not clean, and its
rollback is queued behind them in the thread's order) and the driver reports no transaction open (someone who
took the raw connection and began one). A one-SELECT read is two calls, a game's creation four
(``bench/sqlite_driver_calls.py``).

Server-side (streaming) cursors are unchanged (a pending BEGIN is sent before one is made).
:func:`use_one_call_cursors` installs it on a new connection.

It builds on private parts of both libraries: SQLAlchemy's adapter classes (their slots, the coroutines their
execute runs, the connection's ``_cursor_cls``) and aiosqlite's ``Connection._execute`` (run a function on its
thread; what aiosqlite's own methods use). pyproject.toml bounds both to the releases it is tested on, and
:func:`missing` checks the shapes it relies on: the engine (``hexarena.store.engine``) uses this module only
when nothing is missing, and otherwise SQLAlchemy's cursor as it is (slower: ``bench/sqlite_cursor_cost.py``).
"""

from __future__ import annotations

import collections
import inspect
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, cast
from weakref import WeakKeyDictionary

import aiosqlite.core
from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection, AsyncAdapt_aiosqlite_cursor
from sqlalchemy.util import EMPTY_DICT
from sqlalchemy.util.concurrency import await_

if TYPE_CHECKING:
    from sqlalchemy.connectors.asyncio import (
        AsyncAdapt_dbapi_connection,
        AsyncAdapt_dbapi_cursor,
        AsyncIODBAPIConnection,
    )
    from sqlalchemy.engine.interfaces import DBAPIConnection, _DBAPIMultiExecuteParams, _DBAPISingleExecuteParams
    from sqlalchemy.pool import ConnectionPoolEntry, PoolResetState

#: One statement's parameters, as ``sqlite3`` takes them: by position or by name.
Parameters: TypeAlias = "Sequence[object] | Mapping[str, object]"

#: what the classes below set or override on SQLAlchemy's adapter cursor and connection
_CURSOR_SLOTS = ("_adapt_connection", "_connection", "_cursor", "_rows", "_soft_closed_memoized")
_CURSOR_COROUTINES = ("_execute_async", "_executemany_async", "_async_soft_close")
_CONNECTION_SLOTS = ("_connection", "_execute_mutex")
_CONNECTION_METHODS = ("cursor", "commit", "rollback")


def missing() -> list[str]:
    """What the installed SQLAlchemy and aiosqlite lack of the private parts this module builds on (an empty
    list: nothing); each entry names the part and the shape expected of it."""
    gaps = []
    driver = aiosqlite.core.Connection
    execute = getattr(driver, "_execute", None)
    if not inspect.iscoroutinefunction(execute) or _parameters(execute) != ["self", "fn", "*args", "**kwargs"]:
        gaps.append("aiosqlite Connection._execute(self, fn, *args, **kwargs), a coroutine function")
    for name in ("_conn", "in_transaction"):
        if not isinstance(getattr(driver, name, None), property):
            gaps.append(f"aiosqlite Connection.{name}, a property")
    cursor, connection = AsyncAdapt_aiosqlite_cursor, AsyncAdapt_aiosqlite_connection
    gaps += [f"SQLAlchemy {cursor.__name__} slot {name}" for name in _CURSOR_SLOTS if name not in _slots(cursor)]
    for name in _CURSOR_COROUTINES:
        if not inspect.iscoroutinefunction(getattr(cursor, name, None)):
            gaps.append(f"SQLAlchemy {cursor.__name__}.{name}, a coroutine function")
    gaps += [
        f"SQLAlchemy {connection.__name__} slot {name}" for name in _CONNECTION_SLOTS if name not in _slots(connection)
    ]
    if getattr(connection, "_cursor_cls", None) is not cursor:
        gaps.append(f"SQLAlchemy {connection.__name__}._cursor_cls, {cursor.__name__}")
    for name in _CONNECTION_METHODS:
        if not inspect.isfunction(getattr(connection, name, None)):
            gaps.append(f"SQLAlchemy {connection.__name__}.{name}, a method")
    if "server_side" not in _parameters(getattr(connection, "cursor", None)):
        gaps.append(f"SQLAlchemy {connection.__name__}.cursor(server_side)")
    return gaps


def _parameters(function: object) -> list[str]:
    """``function``'s parameters as written (``*args``, ``**kwargs``), or none when it is not a function."""
    if not callable(function):
        return []
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    stars = {"VAR_POSITIONAL": "*", "VAR_KEYWORD": "**"}
    return [stars.get(p.kind.name, "") + p.name for p in parameters]


def _slots(cls: type) -> set[str]:
    """Every slot of ``cls`` and its bases."""
    names: set[str] = set()
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    return names


class _Transaction:
    """What the one-call adapter knows of one driver connection's transaction."""

    __slots__ = ("begin", "clean")

    def __init__(self) -> None:
        #: a BEGIN not sent yet: it goes into the thread with the next statement, in the same call
        self.begin: str | None = None
        #: the last call into the thread was a COMMIT or ROLLBACK that returned: nothing open, nothing in flight
        self.clean = False


#: per aiosqlite connection (weakly: it goes when the pool closes it)
_TRANSACTIONS: WeakKeyDictionary[AsyncIODBAPIConnection, _Transaction] = WeakKeyDictionary()


def _transaction(driver: AsyncIODBAPIConnection) -> _Transaction:
    state = _TRANSACTIONS.get(driver)
    if state is None:
        state = _TRANSACTIONS[driver] = _Transaction()
    return state


def _run(
    conn: sqlite3.Connection,
    operation: str,
    parameters: Parameters | Sequence[Parameters],
    many: bool,
    begin: str | None = None,
) -> tuple[sqlite3.Cursor, list[tuple[object, ...]] | None]:
    """On the driver's thread: the transaction's ``begin`` if it is still to be sent, then one statement from
    cursor to close; (the closed cursor, its rows or None)."""
    if begin is not None:
        conn.execute(begin)
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(operation, cast("Sequence[Parameters]", parameters))  # many: one set a row
        else:
            cursor.execute(operation, parameters)
        rows = cursor.fetchall() if cursor.description else None
    finally:
        cursor.close()
    return cursor, rows


class OneCallCursor(AsyncAdapt_aiosqlite_cursor):
    """A client-side cursor whose execute is one call into the driver's thread (see the module docstring)."""

    __slots__ = ()

    def __init__(
        self, adapt_connection: AsyncAdapt_dbapi_connection
    ) -> None:  # no driver cursor yet: each execute makes its own
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()

    async def _call(self, operation: str, parameters: Parameters | Sequence[Parameters], many: bool) -> None:
        async with self._adapt_connection._execute_mutex:
            driver = self._connection
            state = _transaction(driver)
            begin, state.begin, state.clean = state.begin, None, False  # (queued below before any await)
            cursor, rows = await driver._execute(_run, driver._conn, operation, parameters, many, begin)
            self._cursor = cursor
            self._rows = collections.deque(rows or ())

    async def _execute_async(
        self, operation: Any, parameters: _DBAPISingleExecuteParams | None
    ) -> None:  # (its base's)
        await self._call(operation, () if parameters is None else parameters, False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: _DBAPIMultiExecuteParams) -> None:
        await self._call(operation, seq_of_parameters, True)

    async def _async_soft_close(self) -> None:
        """Nothing to close: the driver's cursor was closed on its thread, its rows are already here."""

    def close(self) -> None:
        self._rows.clear()


class OneCallConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection, handing out :class:`OneCallCursor` for client-side cursors, with a
    transaction's BEGIN sent along with its first statement and its end remembered (see the module docstring)."""

    __slots__ = ()
    _cursor_cls = OneCallCursor

    def cursor(self, server_side: bool = False) -> AsyncAdapt_dbapi_cursor:
        """A server-side (streaming) cursor runs its statements itself: a BEGIN still to be sent goes first."""
        if server_side:
            state = _transaction(self._connection)
            if state.begin is not None:
                begin, state.begin, state.clean = state.begin, None, False
                await_(self._connection.execute(begin))
        return super().cursor(server_side)

    def commit(self) -> None:
        self._end(super().commit)

    def rollback(self) -> None:
        self._end(super().rollback)

    def _end(self, end: Callable[[], None]) -> None:
        state = _transaction(self._connection)
        if state.begin is not None:  # the transaction sent nothing: there is nothing to end
            state.begin = None
            return
        state.clean = False
        end()
        state.clean = True


def use_one_call_cursors(dbapi_connection: object) -> None:
    """Make a new SQLAlchemy aiosqlite connection (the ``connect`` event's) hand out one-call cursors.

    The class is swapped in place (the same slots, only ``_cursor_cls`` and the transaction's ends differ): the
    dialect builds its connections itself and offers no hook for the cursor class.
    """
    if type(dbapi_connection) is AsyncAdapt_aiosqlite_connection:
        dbapi_connection.__class__ = OneCallConnection


def defer_begin(dbapi_connection: object, begin: str) -> bool:
    """Keep ``begin`` (``BEGIN`` or ``BEGIN IMMEDIATE``) to send with the transaction's first statement; False
    for a connection that is not a :class:`OneCallConnection` (the caller sends it at once then)."""
    if not isinstance(dbapi_connection, OneCallConnection):
        return False
    _transaction(dbapi_connection._connection).begin = begin
    return True


def reset(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry, state: PoolResetState) -> None:
    """The pool's ``reset`` of a connection given back (with ``pool_reset_on_return=None``: this is the only
    one). Rolls back unless the connection is known clean (see the module docstring); like SQLAlchemy's own
    reset, does nothing where it may not await (``asyncio_safe`` false: a connection being thrown away)."""
    if not state.asyncio_safe:
        return
    if isinstance(dbapi_connection, OneCallConnection):
        driver = dbapi_connection._connection
        tx = _transaction(driver)
        tx.begin = None  # (a BEGIN never sent: nothing to undo)
        try:
            if tx.clean and not driver.in_transaction:
                return
        except Exception:  # pragma: no cover - a closed driver connection: roll back as SQLAlchemy would
            pass
    dbapi_connection.rollback()
