"""SQLAlchemy's aiosqlite cursor, made to cost one call into the driver's thread per statement.

Why: every call into SQLite is a hop to aiosqlite's thread and back (a queue put, a thread wake-up, the GIL
handed over twice, a wake-up of the loop: ~100 us of CPU, more than most of our statements take), and
SQLAlchemy's adapter makes four for a SELECT (open a cursor, execute, fetch, close) and three for an INSERT or
UPDATE. A server finishing a batch of games ran three statements a game, so nine hops a game. Here a statement
is one function run on the driver's thread: open a cursor, execute, fetch every row when it returns rows, close.
The closed cursor still answers ``description``, ``rowcount`` and ``lastrowid``, which is all SQLAlchemy reads
after an execute, and nothing is left half-read when a caller is cancelled between two hops.

Server-side (streaming) cursors are unchanged. :func:`use_one_call_cursors` installs it on a new connection.
It calls aiosqlite's ``Connection._execute`` (run a function on its thread; what its own methods use, and what
SQLAlchemy's adapter reaches into too): ``tests/store/test_store_schema.py`` counts the calls through it, so a
release that changes it fails there, not silently.
"""

from __future__ import annotations

import collections
import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects.sqlite.aiosqlite import AsyncAdapt_aiosqlite_connection, AsyncAdapt_aiosqlite_cursor
from sqlalchemy.util import EMPTY_DICT


def _run(
    conn: sqlite3.Connection, operation: str, parameters: Any, many: bool
) -> tuple[sqlite3.Cursor, list[Any] | None]:
    """On the driver's thread: one statement from cursor to close; (the closed cursor, its rows or None)."""
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        else:
            cursor.execute(operation, parameters)
        rows = cursor.fetchall() if cursor.description else None
    finally:
        cursor.close()
    return cursor, rows


class OneCallCursor(AsyncAdapt_aiosqlite_cursor):
    """A client-side cursor whose execute is one call into the driver's thread (see the module docstring)."""

    __slots__ = ()

    def __init__(self, adapt_connection: Any) -> None:  # no driver cursor yet: each execute makes its own
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()

    async def _call(self, operation: str, parameters: Any, many: bool) -> None:
        async with self._adapt_connection._execute_mutex:
            driver = self._connection
            cursor, rows = await driver._execute(_run, driver._conn, operation, parameters, many)
            self._cursor = cursor
            self._rows = collections.deque(rows or ())

    async def _execute_async(self, operation: Any, parameters: Any) -> Any:
        await self._call(operation, () if parameters is None else parameters, False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Sequence[Any]) -> Any:
        await self._call(operation, seq_of_parameters, True)

    async def _async_soft_close(self) -> None:
        """Nothing to close: the driver's cursor was closed on its thread, its rows are already here."""

    def close(self) -> None:
        self._rows.clear()


class OneCallConnection(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection, handing out :class:`OneCallCursor` for client-side cursors."""

    __slots__ = ()
    _cursor_cls = OneCallCursor


def use_one_call_cursors(dbapi_connection: Any) -> None:
    """Make a new SQLAlchemy aiosqlite connection (the ``connect`` event's) hand out one-call cursors.

    The class is swapped in place (the same slots, only ``_cursor_cls`` differs): the dialect builds its
    connections itself and offers no hook for the cursor class.
    """
    if type(dbapi_connection) is AsyncAdapt_aiosqlite_connection:
        dbapi_connection.__class__ = OneCallConnection
