"""The stdin loop the test UAIS Hex bots share (``bad_bot.py`` here, ``tests/server/gated_uais_bot.py``).

It keeps the board as the referee tells it (``init_board``, ``seto``/``sety``) and ends on ``quit``, so that each
bot is only what it does on ``make_move``: one reading of the protocol for all of them, changed in one place.
The bots are scripts (``python path``): a bot outside this folder puts it on ``sys.path`` before importing.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable


class Board:
    """The board a UAIS bot was told about: its size and the cells either side has taken."""

    def __init__(self) -> None:
        self.size = 11
        self.taken: set[str] = set()

    def free(self) -> list[str]:
        cells = (f"{chr(97 + r)}{c + 1}" for r in range(self.size) for c in range(self.size))
        return [cell for cell in cells if cell not in self.taken]

    def random_move(self) -> str:
        """A random free cell, taken: the bot's own move, which the referee does not echo back."""
        move = random.choice(self.free())
        self.taken.add(move)
        return move


def serve(make_move: Callable[[Board], None], on_set: Callable[[str], None] | None = None) -> None:
    """Read UAIS commands from stdin until ``quit`` (exit 0) or end of input; ``make_move`` answers each
    ``make_move`` itself (it prints, and flushes or not), ``on_set`` sees each ``seto``/``sety`` command first."""
    board = Board()
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "init_board":
            board.size = int(parts[1])
            board.taken.clear()
        elif parts[0] in ("seto", "sety"):
            if on_set is not None:
                on_set(parts[0])
            board.taken.add(parts[1])
        elif parts[0] == "quit":
            sys.exit(0)
        elif parts[0] == "make_move":
            make_move(board)
