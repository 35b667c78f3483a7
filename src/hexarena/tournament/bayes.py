"""Bayesian ratings of a whole tournament field: finite for every result, with a 95% interval (pure).

Why: an Elo estimated from a player's score alone is infinite at 100 % or 0 % (a 6-0 gives ``+inf`` and no error
bar), and says nothing about whom the points were taken from. Like BayesElo and Ordo, this fits one logistic
(Bradley-Terry) model to every game at once, so beating a strong player counts for more than beating a weak one,
and adds a prior: each player is given ``prior`` virtual draws against a virtual opponent rated 0 (BayesElo's
default is 2). The prior keeps every rating finite and anchors the scale (the field's ratings centre near 0); it
weighs little once a player has played more than a handful of games.

The ratings are the maximum a posteriori, found by Newton's method (the log posterior is strictly concave thanks
to the prior, so it converges from 0 in a few steps). The interval is the Laplace approximation: the posterior's
curvature at the maximum gives the ratings' covariance, and ``lower``/``upper`` are 1.96 standard deviations away.
Ratings and intervals are relative to the field's mean, as Ordo gives them: the prior fixes the field's common
level only loosely, and what a rating says is how a player compares with the others.
Draws count as half a win and half a loss, as in Ordo.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hexarena.core.jsonvalue import JsonObject

#: Elo points per natural-log unit of the odds: P(win) = 1 / (1 + 10^(-d/400)) = logistic(d * ln(10) / 400).
ELO_PER_NAT = 400.0 / math.log(10.0)
#: Virtual draws each player gets against a player rated 0 (BayesElo's default prior).
DEFAULT_PRIOR = 2.0
Z95 = 1.959963984540054
_STEPS = 100
_TOLERANCE = 1e-10


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in Elo points with its 95% interval (``error`` is half the interval's width)."""

    elo: float
    error: float
    lower: float
    upper: float
    games: int

    def to_json(self) -> JsonObject:
        return {"elo": self.elo, "error": self.error, "lower": self.lower, "upper": self.upper, "games": self.games}


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` (symmetric positive definite here) by Gaussian elimination with pivoting."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        for r in range(col + 1, n):
            f = a[r][col] / p
            if f:
                row, top = a[r], a[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse by Gauss-Jordan elimination with partial pivoting."""
    n = len(matrix)
    a = [[*row, *(1.0 if c == r else 0.0 for c in range(n))] for r, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        top = a[col]
        p = top[col]
        for c in range(2 * n):
            top[c] /= p
        for r in range(n):
            f = a[r][col]
            if r != col and f:
                row = a[r]
                for c in range(col, 2 * n):
                    row[c] -= f * top[c]
    return [row[n:] for row in a]


def _centred_variances(matrix: list[list[float]]) -> list[float]:
    """Variance of each player's rating less the field's mean, given the posterior's precision ``matrix``.

    The covariance is the precision's inverse ``C``; a rating relative to the mean is ``P r`` with the centring
    matrix ``P = I - 11'/n``, whose variance is ``(P C P)_ii = C_ii - 2 mean_j C_ij + mean_jk C_jk``. Relative
    to the field is how ratings are read (and what the prior pins only weakly: the field's common level).
    """
    n = len(matrix)
    columns = _inverse(matrix)
    row_means = [sum(col) / n for col in columns]  # C is symmetric: a column's mean is the row's
    grand = sum(row_means) / n
    return [columns[i][i] - 2.0 * row_means[i] + grand for i in range(n)]


def bayes_ratings(
    players: int, results: Sequence[tuple[int, int, float]], prior: float = DEFAULT_PRIOR
) -> list[Rating]:
    """Ratings of ``players`` players from ``results``: ``(a, b, score of a)`` per game, score 1, 0.5 or 0."""
    if prior <= 0:
        raise ValueError(f"the prior must be a positive number of virtual draws, got {prior!r}")
    for a, b, s in results:
        if not (0 <= a < players and 0 <= b < players) or a == b or s not in (0.0, 0.5, 1.0):
            raise ValueError(f"not a game between two of {players} players with a score of 1, 0.5 or 0: {(a, b, s)!r}")
    games = [0] * players
    for a, b, _ in results:
        games[a] += 1
        games[b] += 1
    r = [0.0] * players
    hessian: list[list[float]] = []
    for _ in range(_STEPS):
        gradient = [0.0] * players
        hessian = [[0.0] * players for _ in range(players)]
        for i in range(players):  # the prior: `prior` draws against a player rated 0
            p = _sigmoid(r[i])
            gradient[i] += prior * (0.5 - p)
            hessian[i][i] += prior * p * (1.0 - p)
        for a, b, s in results:
            p = _sigmoid(r[a] - r[b])
            w = p * (1.0 - p)
            gradient[a] += s - p
            gradient[b] -= s - p
            hessian[a][a] += w
            hessian[b][b] += w
            hessian[a][b] -= w
            hessian[b][a] -= w
        step = _solve(hessian, gradient)  # Newton: the curvature is -hessian, so r += hessian^-1 gradient
        r = [x + d for x, d in zip(r, step, strict=True)]
        if max((abs(d) for d in step), default=0.0) < _TOLERANCE:
            break
    variances = _centred_variances(hessian) if players else []
    mean = sum(r) / players if players else 0.0
    out = []
    for i in range(players):
        elo = (r[i] - mean) * ELO_PER_NAT
        error = Z95 * math.sqrt(max(variances[i], 0.0)) * ELO_PER_NAT
        out.append(Rating(elo, error, elo - error, elo + error, games[i]))
    return out


__all__ = ["DEFAULT_PRIOR", "Rating", "bayes_ratings"]
