"""Operator CLI: ``python -m hexarena.store upgrade|current|sql [--database-url URL]``.

The server upgrades the schema itself at start-up; this exists for deploys that migrate first (several
server processes, a read-only app user) and to check which revision a database is at.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from sqlalchemy.exc import SQLAlchemyError

from hexarena.store import migrate
from hexarena.store.engine import ENV_URL, create_engine, resolve_url
from hexarena.store.errors import StoreError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m hexarena.store", description="Manage the hexarena database schema."
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help=f"sqlite:///path, postgresql://user@host/db or a file path (default: ${ENV_URL} "
        "or ./data/hexarena.sqlite3)",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("upgrade", help="create or upgrade the schema (Alembic upgrade)")
    up.add_argument("--database-url", default=argparse.SUPPRESS, help="as above")
    up.add_argument("--revision", default="head", help="target revision (default: head)")
    sql = sub.add_parser("sql", help="print the upgrade SQL for an empty database instead of running it")
    sql.add_argument("--database-url", default=argparse.SUPPRESS, help="as above (only its backend matters)")
    sql.add_argument("--revision", default="head", help="target revision (default: head)")
    cur = sub.add_parser("current", help="print the database's schema revision and the newest known")
    cur.add_argument("--database-url", default=argparse.SUPPRESS, help="as above")
    return parser


async def _run(args: argparse.Namespace) -> int:
    url = resolve_url(args.database_url)
    if args.command == "sql":
        migrate.offline_sql(url.render_as_string(hide_password=False), args.revision)
        return 0
    engine = create_engine(url)
    shown = url.render_as_string(hide_password=True)
    try:
        if args.command == "upgrade":
            before, after = await migrate.upgrade(engine, args.revision)
            if before == after:
                print(f"{shown}: already at revision {after}")
            else:
                print(f"{shown}: upgraded from {before or 'an empty database'} to {after}")
        else:
            current = await migrate.current_revision(engine)
            print(f"{shown}: at revision {current or 'none (empty)'}; newest known {migrate.head_revision()}")
    finally:
        await engine.dispose()
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return asyncio.run(_run(args))
    except (StoreError, SQLAlchemyError, OSError) as exc:
        print(f"error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
