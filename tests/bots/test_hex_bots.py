"""Hex reference bots: ``uct`` (the previous MCTS) -- legality, the rollout's exactness, tactics, strength against
random, limits. The new ``mcts`` is tested in test_hex_mcts.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexarena.bots.base import EngineBot
from hexarena.bots.hex import BOTS, RandomHexBot
from hexarena.bots.hex import MctsHexBot as NewMctsHexBot
from hexarena.bots.hex import UctHexBot as MctsHexBot
from hexarena.bots.hex.uct import bridge_pairs, connected, forced_move, masks
from hexarena.games.hex import BLACK, GAME, SWAP, HexState


def play_all(state: HexState, *moves: str) -> HexState:
    for m in moves:
        state = GAME.play(state, GAME.parse(m))
    return state


def test_bots_follow_the_engine_bot_interface() -> None:
    assert set(BOTS) == {"random", "mcts", "uct"}
    for factory in BOTS.values():
        assert isinstance(factory(), EngineBot)


@pytest.mark.parametrize("size", [1, 2, 3, 6, 11])
def test_bitboard_connection_agrees_with_the_engine(size: int) -> None:
    """The rollouts' flood fill must call every finished engine game for the engine's winner."""
    rng = random.Random(size)
    m = masks(size)
    for _ in range(60):
        s = GAME.new(size=size, swap=False)
        while GAME.outcome(s) is None:
            s = GAME.play(s, GAME.random_move(s, rng))
            black = sum(m.bit[i] for i, v in enumerate(s.cells) if v == BLACK)
            white = sum(m.bit[i] for i, v in enumerate(s.cells) if v and v != BLACK)
            out = GAME.outcome(s)
            assert connected(black, m.top, m.bottom, m.stride) == (out is not None and out.winner == 0)
            assert connected(white, m.left, m.right, m.stride) == (out is not None and out.winner == 1)


def test_mcts_is_deterministic_with_an_iteration_cap_and_plays_legal_moves() -> None:
    s = play_all(GAME.new(size=7), "d4", "swap", "c3")
    a = MctsHexBot(iterations=300).choose(GAME, s, None, random.Random(9))
    b = MctsHexBot(iterations=300).choose(GAME, s, None, random.Random(9))
    assert a == b and a in GAME.legal(s)


def test_mcts_takes_a_win_in_one_and_blocks_a_loss_in_one() -> None:
    # 5x5, no swap: Black holds column 3 from a3 to d3 and wins at e2 or e3; Black to move must take one.
    # Both by search alone (tactics=False) and by the one-move check with no search at all.
    win = play_all(GAME.new(size=5, swap=False), "a3", "a1", "b3", "b1", "c3", "c1", "d3", "e5")
    # With e2 already White's, White to move must block the single threat at e3.
    block = play_all(GAME.new(size=5, swap=False), "a3", "e2", "b3", "a1", "c3", "b1", "d3")
    for bot in (MctsHexBot(iterations=2000, tactics=False, bridges=False), MctsHexBot(iterations=1)):
        move = bot.choose(GAME, win, None, random.Random(1))
        assert move in (GAME.parse("e2"), GAME.parse("e3"))
        out = GAME.outcome(GAME.play(win, move))
        assert out is not None and out.winner == 0
        assert bot.choose(GAME, block, None, random.Random(1)) == GAME.parse("e3")


def test_forced_move_finds_nothing_without_threats() -> None:
    s = play_all(GAME.new(size=5, swap=False), "c3", "b2")
    assert forced_move(5, s.cells, s.colour_of(0)) is None


@pytest.mark.parametrize("bot", [MctsHexBot(iterations=400), NewMctsHexBot(iterations=3000)], ids=["uct", "mcts"])
def test_mcts_swap_decisions(bot: Any) -> None:
    centre = play_all(GAME.new(size=7), "d4")
    assert bot.choose(GAME, centre, None, random.Random(2)) == SWAP and bot.stats.swapped
    corner = play_all(GAME.new(size=7), "a1")
    assert bot.choose(GAME, corner, None, random.Random(2)) != SWAP
    no_rule = play_all(GAME.new(size=7, swap=False), "d4")
    assert bot.choose(GAME, no_rule, None, random.Random(2)) != SWAP


def test_mcts_respects_the_time_limit_by_counting_iterations() -> None:
    # No wall-time assertion: with a short limit the search must stop long before an absurd cap.
    bot = MctsHexBot(iterations=10**9)
    move = bot.choose(GAME, GAME.new(size=11), 0.05, random.Random(3))
    assert move in GAME.legal(GAME.new(size=11))
    assert 0 < bot.stats.iterations < 10**6


def test_mcts_beats_random_on_5x5() -> None:
    rng = random.Random(4)
    mcts, rand = MctsHexBot(iterations=300), RandomHexBot()
    wins = 0
    games = 12
    for g in range(games):
        seats = (mcts, rand) if g % 2 == 0 else (rand, mcts)
        s = GAME.new(size=5)
        while (seat := GAME.to_move(s)) is not None:
            s = GAME.play(s, seats[seat].choose(GAME, s, None, rng))
        out = GAME.outcome(s)
        assert out is not None
        wins += out.winner == (0 if g % 2 == 0 else 1)
    assert wins >= 10


def test_bridge_pairs_find_bridges_and_edge_templates() -> None:
    m = masks(5)
    bit = m.bit
    black = bit[1 * 5 + 1] | bit[2 * 5 + 2]  # b2 and c3: a bridge over b3/c2, and b2's template to the top
    empty = sum(bit) & ~black
    carriers, share = bridge_pairs(m, black, 0, empty, random.Random(1).random)
    pairs = [(bit[1 * 5 + 2], bit[2 * 5 + 1]), (bit[0 * 5 + 1], bit[0 * 5 + 2])]
    assert carriers == sum(a | b for a, b in pairs)
    for a, b in pairs:  # exactly one cell of each pair goes to Black
        assert (share & a == 0) != (share & b == 0)
    # A carrier already taken breaks the pattern.
    carriers, _ = bridge_pairs(m, black, bit[1 * 5 + 2], empty & ~bit[1 * 5 + 2], random.Random(1).random)
    assert carriers == pairs[1][0] | pairs[1][1]


def test_bridge_aware_rollouts_beat_plain_ones_at_equal_iterations() -> None:
    rng = random.Random(7)
    smart, plain = MctsHexBot(iterations=200), MctsHexBot(iterations=200, bridges=False)
    wins = 0
    for g in range(8):
        seats = (smart, plain) if g % 2 == 0 else (plain, smart)
        s = GAME.play(GAME.new(size=6, swap=False), GAME.random_move(GAME.new(size=6, swap=False), rng))
        while (seat := GAME.to_move(s)) is not None:
            s = GAME.play(s, seats[seat].choose(GAME, s, None, rng))
        out = GAME.outcome(s)
        assert out is not None and out.winner is not None
        wins += seats[out.winner] is smart
    assert wins >= 6
