"""Run the packaged Alembic migrations from code, at start-up or from the operator CLI.

The store calls :func:`upgrade` on every open, so a fresh SQLite file gets its schema and an old database is
brought forward without a separate deploy step. Alembic's API is synchronous; it runs on the async
connection through ``run_sync`` inside one transaction that also serialises concurrent upgrades: ``BEGIN
IMMEDIATE`` on SQLite and a transaction-scoped advisory lock on PostgreSQL (both backends have transactional
DDL, so a failed migration leaves the schema as it was).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from hexarena.store.engine import WRITE_OPTION
from hexarena.store.errors import SchemaError

MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")
_PG_LOCK_KEY = 0x68657861  # "hexa": one advisory lock id for schema changes


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations (no alembic.ini needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest revision this version of hexarena knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships migrations
        raise SchemaError(f"no migrations found in {str(MIGRATIONS_DIR)!r}")
    return head


def offline_sql(url: str, revision: str = "head") -> None:
    """Print the SQL that upgrades an empty database at ``url``'s backend to ``revision`` (for DBAs)."""
    command.upgrade(alembic_config(url), revision, sql=True)


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> tuple[str | None, str | None]:
    """Bring the schema to ``revision``; returns the revisions before and after. A no-op when up to date."""
    async with engine.connect() as conn:
        conn = await conn.execution_options(**{WRITE_OPTION: True})
        async with conn.begin():
            if conn.dialect.name == "postgresql":
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
            return await conn.run_sync(_upgrade, revision)


def _current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def _upgrade(conn: Connection, revision: str) -> tuple[str | None, str | None]:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    script = ScriptDirectory.from_config(cfg)
    before = _current(conn)
    known = {rev.revision for rev in script.walk_revisions()}
    if before is not None and before not in known:
        raise SchemaError(
            f"database schema is at revision {before!r}, which this hexarena does not know "
            f"(newest known: {script.get_current_head()!r}); it was written by a newer version"
        )
    target = script.get_current_head() if revision == "head" else revision
    if before == target:
        return before, before
    command.upgrade(cfg, revision)
    return before, _current(conn)
