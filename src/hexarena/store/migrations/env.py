"""Alembic environment for hexarena's store.

Three ways in:

- programmatic (the normal path): :func:`hexarena.store.migrate.upgrade` passes an open connection in
  ``config.attributes["connection"]``, inside a transaction it already holds (with ``BEGIN IMMEDIATE`` on
  SQLite and an advisory lock on PostgreSQL, so two servers starting at once do not race);
- the ``alembic`` command line with ``sqlalchemy.url`` set (or ``$HEXARENA_DATABASE_URL``): an engine is built
  here with the same URL mapping as the store;
- offline (``alembic upgrade head --sql``): prints the SQL.

SQLite cannot ALTER most things in place, so migrations run in Alembic's batch mode there.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from hexarena.store.engine import create_engine, resolve_url
from hexarena.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _run_offline() -> None:
    url = resolve_url(config.get_main_option("sqlalchemy.url") or None)
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url.get_backend_name() == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_standalone() -> None:
    engine = create_engine(resolve_url(config.get_main_option("sqlalchemy.url") or None))
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_run)
            await conn.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    _run_offline()
elif (shared := config.attributes.get("connection")) is not None:
    _run(shared)
else:
    asyncio.run(_run_standalone())
