"""A takeback reaches spectators on other instances (several instances, ``--redis-url``): the owner publishes it
on the match's channel, and a remote watcher drops the moves taken back and sends the position afresh, as the
owner's own spectators get it (``server.remote_watch``)."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from datetime import UTC, datetime
from typing import Any

from test_cluster_lease import pair

from hexarena.core.registry import get_game
from hexarena.server.cluster import Cluster
from hexarena.server.remote_watch import RemoteWatch
from hexarena.store import MoveRecord, PlayerRecord, Store

__all__ = ["pair"]  # the fixture: two instances on a real Redis


async def test_a_remote_watcher_follows_a_takeback(migrated_sqlite_url: str, pair: tuple[Cluster, Cluster]) -> None:
    a, b = pair
    store = await Store.open(migrated_sqlite_url)
    game = get_game("tictactoe")
    match = uuid.uuid4().hex
    players = [PlayerRecord("ann", "human", "browser"), PlayerRecord("bob", "human", "browser")]
    await store.create_game(game_id=match, game="tictactoe", params={}, players=players)
    state, moves, rng = game.new(), [], random.Random(1)
    for ply in range(3):
        move = game.random_move(state, rng)
        state = game.play(state, move)
        moves.append(MoveRecord(ply, ply % 2, game.format(move), datetime.now(UTC), 0.001))
    await store.append_moves([(match, m) for m in moves])
    sent: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        sent.append(json.loads(text))

    watch = RemoteWatch(b, store, match, send)
    runner = asyncio.create_task(watch.spectator.run())
    try:
        assert await watch.start()
        a.publish(match, {"type": "takeback", "ply": 1})  # bob's move and ann's reply go back
        replay = moves[1].move
        a.publish(
            match,
            {"type": "move", "ply": 1, "seat": 1, "move": replay, "timestamp": 0.0, "think_time": 0.1, "clocks": None},
        )
        await store.take_back_moves(match, 1)
        await store.append_moves([(match, MoveRecord(1, 1, replay, datetime.now(UTC), 0.1))])
        a.publish(match, {"type": "end", "winner_seat": None, "plies": 2})
        # until the end reached the spectator (bounded); the watch is then stopped, not awaited to its own end
        for _ in range(500):
            if any(m["type"] == "end" for m in sent):
                break
            await asyncio.sleep(0.02)
    finally:
        await watch.stop()
        runner.cancel()
        await store.close()
    assert [m["type"] for m in sent] == ["setup", "setup", "board_update", "end"]
    assert len(sent[0]["moves"]) == 3
    assert [m["move"] for m in sent[1]["moves"]] == [moves[0].move]
    assert sent[1]["state"]["ply"] == 1
    assert sent[2]["ply"] == 1
