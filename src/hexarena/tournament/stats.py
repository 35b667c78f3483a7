"""Match statistics: Elo from scores with 95% error bars, LOS, draw ratio, and the SPRT that fishtest uses.

Everything here is a pure function of result counts, so it can be checked against published values (cutechess'
``Elo difference: 50.1 +/- 24.4, LOS: 100.0 %``, fastchess' and fishtest's LLRs) and reused by the runner, the
report and the API.

Two ways to count results:

* **trinomial**: games, as (wins, draws, losses) of the first player;
* **pentanomial**: *pairs* of games played on the same opening with colours swapped, counted by the pair's
  total score: ``[LL, LD, WL+DD, WD, WW]`` (0, 0.5, 1, 1.5, 2 points). Pairs cancel most of the opening's bias
  and give a smaller, more honest variance, which is why fishtest and fastchess prefer them.

SPRT (sequential probability ratio test): after every result, compare the generalized log-likelihood ratio
(GSPRT, fishtest's ``LLRcalc``) of H1 (``elo = elo1``) against H0 (``elo = elo0``) with the bounds
``ln(beta / (1 - alpha))`` and ``ln((1 - beta) / alpha)``; stop as soon as it leaves them. Two Elo models:

* ``logistic``: classic Elo, score = 1 / (1 + 10^(-elo/400)); the hypotheses fix the expected score;
* ``normalized`` (fishtest's default since 2020): Elo measured in units of the result's standard deviation, so
  a hypothesis means the same effort whatever the draw rate; the hypotheses fix the t-value
  ``(score - 1/2) / sigma``. nElo = t * 800 / ln(10) (per game; pentanomial t-values are scaled by sqrt 2).

Zero counts are regularized with 1e-3 as fishtest does, so a lopsided match still has a finite LLR.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Literal, TypedDict

from hexarena.core.elo import elo_to_score, elo_update
from hexarena.core.jsonvalue import JsonObject

#: Two-sided 95% quantile of the standard normal distribution (cutechess' phiInv(0.975)).
Z95 = 1.959963984540054
#: normalized Elo per unit of t-value (fishtest's ``nelo_divided_by_nt``).
NELO_PER_T = 800.0 / math.log(10.0)

EloModel = Literal["logistic", "normalized"]
MODELS: tuple[str, ...] = ("logistic", "normalized")


# ----- Elo <-> score --------------------------------------------------------------------------------------


def score_to_elo(score: float) -> float:
    """Elo difference for an expected score in (0, 1); +-inf at the ends."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def phi(x: float) -> float:
    """Standard normal cumulative distribution."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


# ----- estimates ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference with its 95% error bar, as cutechess/fastchess print it.

    ``error`` is half the width of the 95% interval on the Elo scale (the interval is not symmetric around
    ``elo``: ``lower``/``upper`` are exact); ``los`` is the likelihood of superiority in [0, 1].
    """

    elo: float
    error: float
    lower: float
    upper: float
    los: float
    draw_ratio: float
    score: float
    games: int
    nelo: float = 0.0
    nelo_error: float = 0.0

    def to_json(self) -> JsonObject:
        return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in asdict(self).items()}

    def __str__(self) -> str:
        return (
            f"Elo {self.elo:.1f} +/- {self.error:.1f}, LOS {self.los * 100:.1f} %, "
            f"draw ratio {self.draw_ratio * 100:.1f} %"
        )


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses (draws carry no information), in [0, 1]."""
    if wins + losses == 0:
        return 0.5
    return 0.5 + 0.5 * math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))


def draw_ratio(wins: int, draws: int, losses: int) -> float:
    n = wins + draws + losses
    return draws / n if n else 0.0


def _interval(mean: float, var_of_mean: float) -> tuple[float, float, float, float]:
    """Elo, error, lower, upper for a score with the given variance of the mean."""
    sd = math.sqrt(max(var_of_mean, 0.0))
    lo, hi = score_to_elo(mean - Z95 * sd), score_to_elo(mean + Z95 * sd)
    return score_to_elo(mean), (hi - lo) / 2.0, lo, hi


def trinomial_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo of the first player from game results, with cutechess' 95% error bar and LOS."""
    _check_counts((wins, draws, losses))
    n = wins + draws + losses
    if n == 0:
        return EloEstimate(0.0, math.inf, -math.inf, math.inf, 0.5, 0.0, 0.5, 0)
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / n
    elo, err, lo, hi = _interval(score, var / n)
    nelo, nerr = _nelo(score, var, n)
    return EloEstimate(elo, err, lo, hi, los(wins, losses), draw_ratio(wins, draws, losses), score, n, nelo, nerr)


def pentanomial_elo(pairs: Sequence[int]) -> EloEstimate:
    """Elo of the first player from pair results ``[LL, LD, WL+DD, WD, WW]`` (fastchess' pentanomial model).

    LOS is the normal approximation ``Phi((score - 1/2) / sd)``. The draw ratio counts only the draws the
    pairs prove (one in each LD and WD pair): WL and DD share a bucket, so DD's two draws can't be told apart
    and are not counted; use :func:`trinomial_elo` on the games for an exact draw ratio.
    """
    counts = list(pairs)
    if len(counts) != 5:
        raise ValueError(f"pentanomial results need 5 counts [LL, LD, WL+DD, WD, WW], got {counts!r}")
    _check_counts(counts)
    n = sum(counts)
    if n == 0:
        return EloEstimate(0.0, math.inf, -math.inf, math.inf, 0.5, 0.0, 0.5, 0)
    values = (0.0, 0.25, 0.5, 0.75, 1.0)
    score = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    var = sum(c * (v - score) ** 2 for v, c in zip(values, counts, strict=True)) / n
    elo, err, lo, hi = _interval(score, var / n)
    sd = math.sqrt(var / n)
    if sd > 0:
        los_value = phi((score - 0.5) / sd)
    else:
        los_value = 0.5 if score == 0.5 else float(score > 0.5)
    draws = counts[1] + counts[3]
    nelo, nerr = _nelo(score, 2.0 * var, 2 * n)
    return EloEstimate(elo, err, lo, hi, los_value, draws / (2 * n), score, 2 * n, nelo, nerr)


def _nelo(score: float, var_per_game: float, games: int) -> tuple[float, float]:
    """Normalized Elo and its 95% error (both 0 when the variance is 0)."""
    if var_per_game <= 0 or games == 0:
        return 0.0, 0.0
    sd = math.sqrt(var_per_game)
    return (score - 0.5) / sd * NELO_PER_T, Z95 * NELO_PER_T / math.sqrt(games)


def pair_index(first: float, second: float) -> int:
    """Where a pair of game scores (each 0, 0.5 or 1, same player's view) goes in ``[LL, LD, WL+DD, WD, WW]``."""
    total = first + second
    index = round(total * 2)
    if not 0 <= index <= 4 or abs(index - total * 2) > 1e-9:
        raise ValueError(f"pair scores must be 0, 0.5 or 1 each, got {first!r} and {second!r}")
    return index


# ----- SPRT -----------------------------------------------------------------------------------------------


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 below ``ln(beta / (1 - alpha))``, H1 above ``ln((1 - beta) / alpha)``."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta must be in (0, 1), got alpha={alpha!r}, beta={beta!r}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _regularize(results: Sequence[float]) -> list[float]:
    return [r if r > 0 else 1e-3 for r in results]


def _pdf(results: Sequence[float]) -> tuple[float, list[tuple[float, float]]]:
    res = _regularize(results)
    n = sum(res)
    k = len(res) - 1
    return n, [(i / k, r / n) for i, r in enumerate(res)]


def _mean_var(pdf: Sequence[tuple[float, float]]) -> tuple[float, float]:
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def _secular(pdf: Sequence[tuple[float, float]]) -> float:
    """Solve sum_i p_i a_i / (1 + x a_i) = 0 for x in (-1/max a, -1/min a); the sum is decreasing in x."""
    values = [a for a, _ in pdf]
    v, w = min(values), max(values)
    if not v < 0 < w:
        raise ValueError("the hypothesis lies outside the observed results; no MLE exists")
    lo, hi = -1.0 / w + 1e-12, -1.0 / v - 1e-12

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in pdf)

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return (lo + hi) / 2.0


def _mle_expected(pdf: Sequence[tuple[float, float]], s: float) -> list[tuple[float, float]]:
    """Most likely distribution with mean ``s`` given the observed ``pdf`` (fishtest's MLE_expected)."""
    x = _secular([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def _mle_t_value(pdf: Sequence[tuple[float, float]], ref: float, t: float) -> list[tuple[float, float]]:
    """Most likely distribution with t-value ``(mean - ref) / sd == t`` (fishtest's MLE_t_value, fixed point)."""
    n = len(pdf)
    mle = [(a, 1.0 / n) for a, _ in pdf]
    for _ in range(10):
        previous = mle
        mu, var = _mean_var(mle)
        sigma = math.sqrt(var)
        shifted = [(a - ref - t * sigma * (1 + ((mu - a) / sigma) ** 2) / 2, p) for a, p in pdf]
        x = _secular(shifted)
        mle = [(pdf[i][0], pdf[i][1] / (1.0 + x * shifted[i][0])) for i in range(n)]
        if max(abs(previous[i][1] - mle[i][1]) for i in range(n)) < 1e-9:
            break
    return mle


def sprt_llr(results: Sequence[float], elo0: float, elo1: float, model: EloModel = "normalized") -> float:
    """Generalized log-likelihood ratio of H1 (elo1) against H0 (elo0) for ``results``.

    ``results`` is ``[L, D, W]`` (trinomial, games) or ``[LL, LD, WL+DD, WD, WW]`` (pentanomial, pairs), of the
    player under test. ``model`` is ``logistic`` or ``normalized`` Elo (see the module docstring).
    """
    counts = list(results)
    if len(counts) not in (3, 5):
        raise ValueError(f"results need 3 (L, D, W) or 5 (pentanomial) counts, got {counts!r}")
    _check_counts(counts)
    if sum(counts) == 0:
        return 0.0
    n, pdf = _pdf(counts)
    if model == "logistic":
        s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
        p0, p1 = _mle_expected(pdf, s0), _mle_expected(pdf, s1)
    elif model == "normalized":
        scale = math.sqrt(2.0) if len(counts) == 5 else 1.0
        t0, t1 = elo0 / NELO_PER_T * scale, elo1 / NELO_PER_T * scale
        p0, p1 = _mle_t_value(pdf, 0.5, t0), _mle_t_value(pdf, 0.5, t1)
    else:
        raise ValueError(f"unknown Elo model {model!r}; use one of {', '.join(MODELS)}")
    per_result = sum(p * (math.log(p1[i][1]) - math.log(p0[i][1])) for i, (_, p) in enumerate(pdf))
    return n * per_result


class SprtJson(TypedDict, total=False):
    """An SPRT's settings as JSON (a tournament's config, an API body): any of :class:`SprtConfig`'s fields, the
    others taking its defaults; :meth:`SprtConfig.to_json` gives them all."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: EloModel


class SprtStateJson(TypedDict):
    """:class:`SprtState` as JSON (a tournament's saved state)."""

    llr: float
    lower: float
    upper: float
    decision: str | None


@dataclass(frozen=True, slots=True)
class SprtConfig:
    """An SPRT: H0 ``elo <= elo0`` against H1 ``elo >= elo1`` with error rates alpha (false H1) and beta."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: EloModel = "normalized"

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT needs elo1 > elo0, got elo0={self.elo0!r}, elo1={self.elo1!r}")
        sprt_bounds(self.alpha, self.beta)
        if self.model not in MODELS:
            raise ValueError(f"unknown Elo model {self.model!r}; use one of {', '.join(MODELS)}")

    def to_json(self) -> SprtJson:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta, "model": self.model}


@dataclass(frozen=True, slots=True)
class SprtState:
    """Where an SPRT stands: its LLR, bounds and decision (``H0``, ``H1`` or None while it continues)."""

    llr: float
    lower: float
    upper: float
    decision: str | None

    def to_json(self) -> SprtStateJson:
        return {"llr": self.llr, "lower": self.lower, "upper": self.upper, "decision": self.decision}


def sprt_status(results: Sequence[float], config: SprtConfig) -> SprtState:
    """Evaluate an SPRT on the results so far."""
    lower, upper = sprt_bounds(config.alpha, config.beta)
    llr = sprt_llr(results, config.elo0, config.elo1, config.model)
    decision = "H1" if llr >= upper else "H0" if llr <= lower else None
    return SprtState(llr, lower, upper, decision)


# ----- persistent ratings -----------------------------------------------------------------------------------


def _check_counts(counts: Sequence[float]) -> None:
    for c in counts:
        if c < 0:
            raise ValueError(f"result counts must be non-negative, got {list(counts)!r}")


__all__ = [
    "MODELS",
    "NELO_PER_T",
    "Z95",
    "EloEstimate",
    "EloModel",
    "SprtConfig",
    "SprtState",
    "draw_ratio",
    "elo_to_score",
    "elo_update",
    "los",
    "pair_index",
    "pentanomial_elo",
    "phi",
    "score_to_elo",
    "sprt_bounds",
    "sprt_llr",
    "sprt_status",
    "trinomial_elo",
]
