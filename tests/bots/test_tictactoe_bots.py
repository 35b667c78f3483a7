"""Noughts-and-crosses and numberwang reference bots."""

from __future__ import annotations

import random
from typing import Any

from hexarena.bots.base import EngineBot
from hexarena.bots.numberwang import BOTS as NW_BOTS
from hexarena.bots.tictactoe import BOTS, PerfectTicTacToeBot, best_moves, value
from hexarena.games.numberwang import GAME as NW
from hexarena.games.tictactoe import GAME, TicTacToeState


def test_bots_follow_the_engine_bot_interface() -> None:
    for factory in (*BOTS.values(), *NW_BOTS.values()):
        bot = factory()
        assert isinstance(bot, EngineBot) and bot.name


def test_game_values() -> None:
    assert value(GAME.new()) == 0  # noughts and crosses is a draw
    s = GAME.new()
    for m in ((0, 0), (0, 1)):  # X corner, O edge next to it: X wins by force
        s = GAME.play(s, m)
    assert value(s) == 1
    assert (1, 1) in best_moves(GAME.play(GAME.new(), (0, 0)))  # O must take the centre


def _never_loses(state: TicTacToeState, bot_seat: int) -> int:
    """Every game where the bot may pick any of its optimal moves and the opponent anything; return the count
    and fail on a loss."""
    out = GAME.outcome(state)
    if out is not None:
        assert out.winner != 1 - bot_seat, GAME.rows(state)
        return 1
    if GAME.to_move(state) == bot_seat:
        moves = best_moves(state)
    else:
        moves = GAME.legal(state)
    return sum(_never_loses(GAME.play(state, m), bot_seat) for m in moves)


def test_perfect_never_loses_as_either_seat() -> None:
    assert _never_loses(GAME.new(), 0) > 100
    assert _never_loses(GAME.new(), 1) > 100


def test_perfect_choose_is_optimal_and_beats_random_often() -> None:
    rng = random.Random(3)
    perfect, rand = PerfectTicTacToeBot(), BOTS["random"]()
    wins = 0
    for g in range(200):
        seats = (perfect, rand) if g % 2 == 0 else (rand, perfect)
        s = GAME.new()
        while (seat := GAME.to_move(s)) is not None:
            move = seats[seat].choose(GAME, s, None, rng)
            if seats[seat] is perfect:
                assert move in best_moves(s)
            s = GAME.play(s, move)
        out = GAME.outcome(s)
        assert out is not None
        perfect_seat = 0 if g % 2 == 0 else 1
        assert out.winner != 1 - perfect_seat
        wins += out.winner == perfect_seat
    assert wins > 120  # random play blunders into forced losses most of the time


def test_random_bots_play_legal_moves_to_the_end() -> None:
    rng = random.Random(0)
    pairs: list[tuple[Any, EngineBot]] = [(GAME, BOTS["random"]()), (NW, NW_BOTS["random"]())]
    for game, bot in pairs:
        for _ in range(50):
            s = game.new()
            while game.to_move(s) is not None:
                move = bot.choose(game, s, 1.0, rng)
                assert move in game.legal(s)
                s = game.play(s, move)
            assert game.outcome(s) is not None
