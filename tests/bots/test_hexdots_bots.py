"""Hexagon dots reference bots: legal moves, greedy's priorities, greedy beats random."""

from __future__ import annotations

import random

import pytest

from hexarena.bots.base import EngineBot
from hexarena.bots.hexdots import BOTS, GreedyBot, RandomBot, chain_given
from hexarena.bots.registry import builtin_bots
from hexarena.games.hexdots import GAME, DotsState


def play_game(bots: list[EngineBot], seed: int, rows: int = 5, cols: int = 5) -> DotsState:
    rng = random.Random(seed)
    s = GAME.new(rows=rows, cols=cols)
    while (seat := GAME.to_move(s)) is not None:
        mv = bots[seat].choose(GAME, s, None, rng)
        assert mv in set(GAME.legal(s))
        s = GAME.play(s, mv)
    return s


def gains_gifts(s: DotsState, lid: int) -> tuple[int, int]:
    gain = gift = 0
    for h in s.geo.line_hexes[lid]:
        if s.hex_blocked[h] or s.hex_owner[h]:
            continue
        gain += s.hex_count[h] == 5
        gift += s.hex_count[h] == 4
    return gain, gift


def test_bots_are_registered_engine_bots() -> None:
    assert set(BOTS) == {"random", "greedy"}
    for name, factory in BOTS.items():
        bot = factory()
        assert isinstance(bot, EngineBot)
        assert bot.name == name
    assert set(builtin_bots("hexdots")) == {"random", "greedy", "best"}  # best: greedy, the strongest


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (3, 6), (7, 7), (9, 4)])
def test_every_pairing_plays_legal_moves_to_the_end(rows: int, cols: int) -> None:
    for i, pair in enumerate([("random", "greedy"), ("greedy", "greedy"), ("random", "random")]):
        s = play_game([BOTS[pair[0]](), BOTS[pair[1]]()], seed=i, rows=rows, cols=cols)
        assert GAME.outcome(s) is not None


def test_greedy_priorities_hold_in_many_positions() -> None:
    """From random positions: greedy captures the most it can, else gives nothing away when it can."""
    rng = random.Random(11)
    greedy = GreedyBot()
    checked = {"capture": 0, "safe": 0, "forced": 0}
    for game in range(30):
        s = GAME.new(rows=7, cols=7)
        while not s.over:
            legal = GAME.legal_ids(s)
            stats = {lid: gains_gifts(s, lid) for lid in legal}
            best = max(g for g, _ in stats.values())
            chosen = s.geo.line_coords.index(greedy.choose(GAME, s, None, rng))
            if best:
                assert stats[chosen][0] == best
                checked["capture"] += 1
            elif any(gift == 0 for _, gift in stats.values()):
                assert stats[chosen][1] == 0
                checked["safe"] += 1
            else:
                board = s.board()
                least = min(chain_given(board, lid) for lid in legal)
                assert chain_given(board, chosen) == least
                checked["forced"] += 1
            s = GAME.play_id(s, chosen if game % 2 else GAME.random_id(s, rng))
    assert all(n > 0 for n in checked.values()), checked


def test_greedy_takes_a_double_capture_over_a_single() -> None:
    # 5x5: ten sides of the hexagons centred on (1,1) and (2,2) (all but their shared side (1,2)-(2,1)), then
    # three more sides of the hexagon centred on (3,1), which shares two sides with them. Nothing captured yet.
    setup = [
        *("1,0-0,0", "1,2-1,3", "0,0-0,1", "1,3-2,3", "0,1-1,2", "2,3-3,3", "2,1-2,0", "3,3-3,2"),
        *("2,0-1,0", "3,2-2,1", "3,0-2,0", "3,2-4,1", "4,1-4,0"),
    ]
    s = GAME.new(rows=5, cols=5)
    for t in setup:
        s = GAME.play(s, GAME.parse(t))
    assert s.scores == (0, 0) and GAME.to_move(s) == 1
    # (1,2)-(2,1) takes two hexagons; (4,0)-(3,0) takes one.
    for seed in range(10):
        assert GreedyBot().choose(GAME, s, None, random.Random(seed)) == ((1, 2), (2, 1))


def test_chain_given_leaves_the_board_unchanged() -> None:
    rng = random.Random(4)
    s = GAME.new(rows=5, cols=5)
    for _ in range(30):
        s = GAME.play(s, GAME.random_move(s, rng))
    board = s.board()
    before = (bytes(board.line_owner), bytes(board.hex_count), board.alive, board.turn, sorted(board.legal_ids()))
    for lid in board.legal_ids():
        assert chain_given(board, lid) >= 0
    assert (
        bytes(board.line_owner),
        bytes(board.hex_count),
        board.alive,
        board.turn,
        sorted(board.legal_ids()),
    ) == before


def test_greedy_beats_random() -> None:
    """40 games on 5x5, seats alternating. Measured: greedy wins 40/40; 32 leaves a wide margin."""
    wins = 0
    for i in range(40):
        greedy_seat = i % 2
        bots: list[EngineBot] = [RandomBot(), RandomBot()]
        bots[greedy_seat] = GreedyBot()
        out = GAME.outcome(play_game(bots, seed=100 + i))
        assert out is not None
        wins += out.winner == greedy_seat
    assert wins >= 32, wins
