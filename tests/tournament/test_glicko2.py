"""Glicko-2 (``hexarena.core.glicko2``) against Glickman's worked example and its own invariants."""

from __future__ import annotations

import pytest

from hexarena.core.glicko2 import (
    DEFAULT_RD,
    PROVISIONAL_RD,
    SCALE,
    Glicko,
    idle,
    idle_periods,
    rate,
    rate_game,
)


def test_glickmans_worked_example() -> None:
    """ "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30 (won), 1550/100 and 1700/300 (lost).

    The paper rounds its intermediate values to 4 decimals (mu' = -0.2069, phi' = 0.8722) before converting back,
    which gives its 1464.06 / 151.52; in full precision the rating is 1464.0507, so 1464.05 to 2 decimals."""
    after = rate(
        Glicko(1500.0, 200.0, 0.06),
        [(Glicko(1400.0, 30.0), 1.0), (Glicko(1550.0, 100.0), 0.0), (Glicko(1700.0, 300.0), 0.0)],
        tau=0.5,
    )
    mu, phi = (after.rating - 1500.0) / SCALE, after.rd / SCALE
    assert (round(mu, 4), round(phi, 4), round(after.sigma, 6)) == (-0.2069, 0.8722, 0.059996)  # paper: 0.05999
    assert round(SCALE * round(mu, 4) + 1500.0, 2) == 1464.06  # the paper's figure, from its rounded mu'
    assert round(SCALE * round(phi, 4), 2) == 151.52
    assert round(after.rating, 2) == 1464.05
    assert round(after.rd, 2) == 151.52


def test_one_game_moves_both_players_symmetrically_and_settles_the_deviation() -> None:
    a, b = rate_game(Glicko(), Glicko(), 1.0)
    assert a.rating > 1500.0 > b.rating
    assert a.rating - 1500.0 == pytest.approx(1500.0 - b.rating)
    assert a.rd == pytest.approx(b.rd) and a.rd < DEFAULT_RD
    draw_a, draw_b = rate_game(Glicko(1600.0, 80.0), Glicko(1400.0, 80.0), 0.5)
    assert draw_a.rating < 1600.0 and draw_b.rating > 1400.0  # a draw against a weaker player costs rating


def test_an_unsure_rating_moves_more_than_a_settled_one() -> None:
    newcomer, _ = rate_game(Glicko(1500.0, 350.0), Glicko(1500.0, 60.0), 1.0)
    veteran, _ = rate_game(Glicko(1500.0, 60.0), Glicko(1500.0, 60.0), 1.0)
    assert newcomer.rating - 1500.0 > 5 * (veteran.rating - 1500.0) > 0


def test_a_player_settles_below_the_provisional_threshold_after_some_games() -> None:
    player, opponent = Glicko(), Glicko(1500.0, 60.0)
    games = 0
    while player.rd >= PROVISIONAL_RD:
        player, _ = rate_game(player, opponent, games % 2)
        games += 1
        assert games < 50
    assert player.provisional is False and Glicko().provisional is True
    assert 5 <= games <= 20, games


def test_idle_time_grows_the_deviation_up_to_a_newcomers() -> None:
    settled = Glicko(1700.0, 60.0, 0.06)
    after_a_year = idle(settled, idle_periods(365.0))
    assert after_a_year.rating == 1700.0 and after_a_year.sigma == 0.06
    assert round(after_a_year.rd) == 110  # lichess's pace: 60 back to 110 in a year
    assert idle(settled, idle_periods(100_000.0)).rd == DEFAULT_RD
    assert idle(settled, idle_periods(-3.0)) == settled
    assert idle(settled, idle_periods(0.999)) == settled  # whole days: games of one sitting rate alike
    assert idle_periods(2.5) == idle_periods(2.0) > idle_periods(1.0) > 0
    assert rate(settled, []) == idle(settled, 1.0)
