"""The classic Elo step, for tournament statistics (the persistent leaderboard rates with Glicko-2: ``glicko2``)."""

from __future__ import annotations

import math


def elo_to_score(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_update(rating_a: float, rating_b: float, score_a: float, k: float = 24.0) -> tuple[float, float]:
    """New ratings after one game in which A scored ``score_a`` (1, 0.5 or 0) against B: the classic Elo step."""
    expected = elo_to_score(rating_a - rating_b)
    delta = k * (score_a - expected)
    return rating_a + delta, rating_b - delta
