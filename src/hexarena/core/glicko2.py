"""The Glicko-2 rating system (Glickman, "Example of the Glicko-2 system", 2013): the persistent leaderboard's.

A player is a rating, a deviation (RD: how unsure the rating is) and a volatility (sigma: how erratic the player's
results are). Elo has only the first, so a newcomer's first games and a veteran's 500th moved it alike; Glicko-2
moves an unsure rating a lot and a settled one little, and the deviation says which is which (the leaderboard shows
it, and calls a player with a deviation of :data:`PROVISIONAL_RD` or more provisional, as lichess does).

Like lichess, every game is its own rating period: each player is rated after each game against the opponent's
rating *before* that game, so the order of games matters and a result is never waiting for a period to close.
Between games the deviation grows with the whole days the player sat idle (:func:`idle`), so a bot that has not played
for months is unsure again.

Pure: no IO, no clock (the caller says how many periods passed). Every loop is bounded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: A newcomer: Glickman's defaults (the scale Elo used too, so an Elo rating reads as a Glicko-2 one).
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_SIGMA = 0.06

#: The system constant: how much the volatility may change per period. Glickman suggests 0.3 to 1.2 (smaller:
#: volatility changes slower); 0.5 is the value of his worked example.
TAU = 0.5

#: A deviation of this or more marks the rating provisional (lichess's threshold): the rating is still a guess.
PROVISIONAL_RD = 110.0

#: The deviation never grows past a newcomer's, however long a player sat idle.
MAX_RD = DEFAULT_RD

#: Rating periods per idle day, as lichess: a settled deviation of 60 grows back to 110 in about a year.
PERIODS_PER_DAY = 0.21436

#: Glicko-2's internal scale: ``mu = (rating - 1500) / SCALE`` (173.7178 = 400 / ln 10).
SCALE = 400.0 / math.log(10.0)

#: Convergence tolerance of the volatility iteration (Glickman's epsilon), and its bound on iterations.
EPSILON = 1e-6
MAX_ITERATIONS = 100


@dataclass(frozen=True, slots=True)
class Glicko:
    """One player's standing: rating, deviation (RD) and volatility (sigma)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    sigma: float = DEFAULT_SIGMA

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rd)


def is_provisional(rd: float) -> bool:
    """Whether a rating with deviation ``rd`` is still provisional (lichess: ``deviation >= 110``)."""
    return rd >= PROVISIONAL_RD


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois variant of regula falsi (bounded)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < MAX_ITERATIONS:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """``player`` after one rating period of ``results``: (opponent as before the period, score 1, 0.5 or 0).

    No results: only the deviation grows (:func:`idle` for one period)."""
    if not results:
        return idle(player, 1.0)
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    inv_v = 0.0
    gain = 0.0
    for opponent, score in results:
        g_j = _g(opponent.rd / SCALE)
        e_j = _expected(mu, (opponent.rating - DEFAULT_RATING) / SCALE, g_j)
        inv_v += g_j * g_j * e_j * (1.0 - e_j)
        gain += g_j * (score - e_j)
    v = 1.0 / inv_v
    sigma = _volatility(phi, player.sigma, v * gain, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Glicko(rating=new_mu * SCALE + DEFAULT_RATING, rd=min(new_phi * SCALE, MAX_RD), sigma=sigma)


def rate_game(first: Glicko, second: Glicko, score_first: float, tau: float = TAU) -> tuple[Glicko, Glicko]:
    """Both players after one game in which ``first`` scored ``score_first`` (1, 0.5 or 0): each rated against
    the other as they stood before it (a game is a rating period, as on lichess)."""
    return rate(first, [(second, score_first)], tau), rate(second, [(first, 1.0 - score_first)], tau)


def idle(player: Glicko, periods: float) -> Glicko:
    """``player`` after ``periods`` rating periods without a game: the deviation grows by the volatility each
    period (the paper's step 6 with no games), never past :data:`MAX_RD`; rating and volatility stay."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    grown = math.sqrt(phi * phi + periods * player.sigma * player.sigma) * SCALE
    return Glicko(player.rating, min(grown, MAX_RD), player.sigma)


def idle_periods(days: float) -> float:
    """Rating periods in ``days`` idle days, counted in whole days: games of one sitting rate the same whatever
    the seconds between them (and the same in one batch as one by one), and a negative span (a result stamped
    before the last one) is no time at all."""
    return max(math.floor(days), 0) * PERIODS_PER_DAY


__all__ = [
    "DEFAULT_RATING",
    "DEFAULT_RD",
    "DEFAULT_SIGMA",
    "PROVISIONAL_RD",
    "SCALE",
    "TAU",
    "Glicko",
    "idle",
    "idle_periods",
    "is_provisional",
    "rate",
    "rate_game",
]
