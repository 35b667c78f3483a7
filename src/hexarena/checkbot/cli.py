"""The ``hexarena check-bot`` command (registered by ``hexarena.cli``)."""

from __future__ import annotations

import asyncio
import functools
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import param_assignments
from hexarena.players.battlebot import TURN_SECONDS

if TYPE_CHECKING:
    from hexarena.checkbot.battlebot import Credentials


@click.command("check-bot")
@click.argument("spec")
@click.option(
    "--games",
    default=2,
    show_default=True,
    type=click.IntRange(1, 50),
    help="Games against each opponent from the start (seats alternate), and as many from varied positions.",
)
@click.option(
    "--clock",
    "clock_seconds",
    default=None,
    type=click.FloatRange(0.05, 600),
    help="Seconds the bot has for each move (a turn clock). Default: 5; battlebot: 3, the protocol's turn time.",
)
@click.option(
    "--max-plies",
    default=40,
    show_default=True,
    type=click.IntRange(2, 10000),
    help="Stop each game after this many moves (a draw): a conformance run, not a match.",
)
@click.option(
    "--heartbeat",
    "heartbeat_ms",
    default=250,
    show_default=True,
    type=click.IntRange(50, 60000),
    help="bws: milliseconds between heartbeats (short, so that they arrive while the bot thinks).",
)
@click.option(
    "--game", "game_name", default=None, help="Engines: the game (default hex for uais/htp, hive for uhp/hiveai)."
)
@click.option(
    "--opponent",
    "opponents",
    multiple=True,
    help="Built-in opponents (repeatable). Default: random and best.",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game parameter of the checked games (repeatable), e.g. --param expansions= for a base-game Hive engine.",
)
@click.option(
    "--wait",
    default=60.0,
    show_default=True,
    type=click.FloatRange(0.1, 3600),
    help="battlebot: seconds to wait for the bot to connect and log in to check-bot's lobby.",
)
@click.option(
    "--listen",
    default="127.0.0.1:0",
    show_default=True,
    metavar="HOST:PORT",
    help="battlebot: where check-bot's lobby listens (port 0: a free one, printed).",
)
@click.option(
    "--auth",
    "auth_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="battlebot: the bot's auth.json. Read when it exists (the bot's own credentials); else check-bot writes "
    "one for this lobby (game, bot_id, pass_hash, hostname) for the bot to use.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (for CI).")
def check_bot_command(
    spec: str,
    games: int,
    clock_seconds: float,
    max_plies: int,
    heartbeat_ms: int,
    game_name: str | None,
    opponents: tuple[str, ...],
    params: tuple[str, ...],
    wait: float,
    listen: str,
    auth_file: Path | None,
    as_json: bool,
) -> None:
    """Check that the bot SPEC speaks its protocol correctly; exit status 1 on any failure.

    \b
    SPEC: an HTTTX bot URL (bws or stateless), bws:URL, stateless:URL, uais:COMMAND, htp:COMMAND,
    uhp:COMMAND, hiveai:HOST:PORT, hiveai-stdio:COMMAND, or battlebot[:BOT_ID] for a battlebot client: then
    check-bot hosts a lobby, prints its address and the credentials to log in with, and waits --wait seconds
    for the bot. Examples:
      hexarena check-bot http://127.0.0.1:8002
      hexarena check-bot "uais:python3 mybot.py" --clock 2
      hexarena check-bot battlebot:mybot --game noughtsandcrosses --auth auth.json
    The bot plays random and best from the start and from varied positions; the handshake, legal and
    well-formed moves, answer times, evaluations, heartbeats, its reaction to nope/end and (engines) its exit
    are each a row: pass, warn or fail, with what it sent, what the protocol expects and how to fix it.
    """
    from hexarena.checkbot.games import Settings
    from hexarena.checkbot.run import ClientOptions, check_bot
    from hexarena.referee.clock import clock_from
    from hexarena.terminal import output_console

    battlebot = spec.strip().partition(":")[0] == "battlebot"
    try:
        given = param_assignments(params)
        host, port = host_port(listen)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    seconds = clock_seconds or (TURN_SECONDS if battlebot else 5.0)
    settings = Settings(clock=clock_from("turn", seconds), max_plies=max_plies, heartbeat_ms=heartbeat_ms, params=given)
    client = ClientOptions(listen=(host, port), wait=wait, auth=auth_file, ready=_announce)
    try:
        report = asyncio.run(
            check_bot(
                spec,
                games=games,
                settings=settings,
                game=game_name,
                opponents=list(opponents) or None,
                client=client,
            )
        )
    except HexarenaError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(report.dumps())
    else:
        report.render(output_console())
    sys.exit(1 if report.failed else 0)


def host_port(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6) as a pair; ConfigError says the form."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ConfigError(f"--listen wants HOST:PORT (e.g. 127.0.0.1:8765, port 0 for a free one), got {text!r}")
    return host, int(port)


def _announce(url: str, creds: Credentials, auth: Path | None) -> None:
    """Where the bot connects and how it logs in, on stderr (stdout keeps the report, e.g. --json)."""
    say = functools.partial(click.echo, err=True)
    say(f"check-bot: a battlebot lobby at {url} (auth.json hostname {url.removeprefix('ws://')})")
    secret = f"pass_hash {creds.pass_hash}" if creds.generated else f"its own pass_hash (from {auth})"
    say(f"  log in as bot_id {creds.bot_id!r}, game {creds.game!r}, with {secret}")
    if auth is not None and creds.generated:
        say(f"  credentials written to {auth}: start the bot with it")
    say("  waiting for the bot to connect...")


__all__ = ["check_bot_command", "host_port"]
