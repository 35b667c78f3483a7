"""Statistics against published values: cutechess' Elo output and fastchess' SPRT test cases."""

from __future__ import annotations

import math

import pytest

from hexarena.tournament.stats import (
    SprtConfig,
    draw_ratio,
    elo_to_score,
    elo_update,
    los,
    pair_index,
    pentanomial_elo,
    score_to_elo,
    sprt_bounds,
    sprt_llr,
    sprt_status,
    trinomial_elo,
)

# cutechess-cli output lines "Score of A vs B: W - L - D" / "Elo difference: E +/- M, LOS: x %, DrawRatio: y %"
# as published in a public engine's README. The margin is checked to 0.1: cutechess' phiInv is an
# approximation of the normal quantile, ours is exact.
CUTECHESS = [
    ((187, 117, 185), 50.1, 24.4, 100.0, 37.8),
    ((287, 335, 378), -16.7, 17.0, 2.7, 37.8),
    ((331, 275, 394), 19.5, 16.8, 98.9, 39.4),
    ((364, 209, 427), 54.3, 16.3, 100.0, 42.7),
]


@pytest.mark.parametrize(("wld", "elo", "margin", "los_pct", "draws_pct"), CUTECHESS)
def test_trinomial_elo_matches_cutechess(
    wld: tuple[int, int, int], elo: float, margin: float, los_pct: float, draws_pct: float
) -> None:
    w, lose, d = wld
    e = trinomial_elo(w, d, lose)
    assert e.elo == pytest.approx(elo, abs=0.05)
    assert e.error == pytest.approx(margin, abs=0.1)
    assert e.los * 100 == pytest.approx(los_pct, abs=0.05)
    assert e.draw_ratio * 100 == pytest.approx(draws_pct, abs=0.05)
    assert e.lower < e.elo < e.upper
    assert e.games == w + d + lose


# fastchess' SPRT test cases: Stats(wins, losses, draws) or pentanomial Stats(LL, LD, WL, DD, WD, WW);
# SPRT(alpha, beta, elo0, elo1, model) -> LLR to 1% relative.
TRINOMIAL_LLR = [
    ((36433, 36027, 68692), 0, 2, "normalized", 0.92),
    ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    ((4250, 0, 0), 0, 10, "normalized", 120.56),
    ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    ((57433, 57030, 106593), 0, 2, "logistic", -2.59),
]
PENTANOMIAL_LLR = [
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]


@pytest.mark.parametrize(("wld", "elo0", "elo1", "model", "expected"), TRINOMIAL_LLR)
def test_trinomial_llr_matches_fastchess(
    wld: tuple[int, int, int], elo0: float, elo1: float, model: str, expected: float
) -> None:
    w, lose, d = wld
    assert sprt_llr([lose, d, w], elo0, elo1, model) == pytest.approx(expected, rel=0.01, abs=0.006)  # type: ignore[arg-type]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "model", "expected"), PENTANOMIAL_LLR)
def test_pentanomial_llr_matches_fastchess(
    counts: tuple[int, ...], elo0: float, elo1: float, model: str, expected: float
) -> None:
    ll, ld, wl, dd, wd, ww = counts
    assert sprt_llr([ll, ld, wl + dd, wd, ww], elo0, elo1, model) == pytest.approx(expected, rel=0.01, abs=0.006)  # type: ignore[arg-type]


def test_sprt_bounds_are_walds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3)
    assert upper == pytest.approx(2.944, abs=1e-3)
    lower, upper = sprt_bounds(0.05, 0.1)
    assert lower == pytest.approx(math.log(0.1 / 0.95))
    assert upper == pytest.approx(math.log(0.9 / 0.05))
    with pytest.raises(ValueError, match="alpha"):
        sprt_bounds(0.0, 0.05)


def test_sprt_status_decides_both_ways() -> None:
    cfg = SprtConfig(elo0=0, elo1=10, alpha=0.05, beta=0.05, model="logistic")
    assert sprt_status([0, 0, 0], cfg).decision is None
    assert sprt_status([10, 10, 10, 10, 10], cfg).decision is None
    strong = sprt_status([50, 100, 400, 500, 300], cfg)  # clearly better
    assert strong.decision == "H1" and strong.llr > strong.upper
    weak = sprt_status([300, 500, 400, 100, 50], cfg)  # clearly worse
    assert weak.decision == "H0" and weak.llr < weak.lower
    with pytest.raises(ValueError, match="elo1 > elo0"):
        SprtConfig(elo0=5, elo1=0)
    with pytest.raises(ValueError, match="model"):
        SprtConfig(model="bayesian")  # type: ignore[arg-type]


def test_llr_is_antisymmetric_under_mirroring() -> None:
    """Seen from the other player (mirrored counts, negated Elo), H0 and H1 trade places: the LLR flips sign."""
    counts = [12, 30, 50, 41, 17]
    a = sprt_llr(counts, 0, 5, "normalized")
    b = sprt_llr(counts[::-1], -5, 0, "normalized")
    assert a == pytest.approx(-b, rel=1e-6)
    assert a != 0


def test_elo_score_roundtrip_and_edges() -> None:
    for elo in (-700.0, -100.0, 0.0, 35.5, 400.0):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf


def test_los_and_draw_ratio() -> None:
    assert los(10, 10) == 0.5
    assert los(0, 0) == 0.5
    assert los(30, 10) > 0.99 > 0.01 > los(10, 30)
    assert los(30, 10) + los(10, 30) == pytest.approx(1.0)
    assert draw_ratio(3, 2, 5) == pytest.approx(0.2)
    assert draw_ratio(0, 0, 0) == 0.0


def test_pentanomial_elo_matches_hand_computation() -> None:
    # 10 pairs: 1 LL, 2 LD, 3 (WL+DD), 3 WD, 1 WW -> scores 0, .25, .5, .75, 1 per game in the pair
    e = pentanomial_elo([1, 2, 3, 3, 1])
    score = (0 + 2 * 0.25 + 3 * 0.5 + 3 * 0.75 + 1) / 10
    var = (
        score**2 + 2 * (0.25 - score) ** 2 + 3 * (0.5 - score) ** 2 + 3 * (0.75 - score) ** 2 + (1 - score) ** 2
    ) / 10
    sd = math.sqrt(var / 10)
    assert e.score == pytest.approx(score)
    assert e.elo == pytest.approx(score_to_elo(score))
    hi, lo = score_to_elo(score + 1.959963984540054 * sd), score_to_elo(score - 1.959963984540054 * sd)
    assert e.error == pytest.approx((hi - lo) / 2)
    assert e.games == 20
    assert e.draw_ratio == pytest.approx(5 / 20)
    with pytest.raises(ValueError, match="5 counts"):
        pentanomial_elo([1, 2, 3])


def test_pentanomial_error_is_smaller_for_correlated_pairs() -> None:
    """Pairs that split 1-1 (opening bias) are less noisy than the same games counted one by one."""
    penta = pentanomial_elo([0, 0, 100, 0, 0])  # 100 pairs of W+L
    tri = trinomial_elo(100, 0, 100)
    assert penta.elo == pytest.approx(tri.elo) == pytest.approx(0.0)
    assert penta.error < tri.error


def test_pair_index() -> None:
    assert pair_index(0, 0) == 0
    assert pair_index(0.5, 0) == 1
    assert pair_index(1, 0) == pair_index(0.5, 0.5) == 2
    assert pair_index(1, 0.5) == 3
    assert pair_index(1, 1) == 4
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        pair_index(0.3, 1)


def test_elo_update_is_zero_sum_and_moves_toward_result() -> None:
    a, b = elo_update(1500, 1500, 1.0, k=24)
    assert (a, b) == (1512.0, 1488.0)
    a, b = elo_update(1800, 1400, 0.5)
    assert a < 1800 and b > 1400 and a + b == pytest.approx(3200)
