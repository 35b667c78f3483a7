"""The ``hexarena check-bot`` command (registered by ``hexarena.cli``)."""

from __future__ import annotations

import asyncio
import sys

import click

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import param_assignments


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
    default=5.0,
    show_default=True,
    type=click.FloatRange(0.05, 600),
    help="Seconds the bot has for each move (a turn clock).",
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
    as_json: bool,
) -> None:
    """Check that the bot SPEC speaks its protocol correctly; exit status 1 on any failure.

    \b
    SPEC: an HTTTX bot URL (bws or stateless), bws:URL, stateless:URL, uais:COMMAND, htp:COMMAND,
    uhp:COMMAND, hiveai:HOST:PORT or hiveai-stdio:COMMAND. Examples:
      hexarena check-bot http://127.0.0.1:8002
      hexarena check-bot "uais:python3 mybot.py" --clock 2
    The bot plays random and best from the start and from varied positions; the handshake, legal and
    well-formed moves, answer times, evaluations, heartbeats, its reaction to nope/end and (engines) its exit
    are each a row: pass, warn or fail, with what it sent, what the protocol expects and how to fix it.
    """
    from hexarena.checkbot.games import Settings
    from hexarena.checkbot.run import check_bot
    from hexarena.referee.clock import clock_from
    from hexarena.terminal import output_console

    try:
        given = param_assignments(params)
    except ConfigError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    settings = Settings(
        clock=clock_from("turn", clock_seconds), max_plies=max_plies, heartbeat_ms=heartbeat_ms, params=given
    )
    try:
        report = asyncio.run(
            check_bot(spec, games=games, settings=settings, game=game_name, opponents=list(opponents) or None)
        )
    except HexarenaError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(report.dumps())
    else:
        report.render(output_console())
    sys.exit(1 if report.failed else 0)


__all__ = ["check_bot_command"]
