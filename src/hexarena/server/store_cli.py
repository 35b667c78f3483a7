"""What the operator commands that work on the server's database share: the ``--database-url`` option and running
an action on an open store, with store errors turned into a message and exit status 1 instead of a traceback."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import click

if TYPE_CHECKING:  # the store (and SQLAlchemy) load only when a command runs
    from hexarena.store import Store

T = TypeVar("T")

database_option = click.option(
    "--database-url",
    envvar="HEXARENA_DATABASE_URL",
    default=None,
    help="The server's database (default: SQLite file ./data/hexarena.sqlite3). Also read from $HEXARENA_DATABASE_URL.",
)


def with_store(database_url: str | None, action: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``action(store)`` on an open store (migrated if needed); store errors end the command with status 1."""
    from hexarena.store import Store, StoreError

    async def run() -> T:
        store = await Store.open(database_url)
        try:
            return await action(store)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except StoreError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
