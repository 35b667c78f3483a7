"""Running matches from the command line: one game with its board, or many with a progress bar and a table."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from hexarena.core.contract import ClockConfig
from hexarena.core.game import Game
from hexarena.players.spec import make_player
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult
from hexarena.terminal import output_console


async def play_one(game: Game[Any, Any], specs: list[str], params: dict[str, Any], clock: ClockConfig) -> MatchResult:
    players = [await make_player(spec, game.name) for spec in specs]
    return await Referee(MatchConfig(game=game, params=params, clock=clock), players).run()


async def play_games(
    game: Game[Any, Any],
    specs: list[str],
    params: dict[str, Any],
    clock: ClockConfig,
    n: int,
    alternate: bool = True,
    show_board: bool = True,
) -> int:
    """Play ``n`` games; returns a process exit code (0 unless every game ended in an error)."""
    console = output_console()
    if n == 1:
        result = await play_one(game, specs, params, clock)
        if show_board:
            console.print(game.render(result.final_state), markup=False, highlight=False)
        _print_result(console, game, specs, result)
        return 0
    scores = {spec: [0, 0, 0] for spec in specs}  # wins, draws, losses
    reasons: dict[str, int] = {}
    errors = 0
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(f"{game.name}", total=n)
        for i in range(n):
            order = list(reversed(specs)) if alternate and i % 2 else list(specs)
            result = await play_one(game, order, params, clock)
            key = f"{result.outcome.termination}"
            reasons[key] = reasons.get(key, 0) + 1
            if str(result.outcome.termination) == "error":
                errors += 1
            for seat, spec in enumerate(order):
                if result.winner is None:
                    scores[spec][1] += 1
                elif result.winner == seat:
                    scores[spec][0] += 1
                else:
                    scores[spec][2] += 1
            progress.advance(task)
    table = Table(title=f"{n} games of {game.name}")
    for col in ("player", "wins", "draws", "losses", "score"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for spec, (wins, draws, losses) in scores.items():
        table.add_row(spec, str(wins), str(draws), str(losses), f"{(wins + draws / 2) / n:.1%}")
    console.print(table)
    console.print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    return 1 if errors == n else 0


def _print_result(console: Console, game: Game[Any, Any], specs: list[str], result: MatchResult) -> None:
    outcome = result.outcome
    if outcome.winner is None:
        headline = "draw"
    else:
        headline = f"{game.seat_names[outcome.winner]} ({specs[outcome.winner]}) wins"
    console.print(
        f"{headline} after {len(result.moves)} moves: {outcome.termination}"
        + (f" - {outcome.reason}" if outcome.reason else ""),
        markup=False,
        highlight=False,
    )
