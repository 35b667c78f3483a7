"""The ``hexarena`` command line: serve, play matches, serve bots."""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from hexarena import __version__
from hexarena.core.contract import ClockConfig
from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import Game
from hexarena.referee.clock import DEFAULT_MOVE_CAP
from hexarena.server.cluster_timing import SHORTEST, ClusterTiming

S = TypeVar("S")
M = TypeVar("M")


def _fail(message: str) -> None:
    log_format = sys.modules.get("hexarena.server.log_format")  # loaded by `serve` only
    if log_format is not None and log_format.json_logs():
        logging.getLogger("hexarena.serve").error(message)  # a plain line would break a JSON log's reader
    else:
        click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _odd_rows(ctx: click.Context, param: click.Parameter, value: int) -> int:
    """Hexagon dots boards have an odd number of rows (short rows at the top and the bottom)."""
    if value % 2 == 0:
        raise click.BadParameter(f"{value} is even; hexagon dots boards have an odd number of rows", param=param)
    return value


def _ladder_params(options: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """``--ladder-param GAME:NAME=VALUE`` options as each game's checked parameters (a bad one ends the command)."""
    from hexarena.core.game import param_assignments
    from hexarena.core.registry import get_game

    given: dict[str, list[str]] = {}
    for option in options:
        game, colon, rest = option.partition(":")
        if not (colon and game.strip() and "=" in rest):
            _fail(f"--ladder-param takes GAME:NAME=VALUE (e.g. htttx:turn_limit=60), got {option!r}")
        given.setdefault(game.strip(), []).append(rest)
    try:
        return {
            get_game(g).name: get_game(g).validate_params(param_assignments(items, f"--ladder-param {g}:"))
            for g, items in given.items()
        }
    except HexarenaError as exc:
        _fail(f"--ladder-param: {exc}")
        raise  # not reached: _fail exits


def _cluster_seconds(name: str, help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--cluster-NAME SECONDS``: one of :class:`ClusterTiming`'s intervals (its default shown)."""
    return click.option(
        f"--cluster-{name}",
        type=click.FloatRange(SHORTEST, 3600),
        default=getattr(ClusterTiming, name),
        show_default=True,
        metavar="SECONDS",
        help=f"With --redis-url: {help}",
    )


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="hexarena")
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
def main(verbose: int) -> None:
    """hexarena: an arena where bots, and people, battle at hexagonal board games."""
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option(
    "--database-url",
    envvar="HEXARENA_DATABASE_URL",
    default=None,
    help="SQLAlchemy URL (default: SQLite file ./data/hexarena.sqlite3; postgresql://... for production). "
    "Also read from $HEXARENA_DATABASE_URL.",
)
@click.option(
    "--redis-url",
    envvar="HEXARENA_REDIS_URL",
    default=None,
    help="Run as one of several instances sharing --database-url (PostgreSQL) and this Redis (redis://host:6379): "
    "live matches are leased, followed from any instance and taken over when their instance dies. Also read "
    "from $HEXARENA_REDIS_URL.",
)
@click.option(
    "--advertise-url",
    default=None,
    metavar="URL",
    help="With --redis-url: the address the other instances reach this one at (they relay seat sockets to it). "
    "Default: http://HOST:PORT, with this machine's name for a wildcard --host.",
)
@_cluster_seconds(
    "lease",
    "seconds a lease lives unrenewed. An instance silent this long (dead, frozen, cut off) loses its matches to "
    "another: shorter takes them over sooner, and a stall of that long loses them.",
)
@_cluster_seconds("renew", "seconds between two renewals of this instance's leases (at most half --cluster-lease).")
@_cluster_seconds("scan", "seconds between two scans for the matches and tournaments of lost instances.")
@click.option(
    "--data-dir",
    envvar="HEXARENA_DATA_DIR",
    default=None,
    type=click.Path(file_okay=False, path_type=Path),
    help="Local state: the journal of game records written while the database is unreachable (replayed at the "
    "next start). Default: the SQLite file's folder, or ./data. Also read from $HEXARENA_DATA_DIR.",
)
@click.option(
    "--open-seat-timeout",
    type=click.FloatRange(min=1, max=86400),
    default=None,
    help="Seconds an open seat waits for someone to join before its match is aborted (default 600, or "
    "$HEXARENA_OPEN_SEAT_SECONDS).",
)
@click.option("--log-level", default="info", show_default=True, help="uvicorn log level.")
@click.option(
    "--engine",
    "engines",
    multiple=True,
    metavar="NAME=SPEC",
    help="Register a local engine that API clients may use as engine:NAME (e.g. mybot=uais:./mybot). Repeatable.",
)
@click.option(
    "--dots-port",
    type=click.IntRange(0, 65535),
    default=None,
    help="Also serve the hexagon dots turn-token protocol at / of this port (original clients post to /).",
)
@click.option(
    "--dots-rows",
    type=click.IntRange(3, 41),
    default=5,
    show_default=True,
    callback=_odd_rows,
    help="Rows (odd) of the hexagon dots games GET /match creates, for clients that only join through /match.",
)
@click.option(
    "--dots-cols",
    type=click.IntRange(3, 41),
    default=5,
    show_default=True,
    help="Columns of the hexagon dots games GET /match creates.",
)
@click.option(
    "--dots-turn-seconds",
    type=click.FloatRange(0.1, 3600),
    default=5.0,
    show_default=True,
    help="Seconds a hexagon dots player has for each move (the contest's 5 s; its server later used 30 s).",
)
@click.option(
    "--battlebot-contest-rules",
    type=click.Choice(["per-pair", "each-way"]),
    default="per-pair",
    show_default=True,
    help="Battlebot contests: per-pair = at most 5 games per pair, first mover at random (the mid-2017 server "
    "the seed describes); each-way = at most 5 games per ordered pair, the waiting bot first (the later server).",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(0.1, 3600),
    default=10.0,
    show_default=True,
    help="Seconds a client has to send a request's headers before its connection is closed (slowloris guard).",
)
@click.option(
    "--public",
    is_flag=True,
    help="Serve the internet: write endpoints need an API token (`hexarena token create`), bot addresses that "
    "are not public (loopback, private, link-local, shared) are refused, creates are limited to 10/minute;200/hour per client.",
)
@click.option(
    "--allow-bot-host",
    "allow_bot_hosts",
    multiple=True,
    metavar="HOST_OR_CIDR",
    help="With --public: let bots at this host name, address or network (e.g. 10.0.0.0/8) be used. Repeatable.",
)
@click.option(
    "--create-rate-limit",
    default=None,
    metavar="LIMIT",
    help="Creates (matches, games, tournaments, dots tables) per client address, e.g. '30/minute;500/hour', or "
    "'none'. Default: 60/minute, with --public 10/minute;200/hour.",
)
@click.option(
    "--metrics-token-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="With --public: the file holding the bearer token Prometheus must send for GET /metrics (without it, "
    "$HEXARENA_METRICS_TOKEN; without either, public mode refuses every scrape). Local mode: /metrics is open.",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one JSON object per line on stderr (time, level, logger, message, extra fields), uvicorn's "
    "access log included.",
)
@click.option(
    "--move-cap",
    type=click.FloatRange(min=0),
    default=DEFAULT_MOVE_CAP,
    show_default=True,
    help="Matches and tournaments between programs without a clock: seconds a move may take before the mover "
    "loses on time (0: no cap, a silent bot then holds its match open forever). Games with a person are not capped.",
)
@click.option(
    "--ladder-games-per-hour",
    type=click.IntRange(1, 36_000),
    default=120,
    show_default=True,
    help="The ladder's pace: games it starts an hour at most (`hexarena ladder register` adds bots).",
)
@click.option(
    "--ladder-concurrency", type=click.IntRange(1, 64), default=2, show_default=True, help="Ladder games at once."
)
@click.option(
    "--ladder-fail-limit",
    type=click.IntRange(1, 1000),
    default=3,
    show_default=True,
    help="Forfeits in a row (crash, timeout, illegal move) after which a ladder bot is paused and check-bot run on it.",
)
@click.option(
    "--ladder-move-seconds",
    type=click.FloatRange(0.05, 3600),
    default=5.0,
    show_default=True,
    help="Seconds each move may take in a ladder game.",
)
@click.option(
    "--ladder-param",
    "ladder_params",
    multiple=True,
    metavar="GAME:NAME=VALUE",
    help="A game parameter of ladder games (repeatable), e.g. htttx:turn_limit=60 to bound a game's length.",
)
def serve(
    host: str,
    port: int,
    database_url: str | None,
    redis_url: str | None,
    advertise_url: str | None,
    cluster_lease: float,
    cluster_renew: float,
    cluster_scan: float,
    data_dir: Path | None,
    open_seat_timeout: float | None,
    log_level: str,
    engines: tuple[str, ...],
    dots_port: int | None,
    dots_rows: int,
    dots_cols: int,
    dots_turn_seconds: float,
    battlebot_contest_rules: str,
    header_timeout: float,
    public: bool,
    allow_bot_hosts: tuple[str, ...],
    create_rate_limit: str | None,
    metrics_token_file: Path | None,
    log_format: str,
    move_cap: float,
    ladder_games_per_hour: int,
    ladder_concurrency: int,
    ladder_fail_limit: int,
    ladder_move_seconds: float,
    ladder_params: tuple[str, ...],
) -> None:
    """Run the game server: web UI, REST and GraphQL APIs, every bot protocol, with its database.

    On SIGINT or SIGTERM it stops within a few seconds whatever is running: live matches are aborted, built-in
    searches are stopped, bot processes are killed. Without --public anyone who reaches the port may start games
    and make the server contact any address: keep it on 127.0.0.1, or use --public.
    """
    from hexarena.players.policy import parse_engine_option
    from hexarena.players.proctree import sweep_orphans
    from hexarena.server.app import Settings, create_app
    from hexarena.server.battlebot.lobby import BattlebotSettings
    from hexarena.server.dots.tables import DotsSettings
    from hexarena.server.ladder_pairing import LadderSettings
    from hexarena.server.log_format import use as use_log_format
    from hexarena.server.serving import FORCE_EXIT_AFTER, ArenaServer, server_config

    use_log_format(log_format)
    notice = _notice_for(log_format)
    try:
        registered = dict(parse_engine_option(e) for e in engines)
    except HexarenaError as exc:
        _fail(str(exc))
    ladder_game_params = _ladder_params(ladder_params)
    if allow_bot_hosts and not public:
        _fail("--allow-bot-host needs --public (without it bots may be at any address)")
    for entry in allow_bot_hosts:
        try:
            if "/" in entry:
                ipaddress.ip_network(entry, strict=False)
        except ValueError as exc:
            _fail(f"--allow-bot-host {entry!r}: not a network ({exc}); give a host name, an address or a CIDR")
    try:
        timing = ClusterTiming(lease=cluster_lease, renew=cluster_renew, scan=cluster_scan)
    except ValueError as exc:
        _fail(f"--cluster-renew {cluster_renew} with --cluster-lease {cluster_lease}: {exc}")
    limits: dict[str, Any] = {}  # the mode's default unless given
    if create_rate_limit is not None:
        text = create_rate_limit.strip()
        limits["create_rate_limit"] = None if text.lower() in ("none", "off") else text
    if metrics_token_file is not None:
        limits["metrics_token"] = _read_token(metrics_token_file)
    from hexarena.checkbot.ladder import report_for as ladder_report
    from hexarena.core.extras import MissingExtra, require_redis
    from hexarena.store.engine import resolve_url
    from hexarena.store.recorder import default_data_dir

    try:  # the drivers of the URLs given: extras of their own (hexarena[postgres], hexarena[cluster])
        resolve_url(database_url)
        if redis_url:
            require_redis()
    except MissingExtra as exc:
        _fail(str(exc))
    except HexarenaError:
        pass  # a URL that does not parse: the store says so when it opens, as before
    # one data folder for the record journal and the engine registry (bot processes to end after a crash)
    data_dir = data_dir or default_data_dir(database_url)
    os.environ["HEXARENA_DATA_DIR"] = str(data_dir)
    swept = sweep_orphans()  # bot processes an earlier server left running when it crashed
    if swept:
        notice(f"ended {swept} bot process(es) left running by an earlier server")
    settings = Settings(
        database_url=database_url,
        redis_url=redis_url,
        advertise_url=advertise_url or _advertised(host, port),
        cluster_timing=timing,
        engines=registered,
        data_dir=data_dir,
        public=public,
        bot_hosts=list(allow_bot_hosts) if public else None,
        open_seat_seconds=open_seat_timeout,
        move_cap=move_cap,
        battlebot=BattlebotSettings(contest_rules=battlebot_contest_rules),
        dots=DotsSettings(match_rows=dots_rows, match_cols=dots_cols, turn_seconds=dots_turn_seconds),
        ladder=LadderSettings(
            games_per_hour=ladder_games_per_hour,
            concurrency=ladder_concurrency,
            fail_limit=ladder_fail_limit,
            move_seconds=ladder_move_seconds,
            params=ladder_game_params,
            checker=ladder_report,
        ),
        **limits,
    )
    try:
        app = create_app(settings)
    except ValueError as exc:  # a create rate limit that does not parse
        _fail(str(exc))
    click.echo(f"hexarena {__version__} on http://{host}:{port}/  (web UI: /ui/, API docs: /docs, GraphQL: /graphql)")
    _report_plugins()
    if public:
        notice(
            f"public mode: writes need an API token (`hexarena token create`); creates limited to "
            f"{settings.create_rate_limit or 'unlimited'} per client; bot hosts allowed beyond public addresses: "
            f"{', '.join(allow_bot_hosts) or 'none'}; GET /metrics "
            f"{'needs the metrics token' if settings.metrics_token else 'refused (no metrics token configured)'}"
        )
    elif host not in ("127.0.0.1", "localhost", "::1"):
        notice(
            f"warning: listening on {host} without --public: anyone who reaches this port can start games and "
            "make the server contact any address, this machine's network included"
        )
    from hexarena.core.gc_tuning import tune_for_serving

    tune_for_serving()  # the app is built: freeze it, and collect cycles less often (see gc_tuning)
    # uvicorn takes SIGINT while it serves whatever was inherited, and raises it again once it has stopped; a
    # server started as a background job of a script inherits SIGINT ignored, which would swallow that and end
    # it as if nothing had stopped it (exit 0, no "stopped" record). Ctrl-C and kill -INT end it one way.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if dots_port is None:
            config = server_config(app, host, port, log_level=log_level, header_timeout=header_timeout)
            ArenaServer(config, force_exit_after=FORCE_EXIT_AFTER).run()
            return
        from hexarena.server.dots.routes import dots_servers, run_servers

        click.echo(f"hexagon dots turn-token protocol also on http://{host}:{dots_port}/")
        servers = dots_servers(
            app, host, port, dots_port, log_level, header_timeout=header_timeout, force_exit_after=FORCE_EXIT_AFTER
        )
        asyncio.run(run_servers(*servers))
    except KeyboardInterrupt:
        # uvicorn re-raises the Ctrl-C it stopped on once its shutdown is done: the normal way to stop a server, so
        # a success (as uvicorn's own command has it), not click's "Aborted!" and exit 1, which make reports as an
        # error. A shutdown that did not end is not this path: the watchdog exits FORCED_EXIT_STATUS.
        notice("stopped: interrupted")


#: Bytes read of a token file at most: a token is a line, not a file's worth.
MAX_TOKEN_FILE = 4096


def _read_token(path: Path) -> str:
    """The token a file holds (its text, stripped); exits with a message for an empty or oversized file."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_TOKEN_FILE + 1)
    except OSError as exc:
        _fail(f"cannot read {path}: {exc.strerror}")
    token = data.decode("utf-8", "replace").strip()
    if len(data) > MAX_TOKEN_FILE or not token or any(c.isspace() for c in token):
        _fail(f"{path} must hold one token (a single word of at most {MAX_TOKEN_FILE} bytes)")
    return token


def _notice_for(log_format: str) -> Callable[[str], None]:
    """How ``serve`` tells the operator something on stderr: a plain line, or a log record when the log is JSON
    lines (a plain line there would be the one that a log reader cannot parse)."""
    if log_format != "json":
        return lambda text: click.echo(text, err=True)
    return logging.getLogger("hexarena.serve").warning


def _advertised(host: str, port: int) -> str:
    """How other instances reach this one by default: the listening address, or this machine's name when the
    server listens on every address."""
    import socket

    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _report_plugins() -> None:
    """Load every game and player scheme now, so a broken plugin is logged (a warning naming its distribution and
    entry point) when the server starts rather than on the first request that lists games; the server runs
    without it."""
    from hexarena.core.registry import available_games
    from hexarena.players.spec import registered_schemes

    available_games()
    registered_schemes()


@main.group()
def bot() -> None:
    """Run a built-in bot for other servers."""


@bot.command("serve")
@click.option("--bot", "bot_name", default="heuristic", show_default=True, help="Built-in HTTTX bot to serve.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8002, show_default=True, type=click.IntRange(0, 65535))
def bot_serve(bot_name: str, host: str, port: int) -> None:
    """Serve a built-in HTTTX bot over the bot API (capabilities.json, bws and stateless on one port)."""
    from hexarena.bots.sdk import bot_class_for, run

    try:
        cls = bot_class_for(bot_name)
    except (ConfigError, KeyError) as exc:
        _fail(str(exc))
    click.echo(f"serving {bot_name} on http://{host}:{port}/capabilities.json")
    run(cls, host=host, port=port)


@bot.command("stdio")
@click.option("--game", default="hex", show_default=True, help="Game (stdio mode speaks UAIS: Hex).")
@click.option("--bot", "bot_name", default="mcts", show_default=True, help="Built-in bot to run.")
@click.option("--time", "time_limit", type=float, default=1.0, show_default=True, help="Seconds per move.")
@click.argument("colour", type=click.Choice(["black", "white"]), default="black")
def bot_stdio(game: str, bot_name: str, time_limit: float, colour: str) -> None:
    """Run a built-in Hex bot as a UAIS executable on stdin/stdout (started as `... black|white`)."""
    from hexarena.bots.uais_engine import run_stdio

    try:
        sys.exit(run_stdio(game, bot_name, colour, time_limit))
    except HexarenaError as exc:
        _fail(str(exc))


@main.command("new-bot")
@click.argument("language")
@click.argument("directory", required=False, type=click.Path(path_type=Path))
def new_bot(language: str, directory: Path | None) -> None:
    """Copy the starter bot for LANGUAGE (node, go, cpp) into DIRECTORY (default ./LANGUAGE-bot), ready to edit."""
    from hexarena.newbot import new_bot as copy_starter

    try:
        dest = copy_starter(language, directory)
    except HexarenaError as exc:
        _fail(str(exc))
    click.echo(f"{language} starter copied to {dest}: read {dest / 'README.md'} to build, run and play it")


@main.command()
@click.option("--size", default=11, show_default=True, type=click.IntRange(1, 26), help="Board size N (N x N).")
@click.option("--move-timeout", default=10.0, show_default=True, type=float, help="Seconds a bot has per move.")
@click.argument("black_bot")
@click.argument("white_bot")
def central(size: int, move_timeout: float, black_bot: str, white_bot: str) -> None:
    """The UAIS central program: run two UAIS Hex bots from a REPL on stdin (type `help`).

    BLACK_BOT and WHITE_BOT are commands (quote them if they have arguments); each is started as
    `COMMAND black` or `COMMAND white`.
    """
    from hexarena.central import main as central_main

    sys.exit(central_main(size, black_bot, white_bot, move_timeout))


@main.command()
@click.option("--bot", "bot_name", default="alphabeta", show_default=True, help="Built-in Hive bot.")
def uhp(bot_name: str) -> None:
    """Speak the Universal Hive Protocol on stdin/stdout with a built-in Hive bot (for Mzinga's viewer etc.)."""
    from hexarena.bots.uhp_engine import run_uhp

    try:
        sys.exit(run_uhp(bot_name))
    except HexarenaError as exc:
        _fail(str(exc))


@main.group()
def hiveai() -> None:
    """Trylobot Hive AI modules."""


@hiveai.command("serve")
@click.option("--bot", "bot_name", default="greedy", show_default=True, help="Built-in Hive bot.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8100, show_default=True, type=click.IntRange(0, 65535))
@click.option("--stdio", is_flag=True, help="One JSON object per line on stdin/stdout instead of TCP.")
def hiveai_serve(bot_name: str, host: str, port: int, stdio: bool) -> None:
    """Serve a built-in Hive bot as a Trylobot AI module (TCP `<length>#<json>` frames, or --stdio)."""
    from hexarena.bots import hiveai_module

    try:
        if stdio:
            sys.exit(hiveai_module.serve_stdio(bot_name))
        click.echo(f"Hive AI module {bot_name} on {host}:{port}", err=True)
        asyncio.run(hiveai_module.serve_tcp(bot_name, host, port))
    except HexarenaError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        pass


def _parse_extra(game: Game[S, M], args: list[str]) -> tuple[dict[str, str], dict[str, Any]]:
    """Split ``--<seat> SPEC`` and ``--<param> VALUE`` pairs (e.g. ``--black X --size 7``)."""
    seats: dict[str, str] = {}
    params: dict[str, Any] = {}
    param_names = {p.name.replace("_", "-"): p.name for p in game.params}
    seat_names = {name.lower(): name for name in game.seat_names}
    it = iter(args)
    for arg in it:
        if not arg.startswith("--"):
            raise ConfigError(f"unexpected argument {arg!r}")
        key, eq, value = arg[2:].partition("=")
        if not eq:
            try:
                value = next(it)
            except StopIteration:
                raise ConfigError(f"{arg} needs a value") from None
        if key.lower() in seat_names:
            seats[seat_names[key.lower()]] = value
        elif key in param_names:
            params[param_names[key]] = value
        else:
            known = [f"--{s}" for s in seat_names] + [f"--{p}" for p in param_names]
            raise ConfigError(f"unknown option --{key} for {game.name}; known: {' '.join(known)}")
    return seats, params


class PlayCommand(click.Command):
    """``play``, whose ``--help`` also lists the seats and parameters of the game named on the command line
    (``hexarena play hex --help``): they are options of the game, not of the command, so click can't know them."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["hexarena.play.args"] = list(args)  # --help is eager: GAME is not parsed when help is printed
        return super().parse_args(ctx, args)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        from hexarena.core.registry import available_games, get_game

        game = None
        for arg in ctx.meta.get("hexarena.play.args", []):
            if not arg.startswith("-"):
                try:
                    game = get_game(arg)
                    break
                except ConfigError:
                    continue
        if game is None:
            with formatter.section("Games (hexarena play GAME --help lists its seats and parameters)"):
                formatter.write_dl([(name, getattr(g, "title", "")) for name, g in sorted(available_games().items())])
            return
        with formatter.section(f"Seats and parameters of {game.name}"):
            formatter.write_dl(_game_options(game))


def _game_options(game: Game[S, M]) -> list[tuple[str, str]]:
    """``--<seat> SPEC`` and ``--<param> VALUE`` rows for ``game``'s help."""
    from hexarena.bots.registry import builtin_bots

    bots = ", ".join(f"builtin:{b}" for b in sorted(builtin_bots(game.name))) or "none built in"
    rows = [
        (f"--{seat.lower()} SPEC", f"the player of {seat}{' (moves first)' if i == 0 else ''}; bots: {bots}")
        for i, seat in enumerate(game.seat_names)
    ]
    for param in game.params:
        facts = [f"default: {param.default}"]
        if param.choices:
            facts.append("one of " + "/".join(str(c) for c in param.choices))
        if param.minimum is not None or param.maximum is not None:
            low = "" if param.minimum is None else f"{param.minimum} <= "
            high = "" if param.maximum is None else f" <= {param.maximum}"
            facts.append(f"{low}x{high}")
        metavar = param.kind.__name__.upper()
        rows.append((f"--{param.name.replace('_', '-')} {metavar}", f"{param.help}  [{'; '.join(facts)}]"))
    return rows


def _default_clock(game: Game[S, M]) -> ClockConfig:
    """The game's own clock (``Game.default_clock``, the lobby's default preset), said on stderr."""
    from hexarena.referee.clock import clock_from

    kind, seconds, increment = game.default_clock  # declared by the Game protocol
    clock = clock_from(kind, seconds, increment)
    shown = {"turn": f"{seconds:g} s a move", "match": f"{seconds:g} s a side"}.get(
        kind, f"{seconds:g} s a side + {increment:g} s a move"
    )
    click.echo(
        f"no clock given: {game.name}'s default clock, {kind} {shown} (--clock-type/--clock to change, "
        "--clock-type none for none)",
        err=True,
    )
    return clock


@main.command(cls=PlayCommand, context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("game_name", metavar="GAME")
@click.option("--games", "n_games", default=1, show_default=True, type=click.IntRange(1), help="Games to play.")
@click.option(
    "--alternate/--no-alternate",
    default=True,
    show_default=True,
    help="Swap seats every other game (with --games > 1).",
)
@click.option(
    "--clock-type",
    type=click.Choice(["none", "turn", "match", "incremental"]),
    default=None,
    help="Default: the game's own clock (the web lobby's preset for it), unless --clock is given.",
)
@click.option("--clock", "clock_seconds", type=float, default=None, help="Seconds (per turn or per side).")
@click.option("--increment", type=float, default=None, help="Fischer increment in seconds (incremental clock).")
@click.option(
    "--move-cap",
    type=click.FloatRange(min=0),
    default=DEFAULT_MOVE_CAP,
    show_default=True,
    help="Without a clock, seconds a move may take before the mover loses on time (0: no cap, a silent bot "
    "then hangs the match).",
)
@click.option("--quiet", is_flag=True, help="Don't print the board.")
@click.pass_context
def play(
    ctx: click.Context,
    game_name: str,
    n_games: int,
    alternate: bool,
    clock_type: str | None,
    clock_seconds: float | None,
    increment: float | None,
    move_cap: float,
    quiet: bool,
) -> None:
    """Play GAME between two players and print the result.

    \b
    Seats are named after the game's sides, parameters after the game's options, e.g.
      hexarena play htttx --x builtin:heuristic --o http://127.0.0.1:8002
      hexarena play hex --black builtin:mcts --white builtin:random --size 7
    A player SPEC is builtin:NAME, an HTTTX bot URL (bws or stateless), bws:URL, stateless:URL, or another
    registered scheme (see GET /api/players on a running server).
    Without --clock-type, --clock or --move-cap, the game's own clock is used (the web lobby's preset for it);
    with --clock-type none or --move-cap, every move is capped (120 s by default): a silent bot loses on time.
    """
    from hexarena.core.registry import get_game
    from hexarena.play import play_games

    try:
        game = get_game(game_name)
        seats, raw = _parse_extra(game, list(ctx.args))
        missing = [s for s in game.seat_names if s not in seats]
        if missing:
            raise ConfigError(f"give a player for {', '.join('--' + m.lower() for m in missing)}")
        params = game.validate_params(raw)
        from hexarena.referee.clock import capped, clock_from

        cap_given = ctx.get_parameter_source("move_cap") is not click.core.ParameterSource.DEFAULT
        if clock_type is None and clock_seconds is None and increment is None and not cap_given:
            asked = _default_clock(game)
        else:
            asked = clock_from(
                clock_type or ("turn" if clock_seconds is not None else "none"), clock_seconds, increment
            )
        clock = capped(asked, move_cap)
        if clock is not asked:
            click.echo(
                f"no clock given: a move that takes longer than {move_cap:g} s loses on time "
                "(--move-cap S to change, 0 for none; or --clock-type/--clock)",
                err=True,
            )
        code = asyncio.run(
            play_games(
                game,
                [seats[s] for s in game.seat_names],
                params,
                clock,
                n_games,
                alternate=alternate,
                show_board=not quiet,
            )
        )
    except HexarenaError as exc:
        _fail(str(exc))
    sys.exit(code)


from hexarena.checkbot.cli import check_bot_command  # noqa: E402
from hexarena.server.dead_letters_cli import dead_letters  # noqa: E402
from hexarena.server.ladder_cli import ladder  # noqa: E402
from hexarena.server.token_cli import token  # noqa: E402
from hexarena.tournament.cli import tournament  # noqa: E402

main.add_command(tournament)
main.add_command(token)
main.add_command(check_bot_command)
main.add_command(dead_letters)
main.add_command(ladder)

if __name__ == "__main__":  # pragma: no cover
    main()
