"""Reference noughts-and-crosses bots: ``random`` and ``perfect`` (never loses)."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache

from hexarena.bots.base import EngineBot
from hexarena.core.game import Game
from hexarena.core.jsonvalue import JsonObject, JsonValue
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


#: The words of a game-theoretic value for the side to move.
_VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


def principal_line(state: TicTacToeState, first: Move) -> list[Move]:
    """``first`` then, move after move, the first move that keeps the value: a line of perfect play to the end."""
    line = [first]
    state = GAME.play(state, first)
    while GAME.outcome(state) is None:
        line.append(best_moves(state)[0])
        state = GAME.play(state, line[-1])
    return line


def _seat0(v: int, seat: int) -> float:
    """The bar's ``heuristic``: -1..1 from the first seat's point of view."""
    return float(v if seat == 0 else -v)


class PerfectTicTacToeBot:
    """Plays a random optimal move: never loses, and still varies its games. Its search is exhaustive, so it
    reports exact values as ``last_evaluation`` (with the line of perfect play after its move) and every legal move
    with its value as ``last_considerations``, in the shape the other games' searches use."""

    name = "perfect"

    def __init__(self) -> None:
        self.last_evaluation: JsonObject | None = None
        self.last_considerations: list[JsonValue] | None = None

    def choose(
        self, game: Game[TicTacToeState, Move], state: TicTacToeState, time_limit: float | None, rng: random.Random
    ) -> Move:
        move = rng.choice(best_moves(state))
        seat = GAME.to_move(state)
        assert seat is not None  # a game that is over has no move to choose
        v = value(state)
        self.last_evaluation = {
            "heuristic": _seat0(v, seat),
            "proven": _VALUE_WORDS[v],
            "pv": [GAME.format(m) for m in principal_line(state, move)],
        }
        scored = sorted(((-value(GAME.play(state, m)), m) for m in GAME.legal(state)), key=lambda vm: -vm[0])
        self.last_considerations = [
            {"move": GAME.format(m), "evaluation": {"heuristic": _seat0(mv, seat), "proven": _VALUE_WORDS[mv]}}
            for mv, m in scored
        ]
        return move


BOTS: dict[str, Callable[[], EngineBot]] = {"random": RandomTicTacToeBot, "perfect": PerfectTicTacToeBot}

#: The strongest of ``BOTS``, also served as ``best`` (``builtin:best``).
BEST = "perfect"

__all__ = ["BEST", "BOTS", "PerfectTicTacToeBot", "RandomTicTacToeBot", "best_moves", "value"]
