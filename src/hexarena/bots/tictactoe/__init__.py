"""Reference noughts-and-crosses bots: ``random`` and ``perfect`` (never loses)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from hexarena.bots.base import EngineBot
from hexarena.core.game import Game
from hexarena.games.tictactoe import GAME, TicTacToeState
from hexarena.games.tictactoe.game import Move


class RandomTicTacToeBot:
    """Uniformly random among the empty cells."""

    name = "random"

    def choose(
        self, game: Game[TicTacToeState, Move], state: TicTacToeState, time_limit: float | None, rng: random.Random
    ) -> Move:
        return game.random_move(state, rng)


@cache
def value(state: TicTacToeState) -> int:
    """Negamax value for the side to move: 1 win, 0 draw, -1 loss (5,478 positions, memoised)."""
    out = GAME.outcome(state)
    if out is not None:
        # The side to move never has a line of its own: a decided game is lost for it.
        return 0 if out.winner is None else -1
    return max(-value(GAME.play(state, m)) for m in GAME.legal(state))


def best_moves(state: TicTacToeState) -> list[Move]:
    """Every move that keeps the game-theoretic value (so a player choosing among them never loses)."""
    v = value(state)
    return [m for m in GAME.legal(state) if -value(GAME.play(state, m)) == v]


class PerfectTicTacToeBot:
    """Plays a random optimal move: never loses, and still varies its games."""

    name = "perfect"

    def choose(
        self, game: Game[TicTacToeState, Move], state: TicTacToeState, time_limit: float | None, rng: random.Random
    ) -> Move:
        return rng.choice(best_moves(state))


BOTS: dict[str, Callable[[], EngineBot]] = {"random": RandomTicTacToeBot, "perfect": PerfectTicTacToeBot}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "perfect"

__all__ = ["BEST", "BOTS", "PerfectTicTacToeBot", "RandomTicTacToeBot", "best_moves", "value"]
