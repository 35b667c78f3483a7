"""Standings, crosstable, failure counts and Elo estimates from a tournament's finished games (pure).

Games are the runner's plain dicts: ``{"seats": [i, j], "pair": k, "result": {"winner", "termination",
"culprit"...} | None}``; players are indices into the tournament's player list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexarena.tournament.stats import EloEstimate, pair_index, pentanomial_elo, trinomial_elo

#: Terminations counted against the culprit, by the column they go in.
FAILURES = {"time": "timeouts", "illegal_move": "illegal", "protocol": "crashes", "disconnect": "crashes"}


@dataclass(slots=True)
class Row:
    """One player's line in the standings."""

    index: int
    name: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    timeouts: int = 0
    crashes: int = 0
    illegal: int = 0
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    elo: EloEstimate | None = None

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "name": self.name,
            "points": self.points,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "timeouts": self.timeouts,
            "crashes": self.crashes,
            "illegal": self.illegal,
            "score": self.score,
            "pentanomial": list(self.pairs),
            "elo": None if self.elo is None else self.elo.to_json(),
        }


def game_score(game: dict[str, Any], player: int) -> float | None:
    """Points ``player`` took from a finished game (1, 0.5, 0), None if unfinished or not theirs."""
    result = game.get("result")
    if result is None or player not in game["seats"]:
        return None
    seat = game["seats"].index(player)
    winner = result["winner"]
    if winner is None:
        return 0.5
    return 1.0 if winner == seat else 0.0


def finished(games: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [g for g in games if g.get("result") is not None]


def standings(
    names: Sequence[str], games: Sequence[dict[str, Any]], byes: Iterable[Sequence[int]] = (), bye_points: float = 0.0
) -> list[Row]:
    """Rows sorted best first (points, then Elo-vs-field score, then index).

    Each row's Elo is its performance against the field: pentanomial from its completed game pairs when it has
    any, else trinomial from its games.
    """
    rows = [Row(i, n) for i, n in enumerate(names)]
    for _, player in byes:
        rows[player].byes += 1
        rows[player].points += bye_points
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for g in finished(games):
        result = g["result"]
        for seat, player in enumerate(g["seats"]):
            row = rows[player]
            s = game_score(g, player)
            assert s is not None
            row.points += s
            row.games += 1
            if s == 1.0:
                row.wins += 1
            elif s == 0.5:
                row.draws += 1
            else:
                row.losses += 1
            column = FAILURES.get(result["termination"])
            if column and result.get("culprit") == seat:
                setattr(row, column, getattr(row, column) + 1)
        by_pair.setdefault(g["pair"], []).append(g)
    for pair in by_pair.values():
        if len(pair) != 2:
            continue
        for player in pair[0]["seats"]:
            a, b = game_score(pair[0], player), game_score(pair[1], player)
            if a is not None and b is not None:
                rows[player].pairs[pair_index(a, b)] += 1
    for row in rows:
        if sum(row.pairs):
            row.elo = pentanomial_elo(row.pairs)
        elif row.games:
            row.elo = trinomial_elo(row.wins, row.draws, row.losses)
    return sorted(rows, key=lambda r: (-r.points, -r.score, r.index))


def crosstable(n: int, games: Sequence[dict[str, Any]]) -> tuple[list[list[float]], list[list[int]]]:
    """(points[i][j], games[i][j]): what i scored against j, over how many games."""
    points = [[0.0] * n for _ in range(n)]
    played = [[0] * n for _ in range(n)]
    for g in finished(games):
        a, b = g["seats"]
        sa, sb = game_score(g, a), game_score(g, b)
        assert sa is not None and sb is not None
        points[a][b] += sa
        points[b][a] += sb
        played[a][b] += 1
        played[b][a] += 1
    return points, played


def head_to_head(games: Sequence[dict[str, Any]], player: int, opponent: int) -> tuple[list[int], list[int]]:
    """([L, D, W], pentanomial [LL, LD, WL+DD, WD, WW]) of ``player`` against ``opponent`` (SPRT input)."""
    tri = [0, 0, 0]
    penta = [0, 0, 0, 0, 0]
    by_pair: dict[int, list[float]] = {}
    for g in finished(games):
        if set(g["seats"]) != {player, opponent}:
            continue
        s = game_score(g, player)
        assert s is not None
        tri[int(s * 2)] += 1
        by_pair.setdefault(g["pair"], []).append(s)
    for scores in by_pair.values():
        if len(scores) == 2:
            penta[pair_index(scores[0], scores[1])] += 1
    return tri, penta


__all__ = ["FAILURES", "Row", "crosstable", "finished", "game_score", "head_to_head", "standings"]
