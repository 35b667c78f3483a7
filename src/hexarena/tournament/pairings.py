"""Who plays whom: round robin, gauntlet, Swiss and knockout pairings, and the games of each pairing.

Pure functions of the players (indices ``0..n-1``, index order = seeding) and of the results so far, so that a
resumed tournament recomputes exactly the same schedule. A *pairing* ``(a, b)`` is played as game pairs: the
same opening twice with colours swapped (``a`` first, then ``b`` first), which cancels the opening's bias and
gives the pentanomial statistics their pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

FORMATS: tuple[str, ...] = ("roundrobin", "gauntlet", "swiss", "knockout")

#: Extra game pairs a tied knockout pairing may play before the better seed goes through.
MAX_TIEBREAK_PAIRS = 3


@dataclass(frozen=True, slots=True)
class Encounter:
    """One pairing to schedule in a round: ``pairs`` game pairs between players ``a`` and ``b``.

    ``b`` is None for a bye. ``tiebreak`` counts the knockout tie-break stage (0 for the regular games).
    """

    round: int
    a: int
    b: int | None
    pairs: int
    tiebreak: int = 0


def round_robin(n: int, cycles: int = 1) -> list[list[tuple[int, int | None]]]:
    """Rounds by the circle method: every player meets every other once per cycle; odd ``n`` gets byes.

    Player 0 stays in place while the others rotate; in later cycles the order within each pairing flips, so
    over two cycles each player opens each pairing's first game equally often.
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {n}")
    ids: list[int | None] = [*range(n)]
    if n % 2:
        ids.append(None)
    m = len(ids)
    rounds: list[list[tuple[int, int | None]]] = []
    for cycle in range(cycles):
        order = list(ids)
        for _ in range(m - 1):
            pairs: list[tuple[int, int | None]] = []
            for i in range(m // 2):
                x, y = order[i], order[m - 1 - i]
                if x is None:
                    x, y = y, None
                if y is None:
                    assert x is not None
                    pairs.append((x, None))
                    continue
                assert x is not None
                pairs.append((y, x) if cycle % 2 else (x, y))
            rounds.append(pairs)
            order = [order[0], order[-1], *order[1:-1]]
    return rounds


def gauntlet(n: int, seeds: int = 1) -> list[tuple[int, int]]:
    """The first ``seeds`` players (the engines under test) each meet every other player; not each other."""
    if not 1 <= seeds < n:
        raise ValueError(f"a gauntlet needs 1 <= seeds < players, got seeds={seeds}, players={n}")
    return [(s, o) for s in range(seeds) for o in range(seeds, n)]


def swiss_pairs(
    ranking: Sequence[int],
    played: Iterable[tuple[int, int]],
    byes: Iterable[int] = (),
    points: Mapping[int, float] | None = None,
) -> list[tuple[int, int | None]]:
    """One Swiss round over ``ranking`` (best first), avoiding rematches whenever possible.

    Dutch-style: players with equal ``points`` form a score group, and the top half of each group meets its
    bottom half (1st v (k/2+1)th...), so early rounds don't pit the two favourites against each other. Without
    ``points`` everyone is one group. A depth-first search takes the preferred opponent first and backtracks
    around rematches; players that cannot be paired in their group float down to the next one. An odd field
    gives a bye to the lowest-ranked player who has not had one yet. When no rematch-free pairing exists,
    rematches are allowed rather than failing.
    """
    seen = {frozenset(p) for p in played}
    had_bye = set(byes)
    players = list(ranking)
    score = dict(points) if points is not None else {p: 0.0 for p in players}
    out: list[tuple[int, int | None]] = []
    if len(players) % 2:
        candidates = [p for p in reversed(players) if p not in had_bye] or list(reversed(players))
        bye = candidates[0]
        players.remove(bye)
        out.append((bye, None))
    paired = _pair_up(players, seen, score) or _pair_up(players, set(), score)
    assert paired is not None
    return [*paired, *out]


def _preferences(first: int, rest: list[int], score: Mapping[int, float]) -> list[int]:
    """Opponents for ``first`` in Dutch order: the top of the lower half of its score group, then down."""
    group = [first, *(p for p in rest if score.get(p, 0.0) == score.get(first, 0.0))]
    half = len(group) // 2
    preferred = group[max(half, 1) :] + list(reversed(group[1:half]))
    return preferred + [p for p in rest if p not in preferred]


def _pair_up(
    players: list[int], seen: set[frozenset[int]], score: Mapping[int, float], budget: list[int] | None = None
) -> list[tuple[int, int | None]] | None:
    budget = budget if budget is not None else [20000]
    if not players:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = players[0], players[1:]
    for other in _preferences(first, rest, score):
        if frozenset((first, other)) in seen:
            continue
        tail = _pair_up([p for p in rest if p != other], seen, score, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


def knockout_bracket(n: int) -> list[tuple[int, int | None]]:
    """First round of a seeded bracket: 1 v N, 2 v N-1 ... in bracket order; top seeds get byes up to a power of 2."""
    if n < 2:
        raise ValueError(f"a knockout needs at least 2 players, got {n}")
    size = 1
    while size < n:
        size *= 2
    order = [0]
    while len(order) < size:
        m = len(order) * 2
        order = [x for s in order for x in (s, m - 1 - s)]
    pairs: list[tuple[int, int | None]] = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        pairs.append((a, b if b < n else None))
    return pairs


def knockout_next(
    matches: Sequence[tuple[int, int | None]],
    scores: Mapping[tuple[int, int], float],
    tiebreaks: Mapping[tuple[int, int], int],
) -> tuple[list[int], list[tuple[int, int]]]:
    """Decide a knockout round: (winners in bracket order, pairings still tied that need a tie-break pair).

    ``scores[(a, b)]`` is a's points minus b's points in their games so far; ``tiebreaks`` how many extra pairs
    they played. After :data:`MAX_TIEBREAK_PAIRS` the better seed (lower index) goes through.
    """
    winners: list[int] = []
    tied: list[tuple[int, int]] = []
    for a, b in matches:
        if b is None:
            winners.append(a)
            continue
        diff = scores.get((a, b), 0.0)
        if diff > 0:
            winners.append(a)
        elif diff < 0:
            winners.append(b)
        elif tiebreaks.get((a, b), 0) >= MAX_TIEBREAK_PAIRS:
            winners.append(min(a, b))
        else:
            tied.append((a, b))
            winners.append(-1)
    return winners, tied


def next_round_matches(winners: Sequence[int]) -> list[tuple[int, int | None]]:
    """Pair the winners of a round in bracket order: 1st v 2nd, 3rd v 4th..."""
    out: list[tuple[int, int | None]] = []
    for i in range(0, len(winners), 2):
        out.append((winners[i], winners[i + 1] if i + 1 < len(winners) else None))
    return out


__all__ = [
    "FORMATS",
    "MAX_TIEBREAK_PAIRS",
    "Encounter",
    "gauntlet",
    "knockout_bracket",
    "knockout_next",
    "next_round_matches",
    "round_robin",
    "swiss_pairs",
]
