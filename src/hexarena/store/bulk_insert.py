"""Many rows into one table in one statement executed many times, without SQLAlchemy's work per row.

Why: the recorder writes every move of every live game (thousands a second on a busy server), and for an
``executemany`` SQLAlchemy builds each row's parameters anew (a dictionary walk over the statement's binds, then
each column's conversion), a large part of what storing a move costs the loop. Here the
statement is compiled once per dialect, and each row becomes a tuple in the compiled order, converted by the
columns' own bind processors (the very conversions SQLAlchemy applies, so what is stored is the same), and goes
to the driver as one ``executemany``.

On SQLite the rows go many to a statement (``VALUES (...), (...), ...``), not one: Python's sqlite3 releases
the GIL around every step of a statement, so an ``executemany`` of N rows on aiosqlite's thread takes the GIL
back N times from the event loop, each time waiting until the loop lets go of it. A loop that passes often
(the game server under load: ~1 ms between passes) hardly delays that; one that runs long stretches of CPU
does, and the moves then reach the database seconds late (``bench/sqlite_busy_loop.py`` measures it).
"""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Insert
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

_Prepared = tuple[str, tuple[tuple[str, Callable[[Any], Any] | None], ...]]

#: Rows in one SQLite statement: within the bound on a statement's parameters (32,766 since SQLite 3.32, 999
#: before) for tables of up to 127 columns.
SQLITE_ROWS_PER_STATEMENT = 256 if sqlite3.sqlite_version_info >= (3, 32, 0) else 7


def _values_group(sql: str, columns: int) -> str | None:
    """The ``(?, ?, ...)`` group of ``sql`` (a single-row INSERT in qmark style), or None when it is not there
    exactly once (then the rows go one by one, as before)."""
    group = "(" + ", ".join(["?"] * columns) + ")"
    return group if sql.count(group) == 1 else None


class BulkInsert:
    """One INSERT statement (``insert(table)``, with an ON CONFLICT clause or not), ready for rows as dicts."""

    def __init__(self, build: Callable[[Dialect], Insert]) -> None:
        self._build = build
        self._prepared: dict[tuple[str, str, str], _Prepared] = {}

    def _prepare(self, dialect: Dialect) -> _Prepared:
        key = (dialect.name, dialect.driver, dialect.paramstyle)  # the SQL text and conversions depend on all three
        prepared = self._prepared.get(key)
        if prepared is None:
            stmt = self._build(dialect)
            compiled = stmt.compile(dialect=dialect, column_keys=[c.key for c in stmt.table.c])
            order = compiled.positiontup
            if order is None:
                raise TypeError(f"the {dialect.name} dialect does not compile positional parameters")
            columns = stmt.table.c
            converters = tuple((name, columns[name].type.bind_processor(dialect)) for name in order)
            prepared = self._prepared[key] = (str(compiled), converters)
        return prepared

    async def execute(self, conn: AsyncConnection, rows: Sequence[Mapping[str, Any]]) -> int | None:
        """Insert ``rows`` (every column of the table as a key); the driver's row count (None if it has none)."""
        if not rows:
            return 0
        sql, converters = self._prepare(conn.dialect)
        values = [tuple(row[name] if c is None else c(row[name]) for name, c in converters) for row in rows]
        group = _values_group(sql, len(converters)) if conn.dialect.name == "sqlite" and len(values) > 1 else None
        if group is not None:
            return await self._sqlite_many(conn, sql, group, values)
        return _count((await conn.exec_driver_sql(sql, values)).rowcount)

    async def _sqlite_many(
        self, conn: AsyncConnection, sql: str, group: str, values: list[tuple[Any, ...]]
    ) -> int | None:
        """The rows in statements of :data:`SQLITE_ROWS_PER_STATEMENT` (one ``executemany``) and one statement for
        the rest: at most two calls into the driver, a few steps (see the module docstring)."""
        size = SQLITE_ROWS_PER_STATEMENT
        full = len(values) - len(values) % size
        counts: list[int | None] = []
        if full:
            chunks = [_flat(values[i : i + size]) for i in range(0, full, size)]
            counts.append(_count((await conn.exec_driver_sql(_rows(sql, group, size), chunks)).rowcount))
        if full < len(values):
            rest = values[full:]
            counts.append(_count((await conn.exec_driver_sql(_rows(sql, group, len(rest)), _flat(rest))).rowcount))
        return None if None in counts else sum(c for c in counts if c is not None)


def _rows(sql: str, group: str, rows: int) -> str:
    """``sql`` inserting ``rows`` rows at once: its VALUES ``group`` (see :func:`_values_group`) repeated."""
    return sql.replace(group, ", ".join([group] * rows))


def _flat(rows: Sequence[tuple[Any, ...]]) -> tuple[Any, ...]:
    """Several rows' values as the one parameter list of a statement of that many rows."""
    return tuple(itertools.chain.from_iterable(rows))


def _count(rowcount: int | None) -> int | None:
    """The driver's row count, None when it has none (-1 or None)."""
    return None if rowcount is None or rowcount < 0 else int(rowcount)
