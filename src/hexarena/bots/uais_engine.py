"""Any built-in Hex bot as a UAIS executable: ``hexarena bot stdio --game hex --bot mcts black``.

It keeps its own board from the central program's messages, exactly as a UAIS participant's bot does, and asks
the built-in bot for a move on ``make_move``. Unknown or conflicting messages are answered with ``error`` and
change nothing, as the protocol allows.
"""

from __future__ import annotations

import random
import sys
from collections import deque
from typing import Any, TextIO

from hexarena.bots.base import think
from hexarena.bots.registry import make_builtin
from hexarena.core.registry import get_game
from hexarena.games.hex import HexGame

EMPTY, BLACK, WHITE = ".", "B", "W"


class UaisEngine:
    """The state machine of a UAIS bot around a built-in EngineBot."""

    def __init__(self, bot: Any, colour: str, time_limit: float | None = None, seed: int | None = None) -> None:
        self.game = get_game("hex")
        self.bot = bot
        self.colour = BLACK if colour == "black" else WHITE
        self.time_limit = time_limit
        self.rng = random.Random(seed)
        self.size = 0
        self.grid: dict[tuple[int, int], str] = {}
        self.swapped = False

    # -- board --

    def _cell(self, text: str) -> tuple[int, int] | None:
        try:
            move = self.game.parse(text)
        except Exception:
            return None
        if not isinstance(move, tuple) or not (0 <= move[0] < self.size and 0 <= move[1] < self.size):
            return None
        return (int(move[0]), int(move[1]))

    def _state(self) -> Any:
        blacks = [c for c, v in self.grid.items() if v == BLACK]
        whites = [c for c, v in self.grid.items() if v == WHITE]
        can_swap = len(blacks) == 1 and not whites and not self.swapped and self.colour == WHITE
        state = self.game.new(size=self.size, swap=can_swap)
        order: list[tuple[int, int]] = []
        for i in range(max(len(blacks), len(whites))):
            if i < len(blacks):
                order.append(blacks[i])
            if i < len(whites):
                order.append(whites[i])
        for cell in order:
            state = self.game.play(state, cell)
        return state

    def winner(self) -> str | None:
        n = self.size
        for colour, starts, axis in ((BLACK, [(0, c) for c in range(n)], 0), (WHITE, [(r, 0) for r in range(n)], 1)):
            seen = {s for s in starts if self.grid.get(s) == colour}
            todo = deque(seen)
            while todo:
                r, c = todo.popleft()
                if (r, c)[axis] == n - 1:
                    return colour
                for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
                    nb = (r + dr, c + dc)
                    if nb not in seen and self.grid.get(nb) == colour:
                        seen.add(nb)
                        todo.append(nb)
        return None

    # -- protocol --

    def handle(self, line: str) -> str | None:
        """The reply to one message (None when none is due)."""
        parts = line.split()
        if not parts:
            return None
        cmd, args = parts[0].lower(), parts[1:]
        if cmd == "init_board":
            size = int(args[0]) if args and args[0].isdigit() else (self.size or 11)
            if not 1 <= size <= 26:
                return "error"
            self.size, self.grid, self.swapped = size, {}, False
            return None
        if self.size == 0 and cmd not in ("quit",):
            self.size = 11
        if cmd in ("seto", "sety", "unset"):
            cell = self._cell(args[0]) if len(args) == 1 else None
            if cell is None:
                return "error"
            if cmd == "unset":
                self.grid.pop(cell, None)
                return None
            if cell in self.grid:
                return "error"
            mine = cmd == "sety"
            self.grid[cell] = self.colour if mine else (WHITE if self.colour == BLACK else BLACK)
            return None
        if cmd == "swap":
            self.swapped = True
            self.colour = WHITE if self.colour == BLACK else BLACK
            return None
        if cmd == "make_move":
            return self._make_move()
        if cmd == "show_board":
            return "".join(
                "".join(self.grid.get((r, c), EMPTY) for c in range(self.size)) + "|" for r in range(self.size)
            )
        if cmd == "check_win":
            win = self.winner()
            return "0" if win is None else ("1" if win == self.colour else "-1")
        return "error"

    def _make_move(self) -> str:
        empties = [(r, c) for r in range(self.size) for c in range(self.size) if (r, c) not in self.grid]
        if not empties or self.winner() is not None:
            return "error"
        try:
            state = self._state()
            ok = self.game.to_move(state) is not None and state.colour_of(self.game.to_move(state)) == (
                1 if self.colour == BLACK else 2
            )
            move = think(self.bot, self.game, state, self.time_limit, self.rng) if ok else self.rng.choice(empties)
        except Exception:
            move = self.rng.choice(empties)
        text = str(self.game.format(move))
        if text == "swap":
            self.swapped = True
            self.colour = WHITE if self.colour == BLACK else BLACK
        else:
            self.grid[move] = self.colour
        return text


def run_stdio(
    game: str,
    bot_name: str,
    colour: str,
    time_limit: float | None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Serve the UAIS protocol until ``quit`` or end of input; returns the exit code."""
    if not isinstance(get_game(game), HexGame):
        print(f"stdio mode speaks UAIS, which is a Hex protocol; got game {game!r}", file=sys.stderr)
        return 2
    engine = UaisEngine(make_builtin("hex", bot_name), colour, time_limit)
    for line in stdin:
        text = line.strip()
        if text.lower() == "quit":
            return 0
        reply = engine.handle(text)
        if reply is not None:
            stdout.write(reply + "\n")
            stdout.flush()
    return 0
