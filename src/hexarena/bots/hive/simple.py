"""The simplest Hive bots: uniformly random, and greedy one-ply on the queen-pressure evaluation."""

from __future__ import annotations

import random

from hexarena.bots.hive.evaluation import evaluate
from hexarena.core.game import Game
from hexarena.games.hive.board import Board, Move
from hexarena.games.hive.game import HiveGame, HiveMove, HiveState


def random_on_board(board: Board, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    moves = board.moves()
    if not moves:
        raise ValueError("no legal move: the game is over")
    return rng.choice(moves)


def greedy_on_board(board: Board, rng: random.Random) -> Move:
    """The move with the best evaluation one ply ahead (ties broken at random)."""
    color = board.ply & 1
    moves = board.moves()
    if not moves:
        raise ValueError("no legal move: the game is over")
    best: list[Move] = []
    best_score = None
    for m in moves:
        board.play(m)
        try:
            score = evaluate(board, color)
        finally:
            board.undo()
        if best_score is None or score > best_score:
            best, best_score = [m], score
        elif score == best_score:
            best.append(m)
    return rng.choice(best)


class RandomBot:
    """EngineBot: a uniformly random legal move."""

    name = "random"

    def choose(
        self, game: Game[HiveState, HiveMove], state: HiveState, time_limit: float | None, rng: random.Random
    ) -> HiveMove:
        rules = hive_rules(game)
        board = rules.core(state)
        return rules.move_of(board, random_on_board(board, rng))


class GreedyBot:
    """EngineBot: one-ply search on queen pressure and mobility."""

    name = "greedy"

    def choose(
        self, game: Game[HiveState, HiveMove], state: HiveState, time_limit: float | None, rng: random.Random
    ) -> HiveMove:
        rules = hive_rules(game)
        board = rules.core(state)
        return rules.move_of(board, greedy_on_board(board, rng))


def hive_rules(game: Game[HiveState, HiveMove]) -> HiveGame:
    """The built-in Hive rules, whose search board and move writer the Hive bots play on (every host passes that
    game)."""
    if not isinstance(game, HiveGame):
        raise TypeError(f"the hive bots play the built-in Hive game, not {type(game).__name__}")
    return game
