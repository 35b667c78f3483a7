"""Persistent ratings: one Elo per (player, game), updated after every rated game, read by the leaderboard.

Players are keyed by their display name (a tournament's ``NAME=SPEC`` name, or the spec), so the same bot keeps
its rating across tournaments. Aborted games and games hexarena itself failed (``aborted``, ``error``) are not
rated: they say nothing about the players.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from hexarena.tournament.stats import elo_update

INITIAL_RATING = 1500.0
K_FACTOR = 24.0
UNRATED = ("aborted", "error")


async def update_ratings(store: Any, game: str, names: list[str], winner: int | None, k: float = K_FACTOR) -> None:
    """Apply one game's result to both players' stored Elo (created at 1500 on first sight)."""
    from hexarena.store import RatingRecord

    current = []
    for name in names:
        record = await store.get_rating(name, game)
        current.append(record or RatingRecord(key=name, game=game, rating=INITIAL_RATING))
    score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
    a, b = elo_update(current[0].rating, current[1].rating, score, k)
    now = datetime.now(UTC)
    await store.upsert_ratings(
        [
            RatingRecord(key=current[0].key, game=game, rating=a, games=current[0].games + 1, updated_at=now),
            RatingRecord(key=current[1].key, game=game, rating=b, games=current[1].games + 1, updated_at=now),
        ]
    )


async def record_game(store: Any, config: Any, g: dict[str, Any], result: dict[str, Any]) -> None:
    """Write a tournament game to the games table (with its moves) and update the ratings when rated."""
    from hexarena.store import Conflict, GameStatus, MoveRecord, PlayerRecord

    names = [config.names[i] for i in g["seats"]]
    specs = [config.players[i] for i in g["seats"]]
    described = result.get("players") or []
    players = [
        PlayerRecord(
            name=names[s], kind=str((described[s] if s < len(described) else {}).get("kind", "unknown")), spec=specs[s]
        )
        for s in range(2)
    ]
    termination = str(result["termination"])
    try:
        await store.create_game(
            game_id=g["id"],
            game=config.game,
            params={**config.params, "opening": " ".join(g["opening"])} if g["opening"] else dict(config.params),
            players=players,
            tournament_id=_tid(g["id"]),
        )
    except Conflict:
        return  # already stored by an earlier run that stopped before saving its state
    moves = [
        MoveRecord(
            ply=m["ply"],
            seat=m["seat"],
            move=m["move"],
            timestamp=datetime.fromtimestamp(m["timestamp"], UTC),
            think_time=m["think_time"],
        )
        for m in result.get("moves", [])
    ]
    await store.finish_game(
        g["id"],
        winner=result["winner"],
        termination=termination,
        reason=str(result["reason"])[:1000],
        moves=moves,
        status=GameStatus.ABORTED if termination in UNRATED else GameStatus.FINISHED,
    )
    if config.rated and termination not in UNRATED:
        await update_ratings(store, config.game, names, result["winner"])


def _tid(game_id: str) -> str:
    return game_id.rsplit(".", 1)[0]


async def leaderboard(store: Any, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The stored ratings of ``game``, best first, as JSON rows."""
    rows = await store.list_ratings(game, limit=limit)
    return [
        {
            "rank": i + 1,
            "player": r.key,
            "rating": round(r.rating, 1),
            "games": r.games,
            "updated_at": r.updated_at.isoformat() if r.updated_at else None,
        }
        for i, r in enumerate(rows)
    ]


__all__ = ["INITIAL_RATING", "K_FACTOR", "leaderboard", "record_game", "update_ratings"]
