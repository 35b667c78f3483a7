"""Contest queries over the store: ``find_games`` pages past the store's per-call limit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_helpers import T0, players

from hexarena.store import Store, contests


@pytest.fixture
async def seven_games(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Seven games, g6 newest; ``find_games`` made to page by 3 so seven rows span three store calls."""
    monkeypatch.setattr(contests, "MAX_LIMIT", 3)
    ids = [f"g{i}" for i in range(7)]
    for i, gid in enumerate(ids):
        names = ("alice", "bob") if i % 2 == 0 else ("carol", "bob")
        await store.create_game(
            game_id=gid, game="hex", params={}, players=players(*names), created_at=T0 + timedelta(minutes=i)
        )
    return ids[::-1]


@pytest.mark.parametrize(("offset", "limit"), [(0, 7), (2, 4), (4, 10), (5, 1), (7, 3), (3, 0)])
async def test_find_games_pages_past_the_store_limit(
    store: Store, seven_games: list[str], offset: int, limit: int
) -> None:
    found = await contests.find_games(store, "hex", offset=offset, limit=limit)
    assert [g.game_id for g in found] == seven_games[offset : offset + limit]


async def test_find_games_any_players_pages_past_the_store_limit(store: Store, seven_games: list[str]) -> None:
    found = await contests.find_games(store, "hex", offset=1, limit=5, any_players=["alice", "carol"])
    assert [g.game_id for g in found] == seven_games[1:6]
    only_alice = await contests.find_games(store, "hex", offset=2, limit=5, any_players=["alice"])
    assert [g.game_id for g in only_alice] == ["g2", "g0"]
