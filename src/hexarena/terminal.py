"""The rich console the command line prints tables with.

Written to a terminal, rich fits tables to its width. Written to a pipe or a file (CI logs, ``| tee``), rich
knows no width and assumes 80 columns, and folds the widest tables (the tournament standings have 14 columns)
until the player column is a few characters wide and the names are lost. There nothing limits the line length,
so tables are printed at their natural width instead (up to ``PIPE_WIDTH``); ``$COLUMNS`` still wins when set.
"""

from __future__ import annotations

import os

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

#: The width assumed when the output is no terminal: wider than any table hexarena prints, which never expand
#: to fill it.
PIPE_WIDTH = 1000


def output_console() -> Console:
    """A Console for stdout: the terminal's width, or room for whole rows when stdout is a pipe or a file."""
    console = Console()
    if console.is_terminal or os.environ.get("COLUMNS"):
        return console
    return Console(width=PIPE_WIDTH)


def progress_bar(console: Console | None = None, transient: bool = False) -> Progress:
    """The progress bar every long run shows (games played, tournaments, benchmarks): what runs, a bar, done of
    total and the time it has taken, the same on every command."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=console, transient=transient)
