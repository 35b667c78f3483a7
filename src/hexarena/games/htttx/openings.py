"""Random HTTTX positions that look like games: each turn's two stones go near the stones already on the board,
not anywhere on the infinite plane. Self-play training, benchmarks and tests start from them, so they draw the
same positions from the same seed."""

from __future__ import annotations

import random

from hexarena.games.htttx.board import hex_distance
from hexarena.games.htttx.game import HTTTX
from hexarena.games.htttx.state import HtttxState

#: how far from every stone already played a random stone may go
NEAR = 2


def random_turns(state: HtttxState, rng: random.Random, turns: int) -> HtttxState:
    """``state`` after up to ``turns`` turns of two random cells within :data:`NEAR` of a stone, stopped before a
    turn that would end the game (a finished position is no start)."""
    for _ in range(turns):
        board = state.board()
        near = sorted(c for c in board.legal_cells() if min(hex_distance(*c, q, r) for q, r in board.cells) <= NEAR)
        first, second = rng.sample(near, 2)
        nxt = HTTTX.play(state, (first, second))
        if nxt.is_over:
            break
        state = nxt
    return state
