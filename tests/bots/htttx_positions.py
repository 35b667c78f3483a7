"""Random HTTTX positions for the search engine's tests: games of random turns near the stones, so lines form."""

from __future__ import annotations

import random
from typing import Any

from hexarena.games.htttx import HTTTX
from hexarena.games.htttx.openings import random_turns


def random_position(rng: random.Random, most: int = 14, least: int = 0) -> Any:
    """A game of ``least``..``most`` random turns near the stones, stopped before it is won."""
    return random_turns(HTTTX.new(), rng, rng.randint(least, most))


Stones = list[tuple[int, int, int]]


def middle_games(count: int, seed: int) -> list[tuple[Stones, int]]:
    """``count`` middle-game positions (stones, seat to move): heuristic turns mixed with random ones near stones,
    6-24 turns, none already won and none where the side to move completes a line at once (nothing to search).
    ``bench/htttx_search_ab.py`` measures the search on them too."""
    from hexarena.bots.htttx.heuristic import choose_on_board, winning_move

    rng = random.Random(seed)
    out: list[tuple[Stones, int]] = []
    while len(out) < count:
        state = HTTTX.new()
        turns = rng.randint(6, 24)
        for _ in range(turns):
            board = state.board()
            seat = state.to_move_seat
            assert seat is not None
            if rng.random() < 0.6:
                move = choose_on_board(board, seat)
            else:
                cells = sorted(board.legal_cells())
                near = [
                    c
                    for c in cells
                    if any(max(abs(c[0] - q), abs(c[1] - r), abs(c[0] + c[1] - q - r)) <= 2 for q, r in board.cells)
                ]
                a, b = rng.sample(near or cells, 2)
                move = (a, b)
            nxt = HTTTX.play(state, move)
            if nxt.is_over:
                break
            state = nxt
        seat = state.to_move_seat
        if state.is_over or seat is None or len(state.stones) < 8 or winning_move(state.board(), seat) is not None:
            continue
        out.append((list(state.stones), seat))
    return out
