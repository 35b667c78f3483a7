"""The persistent ratings are Glicko-2 (rating, deviation, volatility), moved with each rated result in the same
transaction as the result, once, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_helpers import T0, players

from hexarena.core.glicko2 import Glicko, idle, idle_periods, rate_game
from hexarena.store import Store, new_id, resolve_url
from hexarena.store.records import GameFinish, RatedGame, RatingRecord

RATE = RatedGame(game="hex", keys=("alice", "bob"))


async def _play(store: Store, winner: int | None, days: float = 0.0) -> bool:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    return await store.finish_game(
        gid, winner=winner, termination="normal", reason="over", rate=RATE, finished_at=T0 + timedelta(days=days)
    )


def _glicko(r: RatingRecord | None) -> Glicko:
    assert r is not None
    return Glicko(r.rating, r.rd, r.sigma)


async def test_a_rated_result_moves_rating_deviation_and_volatility_as_glicko2(store: Store) -> None:
    assert await _play(store, winner=1)
    alice, bob = rate_game(Glicko(), Glicko(), 0.0)
    stored = {r.key: r for r in await store.list_ratings("hex")}
    for key, want in (("alice", alice), ("bob", bob)):
        got = stored[key]
        assert (got.rating, got.rd, got.sigma, got.games) == pytest.approx((want.rating, want.rd, want.sigma, 1))
    assert stored["bob"].rd < 350.0  # Elo left the deviation at its default forever
    history = await store.rating_history("hex")
    assert [p.rating for p in history["bob"]] == pytest.approx([bob.rating])
    assert [p.rd for p in history["bob"]] == pytest.approx([bob.rd])


async def test_each_game_rates_against_the_opponent_before_it_and_idle_days_widen_the_deviation(
    store: Store,
) -> None:
    a, b = Glicko(), Glicko()
    for winner, days in ((0, 0.0), (None, 0.0), (1, 200.0)):
        assert await _play(store, winner, days)
        grown = idle_periods(days) if days else 0.0  # both last played on day 0
        score = 0.5 if winner is None else 1.0 - winner
        a, b = rate_game(idle(a, grown), idle(b, grown), score)
    got_a, got_b = _glicko(await store.get_rating("alice", "hex")), _glicko(await store.get_rating("bob", "hex"))
    for got, want in ((got_a, a), (got_b, b)):
        assert (got.rating, got.rd, got.sigma) == pytest.approx((want.rating, want.rd, want.sigma))
    assert len((await store.rating_history("hex"))["alice"]) == 3


async def test_a_replayed_finish_rates_once(store: Store) -> None:
    gid = new_id()
    await store.create_game(game_id=gid, game="hex", params={"size": 5}, players=players())
    end = GameFinish(gid, winner=0, termination="normal", reason="over", rate=RATE, finished_at=T0)
    assert await store.finish_games([end]) == [True]
    once = await store.get_rating("alice", "hex")
    assert await store.finish_games([end, end]) == [False, False]
    assert await store.get_rating("alice", "hex") == once
    assert len((await store.rating_history("hex"))["alice"]) == 1


async def test_the_migration_turns_elo_rows_into_glicko_standings_by_their_game_count(database_url: str) -> None:
    """Elo rows (deviation left at 350) keep their rating; their deviation becomes what as many games would have
    given a newcomer, so a veteran is not provisional and its next result does not swing it; history rows too."""
    from hexarena.store.engine import create_engine
    from hexarena.store.migrate import upgrade
    from hexarena.store.models import rating_history, ratings

    engine = create_engine(resolve_url(database_url))
    try:
        await upgrade(engine, "0005")
        rows = [
            {"game": "hex", "key": k, "rating": r, "rd": 350.0, "sigma": 0.06, "games": n, "updated_at": T0}
            for k, r, n in (("new", 1500.0, 0), ("few", 1523.5, 3), ("some", 1488.0, 12), ("veteran", 1812.25, 5000))
        ]
        async with engine.begin() as conn:
            await conn.execute(ratings.insert(), rows)
            await conn.execute(rating_history.insert(), rows)
    finally:
        await engine.dispose()
    store = await Store.open(database_url)
    try:
        got = {r.key: r for r in await store.list_ratings("hex")}
        history = await store.rating_history("hex")
    finally:
        await store.close()
    assert {k: r.rating for k, r in got.items()} == {"new": 1500.0, "few": 1523.5, "some": 1488.0, "veteran": 1812.25}
    assert got["new"].rd == 350.0
    assert 350.0 > got["few"].rd > 110.0 > got["some"].rd > got["veteran"].rd >= 55.0
    assert got["few"].rd == pytest.approx(174.3)  # three per-game Glicko-2 steps from 350
    assert {r.sigma for r in got.values()} == {0.06}
    assert {k: [p.rd for p in v] for k, v in history.items()} == {k: [r.rd] for k, r in got.items()}
