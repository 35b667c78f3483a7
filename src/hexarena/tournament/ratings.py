"""Persistent ratings read by the leaderboard, and the tournament's way into the one recorder.

Ratings are one Glicko-2 standing per (player, game): rating, deviation and volatility
(:mod:`hexarena.core.glicko2`), moved by the store in the same transaction as the result it follows
(:meth:`hexarena.store.Store.finish_game` with ``rate``), so a result is never rated twice or lost between the
two. The leaderboard shows the deviation (``rd``) and marks a player whose deviation is
:data:`~hexarena.core.glicko2.PROVISIONAL_RD` or more provisional: its rating is still a guess. These are not a
tournament's own field ratings (``bayes``), which start afresh with each tournament. Whether a game is rated is decided in one place, :func:`hexarena.store.recorder.rated`: only results
between bots (no aborted, interrupted or errored game, no game with a person in it).

Players are keyed by their display name (a tournament's ``NAME=SPEC`` name, or the spec), so the same bot keeps
its rating across tournaments.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hexarena.core.glicko2 import is_provisional
from hexarena.store.recorder import GameEnd, NewGame, Recorder
from hexarena.store.records import MoveRecord, PlayerRecord

if TYPE_CHECKING:  # the runner imports this module where it records a game
    from hexarena.tournament.executors import JobResult
    from hexarena.tournament.runner import TournamentConfig
    from hexarena.tournament.standings import TournamentGame

#: Seconds a tournament waits for a game's record to be written before it goes on (an outage: it is journaled).
RESULT_WAIT = 5.0


async def record_game(recorder: Recorder, config: TournamentConfig, g: TournamentGame, result: JobResult) -> None:
    """Write a tournament game (with its moves) through the recorder; ratings move when it is rated."""
    names = [config.names[i] for i in g["seats"]]
    specs = [config.players[i] for i in g["seats"]]
    described = result.get("players") or []
    players = tuple(
        PlayerRecord(
            name=names[s], kind=str((described[s] if s < len(described) else {}).get("kind", "unknown")), spec=specs[s]
        )
        for s in range(2)
    )
    moves = tuple(
        MoveRecord(
            ply=m["ply"],
            seat=m["seat"],
            move=m["move"],
            timestamp=datetime.fromtimestamp(m["timestamp"], UTC),
            think_time=m["think_time"],
            evaluation=m.get("evaluation"),
            considerations=m.get("considerations"),
        )
        for m in result.get("moves", [])
    )
    new = NewGame(
        game_id=g["id"],
        game=config.game,
        params={**config.params, "opening": " ".join(g["opening"])} if g["opening"] else dict(config.params),
        players=players,
        tournament_id=_tid(g["id"]),
    )
    end = GameEnd(
        game_id=g["id"],
        game=config.game,
        winner=result["winner"],
        termination=str(result["termination"]),
        reason=str(result["reason"]),
        moves=moves,
        players=players,
        rate=bool(config.rated),
        finished_at=datetime.fromtimestamp(result["finished"], UTC) if result.get("finished") else datetime.now(UTC),
    )
    written = recorder.record(new, end)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(written), RESULT_WAIT)


def _tid(game_id: str) -> str:
    return game_id.rsplit(".", 1)[0]


async def leaderboard(store: Any, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The stored ratings of ``game``, best first, as JSON rows: with the deviation (``rd``: the rating is within
    about two of it either way, 95 % of the time) and whether the rating is still ``provisional``. ``player`` is
    the rating key; ``name`` what to show (a person's display name, a bot's key) and ``person`` marks people."""
    rows = await store.list_ratings(game, limit=limit)
    people = await store.person_names(r.key for r in rows)  # a person is listed by the name they play under
    return [
        {
            "rank": i + 1,
            "player": r.key,
            "name": people.get(r.key, r.key),
            "person": r.key in people,
            "rating": round(r.rating, 1),
            "rd": round(r.rd, 1),
            "provisional": is_provisional(r.rd),
            "games": r.games,
            "updated_at": r.updated_at.isoformat() if r.updated_at else None,
        }
        for i, r in enumerate(rows)
    ]


__all__ = ["leaderboard", "record_game"]
