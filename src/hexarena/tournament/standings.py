"""Standings, crosstable, failure counts and Elo estimates from a tournament's finished games (pure).

Games are the runner's plain dicts (:class:`TournamentGame`, as its saved state holds them); players are indices
into the tournament's player list.

Only games that ended with a result count (:func:`hexarena.core.types.is_result`): a game that was aborted
(never really started), interrupted or ended by hexarena's own error says nothing about who plays better, so it
gives no points and stays out of games/W/D/L, Elo, pentanomial pairs, the crosstable and the SPRT input. Each
player's row counts such games in its own ``aborted`` column instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from hexarena.core.jsonvalue import JsonObject
from hexarena.core.types import Seat, is_result
from hexarena.tournament.bayes import Rating, bayes_ratings
from hexarena.tournament.stats import EloEstimate, pair_index, pentanomial_elo, trinomial_elo


class GameResult(TypedDict):
    """How a tournament game ended, as the runner keeps it in its state (a JSON column)."""

    winner: Seat | None
    termination: str
    reason: str
    culprit: Seat | None
    plies: int
    duration: float


class TournamentGame(TypedDict):
    """One scheduled game of a tournament, as the runner keeps it in its state (a JSON column)."""

    id: str
    index: int
    round: int
    pair: int  # the two games of a pair share an opening, with the seats swapped
    seats: list[int]  # player indices, seat 0 first
    opening: list[str]
    tiebreak: int  # 0, or the knockout tiebreak this game belongs to
    result: GameResult | None  # None until the game is over


class AbortedGame(TypedDict):
    """A game over without a result, as a tournament's summary lists it (``aborted_games``)."""

    id: str
    round: int
    players: list[str]
    termination: str
    reason: str


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
    aborted: int = 0  # scheduled games that ended without a result (aborted, interrupted, error)
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    elo: EloEstimate | None = None
    rating: Rating | None = None

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0

    def to_json(self) -> JsonObject:
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
            "aborted": self.aborted,
            "score": self.score,
            "pentanomial": list(self.pairs),
            "elo": None if self.elo is None else self.elo.to_json(),
            "rating": None if self.rating is None else self.rating.to_json(),
        }


def game_score(game: TournamentGame, player: int) -> float | None:
    """Points ``player`` took from a game (1, 0.5, 0); None if unfinished, not a result, or not theirs."""
    result = game.get("result")
    if result is None or not is_result(result["termination"]) or player not in game["seats"]:
        return None
    seat = game["seats"].index(player)
    winner = result["winner"]
    if winner is None:
        return 0.5
    return 1.0 if winner == seat else 0.0


def finished(games: Iterable[TournamentGame]) -> list[TournamentGame]:
    """Games that are over, whether or not they ended with a result."""
    return [g for g in games if g.get("result") is not None]


def played(games: Iterable[TournamentGame]) -> list[TournamentGame]:
    """Games that ended with a result (a win, a draw or a forfeit): the only ones that score."""
    return [g for g in games if (r := g.get("result")) is not None and is_result(r["termination"])]


def not_played(games: Iterable[TournamentGame]) -> list[TournamentGame]:
    """Games that are over without a result: aborted, interrupted, or ended by hexarena's own error."""
    return [g for g in games if (r := g.get("result")) is not None and not is_result(r["termination"])]


def by_reason(aborted_games: Iterable[AbortedGame]) -> list[tuple[str, str, list[str]]]:
    """Unplayed games (a summary's ``aborted_games``) grouped as (termination, reason, game ids), first seen first.

    A bot that is down aborts every game it has, all for the same reason: one line per reason keeps the list short.
    """
    groups: dict[tuple[str, str], list[str]] = {}
    for a in aborted_games:
        groups.setdefault((a["termination"], a["reason"]), []).append(a["id"])
    return [(termination, reason, ids) for (termination, reason), ids in groups.items()]


def standings(
    names: Sequence[str], games: Sequence[TournamentGame], byes: Iterable[Sequence[int]] = (), bye_points: float = 0.0
) -> list[Row]:
    """Rows sorted best first (points, then Elo-vs-field score, then index).

    Each row's ``rating`` is its Bayesian rating in the whole field (:mod:`hexarena.tournament.bayes`: finite for
    every result, with a 95% interval); its ``elo`` is cutechess' performance against the field (pentanomial from
    its completed game pairs when it has any, else trinomial from its games), infinite at a perfect or null score,
    kept for its likelihood of superiority. Games without a result only add to both players' ``aborted`` count; a
    pair with such a game is not a complete pair.
    """
    rows = [Row(i, n) for i, n in enumerate(names)]
    for _, player in byes:
        rows[player].byes += 1
        rows[player].points += bye_points
    for g in not_played(games):
        for player in g["seats"]:
            rows[player].aborted += 1
    by_pair: dict[int, list[TournamentGame]] = {}
    for g in played(games):
        result = g["result"]
        if result is None:  # pragma: no cover - played games have one
            continue
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
    results = []
    for g in played(games):
        a, b = g["seats"]
        s = game_score(g, a)
        assert s is not None
        results.append((a, b, s))
    for row, rating in zip(rows, bayes_ratings(len(rows), results), strict=True):
        row.rating = rating if row.games else None
    for row in rows:
        if sum(row.pairs):
            row.elo = pentanomial_elo(row.pairs)
        elif row.games:
            row.elo = trinomial_elo(row.wins, row.draws, row.losses)
    return sorted(rows, key=lambda r: (-r.points, -r.score, r.index))


def crosstable(n: int, games: Sequence[TournamentGame]) -> tuple[list[list[float]], list[list[int]]]:
    """(points[i][j], games[i][j]): what i scored against j, over how many games (with a result)."""
    points = [[0.0] * n for _ in range(n)]
    count = [[0] * n for _ in range(n)]
    for g in played(games):
        a, b = g["seats"]
        sa, sb = game_score(g, a), game_score(g, b)
        assert sa is not None and sb is not None
        points[a][b] += sa
        points[b][a] += sb
        count[a][b] += 1
        count[b][a] += 1
    return points, count


def head_to_head(games: Sequence[TournamentGame], player: int, opponent: int) -> tuple[list[int], list[int]]:
    """([L, D, W], pentanomial [LL, LD, WL+DD, WD, WW]) of ``player`` against ``opponent`` (SPRT input).

    Only games with a result; a pair with an unplayed game gives no pentanomial entry.
    """
    tri = [0, 0, 0]
    penta = [0, 0, 0, 0, 0]
    by_pair: dict[int, list[float]] = {}
    for g in played(games):
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


__all__ = [
    "FAILURES",
    "Row",
    "by_reason",
    "crosstable",
    "finished",
    "game_score",
    "head_to_head",
    "not_played",
    "played",
    "standings",
]
