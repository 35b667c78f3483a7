"""Contest and battlebot queries built on the public :class:`~hexarena.store.Store` API (no schema change).

Contests are scoped by game, as in the original battlebot server: the contest ``spring`` of noughts and crosses
is stored with the id ``tictactoe:spring`` and the name ``spring``. Rankings count finished games only; every
method gives points for a win / draw / loss (docs/protocols/battlebot.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hexarena.store.errors import Conflict, InvalidRecord
from hexarena.store.models import ID_LENGTH
from hexarena.store.records import ContestRecord, GameStatus, GameSummary
from hexarena.store.repository import MAX_LIMIT, Store

#: Ranking methods: points for a win, a draw, a loss. AMBITIOUS is the default.
METHODS: dict[str, tuple[int, int, int]] = {"AMBITIOUS": (3, 1, 0), "PUNITIVE": (3, 2, 0), "BALANCED": (2, 1, 0)}


def contest_key(game: str, name: str) -> str:
    """The stored contest id of contest ``name`` in ``game``; InvalidRecord if it would be too long."""
    key = f"{game}:{name}"
    if not name or len(key) > ID_LENGTH or not name.isprintable():
        raise InvalidRecord(
            f"contest name {name[:80]!r} must have 1 to {ID_LENGTH - 1 - len(game)} printable characters"
        )
    return key


async def ensure_contest(store: Store, game: str, name: str) -> ContestRecord:
    """The contest ``name`` of ``game``, created on first use (a bot naming it at login creates it)."""
    key = contest_key(game, name)
    found = await store.get_contest(key)
    if found is not None:
        return found
    try:
        return await store.create_contest(game=game, name=name, contest_id=key)
    except Conflict:  # created meanwhile by another login
        found = await store.get_contest(key)
        assert found is not None
        return found


async def all_games(store: Store, **filters: Any) -> list[GameSummary]:
    """Every game matching ``list_games`` filters, newest first (paged through the store's limit)."""
    out: list[GameSummary] = []
    offset = 0
    while True:
        page = await store.list_games(limit=MAX_LIMIT, offset=offset, **filters)
        out.extend(page)
        if len(page) < MAX_LIMIT:
            return out
        offset += MAX_LIMIT


async def pair_counts(store: Store, game: str, contest_id: str) -> Counter[tuple[str, str]]:
    """Games played (or being played) in a contest per ordered pair (seat 0's name, seat 1's name)."""
    counts: Counter[tuple[str, str]] = Counter()
    for g in await all_games(store, game=game, contest_id=contest_id, status=[GameStatus.FINISHED, GameStatus.RUNNING]):
        if len(g.players) == 2:
            counts[(g.players[0].name, g.players[1].name)] += 1
    return counts


@dataclass(frozen=True, slots=True)
class Ranking:
    bot: str
    wins: int
    draws: int
    losses: int
    played: int
    score: int


def rank(games: Iterable[GameSummary], method: str = "AMBITIOUS") -> list[Ranking]:
    """Rankings from finished games: score, then wins, then name. ValueError for an unknown method."""
    try:
        win, draw, loss = METHODS[method.upper()]
    except KeyError:
        raise ValueError(f"ranking method {method!r} is not one of {', '.join(METHODS)}") from None
    tally: dict[str, list[int]] = {}
    for g in games:
        if g.status != GameStatus.FINISHED or len(g.players) != 2:
            continue
        for seat, p in enumerate(g.players):
            t = tally.setdefault(p.name, [0, 0, 0])
            if g.winner is None:
                t[1] += 1
            elif g.winner == seat:
                t[0] += 1
            else:
                t[2] += 1
    rows = [Ranking(name, w, d, lo, w + d + lo, w * win + d * draw + lo * loss) for name, (w, d, lo) in tally.items()]
    rows.sort(key=lambda r: (-r.score, -r.wins, r.bot))
    return rows


async def rankings(store: Store, game: str, contest_id: str, method: str = "AMBITIOUS") -> list[Ranking]:
    return rank(await all_games(store, game=game, contest_id=contest_id, status=GameStatus.FINISHED), method)


async def find_games(
    store: Store,
    game: str,
    *,
    limit: int = 50,
    offset: int = 0,
    victor: str | None = None,
    contest_id: str | None = None,
    any_players: Sequence[str] | None = None,
    players: Sequence[str] | None = None,
) -> list[GameSummary]:
    """The seed's game filters: ``anyPlayers`` (any of them played), ``players`` (all of them played)."""
    if limit < 0 or offset < 0:
        raise InvalidRecord("limit and offset must be >= 0")
    common: dict[str, Any] = {"game": game, "winner_name": victor, "contest_id": contest_id}
    need = offset + limit
    if players:
        found = await all_games(store, player=players[0], **common)
        wanted = set(players)
        found = [g for g in found if wanted <= {p.name for p in g.players}]
    elif any_players:
        merged: dict[str, GameSummary] = {}
        for name in dict.fromkeys(any_players):
            for g in await _newest(store, need, player=name, **common):
                merged[g.game_id] = g
        found = sorted(merged.values(), key=lambda g: (g.created_at, g.game_id), reverse=True)
    else:
        return await _newest(store, limit, offset=offset, **common)
    return found[offset:need]


async def _newest(store: Store, count: int, *, offset: int = 0, **filters: Any) -> list[GameSummary]:
    """Up to ``count`` games from ``offset`` on, newest first, paged through the store's limit.

    A single ``list_games`` call stops at ``MAX_LIMIT`` rows, which used to make any page past the
    thousandth game come back empty.
    """
    out: list[GameSummary] = []
    while len(out) < count:
        want = min(count - len(out), MAX_LIMIT)
        page = await store.list_games(limit=want, offset=offset + len(out), **filters)
        out.extend(page)
        if len(page) < want:
            break
    return out
