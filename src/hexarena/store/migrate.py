"""Run the packaged Alembic migrations from code, at start-up or from the operator CLI.

The store calls :func:`upgrade` on every open, so a fresh SQLite file gets its schema and an old database is
brought forward without a separate deploy step. Alembic's API is synchronous; it runs on the async
connection through ``run_sync`` inside one transaction that also serialises concurrent upgrades: ``BEGIN
IMMEDIATE`` on SQLite and a transaction-scoped advisory lock on PostgreSQL (both backends have transactional
DDL, so a failed migration leaves the schema as it was).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from hexarena.store.engine import WRITE_OPTION
from hexarena.store.errors import SchemaError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().with_name("migrations")
#: ``revision = "..."`` / ``down_revision = "..."`` in a migration file (what alembic reads from the module)
_REVISION = re.compile(r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(?:[\"']([^\"']*)[\"']|None)", re.MULTILINE)
_PG_LOCK_KEY = 0x68657861  # "hexa": one advisory lock id for schema changes


def alembic_config(url: str | None = None) -> Config:
    """An Alembic config pointing at the packaged migrations (no alembic.ini needed)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("path_separator", "os")
    if url:
        cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def head_revision() -> str:
    """The newest revision this version of hexarena knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package always ships migrations
        raise SchemaError(f"no migrations found in {str(MIGRATIONS_DIR)!r}")
    return head


def offline_sql(url: str, revision: str = "head") -> None:
    """Print the SQL that upgrades an empty database at ``url``'s backend to ``revision`` (for DBAs)."""
    from alembic import command

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
            if revision == "head" and (head := file_head()) is not None and await conn.run_sync(_at, head):
                return head, head
            return await conn.run_sync(_upgrade, revision)


def file_head() -> str | None:
    """The head revision read from the migration files themselves, without alembic; None unless exactly one.

    Why: importing alembic (and mako, and pygments' lexers through it) took most of a start-up, on every start,
    for a schema that is almost always already at the head. A database at this revision needs no alembic; any
    other goes through it (``tests/store/test_store_schema.py`` checks this agrees with alembic's own head)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        found = dict((m.group(1), m.group(2)) for m in _REVISION.finditer(path.read_text(encoding="utf-8")))
        if found.get("revision"):
            revisions.add(found["revision"])
            if found.get("down_revision"):
                parents.add(found["down_revision"])
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def _at(conn: Connection, head: str) -> bool:
    """Whether the database's one recorded revision is ``head`` (alembic's ``alembic_version`` table)."""
    if not inspect(conn).has_table("alembic_version"):
        return False
    rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return rows == [head]


def _current(conn: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(conn).get_current_revision()


def _upgrade(conn: Connection, revision: str) -> tuple[str | None, str | None]:
    from alembic import command
    from alembic.script import ScriptDirectory

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
