"""``hexarena token``: the API tokens of a public server (``hexarena serve --public``).

``create`` prints a new token once, on stdout alone (so ``TOKEN=$(hexarena token create --name ci)`` works) and
says on stderr how to use it; only its hash is stored. ``list`` shows names and dates, never a secret.
``revoke NAME`` deletes a token: the server refuses it from the next request on. All three work on the database
the server uses (``--database-url`` or ``$HEXARENA_DATABASE_URL``, default ``./data/hexarena.sqlite3``) and
migrate it if needed, so a token can be made before the server's first start.
"""

from __future__ import annotations

import secrets
import sys

import click

from hexarena.server.store_cli import database_option, with_store


@click.group()
def token() -> None:
    """API tokens for the write endpoints of a public server (hexarena serve --public)."""


@token.command("create")
@click.option("--name", default=None, help="A name to list and revoke it by (default: token-<6 hex digits>).")
@database_option
def create(name: str | None, database_url: str | None) -> None:
    """Make a new token and print it (once: only its hash is kept)."""
    chosen = name if name is not None else f"token-{secrets.token_hex(3)}"
    record, secret = with_store(database_url, lambda store: store.create_api_token(chosen))
    click.echo(secret)
    click.echo(
        f"API token {record.name!r} created; it is shown only this once. Clients send it as "
        "'Authorization: Bearer <token>'; revoke it with `hexarena token revoke " + record.name + "`.",
        err=True,
    )


@token.command("list")
@database_option
def list_tokens(database_url: str | None) -> None:
    """Names, creation and last use of every token (never the tokens)."""
    records = with_store(database_url, lambda store: store.list_api_tokens())
    if not records:
        click.echo("no API tokens (make one with `hexarena token create --name NAME`)", err=True)
        return
    width = max(4, *(len(r.name) for r in records))
    click.echo(f"{'name':<{width}}  {'created (UTC)':<19}  last used (UTC)")
    for r in records:
        used = r.last_used_at.strftime("%Y-%m-%d %H:%M:%S") if r.last_used_at else "never"
        click.echo(f"{r.name:<{width}}  {r.created_at.strftime('%Y-%m-%d %H:%M:%S')}  {used}")


@token.command("revoke")
@click.argument("name")
@database_option
def revoke(name: str, database_url: str | None) -> None:
    """Delete the token NAME: the server refuses it from the next request on."""
    if not with_store(database_url, lambda store: store.revoke_api_token(name)):
        click.echo(f"error: no API token named {name!r} (see `hexarena token list`)", err=True)
        sys.exit(1)
    click.echo(f"API token {name!r} revoked", err=True)


__all__ = ["token"]
