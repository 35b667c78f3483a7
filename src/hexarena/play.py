"""Running matches from the command line: one game with its board, or many with a progress bar and a table."""

from __future__ import annotations

from typing import TypeVar

from rich.console import Console
from rich.table import Table

from hexarena.core.contract import ClockConfig
from hexarena.core.errors import ConfigError
from hexarena.core.game import Game, ParamValue
from hexarena.players.spec import make_player, scheme_of
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult
from hexarena.terminal import output_console, progress_bar

S = TypeVar("S")
M = TypeVar("M")


async def play_one(
    game: Game[S, M], specs: list[str], params: dict[str, ParamValue], clock: ClockConfig
) -> MatchResult[S]:
    for spec in specs:
        scheme = scheme_of(spec)
        if scheme is not None and scheme.needs_server:
            raise ConfigError(
                f"{spec!r} is a seat that a running server serves: start `hexarena serve` and create the match "
                "there (the web UI's lobby or POST /api/matches)"
            )
    players = [await make_player(spec, game.name) for spec in specs]
    return await Referee(MatchConfig(game=game, params=params, clock=clock), players).run()


async def play_games(
    game: Game[S, M],
    specs: list[str],
    params: dict[str, ParamValue],
    clock: ClockConfig,
    n: int,
    alternate: bool = True,
    show_board: bool = True,
) -> int:
    """Play ``n`` games; returns a process exit code (0 unless every game ended in an error)."""
    console = output_console()
    if n == 1:
        result = await play_one(game, specs, params, clock)
        if show_board and result.final_state is not None:  # a result keeps its position until it is released
            console.print(game.render(result.final_state), markup=False, highlight=False)
        _print_result(console, game, specs, result)
        return 0
    scores = [[0, 0, 0] for _ in specs]  # wins, draws, losses of the first and the second player given
    reasons: dict[str, int] = {}
    errors = 0
    with progress_bar(console) as progress:
        task = progress.add_task(f"{game.name}", total=n)
        for i in range(n):
            order = [1, 0] if alternate and i % 2 else [0, 1]  # who sits in each seat: the players given, by index
            result = await play_one(game, [specs[p] for p in order], params, clock)
            key = f"{result.outcome.termination}"
            reasons[key] = reasons.get(key, 0) + 1
            if str(result.outcome.termination) == "error":
                errors += 1
            for seat, player in enumerate(order):
                if result.winner is None:
                    scores[player][1] += 1
                elif result.winner == seat:
                    scores[player][0] += 1
                else:
                    scores[player][2] += 1
            progress.advance(task)
    table = Table(title=f"{n} games of {game.name}")
    for col in ("player", "wins", "draws", "losses", "score"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for i, (wins, draws, losses) in enumerate(scores):
        # the same spec twice (a bot against itself): each row says which it is, by its seat in the first game
        label = specs[i] if specs[0] != specs[1] else f"{specs[i]} ({game.seat_names[i]} in game 1)"
        table.add_row(label, str(wins), str(draws), str(losses), f"{(wins + draws / 2) / n:.1%}")
    console.print(table)
    console.print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    return 1 if errors == n else 0


def _print_result(console: Console, game: Game[S, M], specs: list[str], result: MatchResult[S]) -> None:
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
