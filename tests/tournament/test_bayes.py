"""Bayesian ratings of a tournament field: finite for every result, with an interval, in every place shown.

Issue 32: a 6-0 tournament printed ``+inf`` / ``-inf`` Elo and no error bar, and the HTML report drew both
players at 0.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from click.testing import CliRunner

from hexarena.cli import main
from hexarena.tournament.bayes import bayes_ratings
from hexarena.tournament.report import elo_plot
from hexarena.tournament.standings import standings


def _games(results: list[tuple[int, int, float]]) -> list[dict[str, object]]:
    """Runner-shaped games: ``(first seat, second seat, score of the first)``, each its own pair."""
    out = []
    for k, (a, b, s) in enumerate(results):
        winner = None if s == 0.5 else (0 if s == 1.0 else 1)
        out.append({"seats": [a, b], "pair": k, "result": {"winner": winner, "termination": "normal"}})
    return out


def test_a_perfect_score_has_a_finite_rating_and_interval() -> None:
    winner, loser = bayes_ratings(2, [(0, 1, 1.0)] * 6)
    for r in (winner, loser):
        assert all(math.isfinite(v) for v in (r.elo, r.error, r.lower, r.upper)) and r.error > 0
    assert winner.elo > 0 > loser.elo and winner.elo == -loser.elo
    assert winner.lower < winner.elo < winner.upper


def test_more_evidence_narrows_the_interval_and_moves_the_rating_further() -> None:
    six = bayes_ratings(2, [(0, 1, 1.0)] * 6)[0]
    sixty = bayes_ratings(2, [(0, 1, 1.0)] * 60)[0]
    assert sixty.elo > six.elo
    even = bayes_ratings(2, [(0, 1, 1.0), (0, 1, 0.0)] * 30)
    assert abs(even[0].elo) < 1e-9 and even[0].error < six.error


def test_whom_the_points_came_from_counts() -> None:
    # 0 beats 1 who beats 2 who beats 3: a chain, each link 3-1; 0 is ahead of 1, 1 of 2 and so on
    chain = [(i, i + 1, s) for i in range(3) for s in (1.0, 1.0, 1.0, 0.0)]
    ratings = bayes_ratings(4, chain)
    assert ratings[0].elo > ratings[1].elo > ratings[2].elo > ratings[3].elo
    assert abs(sum(r.elo for r in ratings)) < 1e-6  # relative to the field's mean


def test_bad_results_are_refused_with_what_was_wrong() -> None:
    for bad in ([(0, 0, 1.0)], [(0, 2, 1.0)], [(0, 1, 0.7)]):
        try:
            bayes_ratings(2, bad)
        except ValueError as e:
            assert "score of 1, 0.5 or 0" in str(e)
        else:
            raise AssertionError(f"accepted {bad}")


def test_standings_carry_a_finite_rating_for_every_player_with_games() -> None:
    rows = standings(["p", "r", "idle"], _games([(0, 1, 1.0), (1, 0, 0.0)] * 3))
    by_name = {r.name: r for r in rows}
    assert by_name["p"].rating is not None and by_name["r"].rating is not None
    assert by_name["p"].rating.elo > 0 > by_name["r"].rating.elo
    assert by_name["idle"].rating is None  # no games: nothing to say
    assert by_name["p"].elo is not None and by_name["p"].elo.elo == math.inf  # cutechess' estimate, still there


def test_the_report_draws_a_perfect_score_away_from_zero() -> None:
    rows = [r.to_json() for r in standings(["p", "r"], _games([(0, 1, 1.0)] * 6))]
    svg = elo_plot(rows)
    zero = float(re.search(r'<line x1="([\d.]+)" y1="5"', svg).group(1))  # type: ignore[union-attr]
    dots = [float(x) for x in re.findall(r'<circle cx="([\d.]+)"', svg)]
    assert dots[0] > zero > dots[1], (zero, dots)


def test_a_six_nil_tournament_prints_finite_ratings(tmp_path: Path) -> None:
    args = ["tournament", "run", "tictactoe", "p=builtin:perfect", "r=builtin:random", "--games", "6", "--no-store"]
    out = CliRunner().invoke(main, [*args, "--report", str(tmp_path / "r.html")], terminal_width=200)
    assert out.exit_code == 0, out.output
    assert "inf" not in out.output and "∞" not in (tmp_path / "r.html").read_text()
    row = next(line for line in out.output.splitlines() if " p " in line and "│" in line)
    cells = [c.strip() for c in row.split("│")]
    elo, margin = cells[9], cells[10]
    assert re.fullmatch(r"[+-]\d+", elo) and int(elo) > 0 and re.fullmatch(r"\d+", margin), row
