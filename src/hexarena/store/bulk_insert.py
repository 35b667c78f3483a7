"""Many rows into one table in one statement executed many times, without SQLAlchemy's work per row.

Why: the recorder writes every move of every live game (thousands a second on a busy server), and for an
``executemany`` SQLAlchemy builds each row's parameters anew (a dictionary walk over the statement's binds, then
each column's conversion): about 4.5 us of the loop's CPU a row, half of what storing a move cost. Here the
statement is compiled once per dialect, and each row becomes a tuple in the compiled order, converted by the
columns' own bind processors (the very conversions SQLAlchemy applies, so what is stored is the same), and goes
to the driver as one ``executemany``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Insert
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection

_Prepared = tuple[str, tuple[tuple[str, Callable[[Any], Any] | None], ...]]


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
        result = await conn.exec_driver_sql(sql, values)
        count = result.rowcount
        return None if count is None or count < 0 else int(count)
