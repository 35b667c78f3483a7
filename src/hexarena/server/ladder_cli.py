"""``hexarena ladder``: the operator's side of the ladder (``server.ladder``), on the server's database.

``register`` puts a bot on the ladder (a bot URL, ``bws:``/``stateless:``/``hiveai:`` address or a
``battlebot:BOT_ID`` login: never a command, as over the API), ``list`` shows the standings' raw records,
``show`` one bot with its pause reason and check-bot report, ``pause``/``resume``/``remove`` change its place.
They work on the database directly (``--database-url`` or ``$HEXARENA_DATABASE_URL``, like ``hexarena token``),
so a running server, or several, pick the change up on their next scheduling pass. Over HTTP the same actions
are ``/api/ladder/...`` (an API token in public mode).
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, NoReturn

import click

from hexarena.server.ladder_pairing import MAX_BOT_CONCURRENT, MAX_LADDER_BOTS
from hexarena.server.store_cli import database_option, with_store

if TYPE_CHECKING:
    from hexarena.store import Store
    from hexarena.store.ladder import LadderBot


@click.group()
def ladder() -> None:
    """The ladder: bots registered once, paired continuously with opponents of similar rating."""


@ladder.command("register")
@click.argument("name")
@click.argument("spec")
@click.option("--game", default="htttx", show_default=True, help="The game it plays on the ladder.")
@click.option("--owner", required=True, help="Who is told when it is paused (shown with its pause reason).")
@click.option(
    "--max-concurrent",
    type=click.IntRange(1, MAX_BOT_CONCURRENT),
    default=1,
    show_default=True,
    help="Its games at once.",
)
@click.option("--games-per-hour", type=click.IntRange(1, 3600), default=None, help="Its own pace (default: any).")
@database_option
def register(
    name: str,
    spec: str,
    game: str,
    owner: str,
    max_concurrent: int,
    games_per_hour: int | None,
    database_url: str | None,
) -> None:
    """Put the bot SPEC on the ladder as NAME (its rating key).

    \b
    SPEC: a bot URL (bws or stateless), bws:URL, stateless:URL, hiveai:HOST:PORT or battlebot:BOT_ID.
    Example: hexarena ladder register mybot http://127.0.0.1:8002 --owner me@example.org
    """
    import asyncio
    import re

    from hexarena.core.errors import ConfigError
    from hexarena.players.policy import SpecPolicy
    from hexarena.server.ladder_routes import NAME_PATTERN, vet_ladder_entry

    if not re.match(NAME_PATTERN, name):
        _fail(f"ladder name {name!r}: use 1 to 48 of A-Z a-z 0-9 _ . - (not first '.')")
    try:  # the server checks its own bot-host policy again before every game
        the_game, the_spec = asyncio.run(vet_ladder_entry(game, spec, SpecPolicy()))
    except ConfigError as exc:
        _fail(str(exc))

    async def add(store: Store) -> LadderBot:
        if await store.count_ladder_bots() >= MAX_LADDER_BOTS:
            raise ConfigError(f"the ladder holds {MAX_LADDER_BOTS} bots already; remove one first")
        return await store.add_ladder_bot(
            name, the_game, the_spec, owner, max_concurrent=max_concurrent, games_per_hour=games_per_hour
        )

    try:
        with_store(database_url, add)  # a name taken: the store's Conflict, said and exit status 1
    except ConfigError as exc:
        _fail(str(exc))
    click.echo(f"{name} is on the {the_game} ladder; the server pairs it from its next pass", err=True)


@ladder.command("list")
@click.option("--game", default=None, help="Only this game's ladder.")
@database_option
def list_bots(game: str | None, database_url: str | None) -> None:
    """Every ladder bot: status, record (wins/draws/losses, forfeits) and why it is paused."""
    bots = with_store(database_url, lambda store: store.list_ladder_bots(game=game))
    if not bots:
        click.echo("the ladder is empty (add a bot with `hexarena ladder register NAME SPEC --owner WHO`)", err=True)
        return
    width = max(4, *(len(b.name) for b in bots))
    click.echo(f"{'name':<{width}}  {'game':<8}  {'status':<6}  games  W/D/L       forfeits  paused because")
    for b in bots:
        record = f"{b.wins}/{b.draws}/{b.losses}"
        why = (b.pause_reason or "")[:80]
        click.echo(f"{b.name:<{width}}  {b.game:<8}  {b.status:<6}  {b.games:>5}  {record:<10}  {b.forfeits:>8}  {why}")


@ladder.command("show")
@click.argument("name")
@database_option
def show(name: str, database_url: str | None) -> None:
    """One bot as JSON: its entry, pause reason and check-bot report."""
    bot = with_store(database_url, lambda store: store.get_ladder_bot(name))
    if bot is None:
        _fail(f"no ladder bot named {name!r} (see `hexarena ladder list`)")
    click.echo(json.dumps({**bot.public(), "report": bot.report}, indent=2))


@ladder.command("pause")
@click.argument("name")
@click.option("--reason", default="paused by the operator", show_default=True, help="What its owner is shown.")
@database_option
def pause(name: str, reason: str, database_url: str | None) -> None:
    """Take NAME out of pairing (its running games finish)."""
    _set(database_url, name, "paused", reason)


@ladder.command("resume")
@click.argument("name")
@database_option
def resume(name: str, database_url: str | None) -> None:
    """Pair NAME again; its failure streak starts over."""
    _set(database_url, name, "active", None)


@ladder.command("remove")
@click.argument("name")
@database_option
def remove(name: str, database_url: str | None) -> None:
    """Take NAME off the ladder (its games and rating stay)."""
    if not with_store(database_url, lambda store: store.remove_ladder_bot(name)):
        _fail(f"no ladder bot named {name!r} (see `hexarena ladder list`)")
    click.echo(f"{name} is off the ladder", err=True)


def _set(database_url: str | None, name: str, status: str, reason: str | None) -> None:
    async def change(store: Store) -> LadderBot | None:
        if await store.get_ladder_bot(name) is None:
            return None
        return await store.set_ladder_status(name, status, reason=reason)

    bot = with_store(database_url, change)
    if bot is None:
        _fail(f"no ladder bot named {name!r} (see `hexarena ladder list`)")
    click.echo(f"{bot.name} is {bot.status}", err=True)


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


__all__ = ["ladder"]
