"""Random HTTTX positions for the search engine's tests: games of random turns near the stones, so lines form."""

from __future__ import annotations

import random
from typing import Any

from hexarena.games.htttx import HTTTX


def random_position(rng: random.Random, most: int = 14, least: int = 0) -> Any:
    """A game of ``least``..``most`` random turns near the stones, stopped before it is won."""
    state = HTTTX.new()
    for _ in range(rng.randint(least, most)):
        board = state.board()
        near = sorted(
            c
            for c in board.legal_cells()
            if min(max(abs(c[0] - q), abs(c[1] - r), abs(c[0] + c[1] - q - r)) for q, r in board.cells) <= 2
        )
        a, b = rng.sample(near, 2)
        nxt = HTTTX.play(state, (a, b))
        if nxt.is_over:
            break
        state = nxt
    return state
