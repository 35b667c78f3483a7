"""Run an HTTTX match through the server's MatchManager (referee + store + a spectator) and check its aftermath.

Used by the adapter tests: every misbehaviour must end the match with a recorded reason, tell the culprit
(``nope``), the opponent and the spectators (``end``), store the game, and leave no task or socket behind.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hexarena.core.contract import ClockConfig
from hexarena.core.types import Termination
from hexarena.games.htttx import HTTTX
from hexarena.players.base import BasePlayer
from hexarena.server.live import LiveMatch, MatchManager
from hexarena.store.recorder import Recorder


@dataclass
class Played:
    live: LiveMatch
    spectator: list[dict[str, Any]]
    record: Any

    @property
    def outcome(self) -> Any:
        assert self.live.result is not None
        return self.live.result.outcome

    @property
    def result(self) -> Any:
        return self.live.result


async def play(
    store: Any,
    players: Sequence[BasePlayer],
    *,
    clock: ClockConfig | None = None,
    heartbeat_ms: int = 5000,
    params: dict[str, Any] | None = None,
    timeout: float = 30.0,
) -> Played:
    manager = MatchManager(None if store is None else Recorder(store))
    live = await manager.create(HTTTX, players, params=params or {}, clock=clock, heartbeat_ms=heartbeat_ms)
    seen: list[dict[str, Any]] = []

    async def collect(text: str) -> None:
        seen.append(json.loads(text))

    spectator = await manager.spectate(live, collect)
    writer = asyncio.create_task(spectator.run())
    await asyncio.wait_for(live.done.wait(), timeout)
    await asyncio.wait_for(writer, 5)
    assert live.task is not None
    await asyncio.wait_for(live.task, 5)
    record = await store.get_game(live.match_id) if store is not None else None
    return Played(live, seen, record)


async def check_ended(
    played: Played,
    termination: Termination,
    *,
    winner: int | None,
    reason: str,
) -> None:
    """The match ended as expected, with ``reason`` in its recorded reason, seen by the spectator and stored."""
    outcome = played.outcome
    assert outcome.termination == termination, outcome
    assert outcome.winner == winner, outcome
    assert reason in outcome.reason, outcome.reason
    spec = played.spectator
    assert spec and spec[0]["type"] == "setup", spec[:1]
    end = spec[-1]
    assert end["type"] == "end" and end["termination"] == str(termination) and reason in end["detail"], end
    assert [m["type"] for m in spec].count("end") == 1
    if played.record is not None:
        rec = played.record
        from hexarena.store.recorder import status_for

        assert str(rec.status) == status_for(str(termination), len(played.result.moves))
        assert rec.termination == str(termination) and reason in rec.reason
        assert rec.winner == winner
        assert len(rec.moves) == len(played.result.moves)
    # nothing left running: the referee task, every adapter task, every socket
    assert played.live.task is not None and played.live.task.done()
    for p in played.live.players:
        for task in getattr(p, "_tasks", []):
            assert task.done(), task
        ws = getattr(p, "ws", None)
        if ws is not None:
            await asyncio.wait_for(ws.wait_closed(), 5)
    leftovers = [t for t in asyncio.all_tasks() if t.get_name().startswith(("bws-", "match-"))]
    assert all(t.done() for t in leftovers), leftovers
