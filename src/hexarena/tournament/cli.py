"""``hexarena tournament``: run, resume and inspect tournaments from the terminal.

A run shows a live progress bar and standings table; at the end it prints the crosstable, failures per bot
and the SPRT verdict, the games that could not be played and why, and writes the HTML report when asked. State
is saved to the store after every game, so an interrupted run (Ctrl-C) continues with
``hexarena tournament resume ID``.

``run`` and ``resume`` exit with :data:`EXIT_OK` when every game was played, :data:`EXIT_NOT_PLAYED` when the
tournament ended but some games have no result (aborted: a bot could not be created or started; they score
nothing), :data:`EXIT_USAGE` for settings that can never work (nothing is played) and 130 on Ctrl-C.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console, Group
from rich.live import Live
from rich.progress import TaskID
from rich.table import Table

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import param_assignments
from hexarena.terminal import output_console, progress_bar
from hexarena.tournament.pairings import FORMATS

if TYPE_CHECKING:  # imported where used: the CLI starts without the store and the runner
    from hexarena.store import Store
    from hexarena.tournament.executors import Executor
    from hexarena.tournament.runner import Runner, TournamentConfig
    from hexarena.tournament.standings import TournamentGame
    from hexarena.tournament.stats import EloModel, SprtJson

#: Exit statuses of ``run`` and ``resume`` (see the module docstring).
EXIT_OK = 0
EXIT_NOT_PLAYED = 1
EXIT_USAGE = 2
#: Game ids shown per reason in the list of games that were not played.
IDS_SHOWN = 8

_DB_HELP = "SQLAlchemy URL of the store (default: $HEXARENA_DATABASE_URL or ./data/hexarena.sqlite3)."


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_USAGE)


_COLUMNS = ("#", "player", "pts", "games", "W", "D", "L", "score", "Elo", "+/-", "time", "crash", "illegal", "aborted")


def standings_table(summary: dict[str, Any], title: str = "standings") -> Table:
    table = Table(title=title)
    for col in _COLUMNS:
        if col == "player":
            table.add_column(col, overflow="fold", min_width=6)
        else:
            table.add_column(col, justify="right", no_wrap=True)
    for rank, r in enumerate(summary["standings"], 1):
        rating = r.get("rating")
        table.add_row(
            str(rank),
            r["name"],
            f"{r['points']:g}",
            str(r["games"]),
            str(r["wins"]),
            str(r["draws"]),
            str(r["losses"]),
            f"{r['score'] * 100:.1f}%",
            "-" if rating is None else f"{round(rating['elo']) + 0:+d}",
            "-" if rating is None else f"{rating['error']:.0f}",
            *(f"[red]{v}[/red]" if v else "0" for v in (r["timeouts"], r["crashes"], r["illegal"])),
            f"[yellow]{r.get('aborted', 0)}[/yellow]" if r.get("aborted") else "0",
        )
    return table


def crosstable_table(summary: dict[str, Any]) -> Table:
    names = summary["config"]["names"]
    cross = summary["crosstable"]
    table = Table(title="crosstable", caption="points/games of the row against the column")
    table.add_column("")
    for i in range(len(names)):
        table.add_column(str(i + 1), justify="right")
    for i, n in enumerate(names):
        cells = []
        for j in range(len(names)):
            g = cross["games"][i][j]
            cells.append("-" if i == j or not g else f"{cross['points'][i][j]:g}/{g}")
        table.add_row(f"{i + 1}. {n}", *cells)
    return table


def print_not_played(console: Console, summary: dict[str, Any]) -> None:
    """Which games ended without a result and why: one line per reason, with (some of) its game ids."""
    from hexarena.tournament.standings import by_reason

    aborted = summary.get("aborted_games") or []
    if not aborted:
        return
    console.print(
        f"{len(aborted)} of {summary['games_finished']} games were not played (no result, not scored):",
        style="bold yellow",
    )
    for termination, reason, ids in by_reason(aborted):
        shown = ", ".join(ids[:IDS_SHOWN]) + (f" and {len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else "")
        # markup off: reasons quote bots and URLs, whose brackets must print as they are
        console.print(f"  {len(ids)} {termination}: {reason}", markup=False, highlight=False, soft_wrap=True)
        console.print(f"    games: {shown}", markup=False, highlight=False, soft_wrap=True)


def print_final(console: Console, summary: dict[str, Any]) -> None:
    aborted = summary.get("games_aborted", 0)
    counted = summary["games_finished"] - aborted
    title = f"final standings ({counted} games" + (f", {aborted} not played)" if aborted else ")")
    console.print(standings_table(summary, title=title))
    console.print(crosstable_table(summary))
    sprt = summary.get("sprt")
    if sprt:
        console.print(
            f"SPRT: LLR {sprt['llr']:.2f} [{sprt['lower']:.2f}, {sprt['upper']:.2f}] -> {sprt['decision'] or 'undecided'}"
        )
    if summary.get("stop_reason"):
        console.print(f"stopped: {summary['stop_reason']}")
    print_not_played(console, summary)


async def _drive(runner: Runner, console: Console, quiet: bool) -> dict[str, Any]:
    """Run with a live progress bar and standings (re-planned rounds grow the bar's total)."""
    if quiet:
        return await runner.run()
    progress = progress_bar(console)
    task: TaskID = progress.add_task(f"{runner.config.game} {runner.config.format}", total=None)

    last = [0.0]
    view: list[Table] = []  # the standings last drawn

    def refresh(force: bool = False) -> Group:
        """Progress on every result; the standings (a pass over all games) at most 4 times a second."""
        progress.update(task, total=max(len(runner.games), 1), completed=runner.finished)
        now = time.monotonic()
        if force or not view or now - last[0] >= 0.25:
            last[0] = now
            view[:] = [standings_table(runner.summary())]
        return Group(progress, view[0])

    with Live(refresh(True), console=console, refresh_per_second=4, transient=True) as live:

        def on_result(_runner: Runner, _game: TournamentGame) -> None:
            live.update(refresh())

        runner.on_result = on_result
        return await runner.run()


def _parse_players(players: tuple[str, ...]) -> tuple[list[str], list[str]]:
    specs, names = [], []
    for p in players:
        name, sep, spec = p.partition("=")
        if sep and name and "://" not in name and ":" not in name:
            names.append(name)
            specs.append(spec)
        else:
            names.append(p)
            specs.append(p)
    return specs, names


async def _open_store(database_url: str | None) -> Store:
    from hexarena.store import Store

    return await Store.open(database_url)


def _executor(ray_address: str | None, processes: int, concurrency: int = 1) -> Executor:
    """Ray when asked; else local, with worker processes for built-in bots by default (``processes=-1``)."""
    import os

    from hexarena.tournament.executors import make_executor

    if processes < 0:
        processes = min(concurrency, os.cpu_count() or 1) if concurrency > 1 else 0
    return make_executor(ray_address, processes)


@click.group()
def tournament() -> None:
    """Tournaments between bots: round robin, gauntlet, Swiss, knockout; SPRT matches."""


@tournament.command("run")
@click.argument("game_name", metavar="GAME")
@click.argument("players", nargs=-1, required=True, metavar="PLAYER...")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="roundrobin", show_default=True)
@click.option("--games", "games", type=int, default=2, show_default=True, help="Games per pairing (even: pairs).")
@click.option("--rounds", type=int, default=1, show_default=True, help="Round robin cycles or Swiss rounds.")
@click.option("--seeds", type=int, default=1, show_default=True, help="Gauntlet: players under test (listed first).")
@click.option("--concurrency", "-c", type=int, default=1, show_default=True, help="Games at once.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for openings and bots' randomness.")
@click.option("--opening-plies", type=int, default=0, show_default=True, help="Random opening length in plies.")
@click.option(
    "--balance",
    "opening_balance",
    type=int,
    default=0,
    show_default=True,
    help="Random playouts judging each random opening; lopsided openings are redrawn (0: off).",
)
@click.option("--openings", "openings_file", type=click.Path(exists=True, dir_okay=False), help="Openings file.")
@click.option("--clock-type", type=click.Choice(["none", "turn", "match", "incremental"]), default="none")
@click.option("--clock", "clock_seconds", type=float, default=None, help="Seconds (per turn or per side).")
@click.option("--increment", type=float, default=None, help="Fischer increment in seconds.")
@click.option("--max-plies", type=int, default=None, help="Draw after this many plies (games without an end).")
@click.option(
    "--timemargin",
    "time_margin",
    type=float,
    default=0.0,
    show_default=True,
    help="Seconds a move may overrun its budget before it loses on time (absorbs lag spikes).",
)
@click.option("--param", "params", multiple=True, help="Game parameter NAME=VALUE (repeatable).")
@click.option(
    "--sprt", "sprt", default=None, metavar="ELO0,ELO1", help="SPRT bounds (two players); stops when decided."
)
@click.option("--alpha", type=float, default=0.05, show_default=True)
@click.option("--beta", type=float, default=0.05, show_default=True)
@click.option("--elo-model", type=click.Choice(["normalized", "logistic"]), default="normalized", show_default=True)
@click.option("--name", default="", help="Tournament name.")
@click.option("--id", "tournament_id", default=None, help="Tournament id (resumes it if it exists).")
@click.option("--database-url", envvar="HEXARENA_DATABASE_URL", default=None, help=_DB_HELP)
@click.option("--no-store", is_flag=True, help="Keep state in memory only (no resume, no ratings).")
@click.option("--unrated", is_flag=True, help="Don't update the leaderboard ratings.")
@click.option("--ray-address", default=None, help="Run games on Ray ('local' starts one; 'auto' or ray://...).")
@click.option(
    "--processes",
    type=int,
    default=-1,
    show_default=True,
    help="Worker processes for games between built-in bots (-1: one per core when concurrency > 1; 0: none).",
)
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None, help="Write an HTML report.")
@click.option("--quiet", "-q", is_flag=True, help="No live display.")
def run_cmd(
    game_name: str,
    players: tuple[str, ...],
    fmt: str,
    games: int,
    rounds: int,
    seeds: int,
    concurrency: int,
    seed: int,
    opening_plies: int,
    opening_balance: int,
    openings_file: str | None,
    clock_type: str,
    clock_seconds: float | None,
    increment: float | None,
    max_plies: int | None,
    time_margin: float,
    params: tuple[str, ...],
    sprt: str | None,
    alpha: float,
    beta: float,
    elo_model: EloModel,  # click's Choice of MODELS
    name: str,
    tournament_id: str | None,
    database_url: str | None,
    no_store: bool,
    unrated: bool,
    ray_address: str | None,
    processes: int,
    report_path: str | None,
    quiet: bool,
) -> None:
    """Play a tournament of GAME between PLAYERs (SPEC or NAME=SPEC, e.g. rnd=builtin:random).

    Every player is checked before the first game (the spec names a player of GAME; with openings, bws bots
    declare free_setup). A game a bot could not be created or started for is aborted: it scores nothing and is
    listed at the end.

    \b
      hexarena tournament run tictactoe builtin:random builtin:perfect --games 20 -c 4
      hexarena tournament run htttx builtin:heuristic builtin:center --sprt 0,10 --opening-plies 2

    \b
    Exit status: 0 every game was played; 1 the tournament ended but some games
    were not played (aborted); 2 bad settings, nothing played; 130 interrupted.
    """
    from hexarena.core.registry import get_game
    from hexarena.tournament.openings import load_openings
    from hexarena.tournament.runner import TournamentConfig

    try:
        game = get_game(game_name)
        specs, names = _parse_players(players)
        game_params = game.validate_params(param_assignments(params))
        sprt_cfg: SprtJson | None = None
        if sprt:
            try:
                elo0, elo1 = (float(x) for x in sprt.split(","))
            except ValueError:
                raise ConfigError(f"--sprt takes ELO0,ELO1 such as 0,5; got {sprt!r}") from None
            sprt_cfg = {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "model": elo_model}
        config = TournamentConfig(
            game=game.name,
            players=specs,
            names=names,
            format=fmt,
            games_per_pairing=games,
            rounds=rounds,
            seeds=seeds,
            params=game_params,
            clock={"kind": clock_type, "seconds": clock_seconds, "increment": 0.0 if increment is None else increment},
            opening_plies=opening_plies,
            opening_balance=opening_balance,
            openings=load_openings(openings_file, game, game_params) if openings_file else None,
            concurrency=concurrency,
            seed=seed,
            max_plies=max_plies,
            time_margin=time_margin,
            sprt=sprt_cfg,
            name=name,
            rated=not unrated,
        ).validate()
        code = asyncio.run(
            _run_new(config, tournament_id, database_url, no_store, ray_address, processes, report_path, quiet)
        )
    except HexarenaError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code)


async def _run_new(
    config: TournamentConfig,
    tournament_id: str | None,
    database_url: str | None,
    no_store: bool,
    ray_address: str | None,
    processes: int,
    report_path: str | None,
    quiet: bool,
) -> int:
    from hexarena.tournament.runner import Runner

    store = None if no_store else await _open_store(database_url)
    try:
        executor = _executor(ray_address, processes, config.concurrency)
        existing = None if store is None or tournament_id is None else await store.get_tournament(tournament_id)
        if store is not None and existing is not None:
            runner = await Runner.resume(store, existing.tournament_id, executor=executor)
        else:
            runner = await Runner.create(config, store, tournament_id, executor=executor)
        return await _finish(runner, report_path, quiet)
    finally:
        if store is not None:
            await store.close()


async def _finish(runner: Runner, report_path: str | None, quiet: bool) -> int:
    console = output_console()
    console.print(f"tournament {runner.id}" + (f" (store: {runner.store.url})" if runner.store is not None else ""))
    try:
        summary = await _drive(runner, console, quiet)
    except (KeyboardInterrupt, asyncio.CancelledError):
        console.print(f"interrupted: resume with  hexarena tournament resume {runner.id}")
        raise
    print_final(console, summary)
    if report_path:
        from hexarena.tournament.report import write_report

        console.print(f"report: {write_report(summary, report_path)}")
    return EXIT_NOT_PLAYED if summary.get("games_aborted") else EXIT_OK


@tournament.command("resume")
@click.argument("tournament_id")
@click.option("--database-url", envvar="HEXARENA_DATABASE_URL", default=None, help=_DB_HELP)
@click.option("--ray-address", default=None, help="Run games on Ray.")
@click.option("--processes", type=int, default=-1, show_default=True, help="As for run.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None)
@click.option("--quiet", "-q", is_flag=True)
def resume_cmd(
    tournament_id: str,
    database_url: str | None,
    ray_address: str | None,
    processes: int,
    report_path: str | None,
    quiet: bool,
) -> None:
    """Continue an interrupted tournament where it stopped.

    Exit status as for run: 0 every game was played, 1 some games were not played (aborted), 2 bad settings.
    """

    async def go() -> int:
        from hexarena.tournament.runner import Runner

        store = await _open_store(database_url)
        try:
            runner = await Runner.resume(store, tournament_id)
            runner.executor = _executor(ray_address, processes, runner.config.concurrency)
            return await _finish(runner, report_path, quiet)
        finally:
            await store.close()

    try:
        code = asyncio.run(go())
    except HexarenaError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        sys.exit(130)
    sys.exit(code)


@tournament.command("show")
@click.argument("tournament_id")
@click.option("--database-url", envvar="HEXARENA_DATABASE_URL", default=None, help=_DB_HELP)
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None, help="Write an HTML report.")
def show_cmd(tournament_id: str, database_url: str | None, report_path: str | None) -> None:
    """Print a stored tournament's standings and crosstable (and write its report)."""

    async def go() -> None:
        from hexarena.tournament.runner import Runner

        store = await _open_store(database_url)
        try:
            runner = await Runner.resume(store, tournament_id)
            summary = runner.summary()
        finally:
            await store.close()
        console = output_console()
        console.print(f"tournament {tournament_id}: {summary['status']}")
        print_final(console, summary)
        if report_path:
            from hexarena.tournament.report import write_report

            console.print(f"report: {write_report(summary, report_path)}")

    try:
        asyncio.run(go())
    except HexarenaError as exc:
        _fail(str(exc))


@tournament.command("list")
@click.option("--game", default=None)
@click.option("--database-url", envvar="HEXARENA_DATABASE_URL", default=None, help=_DB_HELP)
def list_cmd(game: str | None, database_url: str | None) -> None:
    """Stored tournaments, newest first."""

    async def go() -> None:
        store = await _open_store(database_url)
        try:
            rows = await store.list_tournaments(game=game)
        finally:
            await store.close()
        table = Table(title="tournaments")
        for col in ("id", "name", "game", "status", "created"):
            table.add_column(col, overflow="fold", min_width=32 if col == "id" else None)
        for r in rows:
            table.add_row(r.tournament_id, r.name, r.game, r.status, r.created_at.strftime("%Y-%m-%d %H:%M"))
        output_console().print(table)

    try:
        asyncio.run(go())
    except HexarenaError as exc:
        _fail(str(exc))


@tournament.command("leaderboard")
@click.argument("game_name", metavar="GAME")
@click.option("--database-url", envvar="HEXARENA_DATABASE_URL", default=None, help=_DB_HELP)
def leaderboard_cmd(game_name: str, database_url: str | None) -> None:
    """The persistent Glicko-2 ratings of GAME (± twice the deviation; ? while provisional)."""

    async def go() -> None:
        from hexarena.core.registry import get_game
        from hexarena.tournament.ratings import leaderboard

        name = get_game(game_name).name
        store = await _open_store(database_url)
        try:
            rows = await leaderboard(store, name)
        finally:
            await store.close()
        table = Table(title=f"{name} leaderboard")
        for col in ("#", "player", "rating", "games"):
            table.add_column(col, justify="left" if col == "player" else "right")
        for r in rows:
            shown = f"{r['rating']:.0f}?" if r["provisional"] else f"{r['rating']:.0f} ± {2 * r['rd']:.0f}"
            who = f"{r['name']} (person {r['player'][7:15]})" if r["person"] else r["player"]  # two Anns apart
            table.add_row(str(r["rank"]), who, shown, str(r["games"]))
        output_console().print(table)

    try:
        asyncio.run(go())
    except HexarenaError as exc:
        _fail(str(exc))


__all__ = [
    "EXIT_NOT_PLAYED",
    "EXIT_OK",
    "EXIT_USAGE",
    "crosstable_table",
    "print_final",
    "print_not_played",
    "standings_table",
    "tournament",
]
