"""Positions of random Hive games on the C board, for the tests that hold the C code to the Python reference
(move generation in ``tests/games/hive``, the evaluation in ``tests/bots``)."""

from __future__ import annotations

import random

from hexarena.games.hive.board import CBoard

#: Every expansion set: each piece kind's rules run in some of them.
EXPANSIONS = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")


def walk(expansions: str, seed: int, games: int, plies: int) -> list[CBoard]:
    """Copies of every position of ``games`` random games (moves drawn from the sorted list, so the games do not
    depend on the generation order)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        b = CBoard(expansions)
        for _ in range(plies):
            out.append(b.copy())
            moves = sorted(b.moves())
            if not moves:
                break
            b.play(rng.choice(moves))
    return out
